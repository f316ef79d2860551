import { and, eq, exists, isNotNull, sql } from "drizzle-orm";
import type { REFUNDED_SMS_STATUSES, SmsOrderStatus } from "../../../schema/constants";
import { smsOrderCodes, smsOrders } from "../../db/tables";
import type { SmsProvider } from "../../providers/sms/types";
import { deliverEvents, guardedLedgerInsert, outboxInsert, type OutboxMessage, type SmsDeps } from "../kernel";
import { endChain } from "./sms-chain";
import type { SmsOrderRow } from "./sms-views";

/**
 * The SMS order as a money entity (docs/decisions/040): its declared transitions below, and the only module that
 * writes an order's row after its purchase batch inserts it (scripts/lint.ts refuses `update(smsOrders)` and raw
 * `UPDATE sms_orders` anywhere else). Each transition is one compare-and-set on the order's status, batched with its
 * ledger row, its code row and its outbox event (services/kernel/outbox.ts), and says whether this call made it, so a
 * race between a cancel, a poll, a push and the sweep settles an order once and tells it once. The commands
 * (sms-orders.ts) and the tick (sms-poll.ts) both call these. Also the order's poller.
 */

type RefundedStatus = (typeof REFUNDED_SMS_STATUSES)[number];

/**
 * Every way an order's status moves, with the ledger row and the events the move writes in its batch. The purchase
 * itself (insert 'pending' + `buy:<id>` debit) is sms-orders.ts' batch; everything after is here.
 */
export const SMS_ORDER_TRANSITIONS = {
  /** The upstream gave the number. */
  reserve: { from: ["pending"], to: "waiting", ledger: null, events: [] },
  /** The upstream refused the purchase, or the sweep/an operator settles a purchase that never completed. */
  fail: { from: ["pending"], to: "failed", ledger: "refund:<orderId>", events: [] },
  /** The first code. */
  code: { from: ["waiting"], to: "used", ledger: null, events: ["sms.code"] },
  /** A further code after "another code" (the status stays). */
  anotherCode: { from: ["used"], to: "used", ledger: null, events: ["sms.code"] },
  /** No code in the polling window. A chain's route tells its end after the move-on (it names the next order). */
  timeout: { from: ["waiting"], to: "timeout", ledger: "refund:<orderId>", events: ["sms.ended"] },
  /** The upstream cancelled it. */
  error: { from: ["waiting"], to: "error", ledger: "refund:<orderId>", events: ["sms.ended"] },
  /** The customer cancelled it. */
  cancel: { from: ["waiting"], to: "cancelled", ledger: "refund:<orderId>", events: ["sms.ended"] },
} as const satisfies Record<string, { from: readonly SmsOrderStatus[]; to: SmsOrderStatus; ledger: string | null; events: readonly OutboxMessage["kind"][] }>;

const holds = (deps: Pick<SmsDeps, "db">, orderId: string, ...conditions: ReturnType<typeof eq>[]) =>
  exists(deps.db.select({ one: sql`1` }).from(smsOrders).where(and(eq(smsOrders.id, orderId), ...conditions)));

/**
 * After its first code a number stays open upstream this long, so the customer can "request another code"
 * (SMS-Activate setStatus 3); then the poller completes it upstream (setStatus 6). SMS-Activate activations live
 * about 20 minutes in all, so 10 minutes after the code fits inside every upstream's window.
 */
export const ANOTHER_CODE_WINDOW_MS = 10 * 60_000;

/** The ledger note of the debit and of its refund. */
export function purchaseNote(order: Pick<SmsOrderRow, "serviceName" | "countryName">): string {
  return `${order.serviceName} number (${order.countryName})`;
}

/** The order's Durable Object (objects/sms-order-poller.ts, idFromName(orderId)): started by a buy or "another code", stopped by a cancel. */
export function pollerFor(deps: SmsDeps, orderId: string) {
  return deps.env.SMS_ORDER.get(deps.env.SMS_ORDER.idFromName(orderId));
}

/**
 * Moves an order from `from` to a refunded final status and refunds it, atomically, with the event that tells it
 * (`ended`: the sms.ended message, or null when nothing is told: a purchase that never completed answers its own
 * request, and a chain's route tells its end after the move-on). Returns whether this call made the transition
 * (false: something else settled the order first, and nothing was written).
 */
