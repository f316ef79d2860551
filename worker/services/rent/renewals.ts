import { eq } from "drizzle-orm";
import { formatNaira, koboToNaira, nairaToKobo } from "../../../schema/money";
import { formatRentDuration, RENT_UNIT_MS } from "../../../schema/rentals";
import type { RentUnit } from "../../../schema/constants";
import { configFor } from "../../config";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { webLink } from "../../lib/public-origin";
import type { EmailMessage } from "../../providers/email/email-sender";
import { RentProviderError } from "../../providers/rent/types";
import { rentalRenewalPausedEmail, rentalRenewingEmail, type Recipient } from "../accounts";
import { asInsufficientBalance, buyerOf, deliverEvents, type PricedBuyer, type RentalDeps, transition } from "../kernel";
import { chargeOf, EXTEND_CHOICES, extensionPriceKobo, hoursOf } from "./rental-extension";
import { startWatcher } from "./rental-inbox";
import { RENTAL_REMINDER_BEFORE_MS } from "./rental-reminder";
import { rentalUpstream } from "./rental-upstream";
import { findRental, ownedRental, type RentalRow } from "./rental-views";
import { rental } from "./rental-transitions";
import { formatDateTime } from "../../../schema/datetime";

/**
 * Rentals that renew (issue 32), where the upstream documents extension (RentalProvider.extension, decision 019).
 *
 *  - Turning auto-renew on fixes the price of each renewal (the server's extension price for the chosen length, as the
 *    customer was shown it); a renewal whose price is then higher is not charged: auto-renew pauses and the customer is
 *    asked (toast, e-mail) to renew by hand or turn it on again at the new price.
 *  - Reminders 24 hours and 1 hour before the renewal: a toast in the customer's room, an e-mail, and the developer
 *    webhook rental.renewing; a wallet that does not hold the price is told so in each, early.
 *  - The renewal is charged RENEW_BEFORE_END_MS before the end, after the last reminder; a wallet still short then
 *    pauses it and the rental lapses at its end as it always did.
 *  - Exactly once: the claim of expiry E (renewed_expiry moves to E only while it is not E) and its debit
 *    rent_renew:<id>:<E> are one D1 batch (the debit only if the claim holds, the key unique), so two alarms racing the
 *    same renewal charge once; a refused upstream refunds it once (rent_renew_refund:<id>:<E>).
 */

/** The renewal is charged this long before the rental would end (after the 1-hour reminder). */
export const RENEW_BEFORE_END_MS = 15 * 60_000;
export const DAY_REMINDER_BEFORE_MS = 24 * 3_600_000;
/** The last reminder: an hour before the renewal (the rental's own reminder lead). */
export const HOUR_REMINDER_BEFORE_MS = RENTAL_REMINDER_BEFORE_MS;
/** A reminder due sooner than this after the period began would arrive with the period itself: none is sent. */
const MIN_INTO_PERIOD_MS = 15 * 60_000;

/** Naira as customers read it: ₦1,234.50. */
const naira = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;

export type RenewalPause = "price" | "funds" | "provider";

const on = (row: RentalRow) => row.status === "active" && row.expiresAt !== null && row.autoRenewPriceKobo !== null && row.autoRenewPaused === null;
const periodStart = (row: RentalRow) => row.periodStartedAt ?? row.createdAt;

/** When the renewal is charged, or null when none is owed (off, paused, or this expiry renewed already). */
export function renewalDueAt(row: RentalRow): number | null {
  if (!on(row) || row.renewedExpiry === row.expiresAt) return null;
  return row.expiresAt! - RENEW_BEFORE_END_MS;
}

/** When the "renews in 24 hours" reminder is due, or null (off, sent, or the period is too short for it). */
export function dayReminderDueAt(row: RentalRow): number | null {
  if (!on(row) || row.remindedDayAt !== null) return null;
  const due = row.expiresAt! - RENEW_BEFORE_END_MS - DAY_REMINDER_BEFORE_MS;
  return due - periodStart(row) >= MIN_INTO_PERIOD_MS ? due : null;
}

