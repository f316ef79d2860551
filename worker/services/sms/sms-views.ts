import { and, asc, desc, eq, gt, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { jsonRow } from "../../db/json-row";
import { koboToNaira } from "../../../schema/money";
import { smsClientStatus, type OrderRow, type SmsChainState, type SmsHoldTime, type SmsRefundStateResponse, type SmsStatusResponse } from "../../../schema/sms";
import { REFUNDED_SMS_STATUSES, SMS_ERROR_TEXT, SMS_TIMEOUT_TEXT, type SmsOrderStatus, type SmsPhase } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { smsOrderCodes, smsOrders } from "./tables";
import { AppError } from "../../lib/errors";
import { getSetting, type SmsDeps } from "../kernel";
import { chainStateFor } from "./sms-chain";
import { upstreamFor } from "./sms-upstream";

/** Receive-SMS orders as the customer and the API read them: lookups, the status answer, codes, the orders rows. */

export type SmsOrderRow = typeof smsOrders.$inferSelect;

/** The statuses whose money went back to the customer (refund:<id>). */
export const REFUNDED = new Set<string>(REFUNDED_SMS_STATUSES);

/** Any order by id (the tick, the sweep, the operator). */
export async function findSmsOrder(db: Db, orderId: string): Promise<SmsOrderRow | undefined> {
  const [row] = await db.select().from(smsOrders).where(eq(smsOrders.id, orderId)).limit(1);
  return row;
}

/** The caller's own order; anyone else's is indistinguishable from one that does not exist. */
export async function ownSmsOrder(db: Db, userId: string, orderId: string): Promise<SmsOrderRow> {
  const [row] = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Order not found.");
  return row;
}

export async function smsOrderStatus(deps: SmsDeps, userId: string, orderId: string): Promise<SmsStatusResponse> {
  const db = deps.db;
  const order = await ownSmsOrder(db, userId, orderId);
  const supportsAnotherCode = Boolean(upstreamFor(deps, order).requestAnotherCode);
  const messages = await orderMessages(db, order.id);
  const codes = messages.map((m) => m.code);
  const chain = await chainStateFor(db, order);
  return {
    request_id: order.id,
    // The original client's words (a stored code is "completed"), our own state beside them (issue 27).
    status: smsClientStatus(order.status),
    state: order.status,
    phase: smsOrderPhase(order.status, chain),
    attempts: order.attempts,
    elapsed_seconds: elapsedSeconds(order, deps.clock.now()),
    number: order.number,
    sms: smsText(order),
    sms_code: order.code,
    refunded: REFUNDED.has(order.status),
    // Every code received (an order can hold several after "request another code"); the latest is sms_code.
    codes: codes.length > 0 || !order.code ? codes : [order.code],
    waiting_for_another_code: order.anotherCodeRequestedAt !== null,
    another_code_until: order.anotherCodeRequestedAt !== null && order.activationClosesAt !== null ? new Date(order.activationClosesAt).toISOString() : null,
    can_request_another_code: canRequestAnotherCode(order, deps.clock.now()),
    // Free where it exists: only a number that stayed open after its code (the provider supports it) can have one.
    another_code_price: supportsAnotherCode ? 0 : null,
    chain,
    refund_at: await refundAt(db, order, deps.clock.now()),
    sms_text: order.status === "used" ? (messages.at(-1)?.text ?? null) : null,
    country: order.countryName,
    provider: order.provider === "Dynamic" ? "Dynamic" : "Swift",
  };
}

/**
 * What the customer sees of an order (schema/constants.ts SMS_PHASES), from our state alone: the one place it is
 * decided. A stored code wins over everything (a code that came during a cancel is the customer's, and was charged);
 * a route of "try another number" that ended without a code while the chain moves on is still "waiting" for the
 * customer, who follows `chain.next_request_id`; a customer's cancel is shown as such even inside a chain.
 */
export function smsOrderPhase(state: SmsOrderStatus, chain: Pick<SmsChainState, "next_request_id" | "moving_on"> | null): SmsPhase {
  if (state === "used") return "received";
  if (state === "cancelled") return "cancelled";
  if (chain && (chain.next_request_id !== null || chain.moving_on)) return "waiting";
  if (state === "timeout") return "timeout";
  if (state === "error" || state === "failed") return "error";
  return "waiting";
}

/** From the purchase to now while it is open, or to its last change once it ended (a code, a refund, a cancel). */
function elapsedSeconds(order: SmsOrderRow, now: number): number {
  const open = order.status === "pending" || order.status === "waiting";
  return Math.max(0, Math.floor(((open ? now : order.updatedAt) - order.createdAt) / 1000));
}

/**
 * When a waiting order is refunded if no code comes: one poll every interval_ms, up to max_attempts (the operator's
 * sms_poll setting, services/sms-poll.ts), counted from the polls already made. The dialog counts down to it.
 */
async function refundAt(db: Db, order: SmsOrderRow, now: number): Promise<string | null> {
  if (order.status !== "waiting" && order.status !== "pending") return null;
  const poll = await getSetting(db, "sms_poll");
  const left = Math.max(0, poll.max_attempts - order.attempts);
  return new Date(now + left * poll.interval_ms).toISOString();
}

/** How long a number is held for its code before the automatic refund, said before purchase (issue 28). */
export async function smsHoldTime(db: Db): Promise<SmsHoldTime> {
  const poll = await getSetting(db, "sms_poll");
  return { seconds: Math.round((poll.interval_ms * poll.max_attempts) / 1000) };
}

export function canRequestAnotherCode(order: Pick<SmsOrderRow, "status" | "anotherCodeRequestedAt" | "activationClosesAt">, now: number): boolean {
  return order.status === "used" && order.anotherCodeRequestedAt === null && order.activationClosesAt !== null && now < order.activationClosesAt;
}

function smsText(order: SmsOrderRow): string | null {
  if (order.status === "used") return order.code;
  if (order.status === "timeout") return SMS_TIMEOUT_TEXT;
  if (order.status === "error" || order.status === "failed") return SMS_ERROR_TEXT;
  return null;
}

/** POST /api/refund-user: the refund state only. Refunds are the server's decision (poller, cancel, sweep). */
export async function smsRefundState(db: Db, userId: string, orderId: string): Promise<SmsRefundStateResponse> {
  const order = await ownSmsOrder(db, userId, orderId);
  const refunded = REFUNDED.has(order.status);
  return { request_id: order.id, status: order.status, refunded, amount: refunded ? koboToNaira(order.priceKobo) : 0 };
}

/** Every code the order received, oldest first. */
export async function orderCodes(db: Db, orderId: string): Promise<string[]> {
  return (await orderMessages(db, orderId)).map((m) => m.code);
}

/** Every message the order received, oldest first: its code, and its whole text where the upstream gave it. */
export async function orderMessages(db: Db, orderId: string): Promise<{ code: string; text: string | null }[]> {
  return db
    .select({ code: smsOrderCodes.code, text: smsOrderCodes.text })
    .from(smsOrderCodes)
    .where(eq(smsOrderCodes.orderId, orderId))
    .orderBy(asc(smsOrderCodes.id));
}

/** The order's latest code with its time and whole text (the SMS-Activate protocol's getStatusV2). */
export async function lastCodeOf(db: Db, orderId: string): Promise<{ code: string; receivedAt: number; text: string | null } | undefined> {
  const [last] = await db
    .select({ code: smsOrderCodes.code, receivedAt: smsOrderCodes.receivedAt, text: smsOrderCodes.text })
    .from(smsOrderCodes)
    .where(eq(smsOrderCodes.orderId, orderId))
    .orderBy(desc(smsOrderCodes.id))
    .limit(1);
  return last;
}

/** The customer's orders still running (waiting for a code, or used and open for another code), newest first. */
export function activeOrdersOf(db: Db, userId: string, now: number): Promise<SmsOrderRow[]> {
  return db
    .select()
    .from(smsOrders)
    .where(
      and(
        eq(smsOrders.userId, userId),
        isNotNull(smsOrders.number),
        or(inArray(smsOrders.status, ["pending", "waiting"]), and(eq(smsOrders.status, "used"), gt(smsOrders.activationClosesAt, now))),
      ),
    )
    .orderBy(desc(smsOrders.createdAt))
    .limit(50);
}

/**
 * The customer's newest orders with a number, each as one JSON row (db/json-row.ts), as the subquery the orders list of
 * both products unions with the rentals (services/rent/order-list.ts: one statement for the dashboard's list).
 */
export function newestOrdersAsJson(db: Db, userId: string, limit: number) {
  return db
    .select({ kind: sql<"sms" | "rental">`'sms'`.as("kind"), row: sql<string>`${jsonRow(smsOrders)}`.as("row"), code: sql<string | null>`NULL`.as("code") })
    .from(smsOrders)
    .where(and(eq(smsOrders.userId, userId), isNotNull(smsOrders.number)))
    .orderBy(desc(smsOrders.createdAt))
    .limit(limit)
    .as("newest_sms");
}

/** Codes of several orders at once (lists). */
export async function codesByOrder(db: Db, orderIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({ orderId: smsOrderCodes.orderId, code: smsOrderCodes.code })
    .from(smsOrderCodes)
    .where(inArray(smsOrderCodes.orderId, orderIds.slice(0, 90)))
    .orderBy(asc(smsOrderCodes.id));
  for (const r of rows) out.set(r.orderId, [...(out.get(r.orderId) ?? []), r.code]);
  return out;
}

/** The orders table's SMS rows, not yet sent (the orders route batches it with the session check). */
export function smsOrderRowsQuery(db: Db, userId: string) {
  return db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.userId, userId), isNotNull(smsOrders.number)))
    .orderBy(desc(smsOrders.createdAt))
    .limit(200);
}

