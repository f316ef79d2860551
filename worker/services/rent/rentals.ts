import { and, eq, lt } from "drizzle-orm";
import { formatRentDuration, NO_EXTENDABLE_RENT_MESSAGE, RENT_PRICE_REFUSED_MESSAGE, RENT_CANCEL_WINDOW_MS, RENT_UNIT_MS } from "../../../schema/rentals";
import { NO_RENT_STOCK_MESSAGE } from "../../../schema/constants";
import { rentals } from "./tables";
import { TtlCache } from "../../lib/cache";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { RENT_PROVIDER_NAME, type RentUpstream } from "../../providers/rent";
import { healthStatuses, RENT_HEALTH_KEY, unavailableMessage, upstreamHealthKey } from "../sms";
import { RentProviderError, type RentChoice, type RentLimit } from "../../providers/rent/types";
import { asInsufficientBalance, assertNotAboveShown, costMinorUnits, deliverEvents, type DeveloperRef, enforceCostLimit, getSetting, insufficientBalanceFor, isSandboxUser, marginKobo, move, type PricedBuyer, pricingContext, type RentalDeps, refShareKobo, RETAIL_BUYER, rentPriceKobo, type ResellerMarkup, runBatch, STOP, type TickResult, toUsd, transition, wakeAt } from "../kernel";
import { finalSync, nextAlarmAt, startWatcher, stopWatcher, syncRentalMessages } from "./rental-inbox";
import { guardRentPrice } from "./rental-price-guard";
import { remindIfDue } from "./rental-reminder";
import { renewalAlarmAt, renewalTick } from "./renewals";
import { customerErrorFor, rentalUpstream, upstreamFor } from "./rental-upstream";
import { findRental, ownedRental, type RentalRow } from "./rental-views";
import { rental } from "./rental-transitions";

/**
 * Rent Number: quotes, renting, the inbox, end, cancel and expiry. Money rules:
 *  - the debit (ledger rent:<id>) and the rental row are one D1 batch, written before the upstream is asked;
 *  - an upstream refusal reverses it at once (rent_refund:<id>, the same key every refund of this rental uses, so a
 *    rental is refunded at most once whatever path gets there first);
 *  - cancel refunds only after the upstream confirmed the cancel, and the refund statement itself refuses to run once
 *    an SMS is stored or the rental is no longer active; end and expiry close upstream and refund nothing.
 * The rental's commands live here (and its watcher's tick); its inbox is rental-inbox.ts, its reads rental-views.ts,
 * the upstream it talks to rental-upstream.ts, extension rental-extension.ts.
 */

// ---------------------------------------------------------------------------------------------------------------
// Quotes

export interface RentQuote {
  /** The spec's data.limits[]: cost is the upstream cost in US cents, so the spec's cost/100 × rate × (1 + rent_cost)
   * reproduces the price before the tier discount (docs/decisions/005-rent-cost-in-usd.md). */
  limits: { country_id: string; count: number; cost: number }[];
  /** What the server will charge, in kobo; null when there is no stock or the price was refused. */
  priceKobo: number | null;
  /** Issue 46: the part of priceKobo that is a reseller's margin (its sub-account's markup); 0 for everyone else. */
  marginKobo: number;
  limit: (RentLimit & { costUsd: number }) | null;
  /** Why the upstream's price for this choice is not sold (the price guard, rental-price-guard.ts). */
  refused?: string;
  /** Issue 49: the rent upstream this price rents from (null: none can), and whether its documents define extension. */
  upstream: RentUpstream | null;
  extendable: boolean;
  /** Issue 49: when the price above cannot be extended, an extendable number for the same choice at its own price. */
  extendableOffer?: { upstream: RentUpstream; priceKobo: number };
}

/** The rental asked for: the choice, and (issue 49) whether the number must be one that can be extended. */
export interface RentQuoteRequest extends RentChoice {
  extendable?: boolean;
}

/** One rent upstream's answer for a choice: its priced stock, or why it cannot sell it. */
interface UpstreamQuote {
  upstream: RentUpstream;
  extendable: boolean;
  limits: (RentLimit & { costUsd: number })[];
  inStock: (RentLimit & { costUsd: number }) | null;
  refused: string | null;
}

