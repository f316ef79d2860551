import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { formatRentDuration, RENT_UNIT_MS, type RentExtendOption } from "../../../schema/rentals";
import { type RentUnit } from "../../../schema/constants";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { RentProviderError } from "../../providers/rent/types";
import { asInsufficientBalance, deliverEvents, enforceCostLimit, getSetting, ledgerAmount, type PricedBuyer, pricingContext, type RentalDeps, rentPriceKobo, toUsd, transition } from "../kernel";
import { startWatcher } from "./rental-inbox";
import { customerErrorFor, rentalUpstream } from "./rental-upstream";
import { findRental, ownedRental, type RentalRow } from "./rental-views";
import { rental } from "./rental-transitions";

/**
 * Extending a rental before it ends (issue 17, decision 019), offered only where the upstream documents it
 * (RentalProvider.extension). Money, like renting itself:
 *  - the debit (ledger rent_extend:<id>:<n>) and the rental's extended_count moving n-1 -> n are one D1 batch, written
 *    before the upstream is asked; a second click racing the first finds extended_count already moved and is refused
 *    with nothing charged, so one click is charged once;
 *  - an upstream refusal (or the rental ending meanwhile) refunds it at once (rent_extend_refund:<id>:<n>, once by key);
 *  - on success the expiry moves by the extension, the reminder is owed again for the new end, and the watcher re-arms.
 */

/** The periods offered, in the protocol's unit (rent_time, hours). */
export const EXTEND_CHOICES: { unit: RentUnit; period: number }[] = [
  { unit: "hour", period: 4 },
  { unit: "day", period: 1 },
  { unit: "week", period: 1 },
];

export const hoursOf = (unit: RentUnit, period: number) => (RENT_UNIT_MS[unit] * period) / 3_600_000;



export async function extensionPriceKobo(deps: RentalDeps, row: RentalRow, buyer: PricedBuyer, unit: RentUnit, period: number): Promise<number | null> {
  const extension = rentalUpstream(deps, row).extension;
  if (!extension || !row.upstreamId) return null;
  const cost = await extension.price(row.upstreamId, hoursOf(unit, period));
  const costUsd = toUsd(cost, await getSetting(deps.db, "upstream_rates"));
  if (costUsd === null) {
    log("warn", "rental extension refused: no rate for its currency", { rentalId: row.id, currency: cost.currency });
    return null;
  }
  return rentPriceKobo(costUsd, await pricingContext(deps.db, buyer));
}

/** Whether the customer's rental can be extended: its upstream's documents define extension (issue 49). */
export async function rentalExtendable(deps: RentalDeps, userId: string, id: string): Promise<boolean> {
  return Boolean(rentalUpstream(deps, await ownedRental(deps.db, userId, id)).extension);
}

/** The Extend choices for one rental with the server's price each; empty where the upstream cannot extend it. */
export async function extendOptions(deps: RentalDeps, user: { id: string } & PricedBuyer, id: string): Promise<RentExtendOption[]> {
  const row = await ownedRental(deps.db, user.id, id);
  if (!rentalUpstream(deps, row).extension || row.status !== "active" || row.expiresAt === null || row.expiresAt <= deps.clock.now()) return [];
  const out: RentExtendOption[] = [];
  for (const choice of EXTEND_CHOICES) {
    try {
      const kobo = await extensionPriceKobo(deps, row, user, choice.unit, choice.period);
      if (kobo !== null) out.push({ ...choice, duration: formatRentDuration(choice.unit, choice.period), price: koboToNaira(kobo) });
    } catch (err) {
      // A choice the upstream will not price (too long for this number, upstream down) is simply not offered.
      if (!(err instanceof RentProviderError)) throw err;
      log("info", "rental extension choice not offered", { rentalId: id, unit: choice.unit, kind: err.kind });
    }
  }
  return out;
}