/** When the "renews in 1 hour" reminder is due (on reminded_at, the rental's own "ends in an hour" column). */
export function hourReminderDueAt(row: RentalRow): number | null {
  if (!on(row) || row.remindedAt !== null) return null;
  const due = row.expiresAt! - RENEW_BEFORE_END_MS - HOUR_REMINDER_BEFORE_MS;
  return due - periodStart(row) >= MIN_INTO_PERIOD_MS ? due : null;
}

/** The next moment auto-renew needs the watcher, if any (rentals.ts rentalTick wakes at the earliest of this and the inbox's). */
export function renewalAlarmAt(row: RentalRow, now: number): number | null {
  const times = [dayReminderDueAt(row), hourReminderDueAt(row), renewalDueAt(row)].filter((t): t is number => t !== null && t > now);
  return times.length ? Math.min(...times) : null;
}

// ---------------------------------------------------------------------------------------------------------------
// The customer's switch

export interface AutoRenewRequest {
  enabled: boolean;
  unit?: RentUnit;
  period?: number;
  /** Naira: the renewal price the customer was shown (required to turn it on; a different server price is refused). */
  price?: number;
}

export async function setAutoRenew(deps: RentalDeps, user: { id: string } & PricedBuyer, id: string, request: AutoRenewRequest): Promise<RentalRow> {
  const row = await ownedRental(deps.db, user.id, id);
  const now = deps.clock.now();
  if (!request.enabled) {
    await transition(deps.db, rental.autoRenewOff, id, {}, now);
    return (await findRental(deps.db, id))!;
  }
  if (row.status !== "active" || row.expiresAt === null || row.expiresAt - RENEW_BEFORE_END_MS <= now) {
    throw new AppError("INVALID_STATE", "This rental ends too soon to renew itself. Extend it by hand, or rent a new number.");
  }
  if (!rentalUpstream(deps, row).extension || !row.upstreamId) {
    throw new AppError("INVALID_STATE", "This number's provider does not allow renewing a rental.");
  }
  const choice = EXTEND_CHOICES.find((c) => c.unit === request.unit && c.period === request.period);
  if (!choice) {
    throw new AppError("VALIDATION_FAILED", `A rental renews by ${EXTEND_CHOICES.map((c) => formatRentDuration(c.unit, c.period)).join(", ")}.`);
  }
  let kobo: number | null;
  try {
    kobo = await extensionPriceKobo(deps, row, user, choice.unit, choice.period);
  } catch (err) {
    if (err instanceof RentProviderError) throw new AppError("UPSTREAM_UNAVAILABLE", "The number provider did not give a renewal price. Please try again in a few minutes.");
    throw err;
  }
  if (kobo === null) throw new AppError("UPSTREAM_UNAVAILABLE", "The number provider did not give a renewal price. Please try again in a few minutes.");
  if (request.price === undefined || nairaToKobo(request.price) !== kobo) {
    throw new AppError("PRICE_CHANGED", `Each renewal costs ${naira(kobo)} now. Please confirm that price to turn on auto-renew.`, { price: koboToNaira(kobo) });
  }
  await transition(deps.db, rental.autoRenewOn, id, { priceKobo: kobo, unit: choice.unit, period: choice.period }, now);
  await startWatcher(deps.env, id); // the watcher's next alarm now includes the reminders and the renewal
  return (await findRental(deps.db, id))!;
}

// ---------------------------------------------------------------------------------------------------------------
// What the watcher does (rentals.ts rentalTick)

/** The 24-hour reminder and the renewal when due. Safe to run twice at once: each step is claimed by a compare-and-set. */
export async function renewalTick(deps: RentalDeps, rentalId: string): Promise<void> {
  let row = await findRental(deps.db, rentalId);
  if (!row || !on(row)) return;
  const now = deps.clock.now();
  for (const [which, dueAt] of [["day", dayReminderDueAt], ["hour", hourReminderDueAt]] as const) {
    const due = dueAt(row);
    if (due !== null && now >= due && now < row.expiresAt! - RENEW_BEFORE_END_MS) {
      await remindRenewal(deps, row, which, now);
      row = (await findRental(deps.db, rentalId)) ?? row;
    }
  }
  const due = renewalDueAt(row);
  if (due !== null && now >= due && now < row.expiresAt!) await renew(deps, row);
}

