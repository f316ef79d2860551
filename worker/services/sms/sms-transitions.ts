import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { REFUNDED_SMS_STATUSES } from "../../../schema/constants";
import { smsOrderCodes, smsOrders } from "./tables";
import { koboToNaira } from "../../../schema/money";
import { AppError } from "../../lib/errors";
import type { SmsProvider } from "../../providers/sms/types";
import { asInsufficientBalance, deliverEvents, type LedgerEntry, ledger, moneyEntity, move, type MoveEvent, type MoveLedgerEntry, type MoveStep, type OutboxMessage, runBatch, type SmsDeps, statement, transition, users } from "../kernel";
import { smsChain } from "./sms-chain";
import type { SmsOrderRow } from "./sms-views";

/**
 * The SMS order as a money entity (docs/decisions/040, 049, 062): the only module that writes sms_orders and
 * sms_order_codes. Its moves below are what runs (services/kernel/money-entity.ts): the purchase (the order row and
 * its buy:<id> debit), then every compare-and-set on the order's status with its refund and its event, each written
 * only while the row carries the move's id, so a race between a cancel, a poll, a push and the sweep settles an order
 * once and tells it once. The commands (sms-orders.ts) and the tick (sms-poll.ts) both call these. Also the order's
 * poller.
 */

type RefundedStatus = (typeof REFUNDED_SMS_STATUSES)[number];
type NewOrder = Omit<typeof smsOrders.$inferInsert, "status" | "moveId">;

interface Ended {
  order: Pick<SmsOrderRow, "id" | "userId" | "priceKobo" | "serviceName" | "countryName">;
  reason: string;
  /** The order's sms.ended, or null when it is not told here (a purchase that never completed answers its own
   *  request; a chain's route is told by the chain's move in the same batch, which names the next order). */
  told: Extract<OutboxMessage, { kind: "sms.ended" }> | null;
}
const refund = (i: Ended): LedgerEntry => ({ userId: i.order.userId, key: `refund:${i.order.id}`, amountKobo: i.order.priceKobo, kind: "refund", note: `Refund: ${purchaseNote(i.order)}`, ref: i.order.id });
const endedEvent = (i: Ended): MoveEvent | null => (i.told ? { userId: i.order.userId, dedupe: `sms.ended:${i.order.id}`, message: i.told } : null);
const endedColumns = (i: Ended, at: number) => ({ failureReason: i.reason.slice(0, 300), updatedAt: at });

interface Coded {
  // The margin and share columns are required: a row read without them would keep the order without crediting them,
  // and nothing could credit them afterwards.
  order: Pick<SmsOrderRow, "id" | "userId" | "number" | "marginKobo" | "marginUserId" | "refShareKobo" | "refUserId"> & Partial<Pick<SmsOrderRow, "serviceName" | "countryName">>;
  /** The code as the upstream sent it (told), and as stored (at most 64 characters). */
  code: string;
  stored: string;
  closesAt: number;
}
const codeEvent = (i: Coded): MoveEvent => ({
  userId: i.order.userId,
  dedupe: `sms.code:${i.order.id}:${i.stored}`,
  message: { kind: "sms.code", orderId: i.order.id, code: i.code, number: i.order.number ?? "" },
});

/**
 * A reseller's margin on an order its sub-account bought with a markup (issue 46, decision 072): credited when the
 * order is kept (its first code), so a refund before a code never credits it; `margin:<order>` makes it once.
 */
const marginOf = (order: Coded["order"] | Kept["order"]): LedgerEntry | null =>
  order.marginKobo && order.marginUserId
    ? { userId: order.marginUserId, key: `margin:${order.id}`, amountKobo: order.marginKobo, kind: "margin", note: `Margin: ${order.serviceName ?? "number"} for a sub-account`, ref: order.id }
    : null;
const marginEvent = (order: Coded["order"] | Kept["order"], dedupe: string): MoveEvent | null =>
  order.marginKobo && order.marginUserId ? { userId: order.marginUserId, dedupe, message: { kind: "balance.changed" } } : null;

/**
 * A developer's share of an order bought with its `ref` (issue 46, decision 075): credited when the order is kept, in
 * the same code move as a reseller's margin; paid from our revenue (the customer's price is unchanged). Once: the key.
 */
