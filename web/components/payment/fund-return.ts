/**
 * Shortfall -> Fund wallet -> Pay -> back where the customer was (issue 43): the screen that refused a purchase for want
 * of money names itself in Fund Wallet's address (?back=sms); the card form remembers it with the payment's reference
 * before leaving for the checkout, and the dashboard, once that payment is confirmed, takes the customer back there.
 * Receive SMS also keeps its choice (provider, country, service, quantity) for the way back. Kept in localStorage (the
 * checkout is another site: the tab leaves and comes back), for an hour at most, and read once.
 */

export const FUND_RETURN_PATHS = {
  sms: { path: "/sms/1", label: "Receive SMS" },
  number: { path: "/number/1", label: "Rent Number" },
} as const;
export type FundReturnPath = keyof typeof FUND_RETURN_PATHS;

const FUND_RETURN_KEY = "fund-return";
const SMS_CHOICE_KEY = "sms-choice";
/** Long enough to fill in a card; short enough that a payment made another day does not jump to an old screen. */
export const FUND_RETURN_MAX_AGE_MS = 60 * 60_000;

type Stored<T> = T & { at: number };

function read<T extends object>(storage: Storage, key: string, now: number): T | null {
  try {
    const value = JSON.parse(storage.getItem(key) ?? "null") as Stored<T> | null;
    if (!value || typeof value !== "object" || typeof value.at !== "number" || now - value.at > FUND_RETURN_MAX_AGE_MS || value.at > now + 60_000) return null;
    return value;
  } catch {
    return null;
  }
}

/** The card form, as it leaves for the checkout of `reference`: come back to `back` once it is paid. */
export function rememberFundReturn(back: FundReturnPath, reference: string, storage: Storage = localStorage, now = Date.now()): void {
  storage.setItem(FUND_RETURN_KEY, JSON.stringify({ back, reference, at: now }));
}

/** Where to go once `reference` is paid, read once; null when that payment was not started from a shortfall. */
export function takeFundReturn(reference: string, storage: Storage = localStorage, now = Date.now()): (typeof FUND_RETURN_PATHS)[FundReturnPath] | null {
  const stored = read<{ back: string; reference: string }>(storage, FUND_RETURN_KEY, now);
  if (!stored || stored.reference !== reference) return null;
  storage.removeItem(FUND_RETURN_KEY);
  return Object.hasOwn(FUND_RETURN_PATHS, stored.back) ? FUND_RETURN_PATHS[stored.back as FundReturnPath] : null;
}

export type SmsChoice = { provider: string; countryId: string; serviceId: string; quantity: number };

/** Receive SMS, as the customer leaves for Fund Wallet from its shortfall. */
export function rememberSmsChoice(choice: SmsChoice, storage: Storage = localStorage, now = Date.now()): void {
  storage.setItem(SMS_CHOICE_KEY, JSON.stringify({ ...choice, at: now }));
}

/** The kept choice, if fresh (read without removing: the card reads it while it first renders). */
export function peekSmsChoice(storage: Storage = localStorage, now = Date.now()): SmsChoice | null {
  const stored = read<SmsChoice>(storage, SMS_CHOICE_KEY, now);
  if (!stored || typeof stored.provider !== "string" || typeof stored.countryId !== "string" || typeof stored.serviceId !== "string") return null;
  const quantity = Number.isInteger(stored.quantity) && stored.quantity > 0 ? stored.quantity : 1;
  return { provider: stored.provider, countryId: stored.countryId, serviceId: stored.serviceId, quantity };
}

/** Once restored, the choice is spent: the next visit starts afresh. */
export function forgetSmsChoice(storage: Storage = localStorage): void {
  storage.removeItem(SMS_CHOICE_KEY);
}