export function toSmsOrderRows(rows: Awaited<ReturnType<typeof smsOrderRowsQuery>>, balanceKobo: number, useAgain?: (order: SmsOrderRow) => boolean): OrderRow[] {
  return rows.map((o) => ({
    kind: "sms" as const,
    reference_code: o.id,
    purchased_number: o.number ?? "",
    sms: o.code,
    country: o.countryName,
    service: o.serviceName,
    provider: o.provider,
    amount: koboToNaira(o.priceKobo),
    status: o.status,
    balance: koboToNaira(balanceKobo),
    created_at: new Date(o.createdAt).toISOString(),
    // Only routes of a "code or next route" chain carry these: every other row keeps the spec's Order shape.
    ...(o.chainId ? { chain_id: o.chainId, chain_step: o.chainStep } : {}),
    // "Use this number again" (services/sms/use-again.ts): only where the server would accept it now.
    ...(useAgain?.(o) ? { use_again: true as const } : {}),
  }));
}

/** Where a page of a newest-first list starts: strictly older than this (created_at, id). */
export interface PageAfter {
  createdAt: number;
  id: string;
}

/**
 * One page of the caller's orders, newest first (id breaks ties of one millisecond), optionally in one status: the
 * developer API's GET /sms/orders. Asks one row more than `limit` so the caller knows whether an older page exists.
 */
export async function smsOrdersPage(
  db: Db,
  userId: string,
  query: { status?: SmsOrderStatus; limit: number; after?: PageAfter },
): Promise<{ rows: SmsOrderRow[]; more: boolean }> {
  const where: SQL[] = [eq(smsOrders.userId, userId)];
  if (query.status) where.push(eq(smsOrders.status, query.status));
  if (query.after) {
    const { createdAt, id } = query.after;
    where.push(or(lt(smsOrders.createdAt, createdAt), and(eq(smsOrders.createdAt, createdAt), lt(smsOrders.id, id)))!);
  }
  const rows = await db
    .select()
    .from(smsOrders)
    .where(and(...where))
    .orderBy(desc(smsOrders.createdAt), desc(smsOrders.id))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
}