const refShareOf = (order: Coded["order"] | Kept["order"]): LedgerEntry | null =>
  order.refShareKobo && order.refUserId
    ? { userId: order.refUserId, key: `ref-share:${order.id}`, amountKobo: order.refShareKobo, kind: "ref_share", note: `Developer share: ${order.serviceName ?? "number"} bought with your ref`, ref: order.id }
    : null;
const refShareEvent = (order: Coded["order"] | Kept["order"], dedupe: string): MoveEvent | null =>
  order.refShareKobo && order.refUserId ? { userId: order.refUserId, dedupe, message: { kind: "balance.changed" } } : null;

/**
 * Its reversal when an operator refunds the kept order: taken back only while the developer's wallet holds it (the
 * `onlyIf`: the ledger row is selected from that wallet's users row); otherwise the share stays our cost and the
 * customer's refund goes ahead, since a third party's spending must not hold back a customer's refund (decision 075).
 */
const refShareReversalOf = (order: Kept["order"]): MoveLedgerEntry | null =>
  order.refShareKobo > 0 && order.refUserId
    ? {
        userId: order.refUserId,
        key: `ref-share-reversal:${order.id}`,
        amountKobo: -order.refShareKobo,
        kind: "ref_share",
        note: `Developer share reversed: ${order.serviceName} refunded`,
        ref: order.id,
        onlyIf: sql`${users.balanceKobo} >= ${order.refShareKobo}`,
      }
    : null;
/** Its balance.changed, written only with the reversal's row. */
const refShareReversalEvent = (order: Kept["order"]): MoveEvent | null =>
  order.refShareKobo > 0 && order.refUserId
    ? {
        userId: order.refUserId,
        dedupe: `balance.changed:ref-share-reversal:${order.id}`,
        message: { kind: "balance.changed" },
        onlyIf: sql`EXISTS (SELECT 1 FROM ${ledger} WHERE ${ledger.key} = ${`ref-share-reversal:${order.id}`})`,
      }
    : null;

/**
 * A kept (used) order an operator refunds: the customer's price back, the reseller's margin (if any) taken back, and a
 * developer's ref share (if any) while the developer's wallet holds it.
 */
interface Kept {
  order: Pick<SmsOrderRow, "id" | "userId" | "priceKobo" | "serviceName" | "countryName" | "marginKobo" | "marginUserId" | "refShareKobo" | "refUserId">;
  reason: string;
}