export async function extendRental(
  deps: RentalDeps,
  user: { id: string } & PricedBuyer,
  id: string,
  request: { unit: RentUnit; period: number; clientPrice?: number | string | null },
): Promise<{ rental: RentalRow; charged: number }> {
  const row = await ownedRental(deps.db, user.id, id);
  await enforceCostLimit(deps.db, user.id, "rental", deps.clock.now());
  if (row.status !== "active" || row.expiresAt === null || row.expiresAt <= deps.clock.now()) {
    throw new AppError("INVALID_STATE", "This rental has already ended and can no longer be extended.");
  }
  // The rental's own customer's upstream: a sandbox account's rental is extended by the simulator, never the live one.
  const extension = rentalUpstream(deps, row).extension;
  if (!extension || !row.upstreamId) {
    throw new AppError("INVALID_STATE", "This number's provider does not allow extending a rental. Rent a new number before this one ends.");
  }
  if (!EXTEND_CHOICES.some((c) => c.unit === request.unit && c.period === request.period)) {
    throw new AppError("VALIDATION_FAILED", `Extensions are offered for ${EXTEND_CHOICES.map((c) => formatRentDuration(c.unit, c.period)).join(", ")}.`);
  }
  let kobo: number | null;
  try {
    kobo = await extensionPriceKobo(deps, row, user, request.unit, request.period);
  } catch (err) {
    if (err instanceof RentProviderError && err.kind === "refused") {
      throw new AppError("INVALID_STATE", "The provider does not allow this rental to be extended by that much.");
    }
    throw customerErrorFor(err, "extend-price");
  }
  if (kobo === null) throw new AppError("UPSTREAM_UNAVAILABLE", "The number provider is not available right now. Please try again in a few minutes.");
  if (request.clientPrice !== undefined && request.clientPrice !== null && request.clientPrice !== "") {
    const seen = Number(request.clientPrice);
    if (!Number.isFinite(seen) || nairaToKobo(seen) !== kobo) {
      throw new AppError("PRICE_CHANGED", `The price is now ₦${koboToNaira(kobo).toFixed(2)}. Please confirm to continue.`, { price: koboToNaira(kobo) });
    }
  }

  const n = row.extendedCount + 1;
  const duration = formatRentDuration(request.unit, request.period);
  const key = `rent_extend:${id}:${n}`;
  let claimed;
  try {
    // The unique key keeps extension n charged once; the balance CHECK refuses an overdraft and rolls the batch back.
    // Charged (and told: balance.changed) only when the claim moved extended_count to n for an active rental: a
    // racing click (same n) moves nothing and is charged nothing.
    claimed = await transition(deps.db, rental.claimExtension, id, { row, n, key, kobo, note: `Rental extended: ${row.countryName} number, ${duration} more` }, deps.clock.now());
  } catch (err) {
    throw asInsufficientBalance(err);
  }
  if (!claimed.ledgerWritten) {
    throw new AppError("CONFLICT", "This rental was just extended or ended. Please check it and try again.");
  }
  await deliverEvents(deps, user.id);

  try {
    await extension.extend(row.upstreamId, hoursOf(request.unit, request.period));
  } catch (err) {
    await refundExtension(deps, row, n, duration, "the provider did not extend it");
    if (err instanceof RentProviderError && err.kind === "refused") {
      throw new AppError("INVALID_STATE", "The provider did not allow this rental to be extended. You were not charged.");
    }
    throw customerErrorFor(err, "extend");
  }

  const extended = await transition(deps.db, rental.extended, id, { byMs: RENT_UNIT_MS[request.unit] * request.period }, deps.clock.now());
  if (!extended.moved) {
    // Ended (or expired) while the upstream was extending it: the customer gets the extension's money back.
    await refundExtension(deps, row, n, duration, "the rental ended first");
    throw new AppError("INVALID_STATE", "This rental ended before the extension went through. You were not charged.");
  }
  await startWatcher(deps.env, id);
  return { rental: (await findRental(deps.db, id))!, charged: koboToNaira(kobo) };
}

async function refundExtension(deps: RentalDeps, row: RentalRow, n: number, duration: string, reason: string): Promise<void> {
  const charged = await chargeOf(deps, `rent_extend:${row.id}:${n}`);
  if (charged === null) return;
  // Once by key, whichever path gets here first; told with its money.
  const refund = { row, key: `rent_extend_refund:${row.id}:${n}`, kobo: charged, note: `Refund: ${row.countryName} number rental extension, ${duration} (${reason})` };
  if ((await transition(deps.db, rental.refundExtension, row.id, refund, deps.clock.now())).eventWritten) await deliverEvents(deps, row.userId);
}

/** What a charge of this rental took from the wallet (kobo), or null when it was never charged. */
export async function chargeOf(deps: Pick<RentalDeps, "db">, key: string): Promise<number | null> {
  const amount = await ledgerAmount(deps.db, key);
  return amount === null ? null : -amount;
}
