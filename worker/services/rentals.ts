import { and, desc, eq, exists, lt, notExists, sql } from "drizzle-orm";
import { koboToNaira } from "../../schema/money";
import {
  formatRentDuration,
  NO_RENT_STOCK_MESSAGE,
  RENT_CANCEL_WINDOW_MS,
  RENT_UNIT_MS,
} from "../../schema/rentals";
import type { Db } from "../db/client";
import { rentalMessages, rentals, users } from "../db/tables";
import type { Env } from "../env";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { RENT_PROVIDER_NAME, rentalProviderFor } from "../providers/rent";
import { RentProviderError, type RentChoice, type RentalProvider, type RentLimit } from "../providers/rent/types";
import { asInsufficientBalance, guardedLedgerInsert, hasEntry, ledgerInsert } from "./ledger";
import { notify } from "./notify";
import { assertNotAboveShown, costMinorUnits, pricingContext, rentPriceKobo } from "./pricing";
import { isSandboxUser } from "./sandbox-accounts";
import { getSetting } from "./settings";
import { toUsd } from "./upstream-money";
import { enforceCostLimit } from "./rate-limit";

/**
 * Rent Number: quotes, renting, the inbox, end, cancel and expiry. Money rules:
 *  - the debit (ledger rent:<id>) and the rental row are one D1 batch, written before the upstream is asked;
 *  - an upstream refusal reverses it at once (rent_refund:<id>, the same key every refund of this rental uses, so a
 *    rental is refunded at most once whatever path gets there first);
 *  - cancel refunds only after the upstream confirmed the cancel, and the refund statement itself refuses to run once
 *    an SMS is stored or the rental is no longer active; end and expiry close upstream and refund nothing.
 */

export interface RentalDeps {
  env: Env;
  db: Db;
  provider: RentalProvider;
}

export type RentalRow = typeof rentals.$inferSelect;

/** The upstream for one customer's rental: a sandbox account (test API key) always rents from the simulator. */
function upstreamFor(deps: RentalDeps, userId: string): RentalProvider {
  return isSandboxUser(userId) ? rentalProviderFor(deps.env, { providers: "sandbox" }) : deps.provider;
}

const UPSTREAM_DOWN = "The number provider is not available right now. Please try again in a few minutes.";

/** Maps an upstream failure to what the customer sees; the operator-only detail goes to the logs. */
export function customerErrorFor(err: unknown, action: string): unknown {
  if (!(err instanceof RentProviderError)) return err;
  log(err.kind === "account" ? "error" : "warn", "rent upstream failure", { action, kind: err.kind, detail: err.message });
  if (err.kind === "no_stock") return new AppError("NO_NUMBERS", NO_RENT_STOCK_MESSAGE);
  if (err.kind === "timeout") return new AppError("UPSTREAM_TIMEOUT", "The number provider took too long to answer. Please try again.");
  return new AppError("UPSTREAM_UNAVAILABLE", UPSTREAM_DOWN);
}

// ---------------------------------------------------------------------------------------------------------------
// Quotes

export interface RentQuote {
  /** The spec's data.limits[]: cost is the upstream cost in US cents, so the spec's cost/100 × rate × (1 + rent_cost)
   * reproduces the price before the tier discount (docs/decisions/005-rent-cost-in-usd.md). */
  limits: { country_id: string; count: number; cost: number }[];
  /** What the server will charge, in kobo; null when there is no stock. */
  priceKobo: number | null;
  limit: (RentLimit & { costUsd: number }) | null;
}