export const smsOrder = moneyEntity(
  { name: "SMS order", table: smsOrders, id: "id", status: "status" },
  {
    /** The purchase: the order row and its buy:<id> debit (only within the cost limit, while the wallet holds it). */
    buy: {
      from: "new",
      to: "pending",
      values: (i: { row: NewOrder; note: string }) => i.row,
      ledger: (i: { row: NewOrder; note: string }) => ({ userId: i.row.userId, key: `buy:${i.row.id}`, amountKobo: -i.row.priceKobo, kind: "buy", note: i.note, ref: i.row.id }),
    },
    /** The upstream gave the number (and which upstream account served it: issue 32). */
    reserve: { from: ["pending"], to: "waiting", set: (i: Reserved, at) => ({ ...i, updatedAt: at }) },
    /** One more empty poll (compare-and-set on the count), or the tick a poll plan that skips ticks moves on to. */
    countPoll: {
      from: ["waiting"],
      to: null,
      claim: (i: { from: number; to: number }) => eq(smsOrders.attempts, i.from),
      set: (i: { from: number; to: number }, at) => ({ attempts: i.to, updatedAt: at }),
    },
    /**
     * The first code: the order is kept, its price stays spent; a reseller's margin on it is credited (margin:<id>), and
     * a developer's share when it was bought with a `ref` (ref-share:<id>, decision 075). Told (sms.code) with its code row.
     */
    code: {
      from: ["waiting"],
      to: "used",
      set: (i: Coded, at) => ({ code: i.stored, activationClosesAt: i.closesAt, updatedAt: at }),
      ledger: (i: Coded) => [marginOf(i.order), refShareOf(i.order)],
      event: (i: Coded) => [codeEvent(i), marginEvent(i.order, `balance.changed:margin:${i.order.id}`), refShareEvent(i.order, `balance.changed:ref-share:${i.order.id}`)],
    },
    /**
     * An operator refunds a kept order (the code was wrong, the service refused it): its price goes back under the same
     * refund:<id> key a refunded order uses (so an order is refunded at most once, whatever ended it), and the
     * reseller's margin on it is taken back (margin-reversal:<id>) in the same batch, with a developer's ref share
     * (ref-share-reversal:<id>) while its wallet holds it (decision 075). Once: kept_refunded_at.
     */
    refundKept: {
      from: ["used"],
      to: null,
      claim: () => isNull(smsOrders.keptRefundedAt),
      set: (i: Kept, at) => ({ keptRefundedAt: at, anotherCodeRequestedAt: null, failureReason: i.reason.slice(0, 300), updatedAt: at }),
      ledger: (i: Kept) => [
        { userId: i.order.userId, key: `refund:${i.order.id}`, amountKobo: i.order.priceKobo, kind: "refund", note: `Refund: ${purchaseNote(i.order)}`, ref: i.order.id },
        i.order.marginKobo > 0 && i.order.marginUserId
          ? { userId: i.order.marginUserId, key: `margin-reversal:${i.order.id}`, amountKobo: -i.order.marginKobo, kind: "margin", note: `Margin reversed: ${i.order.serviceName} refunded`, ref: i.order.id }
          : null,
        refShareReversalOf(i.order),
      ],
      event: (i: Kept) => [
        { userId: i.order.userId, dedupe: `balance.changed:refund:${i.order.id}`, message: { kind: "balance.changed" } },
        marginEvent(i.order, `balance.changed:margin-reversal:${i.order.id}`),
        refShareReversalEvent(i.order),
      ],
    },
    /** The customer asked the upstream for another code on a used order. */
    anotherCodeRequested: { from: ["used"], to: null, set: (_i: object, at) => ({ anotherCodeRequestedAt: at, updatedAt: at }) },
    /** A further code, new for this order, while another was awaited; told (sms.code) with its code row. */
    anotherCode: {
      from: ["used"],
      to: null,
      claim: (i: Coded) =>
        and(isNotNull(smsOrders.anotherCodeRequestedAt), sql`NOT EXISTS (SELECT 1 FROM ${smsOrderCodes} WHERE ${smsOrderCodes.orderId} = ${i.order.id} AND ${smsOrderCodes.code} = ${i.stored})`),
      set: (i: Coded, at) => ({ code: i.stored, anotherCodeRequestedAt: null, updatedAt: at }),
      event: codeEvent,
    },
    /** Another code did not come within its window (only if no newer request replaced this one). */
    giveUpAnotherCode: {
      from: ["used"],
      to: null,
      claim: (i: { requestedAt: number }) => eq(smsOrders.anotherCodeRequestedAt, i.requestedAt),
      set: (_i: { requestedAt: number }, at) => ({ anotherCodeRequestedAt: null, updatedAt: at }),
    },
    /** The customer completed a used number: it closes now and no further code is awaited. */
    closeActivation: { from: ["used"], to: null, set: (_i: object, at) => ({ activationClosesAt: at, anotherCodeRequestedAt: null, updatedAt: at }) },
    /** The upstream refused the purchase, or the sweep or an operator settles a purchase that never completed. */
    fail: { from: ["pending"], to: "failed", set: endedColumns, ledger: refund },
    /** No code in the polling window. */
    timeout: { from: ["waiting"], to: "timeout", set: endedColumns, ledger: refund, event: endedEvent },
    /** The upstream cancelled it. */
    error: { from: ["waiting"], to: "error", set: endedColumns, ledger: refund, event: endedEvent },
    /** The customer cancelled it. */
    cancel: { from: ["waiting"], to: "cancelled", set: endedColumns, ledger: refund, event: endedEvent },
  },
);

interface Reserved {
  upstreamId: string;
  number: string;
  upstream: string;
  upstreamAccount: number;
  attempts: number;
}

const ENDINGS = { failed: smsOrder.fail, timeout: smsOrder.timeout, error: smsOrder.error, cancelled: smsOrder.cancel } as const;