export async function settle(
  deps: SmsDeps,
  order: SmsOrderRow,
  outcome: RefundedStatus,
  from: "pending" | "waiting",
  reason: string,
  ended: Extract<OutboxMessage, { kind: "sms.ended" }> | null = null,
): Promise<boolean> {
  const db = deps.db;
  const now = deps.clock.now();
  // Written only if the order now holds this outcome (set just above, or never: a status leaves 'waiting' once).
  const settled = holds(deps, order.id, eq(smsOrders.status, outcome));
  const [moved] = await db.batch([
    db
      .update(smsOrders)
      .set({ status: outcome, failureReason: reason.slice(0, 300), updatedAt: now })
      .where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, from))),
    guardedLedgerInsert(
      db,
      { at: now, userId: order.userId, key: `refund:${order.id}`, amountKobo: order.priceKobo, kind: "refund", note: `Refund: ${purchaseNote(order)}`, ref: order.id },
      settled,
    ),
    ...(ended ? [outboxInsert(db, { userId: order.userId, dedupe: `sms.ended:${order.id}`, message: ended, at: now }, settled)] : []),
  ]);
  const made = (moved.meta.changes ?? 0) > 0;
  if (made && ended) await deliverEvents(deps, order.userId);
  return made;
}

/** pending -> waiting: the upstream gave the number. Returns whether this call moved it (false: the sweep settled it first). */
export async function markReserved(
  deps: SmsDeps,
  orderId: string,
  activation: { upstreamId: string; number: string },
  /** Which upstream account served it (issue 32: the order says so). */
  served: { upstream: string; account: number },
  /** Ticks of the polling window the poll plan starts past (poll-plan.ts: 0, or 2 where codes are pushed). */
  ticksPassed = 0,
): Promise<boolean> {
  const [waiting] = await deps.db
    .update(smsOrders)
    .set({ status: "waiting", upstreamId: activation.upstreamId, number: activation.number, upstream: served.upstream, upstreamAccount: served.account, attempts: ticksPassed, updatedAt: deps.clock.now() })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "pending")))
    .returning({ id: smsOrders.id });
  return waiting !== undefined;
}

/**
 * One more empty poll of a waiting order (compare-and-set on the count), or `to`: the tick count a poll plan that
 * skips ticks moves on to (services/sms/poll-plan.ts). Returns the count now stored, or null when nothing was written
 * (the order is no longer waiting, or its count moved since `order` was read).
 */
export async function countPoll(deps: SmsDeps, order: SmsOrderRow, to = order.attempts + 1): Promise<number | null> {
  const [counted] = await deps.db
    .update(smsOrders)
    .set({ attempts: to, updatedAt: deps.clock.now() })
    .where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, "waiting"), eq(smsOrders.attempts, order.attempts)))
    .returning({ attempts: smsOrders.attempts });
  return counted?.attempts ?? null;
}

/** The customer asked the upstream for another code on a used order: the poller now waits for it. */
export async function markAnotherCodeRequested(deps: SmsDeps, orderId: string, at: number): Promise<void> {
  await deps.db
    .update(smsOrders)
    .set({ anotherCodeRequestedAt: at, updatedAt: at })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "used")));
}

/** Another code did not come within its window: stop waiting for it (only if no newer request replaced this one). */
export async function giveUpAnotherCode(deps: SmsDeps, orderId: string, requestedAt: number): Promise<void> {
  await deps.db
    .update(smsOrders)
    .set({ anotherCodeRequestedAt: null, updatedAt: deps.clock.now() })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.anotherCodeRequestedAt, requestedAt)));
}

/** The customer completed a used number: it closes now and no further code is awaited. */
export async function closeActivation(deps: SmsDeps, orderId: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .update(smsOrders)
    .set({ activationClosesAt: now, anotherCodeRequestedAt: null, updatedAt: now })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "used")));
}

/** The longest message kept (a long SMS is sent in parts; ten parts of 160 characters is far beyond any code's). */
export const SMS_TEXT_MAX = 1600;

/**
 * The whole message as the customer is shown it (issue 28), or null when the upstream gave only the code: control
 * characters other than line breaks dropped, blanks trimmed, at most SMS_TEXT_MAX characters.
 */
