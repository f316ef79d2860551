import { eq, sql } from "drizzle-orm";
import { formatNaira, koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { transferDeposits } from "./tables";
import { moneyEntity, type MoveEvent } from "../kernel";

/**
 * A bank transfer's arrival in a Squad virtual account as a money entity (issue 31, docs/decisions/036 and 062): the
 * only module that writes transfer_deposits. One row per Squad transaction_reference, recorded once, then moved by the
 * declared moves below: credited with its payment (payment-crediting.ts creditDeposit, the payment's move carries the
 * ledger row fund:transfer:<payment> and this move follows it in the same batch), held for an operator (the customer
 * told: payment.failed, status review), and, once an operator decided, credited or refused with the review row. What
 * arrived (amount_kobo), when (received_at), its state and what was credited (credited_kobo) stay on the row: the
 * customer's history and the console read them here.
 */

export type Deposit = typeof transferDeposits.$inferSelect;
export type NewDeposit = Omit<typeof transferDeposits.$inferInsert, "state" | "moveId">;

const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;

/** The customer's notice that a transfer is being checked (socket and webhooks: payment.failed, status review). */
const heldEvent = (i: Held): MoveEvent => ({
  userId: i.userId,
  dedupe: `payment.failed:${i.squadRef}:review`,
  message: {
    kind: "payment.failed",
    paymentId: i.paymentId,
    status: "review",
    message: `We received ${ngn(i.amountKobo)} by bank transfer. It is being checked and will be credited once confirmed.`,
  },
});

interface Held {
  squadRef: string;
  userId: string;
  paymentId: string;
  amountKobo: number;
  detail: string;
}

export const transferDeposit = moneyEntity(
  { name: "transfer deposit", table: transferDeposits, id: "squadRef", status: "state" },
  {
    /** Squad told us a transfer arrived in an account of ours: recorded once (a replayed notice adds nothing). */
    arrive: { from: "new", to: "verifying", values: (i: { row: NewDeposit }) => i.row, once: true },
    /** ...in an account we do not know: kept for the console, credited to no one. */
    arriveUnknown: { from: "new", to: "unmatched", values: (i: { row: NewDeposit }) => i.row, once: true },
    /** Credited with its payment, in the payment's batch (the payment's move carries the ledger row). */
    credit: { from: ["verifying"], to: "credited", set: (i: { paymentId: string; amountKobo: number }, at) => ({ paymentId: i.paymentId, creditedKobo: i.amountKobo, updatedAt: at }) },
    /** The same transfer was credited already (the sweep's re-query, a concurrent notice): nothing more to credit. */
    duplicate: { from: ["verifying"], to: "credited", set: (i: { detail: string }, at) => ({ creditedKobo: 0, detail: i.detail, updatedAt: at }) },
    /** Not creditable on its own (another amount, late, unconfirmed): the operator's review, the customer told. */
    hold: { from: ["verifying"], to: "review", set: (i: Held, at) => ({ paymentId: i.paymentId, detail: i.detail.slice(0, 500), updatedAt: at }), event: heldEvent },
    /** An operator credited its review (payment-reviews.ts): what they credited. */
    creditReviewed: { from: ["review"], to: "credited", set: (i: { amountKobo: number }, at) => ({ creditedKobo: i.amountKobo, updatedAt: at }) },
    /** An operator refused its review. */
    refuseReviewed: { from: ["review"], to: "refused", set: (_i: object, at) => ({ updatedAt: at }) },
  },
);

export async function findDeposit(db: Db, squadRef: string): Promise<Deposit | null> {
  const [row] = await db.select().from(transferDeposits).where(eq(transferDeposits.squadRef, squadRef)).limit(1);
  return row ?? null;
}

/** The arrival still waits for Squad's word (a guard for the payment's credit in the same batch). */
export const stillVerifying = (squadRef: string) =>
  sql`EXISTS (SELECT 1 FROM ${transferDeposits} WHERE ${transferDeposits.squadRef} = ${squadRef} AND ${transferDeposits.state} = 'verifying')`;
