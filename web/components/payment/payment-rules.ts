/**
 * Fund Wallet rules that do not need React: the stored pending card payments (spec: pending-payments key, 24 h),
 * their ages, the invoice countdown text and the pay-currency order.
 */

export type PendingPayment = { ref: string; amount: number; currency: string; timestamp: number };

export const PENDING_PAYMENTS_KEY = "pending-payments";
export const PENDING_MAX_AGE_MS = 24 * 3600_000;

function isPendingPayment(v: unknown): v is PendingPayment {
  const p = v as PendingPayment;
  return Boolean(p) && typeof p.ref === "string" && typeof p.timestamp === "number" && Number.isFinite(Number(p.amount));
}

export function readPendingPayments(storage: Storage = localStorage): PendingPayment[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(PENDING_PAYMENTS_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isPendingPayment) : [];
  } catch {
    return [];
  }
}

function writePendingPayments(list: PendingPayment[], storage: Storage) {
  storage.setItem(PENDING_PAYMENTS_KEY, JSON.stringify(list));
}

/** Stores a payment before the browser leaves for the checkout; a repeated ref replaces the older entry. */
export function addPendingPayment(payment: PendingPayment, storage: Storage = localStorage): void {
  writePendingPayments([...readPendingPayments(storage).filter((p) => p.ref !== payment.ref), payment], storage);
}

export function removePendingPayment(ref: string, storage: Storage = localStorage): PendingPayment[] {
  const next = readPendingPayments(storage).filter((p) => p.ref !== ref);
  writePendingPayments(next, storage);
  return next;
}

/** Drops entries older than 24 hours (run when the pending card opens) and returns what is left. */
export function prunePendingPayments(now: number = Date.now(), storage: Storage = localStorage): PendingPayment[] {
  const all = readPendingPayments(storage);
  const kept = all.filter((p) => now - p.timestamp <= PENDING_MAX_AGE_MS);
  if (kept.length !== all.length) writePendingPayments(kept, storage);
  return kept;
}

/** 'Xm ago' under an hour, 'Xh Ym ago' from an hour on; a clock running behind never shows a negative age. */
export function formatAge(timestamp: number, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - timestamp) / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m ago`;
}

/** Remaining time as hh:mm:ss (1,000,000 ms -> 00:16:40); never below zero. */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.floor(remainingMs / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

export const PREFERRED_CURRENCIES = ["BTC", "USDTTRC20", "ETH", "SOL"] as const;

export type MerchantCurrency = { code: string; name?: string; available_for_payment?: boolean };

/** Only currencies open for payment; BTC, USDTTRC20, ETH, SOL first (those present), then the server's order. */
export function orderPayCurrencies(list: readonly MerchantCurrency[] | null | undefined): MerchantCurrency[] {
  const available = (list ?? []).filter((c) => c.available_for_payment);
  const rank = (c: MerchantCurrency) => {
    const i = (PREFERRED_CURRENCIES as readonly string[]).indexOf(c.code.toUpperCase());
    return i === -1 ? PREFERRED_CURRENCIES.length : i;
  };
  // Array.prototype.sort is stable, so the server's order survives among the rest.
  return [...available].sort((a, b) => rank(a) - rank(b));
}

/** The spec's crypto check reads the integer part of what was typed (4.99 is below a $5 minimum). */
export function isBelowCryptoMinimum(amount: string, minimum: number): boolean {
  const whole = Math.trunc(Number(amount));
  return !Number.isFinite(whole) || whole < minimum;
}
