import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { RentalStatus } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import { formatRentDuration, RENT_CANCEL_WINDOW_MS, type RentalMessageView, type RentalView } from "../../../schema/rentals";
import type { OrderRow } from "../../../schema/sms";
import type { Db } from "../../db/client";
import { rentalMessages, rentals } from "./tables";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import type { PageAfter } from "../sms";
import { isRentUpstream, RENT_UPSTREAM_EXTENDS } from "../../providers/rent";

/** Rentals as the customer and the API read them: lookups, the rental view, the inbox's messages, the orders rows. */

export type RentalRow = typeof rentals.$inferSelect;

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

export function canCancel(row: RentalRow, now: number): boolean {
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
export function refundIfCancelledKobo(row: RentalRow, now: number): number | null {
  return canCancel(row, now) ? row.priceKobo : null;
}

/** A rental as the API answers it. */
export function rentalView(row: RentalRow, now: number): RentalView {
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
    // Issue 49: Extend and auto-renew are offered where the rental's upstream documents extension (HeroSMS's).
    extendable: isRentUpstream(row.upstream) && RENT_UPSTREAM_EXTENDS[row.upstream],
    cancel_until: row.status === "active" && row.smsCount === 0 ? iso(row.createdAt + RENT_CANCEL_WINDOW_MS) : null,
    // What each way out gives back right now (naira), decided here so the End confirmation can say it (issue 17).
    refund_if_ended: row.status === "active" ? koboToNaira(refundIfEndedKobo(row)) : null,
    refund_if_cancelled: (() => {
      const kobo = refundIfCancelledKobo(row, now);
      return kobo === null ? null : koboToNaira(kobo);
    })(),
    auto_renew:
      row.autoRenewPriceKobo === null || row.autoRenewUnit === null || row.autoRenewPeriod === null
        ? null
        : {
            duration: formatRentDuration(row.autoRenewUnit, row.autoRenewPeriod),
            unit: row.autoRenewUnit,
            period: row.autoRenewPeriod,
            price: koboToNaira(row.autoRenewPriceKobo),
            // Charged RENEW_BEFORE_END_MS (15 minutes) before the end: services/rent/renewals.ts.
            renews_at: row.status === "active" && row.autoRenewPaused === null && row.expiresAt !== null ? iso(row.expiresAt - 15 * 60_000) : null,
            paused: (row.autoRenewPaused as "price" | "funds" | "provider" | null) ?? null,
          },
  };
}

/** When each rental last received a message (issue 49, the number's health), for a page of rentals: one read. */
export async function lastMessageTimes(db: Db, rentalIds: string[]): Promise<Map<string, string>> {
  if (rentalIds.length === 0) return new Map();
  const rows = await db
    .select({ id: rentalMessages.rentalId, at: sql<number>`MAX(${rentalMessages.receivedAt})` })
    .from(rentalMessages)
    .where(inArray(rentalMessages.rentalId, rentalIds))
    .groupBy(rentalMessages.rentalId);
  return new Map(rows.map((r) => [r.id, new Date(Number(r.at)).toISOString()]));
}

/** The inbox: every stored SMS, newest first. */
export async function rentalMessagesOf(db: Db, rentalId: string): Promise<RentalMessageView[]> {
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
  // Issue 49, the number's health: when it last received a message (neither rent upstream documents a check of the line,
  // so the last message is what we know).
  const lastMessageAt = sql<number | null>`(SELECT MAX(${rentalMessages.receivedAt}) FROM ${rentalMessages} WHERE ${rentalMessages.rentalId} = ${rentals.id})`;
  return db
    .select({ rental: rentals, code: latestCode, lastMessageAt, balanceKobo: users.balanceKobo })
    .from(rentals)
    .innerJoin(users, eq(users.id, rentals.userId))
    .where(and(eq(rentals.userId, userId), sql`${rentals.number} IS NOT NULL`))
    .orderBy(desc(rentals.createdAt))
    .limit(200);
}

export function toRentalOrderRows(rows: Awaited<ReturnType<typeof rentalOrderRowsQuery>>, now: number): OrderRow[] {
  // The query already leaves out rentals without a number; this says so to the type (OrderRow's number is a string).
  return rows.flatMap(({ rental, code, lastMessageAt, balanceKobo }) => (rental.number === null ? [] : [{
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
    last_message_at: iso(lastMessageAt === null ? null : Number(lastMessageAt)),
  }]));
}

/** One page of the caller's rentals, newest first, optionally in one status (GET /api/v1/rentals; as smsOrdersPage). */
export async function rentalsPage(
  db: Db,
  userId: string,
  query: { status?: RentalStatus; limit: number; after?: PageAfter },
): Promise<{ rows: RentalRow[]; more: boolean }> {
  const where: SQL[] = [eq(rentals.userId, userId)];
  if (query.status) where.push(eq(rentals.status, query.status));
  if (query.after) {
    const { createdAt, id } = query.after;
    where.push(or(lt(rentals.createdAt, createdAt), and(eq(rentals.createdAt, createdAt), lt(rentals.id, id)))!);
  }
  const rows = await db
    .select()
    .from(rentals)
    .where(and(...where))
    .orderBy(desc(rentals.createdAt), desc(rentals.id))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
}

/** How many rentals of one wallet are still running (a reseller's sub-account closes only with none: issue 46). */
export async function activeRentalsOf(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ count: sql<number>`COUNT(*)` }).from(rentals).where(and(eq(rentals.userId, userId), eq(rentals.status, "active")));
  return row?.count ?? 0;
}