/** The health row each rent upstream's balance is checked under (services/sms/upstream-health.ts). */
const rentHealthKey = (upstream: RentUpstream) => (upstream === "smsman" ? RENT_HEALTH_KEY : upstreamHealthKey(upstream));

async function quoteUpstream(deps: RentalDeps, user: { id: string } | null, upstream: RentUpstream, choice: RentChoice): Promise<UpstreamQuote> {
  const adapter = upstreamFor(deps, user?.id ?? null, upstream);
  const limits = await adapter.limits({ countryId: choice.countryId, unit: choice.unit, period: choice.period });
  // Costs come in the account's currency (roubles in sms-man's own sample): converted with the operator's rates, and a
  // cost without a rate is refused (shown as no stock, logged), never read as dollars.
  const rates = await getSetting(deps.db, "upstream_rates");
  const priced = limits.flatMap((l) => {
    const costUsd = toUsd({ amount: l.cost, currency: l.currency }, rates);
    if (costUsd === null) {
      log("warn", "rental offer refused: no rate for its currency", { upstream, countryId: l.countryId, currency: l.currency });
      return [];
    }
    return [{ ...l, costUsd }];
  });
  const inStock = priced.find((l) => l.countryId === choice.countryId && l.count > 0) ?? null;
  // The SMS buys' ceiling and jump guard: an implausible price is never sold (nor shown as in stock).
  const refused = inStock ? await guardRentPrice(deps.db, choice, inStock, { history: !(user && isSandboxUser(user.id)), upstream }) : null;
  return { upstream, extendable: Boolean(adapter.extension), limits: priced, inStock: refused ? null : inStock, refused };
}

/**
 * The customer's quote (issue 49: routed over the rent upstreams). The upstreams are asked in routing order (sms-man,
 * then HeroSMS: providers/rent RENT_UPSTREAMS), passing over one the balance sweep last found below its floor; the
 * first that has stock at a price the guard accepts rents, so sms-man keeps every rental it can serve, and HeroSMS
 * serves what sms-man cannot (no stock, refused price, below its floor). `extendable` asks only the upstreams whose
 * documents define extension. When the number quoted cannot be extended, `extendableOffer` names an extendable one for
 * the same choice at its own price, so the form says so before purchase (decision 068). A sandbox account's simulated
 * prices never touch the live prices' jump-guard history.
 * `user` null: a visitor's quote (the spec's original client asks signed out), at the starter tier.
 */