/**
 * Sends one renewal reminder once: "day" claims reminded_day_at, "hour" reminded_at (the column of the rental's own
 * "ends in an hour" reminder, which an auto-renewing rental does not get: rental-reminder.ts reminderDueAt).
 */
export async function remindRenewal(deps: RentalDeps, row: RentalRow, which: "day" | "hour", now: number): Promise<boolean> {
  if (!on(row)) return false;
  const [user] = await deps.db.select({ email: users.email, username: users.username, balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, row.userId)).limit(1);
  const priceKobo = row.autoRenewPriceKobo!;
  const funded = (user?.balanceKobo ?? 0) >= priceKobo;
  const renewsAt = row.expiresAt! - RENEW_BEFORE_END_MS;
  // The claim and the developer webhook rental.renewing are one batch (once per rental, expiry and reminder).
  const claimed = await transition(
    deps.db,
    rental.remind,
    row.id,
    {
      userId: row.userId,
      column: which === "day" ? "remindedDayAt" : "remindedAt",
      expiresAt: row.expiresAt!,
      told: {
        dedupe: `rental.renewing:${row.id}:${row.expiresAt}:${which}`,
        message: { kind: "rental.renewing", rentalId: row.id, renewsAt: new Date(renewsAt).toISOString(), price: koboToNaira(priceKobo), funded },
      },
    },
    now,
  );
  if (!claimed.moved) return false;

  const inWords = which === "day" ? "in 24 hours" : "in 1 hour";
  const price = naira(priceKobo);
  const shortBy = funded ? null : naira(priceKobo - (user?.balanceKobo ?? 0));
  await deps.notify(row.userId, {
    kind: "toast",
    type: funded ? "info" : "warning",
    message: funded
      ? `Your rented number +${row.number} renews ${inWords} for ${price}.`
      : `Your rented number +${row.number} renews ${inWords} for ${price}, but your wallet is ${shortBy} short. Fund your wallet or the number ends.`,
  });
  await deliverEvents(deps, row.userId);
  if (user) {
    await sendMail(deps, row, user, rentalRenewingEmail(user, { number: row.number ?? "", country: row.countryName, renewsAt, expiresAt: row.expiresAt!, price, shortBy, inWords, link: rentalsLink(deps) }));
  }
  return true;
}

async function renew(deps: RentalDeps, row: RentalRow): Promise<void> {
  const expiry = row.expiresAt!;
  const agreed = row.autoRenewPriceKobo!;
  const unit = row.autoRenewUnit as RentUnit;
  const period = row.autoRenewPeriod!;
  const extension = rentalUpstream(deps, row).extension;
  if (!extension || !row.upstreamId) return pause(deps, row, "provider");

  const owner = await buyerOf(deps.db, row.userId);
  let kobo: number | null;
  try {
    kobo = await extensionPriceKobo(deps, row, owner, unit, period);
  } catch (err) {
    if (!(err instanceof RentProviderError)) throw err;
    // Down for now: the next alarm (before the end) asks again; "refused" means this rental cannot be extended.
    if (err.kind === "refused") return pause(deps, row, "provider");
    log("warn", "renewal price not read, will retry", { rentalId: row.id, kind: err.kind });
    return;
  }
  if (kobo === null) return;
  // A higher price is never charged without asking.
  if (kobo > agreed) return pause(deps, row, "price", kobo);

  const key = `rent_renew:${row.id}:${expiry}`;
  let claimed;
  try {
    // The claim of this expiry, its charge and the customer's balance.changed: one batch, once per expiry.
    const charge = { row, key, kobo, note: `Rental renewed: ${row.countryName} number, ${formatRentDuration(unit, period)} more`, expiry, agreedKobo: agreed };
    claimed = await transition(deps.db, rental.claimRenewal, row.id, charge, deps.clock.now());
  } catch (err) {
    const refusal = asInsufficientBalance(err);
    if (refusal instanceof AppError && refusal.code === "INSUFFICIENT_BALANCE") return pause(deps, row, "funds");
    throw err;
  }
  // Another alarm claimed this expiry first (or the rental changed): it renews, not us.
  if (!claimed.ledgerWritten) return;
  await deliverEvents(deps, row.userId);

  try {
    await extension.extend(row.upstreamId, hoursOf(unit, period));
  } catch (err) {
    await refundRenewal(deps, row, expiry, "the provider did not renew it");
    log("warn", "renewal refused upstream, refunded", { rentalId: row.id, error: err instanceof Error ? err.message : String(err) });
    return pause(deps, row, "provider");
  }
  const renewed = await transition(deps.db, rental.renewed, row.id, { expiry, expiresAt: expiry + RENT_UNIT_MS[unit] * period }, deps.clock.now());
  if (!renewed.moved) {
    // Ended (by the customer) while the upstream renewed it: the renewal's money goes back.
    await refundRenewal(deps, row, expiry, "the rental ended first");
    return;
  }
  await startWatcher(deps.env, row.id);
  await deps.notify(row.userId, { kind: "toast", type: "success", message: `Your rented number +${row.number} renewed for ${formatRentDuration(unit, period)} (${naira(kobo)}).` });
}