export async function quoteRental(deps: RentalDeps, totalDepositedKobo: number, choice: RentChoice): Promise<RentQuote> {
  let limits: RentLimit[];
  try {
    limits = await deps.provider.limits(choice);
  } catch (err) {
    throw customerErrorFor(err, "limits");
  }
  // Costs come in the account's currency (roubles in sms-man's own sample): converted with the operator's rates, and a
  // cost without a rate is refused (shown as no stock, logged), never read as dollars.
  const rates = await getSetting(deps.db, "upstream_rates");
  const priced = limits.flatMap((l) => {
    const costUsd = toUsd({ amount: l.cost, currency: l.currency }, rates);
    if (costUsd === null) {
      log("warn", "rental offer refused: no rate for its currency", { countryId: l.countryId, currency: l.currency });
      return [];
    }
    return [{ ...l, costUsd }];
  });
  const limit = priced.find((l) => l.countryId === choice.countryId && l.count > 0) ?? null;
  const ctx = await pricingContext(deps.db, totalDepositedKobo);
  return {
    limits: priced.map((l) => ({ country_id: l.countryId, count: l.count, cost: costMinorUnits(l.costUsd) })),
    priceKobo: limit ? rentPriceKobo(limit.costUsd, ctx) : null,
    limit,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Countries (names for rental rows and the form's country list)

const COUNTRY_CACHE_MS = 3_600_000;
let countryCache: { at: number; list: { id: string; title: string }[] } | null = null;

export async function rentCountries(deps: RentalDeps): Promise<{ id: string; title: string }[]> {
  if (countryCache && Date.now() - countryCache.at < COUNTRY_CACHE_MS) return countryCache.list;
  try {
    const list = await deps.provider.countries();
    countryCache = { at: Date.now(), list };
    return list;
  } catch (err) {
    throw customerErrorFor(err, "countries");
  }
}

async function countryName(deps: RentalDeps, countryId: string): Promise<string> {
  try {
    return (await rentCountries(deps)).find((c) => c.id === countryId)?.title ?? `Country ${countryId}`;
  } catch {
    // A missing name must not stop a paid rental.
    return `Country ${countryId}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Renting

export interface RentRequest extends RentChoice {
  /** The naira price the customer saw: we never charge more (assertNotAboveShown). */
  clientPrice?: number | null;
}

export async function rentNumber(
  deps: RentalDeps,
  user: { id: string; totalDepositedKobo: number },
  request: RentRequest,
): Promise<RentalRow> {
  await enforceCostLimit(deps.db, user.id, "rental");
  const choice: RentChoice = { countryId: request.countryId, unit: request.unit, period: request.period };
  const quote = await quoteRental({ ...deps, provider: upstreamFor(deps, user.id) }, user.totalDepositedKobo, choice);
  if (quote.priceKobo === null) throw new AppError("NO_NUMBERS", NO_RENT_STOCK_MESSAGE);
  const priceKobo = quote.priceKobo;
  assertNotAboveShown(priceKobo, request.clientPrice);

  const id = crypto.randomUUID();
  const name = await countryName(deps, choice.countryId);
  const duration = formatRentDuration(choice.unit, choice.period);
  const now = Date.now();
  try {
    await deps.db.batch([
      deps.db.insert(rentals).values({
        id,
        userId: user.id,
        provider: RENT_PROVIDER_NAME,
        countryId: choice.countryId,
        countryName: name,
        unit: choice.unit,
        period: choice.period,
        priceKobo,
        status: "pending",
        createdAt: now,
        updatedAt: now,
      }),
      ledgerInsert(deps.db, {
        userId: user.id,
        key: `rent:${id}`,
        amountKobo: -priceKobo,
        kind: "rent",
        note: `Rental: ${name} number, ${duration}`,
        ref: id,
      }),
    ]);
  } catch (err) {
    throw asInsufficientBalance(err);
  }

  let rented: { upstreamId: string; number: string };
  try {
    rented = await upstreamFor(deps, user.id).getNumber(choice);
  } catch (err) {
    if (err instanceof RentProviderError && (err.kind === "timeout" || err.kind === "unavailable")) {
      // The upstream may have rented a number we never heard of; the customer is refunded either way and the
      // operator gets the trail to reconcile with the upstream's own history.
      log("warn", "rent get-number outcome unknown, customer refunded", { rentalId: id, kind: err.kind });
    }
    await failAndRefund(deps, id, "the provider could not supply a number");
    throw customerErrorFor(err, "get-number");
  }

  const startedAt = Date.now();
  await deps.db
    .update(rentals)
    .set({
      status: "active",
      upstreamId: rented.upstreamId,
      number: rented.number,
      expiresAt: startedAt + choice.period * RENT_UNIT_MS[choice.unit],
      updatedAt: startedAt,
    })
    .where(and(eq(rentals.id, id), eq(rentals.status, "pending")));
  const row = await findRental(deps.db, id);
  if (!row) throw new Error(`rental ${id} vanished after renting`);
  await startWatcher(deps.env, id);
  return row;
}

/** A paid rental that never got its number: failed, and the money back at once (at most once, by key). */
async function failAndRefund(deps: RentalDeps, id: string, reason: string): Promise<void> {
  const row = await findRental(deps.db, id);
  if (!row) return;
  await deps.db.batch([
    deps.db.update(rentals).set({ status: "failed", updatedAt: Date.now() }).where(and(eq(rentals.id, id), eq(rentals.status, "pending"))),
    ledgerInsert(deps.db, {
      userId: row.userId,
      key: `rent_refund:${id}`,
      amountKobo: row.priceKobo,
      kind: "rent_refund",
      note: `Refund: ${row.countryName} number rental, ${formatRentDuration(row.unit, row.period)} (${reason})`,
      ref: id,
    }),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export async function findRental(db: Db, id: string): Promise<RentalRow | null> {
  const [row] = await db.select().from(rentals).where(eq(rentals.id, id)).limit(1);
  return row ?? null;
}

/** The caller's rental, or 404 (another user's rental is indistinguishable from a missing one). */
export async function ownedRental(db: Db, userId: string, id: string): Promise<RentalRow> {
  const [row] = await db
    .select()
    .from(rentals)
    .where(and(eq(rentals.id, id), eq(rentals.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Rental not found.");
  return row;
}

export function canCancel(row: RentalRow, now = Date.now()): boolean {
  return row.status === "active" && row.smsCount === 0 && now - row.createdAt <= RENT_CANCEL_WINDOW_MS;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * What ending the rental now gives back, in kobo: nothing. sms-man's set-status `close` terminates the rent and returns
 * nothing upstream (https://sms-man.com/api/rent: "close - terminate the rent"), so the hours left are not refunded.
 * Kept as the one function the inbox's confirmation and the end route both read, so the screen never promises money
 * the server would not pay.
 */
export function refundIfEndedKobo(row: RentalRow): number {
  void row;
  return 0;
}

/** What cancelling now gives back, in kobo: the full price while the upstream's cancel rule allows it, else null. */
export function refundIfCancelledKobo(row: RentalRow, now = Date.now()): number | null {
  return canCancel(row, now) ? row.priceKobo : null;
}

/** A rental as the API answers it. */
export function rentalView(row: RentalRow, now = Date.now()) {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    country: row.countryName,
    country_id: row.countryId,
    unit: row.unit,
    period: row.period,
    duration: formatRentDuration(row.unit, row.period),
    provider: row.provider,
    amount: koboToNaira(row.priceKobo),
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    sms_count: row.smsCount,
    can_cancel: canCancel(row, now),
    cancel_until: row.status === "active" && row.smsCount === 0 ? iso(row.createdAt + RENT_CANCEL_WINDOW_MS) : null,
    // What each way out gives back right now (naira), decided here so the End confirmation can say it (issue 17).
    refund_if_ended: row.status === "active" ? koboToNaira(refundIfEndedKobo(row)) : null,
    refund_if_cancelled: (() => {
      const kobo = refundIfCancelledKobo(row, now);
      return kobo === null ? null : koboToNaira(kobo);
    })(),
  };
}

/** The inbox: every stored SMS, newest first. */
export async function rentalMessagesOf(db: Db, rentalId: string) {
  const rows = await db
    .select()
    .from(rentalMessages)
    .where(eq(rentalMessages.rentalId, rentalId))
    .orderBy(desc(rentalMessages.receivedAt), desc(rentalMessages.id));
  return rows.map((m) => ({ id: m.id, sender: m.sender, text: m.text, code: m.code, received_at: new Date(m.receivedAt).toISOString() }));
}

/**
 * The caller's rentals in the Order shape of docs/api.md (GET /api/orders), newest first: rentalOrderRowsQuery, then
 * toRentalOrderRows. Rentals that never got a number are left out (the spec's table ignores rows without
 * purchased_number; their refund is in the history).
 */
export function rentalOrderRowsQuery(db: Db, userId: string) {
  const latestCode = sql<string | null>`(SELECT ${rentalMessages.code} FROM ${rentalMessages}
      WHERE ${rentalMessages.rentalId} = ${rentals.id} AND ${rentalMessages.code} IS NOT NULL
      ORDER BY ${rentalMessages.receivedAt} DESC, ${rentalMessages.id} DESC LIMIT 1)`;
  return db
    .select({ rental: rentals, code: latestCode, balanceKobo: users.balanceKobo })
    .from(rentals)
    .innerJoin(users, eq(users.id, rentals.userId))
    .where(and(eq(rentals.userId, userId), sql`${rentals.number} IS NOT NULL`))
    .orderBy(desc(rentals.createdAt))
    .limit(200);
}

export function toRentalOrderRows(rows: Awaited<ReturnType<typeof rentalOrderRowsQuery>>) {
  const now = Date.now();
  return rows.map(({ rental, code, balanceKobo }) => ({
    kind: "rental" as const,
    reference_code: rental.id,
    purchased_number: rental.number,
    sms: code,
    country: rental.countryName,
    service: `Rental, ${formatRentDuration(rental.unit, rental.period)}`,
    provider: rental.provider,
    amount: koboToNaira(rental.priceKobo),
    status: rental.status,
    balance: koboToNaira(balanceKobo),
    created_at: new Date(rental.createdAt).toISOString(),
    expires_at: iso(rental.expiresAt),
    sms_count: rental.smsCount,
    can_cancel: canCancel(rental, now),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Messages

// D1 allows 100 bound parameters per statement; a message row binds 6.
const INSERT_CHUNK = 12;

async function fingerprintHash(source: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(source));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Reads the rental's SMS upstream and stores the new ones. Each message is stored once (unique fingerprint per rental,
 * ON CONFLICT DO NOTHING), and only rows inserted by this call are announced, so two overlapping polls never store or
 * notify a message twice. Returns how many were new. Upstream failures propagate as RentProviderError.
 */
export async function syncRentalMessages(deps: RentalDeps, rentalId: string): Promise<number> {
  const row = await findRental(deps.db, rentalId);
  if (!row || row.status !== "active" || !row.upstreamId) return 0;
  const list = await upstreamFor(deps, row.userId).getAllSms(row.upstreamId);
  const now = Date.now();
  const values = await Promise.all(
    list.map(async (m) => ({
      rentalId,
      fingerprint: await fingerprintHash(m.fingerprint),
      sender: m.sender.slice(0, 100),
      text: m.text.slice(0, 2000),
      code: m.code ? m.code.slice(0, 32) : null,
      receivedAt: m.receivedAt,
    })),
  );
  const inserted: { sender: string; text: string; code: string | null }[] = [];
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    const rows = await deps.db
      .insert(rentalMessages)
      .values(values.slice(i, i + INSERT_CHUNK))
      .onConflictDoNothing()
      .returning({ sender: rentalMessages.sender, text: rentalMessages.text, code: rentalMessages.code });
    inserted.push(...rows);
  }
  await deps.db
    .update(rentals)
    .set({
      // Counted, not incremented: correct however many polls overlap.
      smsCount: sql`(SELECT COUNT(*) FROM ${rentalMessages} WHERE ${rentalMessages.rentalId} = ${rentalId})`,
      lastCheckedAt: now,
      updatedAt: inserted.length > 0 ? now : row.updatedAt,
    })
    .where(eq(rentals.id, rentalId));
  for (const m of inserted) {
    await notify(deps.env, row.userId, { kind: "rental.sms", rentalId, sender: m.sender, text: m.text, code: m.code });
  }
  return inserted.length;
}

/** A final read before the number goes away; failure only costs messages the customer could not have used anyway. */
async function finalSync(deps: RentalDeps, rentalId: string): Promise<void> {
  try {
    await syncRentalMessages(deps, rentalId);
  } catch (err) {
    log("warn", "rental final SMS check failed", { rentalId, error: err instanceof Error ? err.message : String(err) });
  }
}

/** Closes the rental upstream; a failure is logged, not fatal: it was paid in full and lapses upstream by itself. */
async function closeUpstream(deps: RentalDeps, row: RentalRow): Promise<void> {
  if (!row.upstreamId) return;
  try {
    await upstreamFor(deps, row.userId).setStatus(row.upstreamId, "close");
  } catch (err) {
    log("warn", "rental close upstream failed", { rentalId: row.id, error: err instanceof Error ? err.message : String(err) });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// End, expiry, cancel

async function markEnded(deps: RentalDeps, row: RentalRow): Promise<boolean> {
  const result = await deps.db
    .update(rentals)
    .set({ status: "ended", updatedAt: Date.now() })
    .where(and(eq(rentals.id, row.id), eq(rentals.status, "active")))
    .returning({ id: rentals.id });
  if (result.length > 0) await notify(deps.env, row.userId, { kind: "rental.ended", rentalId: row.id, status: "ended", refunded: false });
  return result.length > 0;
}

/** The customer ends the rental early: close upstream, no refund. */
export async function endRental(deps: RentalDeps, userId: string, id: string): Promise<RentalRow> {
  const row = await ownedRental(deps.db, userId, id);
  await enforceCostLimit(deps.db, userId, "rental");
  if (row.status !== "active") throw new AppError("INVALID_STATE", "This rental has already ended.");
  await finalSync(deps, id);
  await closeUpstream(deps, row);
  await markEnded(deps, row);
  await stopWatcher(deps.env, id);
  return (await findRental(deps.db, id))!;
}

/** The rental's time is up (the watcher's alarm, or the sweep as a backstop). Idempotent. */
export async function expireRental(deps: RentalDeps, id: string, now = Date.now()): Promise<boolean> {
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
  await enforceCostLimit(deps.db, userId, "rental");
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
  if (Date.now() - row.createdAt > RENT_CANCEL_WINDOW_MS) {
    throw new AppError("INVALID_STATE", "A rental can only be cancelled for a refund within 20 minutes. You can end the rental instead.");
  }
  try {
    await upstreamFor(deps, row.userId).setStatus(row.upstreamId!, "cancel");
  } catch (err) {
    if (err instanceof RentProviderError && err.kind === "refused") {
      log("info", "rent cancel refused upstream", { rentalId: id, detail: err.message });
      throw new AppError("INVALID_STATE", "The provider did not allow this rental to be cancelled. You can end the rental instead.");
    }
    throw customerErrorFor(err, "cancel");
  }

  const key = `rent_refund:${id}`;
  const note = `Refund: ${row.countryName} number rental, ${formatRentDuration(row.unit, row.period)} (cancelled)`;
  const now = Date.now();
  await deps.db.batch([
    // The guarded refund first (it must still see status 'active' and no stored SMS), then the status change.
    guardedLedgerInsert(
      deps.db,
      { userId: row.userId, key, amountKobo: row.priceKobo, kind: "rent_refund", note, ref: id },
      exists(deps.db.select({ one: sql`1` }).from(rentals).where(and(eq(rentals.id, id), eq(rentals.status, "active")))),
      notExists(deps.db.select({ one: sql`1` }).from(rentalMessages).where(eq(rentalMessages.rentalId, id))),
    ),
    deps.db.update(rentals).set({ status: "cancelled", updatedAt: now }).where(and(eq(rentals.id, id), eq(rentals.status, "active"))),
  ]);
  const refunded = await hasEntry(deps.db, key);
  await stopWatcher(deps.env, id);
  const after = (await findRental(deps.db, id))!;
  // A refunded rental.ended is the balance change too: the screens refresh the wallet on it, and the webhooks queue a
  // balance.changed with it (services/webhooks.ts), as for a refunded sms.ended.
  await notify(deps.env, row.userId, { kind: "rental.ended", rentalId: id, status: "cancelled", refunded });
  return { rental: after, refunded };
}

// ---------------------------------------------------------------------------------------------------------------
// Watcher schedule and the sweep

/** How long until the next upstream check: often at first (when codes usually come), then less. */
export function nextCheckDelayMs(ageMs: number): number {
  if (ageMs < 2 * 60_000) return 5_000;
  if (ageMs < 15 * 60_000) return 30_000;
  return 2 * 60_000;
}

function watcher(env: Env, id: string) {
  return env.RENTAL.get(env.RENTAL.idFromName(id));
}

/** Starts (or re-arms, after an extension) the rental's watcher. Idempotent. */
export async function startWatcher(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).start(id);
  } catch (err) {
    // The sweep still expires the rental and the inbox still checks on demand.
    log("error", "rental watcher did not start", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

async function stopWatcher(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).stop();
  } catch (err) {
    log("warn", "rental watcher did not stop", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

/** On demand, when the customer opens the inbox: the watcher checks upstream unless it just did. */
export async function checkRentalNow(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).checkNow(id);
  } catch (err) {
    log("warn", "rental on-demand check failed", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

/** Rentals stuck 'pending' this long lost their request mid-way (the upstream call times out far sooner). */
const PENDING_GIVE_UP_MS = 5 * 60_000;
const SWEEP_BATCH = 50;

/** The cron backstop: expires rentals whose alarm never came and refunds rentals stuck before their number. */
export async function sweepRentals(deps: RentalDeps, now = Date.now()): Promise<{ expired: number; refunded: number }> {
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
export async function settleRentalNow(deps: RentalDeps, id: string, now = Date.now()): Promise<{ from: string; status: string; settled: boolean }> {
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