/** The move that ends an order refunded, as a step of a batch (the chain's move-on puts it in its own). */
export function endOrder(deps: Pick<SmsDeps, "db">, outcome: RefundedStatus, ended: Ended, at: number, when?: SQL): MoveStep {
  return move(deps.db, ENDINGS[outcome], ended.order.id, ended, at, { when });
}

/** The purchase's step: the order row and its debit, written only while `when` holds (the limit, the wallet, the chain). */
export function buyOrder(deps: Pick<SmsDeps, "db">, row: NewOrder, note: string, at: number, when: SQL | undefined): MoveStep {
  return move(deps.db, smsOrder.buy, row.id, { row, note }, at, { when });
}

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
 * Ends an order refunded (failed from pending; timeout, error or cancelled from waiting) in a batch of its own, with
 * the event that tells it (`told`: the sms.ended message, or null when nothing is told: a purchase that never
 * completed answers its own request). Returns whether this call made the move (false: something else settled the
 * order first, and nothing was written).
 */
export async function settle(deps: SmsDeps, order: SmsOrderRow, outcome: RefundedStatus, reason: string, told: Ended["told"] = null): Promise<boolean> {
  const { ended } = await runBatch(deps.db, { ended: endOrder(deps, outcome, { order, reason, told }, deps.clock.now()) });
  if (ended.eventWritten) await deliverEvents(deps, order.userId);
  return ended.moved;
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
  const reserved = { upstreamId: activation.upstreamId, number: activation.number, upstream: served.upstream, upstreamAccount: served.account, attempts: ticksPassed };
  return (await transition(deps.db, smsOrder.reserve, orderId, reserved, deps.clock.now())).moved;
}

/**
 * One more empty poll of a waiting order (compare-and-set on the count), or `to`: the tick count a poll plan that
 * skips ticks moves on to (services/sms/poll-plan.ts). Returns the count now stored, or null when nothing was written
 * (the order is no longer waiting, or its count moved since `order` was read).
 */
export async function countPoll(deps: SmsDeps, order: SmsOrderRow, to = order.attempts + 1): Promise<number | null> {
  const counted = await transition(deps.db, smsOrder.countPoll, order.id, { from: order.attempts, to }, deps.clock.now());
  return counted.moved ? to : null;
}

/** The customer asked the upstream for another code on a used order: the poller now waits for it. */
export async function markAnotherCodeRequested(deps: SmsDeps, orderId: string, at: number): Promise<void> {
  await transition(deps.db, smsOrder.anotherCodeRequested, orderId, {}, at);
}

/** Another code did not come within its window: stop waiting for it (only if no newer request replaced this one). */
export async function giveUpAnotherCode(deps: SmsDeps, orderId: string, requestedAt: number): Promise<void> {
  await transition(deps.db, smsOrder.giveUpAnotherCode, orderId, { requestedAt }, deps.clock.now());
}