/** The renewal of `expiry` goes back (once by key), told with its money. */
async function refundRenewal(deps: RentalDeps, row: RentalRow, expiry: number, why: string): Promise<void> {
  const charged = await chargeOf(deps, `rent_renew:${row.id}:${expiry}`);
  if (charged === null) return;
  const refund = { row, key: `rent_renew_refund:${row.id}:${expiry}`, kobo: charged, note: `Refund: ${row.countryName} number renewal (${why})` };
  if ((await transition(deps.db, rental.refundRenewal, row.id, refund, deps.clock.now())).eventWritten) await deliverEvents(deps, row.userId);
}

const PAUSE_SENTENCES: Record<RenewalPause, (row: RentalRow, price: string, newPrice: string | null) => string> = {
  price: (row, price, newPrice) =>
    `Renewing your rented number +${row.number} now costs ${newPrice}, more than the ${price} you agreed, so we did not renew it. Renew it by hand or turn auto-renew on again at the new price before ${endOf(row)}.`,
  funds: (row, price) => `Your wallet did not hold the ${price} to renew your rented number +${row.number}, so it was not renewed. It ends at ${endOf(row)}.`,
  provider: (row) => `The number provider would not renew your rented number +${row.number}, so you were not charged. It ends at ${endOf(row)}.`,
};

/** When the rental ends, in the app's one clock (schema/datetime.ts: Lagos, labelled). */
function endOf(row: RentalRow): string {
  return formatDateTime(row.expiresAt, { year: "always" });
}

/** Auto-renew stops for this rental and the customer is told why (once: only the call that set the pause tells). */
async function pause(deps: RentalDeps, row: RentalRow, why: RenewalPause, newPriceKobo?: number): Promise<void> {
  const paused = await transition(deps.db, rental.pauseRenewal, row.id, { why }, deps.clock.now());
  if (!paused.moved) return;
  const sentence = PAUSE_SENTENCES[why](row, naira(row.autoRenewPriceKobo ?? 0), newPriceKobo === undefined ? null : naira(newPriceKobo));
  await deps.notify(row.userId, { kind: "toast", type: "warning", message: sentence });
  const [user] = await deps.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, row.userId)).limit(1);
  if (user) await sendMail(deps, row, user, rentalRenewalPausedEmail(user, { number: row.number ?? "", sentence, link: rentalsLink(deps) }));
}

function rentalsLink(deps: RentalDeps): string | null {
  return webLink(configFor(deps.env).webClient, "number/1");
}

async function sendMail(deps: RentalDeps, row: RentalRow, _user: Recipient, message: EmailMessage): Promise<void> {
  const sender = deps.upstreams.email();
  await sender.send(message).catch((err: unknown) => {
    log("error", "renewal e-mail not delivered", { rentalId: row.id, sender: sender.name, reason: err instanceof Error ? err.message : "unknown" });
  });
}