export async function quoteRental(deps: RentalDeps, user: RentCaller | null, request: RentQuoteRequest): Promise<RentQuote> {
  const choice: RentChoice = { countryId: request.countryId, unit: request.unit, period: request.period };
  const health = await healthStatuses(deps.db);
  const configured = deps.rentUpstreams(user?.id ?? null);
  const healthy = configured.filter((u) => health.get(rentHealthKey(u)) !== "low");
  if (configured.length > 0 && healthy.length === 0) {
    throw new AppError("UPSTREAM_UNAVAILABLE", unavailableMessage(RENT_HEALTH_KEY), { provider: RENT_HEALTH_KEY, temporarily_unavailable: true });
  }
  const quotes: UpstreamQuote[] = [];
  let firstError: unknown = null;
  for (const upstream of healthy) {
    try {
      quotes.push(await quoteUpstream(deps, user, upstream, choice));
    } catch (err) {
      // One rent upstream down leaves the others selling; all of them down is the customer's "not available".
      log("warn", "rent upstream not quoted", { upstream, error: err instanceof Error ? err.message : String(err) });
      firstError ??= err;
    }
  }
  if (quotes.length === 0 && firstError !== null) throw customerErrorFor(firstError, "limits");
  const eligible = quotes.filter((q) => !request.extendable || q.extendable);
  const chosen = eligible.find((q) => q.inStock !== null) ?? null;
  const ctx = await pricingContext(deps.db, user ?? RETAIL_BUYER);
  // Issue 46 (decision 076): a sub-account pays the reseller's price plus its flat markup, so the price quoted is the
  // price charged.
  const marginOf = (q: UpstreamQuote) => marginKobo(rentPriceKobo(q.inStock!.costUsd, ctx), user?.resellerMarkup, null);
  const priceOf = (q: UpstreamQuote) => rentPriceKobo(q.inStock!.costUsd, ctx) + marginOf(q);
  // What the form lists: the renting upstream's stock, else the first asked (its sold-out or refused line).
  const shown = chosen ?? eligible[0] ?? quotes[0] ?? null;
  const refused = chosen === null ? (eligible.find((q) => q.refused !== null)?.refused ?? null) : null;
  const offer = chosen && !chosen.extendable ? quotes.find((q) => q.extendable && q.inStock !== null) : undefined;
  return {
    limits: (shown?.limits ?? []).map((l) => ({
      country_id: l.countryId,
      count: shown?.refused && l.countryId === choice.countryId ? 0 : l.count,
      cost: costMinorUnits(l.costUsd),
    })),
    priceKobo: chosen ? priceOf(chosen) : null,
    marginKobo: chosen ? marginOf(chosen) : 0,
    limit: chosen?.inStock ?? null,
    ...(refused ? { refused } : {}),
    upstream: chosen?.upstream ?? null,
    extendable: chosen?.extendable ?? false,
    ...(offer ? { extendableOffer: { upstream: offer.upstream, priceKobo: priceOf(offer) } } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Countries (names for rental rows and the form's country list)

const COUNTRY_CACHE_MS = 3_600_000;
/** Kept per upstream: a sandbox account's simulated list never stands in for the live one. */
const countryCache = new TtlCache<"deployment" | "sandbox", Promise<{ id: string; title: string }[]>>(COUNTRY_CACHE_MS);

/** The countries the customer's upstream rents in; null (the public form's list) asks the deployment's own. */
export async function rentCountries(deps: RentalDeps, userId: string | null = null): Promise<{ id: string; title: string }[]> {
  const key = userId !== null && isSandboxUser(userId) ? "sandbox" : "deployment";
  try {
    return await countryCache.getOrLoad(key, () => upstreamFor(deps, userId).countries());
  } catch (err) {
    throw customerErrorFor(err, "countries");
  }
}

async function countryName(deps: RentalDeps, userId: string, countryId: string): Promise<string> {
  try {
    return (await rentCountries(deps, userId)).find((c) => c.id === countryId)?.title ?? `Country ${countryId}`;
  } catch {
    // A missing name must not stop a paid rental.
    return `Country ${countryId}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Renting

/**
 * Who rents: the wallet, its tier, (a reseller's sub-account, middleware/subaccount.ts) the markup it pays, and (an
 * /api/v1 rental with a `ref`, resolved by developer/ref-share.ts) the developer who earns a share of it.
 */
export interface RentCaller extends PricedBuyer {
  id: string;
  resellerMarkup?: ResellerMarkup | null;
  developerRef?: DeveloperRef | null;
}

export interface RentRequest extends RentQuoteRequest {
  /** The naira price the customer saw: we never charge more (assertNotAboveShown). */
  clientPrice?: number | null;
}

export async function rentNumber(
  deps: RentalDeps,
  user: RentCaller,
  request: RentRequest,
): Promise<RentalRow> {
  await enforceCostLimit(deps.db, user.id, "rental", deps.clock.now());
  const choice: RentChoice = { countryId: request.countryId, unit: request.unit, period: request.period };
  const quote = await quoteRental(deps, user, { ...choice, extendable: request.extendable });
  // Refused before anything is written: no debit, no rental row.
  if (quote.refused) throw new AppError("CONFLICT", RENT_PRICE_REFUSED_MESSAGE);
  if (quote.priceKobo === null || quote.upstream === null) {
    throw new AppError("NO_NUMBERS", request.extendable ? NO_EXTENDABLE_RENT_MESSAGE : NO_RENT_STOCK_MESSAGE);
  }
  const priceKobo = quote.priceKobo;
  const upstream = quote.upstream;
  assertNotAboveShown(priceKobo, request.clientPrice);

  const id = crypto.randomUUID();
  const name = await countryName(deps, user.id, choice.countryId);
  const duration = formatRentDuration(choice.unit, choice.period);
  const now = deps.clock.now();
  try {
    const margin = quote.marginKobo > 0 && user.resellerMarkup ? { marginKobo: quote.marginKobo, marginUserId: user.resellerMarkup.resellerId } : {};
    // Decision 075: the developer's share of our price (before the markup, which is the reseller's), fixed now.
    const share = refShareKobo(priceKobo - quote.marginKobo, user.developerRef);
    const refShare = share > 0 && user.developerRef ? { refShareKobo: share, refUserId: user.developerRef.walletId } : {};
    const row = { id, userId: user.id, provider: RENT_PROVIDER_NAME, countryId: choice.countryId, countryName: name, unit: choice.unit, period: choice.period, priceKobo, ...margin, ...refShare, createdAt: now, updatedAt: now };
    await transition(deps.db, rental.rent, id, { row, note: `Rental: ${name} number, ${duration}` }, now);
  } catch (err) {
    const refusal = asInsufficientBalance(err);
    throw refusal instanceof AppError && refusal.code === "INSUFFICIENT_BALANCE" ? await insufficientBalanceFor(deps.db, user.id, priceKobo) : refusal;
  }

  let rented: { upstreamId: string; number: string };
  try {
    rented = await upstreamFor(deps, user.id, upstream).getNumber(choice);
  } catch (err) {
    if (err instanceof RentProviderError && (err.kind === "timeout" || err.kind === "unavailable")) {
      // The upstream may have rented a number we never heard of; the customer is refunded either way and the
      // operator gets the trail to reconcile with the upstream's own history.
      log("warn", "rent get-number outcome unknown, customer refunded", { rentalId: id, kind: err.kind });
    }
    await failAndRefund(deps, id, "the provider could not supply a number");
    throw customerErrorFor(err, "get-number");
  }

  const startedAt = deps.clock.now();
  await transition(deps.db, rental.rented, id, { upstreamId: rented.upstreamId, number: rented.number, expiresAt: startedAt + choice.period * RENT_UNIT_MS[choice.unit], upstream, upstreamAccount: 0 }, startedAt);
  const row = await findRental(deps.db, id);
  if (!row) throw new Error(`rental ${id} vanished after renting`);
  await startWatcher(deps.env, id);
  return row;
}

/** A paid rental that never got its number: failed, and the money back at once (at most once, by key). */
async function failAndRefund(deps: RentalDeps, id: string, reason: string): Promise<void> {
  const row = await findRental(deps.db, id);
  if (!row) return;
  await transition(deps.db, rental.fail, id, { row, reason }, deps.clock.now());
}
/** Closes the rental upstream; a failure is logged, not fatal: it was paid in full and lapses upstream by itself. */
async function closeUpstream(deps: RentalDeps, row: RentalRow): Promise<void> {
  if (!row.upstreamId) return;
  try {
    await rentalUpstream(deps, row).setStatus(row.upstreamId, "close");
  } catch (err) {
    log("warn", "rental close upstream failed", { rentalId: row.id, error: err instanceof Error ? err.message : String(err) });
  }
}
// ---------------------------------------------------------------------------------------------------------------
// End, expiry, cancel

/** A rental kept for good credited its reseller's margin and its developer's share: their balance.changed go out. */
async function tellCredited(deps: RentalDeps, row: RentalRow): Promise<void> {
  if (row.marginUserId) await deliverEvents(deps, row.marginUserId);
  if (row.refUserId) await deliverEvents(deps, row.refUserId);
}

async function markEnded(deps: RentalDeps, row: RentalRow): Promise<boolean> {
  // Its rental.ended, written with the move or not at all.
  const { moved, ledgerWritten } = await transition(deps.db, rental.end, row.id, { row }, deps.clock.now());
  if (moved) await deliverEvents(deps, row.userId);
  if (ledgerWritten) await tellCredited(deps, row);
  return moved;
}

/** The customer ends the rental early: close upstream, no refund. */
export async function endRental(deps: RentalDeps, userId: string, id: string): Promise<RentalRow> {
  const row = await ownedRental(deps.db, userId, id);
  await enforceCostLimit(deps.db, userId, "rental", deps.clock.now());
  if (row.status !== "active") throw new AppError("INVALID_STATE", "This rental has already ended.");
  await finalSync(deps, id);
  await closeUpstream(deps, row);
  await markEnded(deps, row);
  await stopWatcher(deps.env, id);
  return (await findRental(deps.db, id))!;
}

/** The rental's time is up (the watcher's alarm, or the sweep as a backstop). Idempotent. */
export async function expireRental(deps: RentalDeps, id: string, now = deps.clock.now()): Promise<boolean> {
  const row = await findRental(deps.db, id);
  if (!row || row.status !== "active" || row.expiresAt === null || row.expiresAt > now) return false;
  await finalSync(deps, id);
  await closeUpstream(deps, row);
  return markEnded(deps, row);
}

/**
 * Cancel for a refund: only while active, within the window, before any SMS, and only when the upstream confirms.
 * The refund row is inserted by a statement that checks, in the same batch, that the rental is still active and has
 * no stored SMS, so a message stored by a concurrent poll stops the refund even after our checks passed.
 */
export async function cancelRental(deps: RentalDeps, userId: string, id: string): Promise<{ rental: RentalRow; refunded: boolean }> {
  const initial = await ownedRental(deps.db, userId, id);
  await enforceCostLimit(deps.db, userId, "rental", deps.clock.now());
  if (initial.status !== "active") throw new AppError("INVALID_STATE", "This rental is no longer active.");
  try {
    await syncRentalMessages(deps, id);
  } catch {
    // The upstream itself refuses a cancel after an SMS, so an unreadable inbox here is not a risk.
  }
  const row = (await findRental(deps.db, id))!;
  if (row.smsCount > 0) {
    throw new AppError("INVALID_STATE", "This number has already received an SMS, so it can no longer be cancelled for a refund. You can end the rental instead.");
  }
  if (deps.clock.now() - row.createdAt > RENT_CANCEL_WINDOW_MS) {
    throw new AppError("INVALID_STATE", "A rental can only be cancelled for a refund within 20 minutes. You can end the rental instead.");
  }
  try {
    await rentalUpstream(deps, row).setStatus(row.upstreamId!, "cancel");
  } catch (err) {
    if (err instanceof RentProviderError && err.kind === "refused") {
      log("info", "rent cancel refused upstream", { rentalId: id, detail: err.message });
      throw new AppError("INVALID_STATE", "The provider did not allow this rental to be cancelled. You can end the rental instead.");
    }
    throw customerErrorFor(err, "cancel");
  }

  // One batch: cancelled and refunded while no SMS is stored, else cancelled unrefunded (a message stored by a
  // concurrent poll stops the refund even after our checks passed), each with its rental.ended. A refunded
  // rental.ended is the balance change too: the screens refresh the wallet on it, and the webhooks get a
  // balance.changed with it, as for a refunded sms.ended.
  const now = deps.clock.now();
  const result = await runBatch(deps.db, {
    refunded: move(deps.db, rental.cancel, id, { row, reason: "cancelled" }, now),
    kept: move(deps.db, rental.cancelAfterSms, id, { row }, now),
  });
  const refunded = result.refunded.ledgerWritten;
  await deliverEvents(deps, row.userId);
  if (result.kept.ledgerWritten) await tellCredited(deps, row);
  await stopWatcher(deps.env, id);
  const after = (await findRental(deps.db, id))!;
  return { rental: after, refunded };
}
// ---------------------------------------------------------------------------------------------------------------
// The watcher's tick and the sweep

/**
 * One wake-up of the rental's watcher (objects/rental-watcher.ts): close the rental once its time is up; otherwise
 * read its SMS, send the "ends in an hour" reminder when due, and say when to look next (often at first, then less,
 * never past the expiry). An upstream fault is logged and the next look is the retry; anything else throws
 * (services/tick.ts). Re-reads the rental after every upstream call, so a repeated or late alarm is harmless.
 */
export async function rentalTick(deps: RentalDeps, rentalId: string): Promise<TickResult> {
  const row = await findRental(deps.db, rentalId);
  if (!row || row.status !== "active" || row.expiresAt === null) return STOP;
  if (deps.clock.now() >= row.expiresAt) {
    await expireRental(deps, rentalId);
    return STOP;
  }
  try {
    await syncRentalMessages(deps, rentalId);
  } catch (err) {
    if (!(err instanceof RentProviderError)) throw err;
    log("warn", "rental check failed, will retry", { rentalId, kind: err.kind, error: err.message });
  }
  // Re-read: the rental may have ended, been cancelled or extended while we were talking to the upstream.
  let after = await findRental(deps.db, rentalId);
  if (!after || after.status !== "active" || after.expiresAt === null) return STOP;
  // The "ends in an hour" reminder: sent once per expiry whatever the number of alarms (services/rental-reminder.ts).
  // Its failure (an e-mail provider down) never stops the watcher: the reminder is claimed once and not retried.
  try {
    if (await remindIfDue(deps, after)) after = (await findRental(deps.db, rentalId)) ?? after;
  } catch (err) {
    log("warn", "rental reminder failed", { rentalId, error: err instanceof Error ? err.message : String(err) });
  }
  // Auto-renew's reminders and the renewal itself (services/rent/renewals.ts): each claimed once, whatever the alarms.
  try {
    await renewalTick(deps, rentalId);
    after = (await findRental(deps.db, rentalId)) ?? after;
  } catch (err) {
    log("warn", "rental renewal step failed, will retry", { rentalId, error: err instanceof Error ? err.message : String(err) });
  }
  const expiresAt = after.expiresAt;
  if (after.status !== "active" || expiresAt === null) return STOP;
  const now = deps.clock.now();
  const renewal = renewalAlarmAt(after, now);
  const inbox = nextAlarmAt({ ...after, expiresAt }, now);
  return wakeAt(renewal === null ? inbox : Math.min(inbox, renewal));
}

/** Rentals stuck 'pending' this long lost their request mid-way (the upstream call times out far sooner). */
const PENDING_GIVE_UP_MS = 5 * 60_000;
const SWEEP_BATCH = 50;

/** The cron backstop: expires rentals whose alarm never came and refunds rentals stuck before their number. */
export async function sweepRentals(deps: RentalDeps, now = deps.clock.now()): Promise<{ expired: number; refunded: number }> {
  const due = await deps.db
    .select({ id: rentals.id })
    .from(rentals)
    .where(and(eq(rentals.status, "active"), lt(rentals.expiresAt, now)))
    .limit(SWEEP_BATCH);
  let expired = 0;
  for (const { id } of due) {
    if (await expireRental(deps, id, now)) expired += 1;
  }
  const stuck = await deps.db
    .select({ id: rentals.id })
    .from(rentals)
    .where(and(eq(rentals.status, "pending"), lt(rentals.createdAt, now - PENDING_GIVE_UP_MS)))
    .limit(SWEEP_BATCH);
  for (const { id } of stuck) {
    log("warn", "rental stuck before its number, refunding", { rentalId: id });
    await failAndRefund(deps, id, "the request did not complete");
  }
  return { expired, refunded: stuck.length };
}

/**
 * The operator's "settle now" for one stuck rental: the sweep's transitions for one row (an overdue active rental is
 * ended after a last read of its messages; one stuck before its number is refunded). Refused for anything else.
 */
export async function settleRentalNow(deps: RentalDeps, id: string, now = deps.clock.now()): Promise<{ from: string; status: string; settled: boolean }> {
  const row = await findRental(deps.db, id);
  if (!row) throw new AppError("NOT_FOUND", "Rental not found.");
  if (row.status === "active" && row.expiresAt !== null && row.expiresAt < now) {
    await expireRental(deps, id, now);
  } else if (row.status === "pending" && row.createdAt < now - PENDING_GIVE_UP_MS) {
    await failAndRefund(deps, id, "settled by an operator: the request did not complete");
  } else {
    throw new AppError("INVALID_STATE", row.status === "active" || row.status === "pending" ? "This rental is not stuck." : "This rental is already settled.");
  }
  const after = await findRental(deps.db, id);
  return { from: row.status, status: after?.status ?? row.status, settled: after?.status !== row.status };
}