/** The customer completed a used number: it closes now and no further code is awaited. */
export async function closeActivation(deps: SmsDeps, orderId: string): Promise<void> {
  await transition(deps.db, smsOrder.closeActivation, orderId, {}, deps.clock.now());
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
 * Stores the first code (waiting -> used) and keeps it in sms_order_codes, in one batch with its sms.code and, for a
 * chain's route, the chain's end. The money stays spent. `text` is the whole SMS where the upstream gives it
 * (DaisySMS; sms-man gives only the code), kept with the code. The number stays open upstream for
 * ANOTHER_CODE_WINDOW_MS ("request another code"); the poller completes it then. Returns whether this call stored it.
 */
export async function recordCode(deps: SmsDeps, order: SmsOrderRow, code: string, provider: SmsProvider, text?: string | null): Promise<boolean> {
  const now = deps.clock.now();
  // Without "another code" upstream (sms-man) there is nothing to keep the number open for.
  const window = provider.requestAnotherCode ? ANOTHER_CODE_WINDOW_MS : 0;
  const stored = code.slice(0, 64);
  const coded = move(deps.db, smsOrder.code, order.id, { order, code, stored, closesAt: now + window }, now);
  const { coded: made } = await runBatch(deps.db, {
    coded,
    codeRow: statement(codeRowInsert(deps, order.id, stored, storedSmsText(text), now, coded.madeIt)),
    chainEnded: order.chainId ? move(deps.db, smsChain.end, order.chainId, { from: order.id, reason: "a code came", ended: null, userId: order.userId }, now, { when: coded.madeIt }) : null,
  });
  if (!made.moved) return false;
  await deliverEvents(deps, order.userId);
  if (made.ledgerWritten && order.marginUserId) await deliverEvents(deps, order.marginUserId);
  if (made.ledgerWritten && order.refUserId) await deliverEvents(deps, order.refUserId);
  if (window === 0 && order.upstreamId) await provider.finish(order.upstreamId).catch(() => undefined);
  return true;
}

/** Stores a further code on a used order that was waiting for another one. Returns whether this call stored it. */
export async function recordAnotherCode(deps: SmsDeps, order: SmsOrderRow, code: string, text?: string | null): Promise<boolean> {
  const now = deps.clock.now();
  const stored = code.slice(0, 64);
  const coded = move(deps.db, smsOrder.anotherCode, order.id, { order, code, stored, closesAt: order.activationClosesAt ?? now }, now);
  const { coded: made } = await runBatch(deps.db, { coded, codeRow: statement(codeRowInsert(deps, order.id, stored, storedSmsText(text), now, coded.madeIt)) });
  if (!made.moved) return false;
  await deliverEvents(deps, order.userId);
  return true;
}

/** The code's row in sms_order_codes, written only with the move that stored the code; a code stored before is a no-op. */
function codeRowInsert(deps: SmsDeps, orderId: string, stored: string, text: string | null, now: number, madeIt: SQL) {
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
        .where(and(eq(smsOrders.id, orderId), madeIt)),
    )
    .onConflictDoNothing({ target: [smsOrderCodes.orderId, smsOrderCodes.code] });
}

/**
 * An operator refunds a kept (used) order (issue 46): the price back to the wallet that paid it and, for an order a
 * sub-account bought with a markup, the reseller's margin taken back, one batch. Refused (nothing moved) when the order
 * was not kept, was refunded already, or the reseller's wallet no longer holds the margin (the balance CHECK aborts
 * the batch: the operator settles that with the reseller first). A developer's ref share is taken back in the same
 * batch only while the developer's wallet holds it: never a reason to refuse the customer's refund (decision 075).
 * Answers whether it moved the order and the share left with the developer (kobo; 0 when reversed or none), which the
 * operator is told: the reversal is an `onlyIf` row, so the batch's own answer does not say whether it was written.
 */
export async function refundKeptOrder(deps: SmsDeps, order: SmsOrderRow, reason: string): Promise<{ moved: boolean; refShareKeptKobo: number }> {
  if (order.status !== "used") throw new AppError("INVALID_STATE", "Only an order whose code came can be refunded this way; an order without a code is refunded when it ends.", { status: order.status });
  if (order.keptRefundedAt !== null) throw new AppError("INVALID_STATE", "This order was refunded already.", { status: order.status });
  let result;
  try {
    result = await runBatch(deps.db, { refunded: move(deps.db, smsOrder.refundKept, order.id, { order, reason }, deps.clock.now()) });
  } catch (err) {
    if (asInsufficientBalance(err) instanceof AppError) {
      throw new AppError("INSUFFICIENT_BALANCE", `The reseller's wallet holds less than this order's margin (₦${koboToNaira(order.marginKobo).toFixed(2)}): nothing was refunded.`, { margin: koboToNaira(order.marginKobo) });
    }
    throw err;
  }
  if (result.refunded.eventWritten) {
    await deliverEvents(deps, order.userId);
    if (order.marginUserId) await deliverEvents(deps, order.marginUserId);
    if (order.refUserId) await deliverEvents(deps, order.refUserId);
  }
  if (!result.refunded.moved || order.refShareKobo <= 0 || !order.refUserId) return { moved: result.refunded.moved, refShareKeptKobo: 0 };
  const [reversed] = await deps.db.select({ key: ledger.key }).from(ledger).where(eq(ledger.key, `ref-share-reversal:${order.id}`)).limit(1);
  return { moved: true, refShareKeptKobo: reversed ? 0 : order.refShareKobo };
}
