import { and, eq, exists, sql } from "drizzle-orm";
import { REFUNDED_SMS_STATUSES } from "../../../schema/constants";
import { smsOrders } from "../../db/tables";
import type { SmsProvider } from "../../providers/sms/types";
import { guardedLedgerInsert, type SmsDeps } from "../kernel";
import { endChain } from "./sms-chain";
import type { SmsOrderRow } from "./sms-views";

/**
 * The guarded transitions of an SMS order that the commands (sms-orders.ts) and the tick (sms-poll.ts) both make: each
 * is one compare-and-set on the order's status, batched with its ledger row or its code row, and says whether this call
 * made it, so a race between a cancel, a poll, a push and the sweep settles an order once. Also the order's poller.
 */

type RefundedStatus = (typeof REFUNDED_SMS_STATUSES)[number];

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
 * Moves an order from `from` to a refunded final status and refunds it, atomically. Returns whether this call made
 * the transition (false: something else settled the order first, and nothing was written).
 */
export async function settle(deps: SmsDeps, order: SmsOrderRow, outcome: RefundedStatus, from: "pending" | "waiting", reason: string): Promise<boolean> {
  const db = deps.db;
  const now = deps.clock.now();
  const [moved] = await db.batch([
    db
      .update(smsOrders)
      .set({ status: outcome, failureReason: reason.slice(0, 300), updatedAt: now })
      .where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, from))),
    // Written only if the order now holds this outcome (set just above, or never: a status leaves 'waiting' once).
    guardedLedgerInsert(
      db,
      { userId: order.userId, key: `refund:${order.id}`, amountKobo: order.priceKobo, kind: "refund", note: `Refund: ${purchaseNote(order)}`, ref: order.id },
      exists(db.select({ one: sql`1` }).from(smsOrders).where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, outcome)))),
    ),
  ]);
  return (moved.meta.changes ?? 0) > 0;
}

/**
 * Stores the first code (waiting -> used) and keeps it in sms_order_codes, in one batch. The money stays spent.
 * The number stays open upstream for ANOTHER_CODE_WINDOW_MS ("request another code"); the poller completes it then.
 * Returns whether this call stored it.
 */
export async function recordCode(deps: SmsDeps, order: SmsOrderRow, code: string, provider: SmsProvider): Promise<boolean> {
  const now = deps.clock.now();
  // Without "another code" upstream (sms-man) there is nothing to keep the number open for.
  const window = provider.requestAnotherCode ? ANOTHER_CODE_WINDOW_MS : 0;
  const stored = code.slice(0, 64);
  const d1 = deps.db.$client;
  const [moved] = await d1.batch([
    d1
      .prepare("UPDATE sms_orders SET status = 'used', code = ?1, activation_closes_at = ?2, updated_at = ?3 WHERE id = ?4 AND status = 'waiting'")
      .bind(stored, now + window, now, order.id),
    d1
      .prepare(
        `INSERT INTO sms_order_codes (order_id, code, received_at)
         SELECT id, ?1, ?2 FROM sms_orders WHERE id = ?3 AND status = 'used' AND code = ?1
         ON CONFLICT(order_id, code) DO NOTHING`,
      )
      .bind(stored, now, order.id),
  ]);
  if ((moved.meta.changes ?? 0) === 0) return false;
  if (order.chainId) await endChain(deps, order.chainId, "ended", "a code came");
  await deps.notify(order.userId, { kind: "sms.code", orderId: order.id, code, number: order.number ?? "" });
  if (window === 0 && order.upstreamId) await provider.finish(order.upstreamId).catch(() => undefined);
  return true;
}

/** Stores a further code on a used order that was waiting for another one. Returns whether this call stored it. */
export async function recordAnotherCode(deps: SmsDeps, order: SmsOrderRow, code: string): Promise<boolean> {
  const now = deps.clock.now();
  const stored = code.slice(0, 64);
  const d1 = deps.db.$client;
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO sms_order_codes (order_id, code, received_at)
         SELECT id, ?1, ?2 FROM sms_orders WHERE id = ?3 AND status = 'used' AND another_code_requested_at IS NOT NULL
         ON CONFLICT(order_id, code) DO NOTHING`,
      )
      .bind(stored, now, order.id),
    d1
      .prepare(
        `UPDATE sms_orders SET code = ?1, another_code_requested_at = NULL, updated_at = ?2
          WHERE id = ?3 AND another_code_requested_at IS NOT NULL AND changes() > 0`,
      )
      .bind(stored, now, order.id),
  ]);
  if ((inserted.meta.changes ?? 0) === 0) return false;
  await deps.notify(order.userId, { kind: "sms.code", orderId: order.id, code, number: order.number ?? "" });
  return true;
}