export function storedSmsText(text: string | null | undefined): string | null {
  if (typeof text !== "string") return null;
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "").trim();
  return clean ? clean.slice(0, SMS_TEXT_MAX) : null;
}

/**
 * Stores the first code (waiting -> used) and keeps it in sms_order_codes, in one batch. The money stays spent.
 * `text` is the whole SMS where the upstream gives it (DaisySMS; sms-man gives only the code), kept with the code.
 * The number stays open upstream for ANOTHER_CODE_WINDOW_MS ("request another code"); the poller completes it then.
 * Returns whether this call stored it.
 */
export async function recordCode(deps: SmsDeps, order: SmsOrderRow, code: string, provider: SmsProvider, text?: string | null): Promise<boolean> {
  const now = deps.clock.now();
  // Without "another code" upstream (sms-man) there is nothing to keep the number open for.
  const window = provider.requestAnotherCode ? ANOTHER_CODE_WINDOW_MS : 0;
  const stored = code.slice(0, 64);
  const db = deps.db;
  const [moved] = await db.batch([
    db
      .update(smsOrders)
      .set({ status: "used", code: stored, activationClosesAt: now + window, updatedAt: now })
      .where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, "waiting"))),
    codeRowInsert(deps, order.id, stored, storedSmsText(text), now, eq(smsOrders.status, "used"), eq(smsOrders.code, stored)),
    codeEvent(deps, order, code, stored, now),
  ]);
  if ((moved.meta.changes ?? 0) === 0) return false;
  if (order.chainId) await endChain(deps, order.chainId, "ended", "a code came");
  await deliverEvents(deps, order.userId);
  if (window === 0 && order.upstreamId) await provider.finish(order.upstreamId).catch(() => undefined);
  return true;
}

/** Stores a further code on a used order that was waiting for another one. Returns whether this call stored it. */
export async function recordAnotherCode(deps: SmsDeps, order: SmsOrderRow, code: string, text?: string | null): Promise<boolean> {
  const now = deps.clock.now();
  const stored = code.slice(0, 64);
  const db = deps.db;
  const [inserted] = await db.batch([
    codeRowInsert(deps, order.id, stored, storedSmsText(text), now, eq(smsOrders.status, "used"), isNotNull(smsOrders.anotherCodeRequestedAt)),
    db
      .update(smsOrders)
      .set({ code: stored, anotherCodeRequestedAt: null, updatedAt: now })
      // changes(): only when the code row above was new (a code already stored is not another code).
      .where(and(eq(smsOrders.id, order.id), isNotNull(smsOrders.anotherCodeRequestedAt), sql`changes() > 0`)),
    codeEvent(deps, order, code, stored, now),
  ]);
  if ((inserted.meta.changes ?? 0) === 0) return false;
  await deliverEvents(deps, order.userId);
  return true;
}

/** The code's row in sms_order_codes, written only while the order holds `conditions`; a code stored before is a no-op. */
function codeRowInsert(deps: SmsDeps, orderId: string, stored: string, text: string | null, now: number, ...conditions: ReturnType<typeof eq>[]) {
  const db = deps.db;
  return db
    .insert(smsOrderCodes)
    .select(
      db
        .select({
          id: sql<number>`NULL`.as("id"),
          orderId: sql<string>`${smsOrders.id}`.as("order_id"),
          code: sql<string>`${stored}`.as("code"),
          receivedAt: sql<number>`${now}`.as("received_at"),
          text: sql<string | null>`${text}`.as("text"),
        })
        .from(smsOrders)
        .where(and(eq(smsOrders.id, orderId), ...conditions)),
    )
    .onConflictDoNothing({ target: [smsOrderCodes.orderId, smsOrderCodes.code] });
}

/** The sms.code event, written once the code's row exists (one event per order and code, whichever call stored it). */
function codeEvent(deps: SmsDeps, order: SmsOrderRow, code: string, stored: string, now: number) {
  const stored_ = exists(deps.db.select({ one: sql`1` }).from(smsOrderCodes).where(and(eq(smsOrderCodes.orderId, order.id), eq(smsOrderCodes.code, stored))));
  return outboxInsert(
    deps.db,
    { userId: order.userId, dedupe: `sms.code:${order.id}:${stored}`, message: { kind: "sms.code", orderId: order.id, code, number: order.number ?? "" }, at: now },
    stored_,
  );
}
