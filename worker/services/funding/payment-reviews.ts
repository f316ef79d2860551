import { desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ReviewQueueItem } from "../../../schema/admin";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { paymentReviewResolutions, paymentReviews, reviewItemResolutions } from "./tables";
import { users } from "../kernel";
import { log } from "../../lib/log";
import { moneyEntity, move, type MoneyStep, type Moved, type MoveEvent, type MoveStep, statement } from "../kernel";
import { depositEvent, depositLedger, type DepositCredit } from "./payment-transitions";

/**
 * Crypto arrivals that do not match their invoice (docs/decisions/015), card payments Squad confirmed for another
 * amount than the checkout's (decision 031) and bank transfers that may not be credited on their own (decision 036)
 * wait for an operator here: never credited automatically. The console lists them (listPaymentReviews) and an
 * operator resolves each one exactly once (review-decisions.ts): credit an amount through the ledger, or refuse.
 */

export type PaymentReview = typeof paymentReviews.$inferSelect;
type NewReview = Omit<typeof paymentReviews.$inferInsert, "status" | "moveId">;

/**
 * The review item as a money entity (docs/decisions/049, 062): a payment_reviews row, the only module that writes it.
 * Its credit carries the deposit's ledger row fund:review:<review id> and the customer's payment.credited; its refusal
 * tells the customer (payment.failed, status refused). The decision itself is a resolution row written once (its
 * primary key) in the same batch (review-decisions.ts), so a second decision rolls its whole batch back.
 */
export const reviewItem = moneyEntity(
  { name: "review item", table: paymentReviews, id: "id", status: "status" },
  {
    /** An arrival that may not be credited on its own is held (crypto-payments.ts, card-payments.ts, bank-transfers.ts). */
    open: { from: "new", to: "open", values: (i: { row: NewReview }) => i.row, once: true },
    /** Credited by an operator: the deposit's ledger row and payment.credited (payment-crediting.ts creditDeposit). */
    credit: { from: ["open"], to: "credited", set: (_i: DepositCredit, at) => ({ updatedAt: at }), ledger: depositLedger, event: depositEvent },
    /** Refused by an operator: the customer is told (a toast on an open screen, a webhook, and an e-mail). */
    refuse: { from: ["open"], to: "refused", set: (_i: MoveEvent, at) => ({ updatedAt: at }), event: (i: MoveEvent) => i },
  },
);

/**
 * The decision on a queue item that is no payment_reviews row (services/console/review-queue.ts): a card checkout
 * pending too long (item id: the payment's id) or a transfer into an account we do not know (item id: ua_<Squad's
 * reference>). Written once (its primary key) in the decision's batch: a second decision on the same item fails and
 * rolls its whole batch back (catch `isUniqueViolation`). Never changed afterwards.
 */
export const queueDecision = moneyEntity(
  { name: "review decision", table: reviewItemResolutions, id: "itemId", status: "outcome" },
  {
    /** A stale card checkout Squad confirmed: credited by the card's own credit in the same batch. */
    creditCard: { from: "new", to: "credited", values: decisionRow },
    /** A stale card checkout refused: its payment pending -> refused follows in the same batch. */
    refuseCard: { from: "new", to: "refused", values: decisionRow },
    /** A transfer into an unknown account closed (never credited from the queue: decision 036). */
    closeUnknownTransfer: { from: "new", to: "refused", values: decisionRow },
  },
);

export interface QueueDecision {
  itemId: string;
  kind: "card" | "transfer";
  amountKobo: number | null;
  operatorId: string;
  note: string;
}
function decisionRow(i: QueueDecision, at: number) {
  return { itemId: i.itemId, kind: i.kind, amountKobo: i.amountKobo, operatorId: i.operatorId, note: i.note.slice(0, 2000), createdAt: at };
}

/** The resolution row of a review row's decision (its primary key makes a second decision fail the batch). */
export function reviewResolution(db: Db, row: { reviewId: string; outcome: "credited" | "refused"; amountKobo: number | null; operatorId: string; note: string; at: number }): MoneyStep<{ written: number }> {
  return statement(db.insert(paymentReviewResolutions).values({ reviewId: row.reviewId, outcome: row.outcome, amountKobo: row.amountKobo, operatorId: row.operatorId, note: row.note, createdAt: row.at }));
}

/** A queue item's decision for the decision's batch, written only while `when` holds (the card still pending). */
export function decideQueueItem(db: Db, move_: (typeof queueDecision)[keyof typeof queueDecision], decision: QueueDecision, at: number, when?: SQL): MoveStep {
  return move(db, move_, decision.itemId, decision, at, { when });
}

export type PaymentReviewReason = PaymentReview["reason"];

export interface OpenReviewInput {
  /** Default nowpayments (a crypto arrival); squad for a card charge of another amount. */
  provider?: PaymentReview["provider"];
  payment: { id: string; userId: string; payCurrency: string | null; payAmount: string | null };
  providerPaymentId: string;
  reason: PaymentReviewReason;
  payCurrency: string | null;
  actuallyPaid: number | null;
  suggestedKobo: number | null;
  detail: string;
}

/** The step that records one arrival for review; a replay (same upstream payment and reason) adds nothing. */
export function openReview(db: Db, input: OpenReviewInput, at: number): MoneyStep<Moved> {
  const id = `rv_${crypto.randomUUID().replace(/-/g, "")}`;
  const row: NewReview = {
    id,
    paymentId: input.payment.id,
    userId: input.payment.userId,
    provider: input.provider ?? "nowpayments",
    providerPaymentId: input.providerPaymentId,
    reason: input.reason,
    expectedCurrency: input.payment.payCurrency,
    expectedAmount: input.payment.payAmount,
    payCurrency: input.payCurrency?.toUpperCase() ?? null,
    actuallyPaid: input.actuallyPaid == null ? null : String(input.actuallyPaid),
    suggestedKobo: input.suggestedKobo != null && input.suggestedKobo > 0 ? input.suggestedKobo : null,
    detail: input.detail.slice(0, 500),
    createdAt: at,
    updatedAt: at,
  };
  return move(db, reviewItem.open, id, { row }, at);
}

export function logReview(input: OpenReviewInput): void {
  // The operator is told through the log (and the console's review list); no amount is credited.
  log("warn", "payment sent to review: not credited", {
    provider: input.provider ?? "nowpayments",
    paymentId: input.payment.id,
    providerPaymentId: input.providerPaymentId,
    reason: input.reason,
    payCurrency: input.payCurrency,
    actuallyPaid: input.actuallyPaid,
  });
}

/** A review row as the console lists it: the contract's queue item (schema/admin.ts) with this table's own reasons. */
export type ReviewListItem = Omit<ReviewQueueItem, "kind" | "reason"> & { reason: PaymentReviewReason };

/** Review items for the operator console, newest first. `status: "open"` is the queue; "resolved" the history. */
export async function listPaymentReviews(
  db: Db,
  opts: { status?: "open" | "resolved" | "all"; limit?: number } = {},
): Promise<ReviewListItem[]> {
  const status = opts.status ?? "open";
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const where =
    status === "open" ? eq(paymentReviews.status, "open") : status === "resolved" ? inArray(paymentReviews.status, ["credited", "refused"]) : undefined;
  return reviewItems(db, where, limit);
}

/** One review as the console shows it; null for an unknown id. */
export async function getPaymentReview(db: Db, reviewId: string): Promise<ReviewListItem | null> {
  const [item] = await reviewItems(db, eq(paymentReviews.id, reviewId), 1);
  return item ?? null;
}

async function reviewItems(db: Db, where: SQL | undefined, limit: number): Promise<ReviewListItem[]> {
  const rows = await db
    .select({
      review: paymentReviews,
      email: users.email,
      username: users.username,
      resolution: paymentReviewResolutions,
    })
    .from(paymentReviews)
    .innerJoin(users, eq(users.id, paymentReviews.userId))
    .leftJoin(paymentReviewResolutions, eq(paymentReviewResolutions.reviewId, paymentReviews.id))
    .where(where)
    .orderBy(desc(paymentReviews.createdAt))
    .limit(limit);
  return rows.map(({ review, email, username, resolution }) => ({
    id: review.id,
    status: review.status,
    reason: review.reason,
    payment_id: review.paymentId,
    provider_payment_id: review.providerPaymentId,
    user: { id: review.userId, email, username },
    expected_currency: review.expectedCurrency,
    expected_amount: review.expectedAmount,
    pay_currency: review.payCurrency,
    actually_paid: review.actuallyPaid,
    suggested_amount: review.suggestedKobo == null ? null : koboToNaira(review.suggestedKobo),
    detail: review.detail,
    created_at: new Date(review.createdAt).toISOString(),
    resolution: resolution
      ? {
          outcome: resolution.outcome,
          amount: resolution.amountKobo == null ? null : koboToNaira(resolution.amountKobo),
          operator_id: resolution.operatorId,
          note: resolution.note,
          at: new Date(resolution.createdAt).toISOString(),
        }
      : null,
  }));
}

/** How many reviews wait (the console's badge, health). */
export async function openReviewCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(paymentReviews).where(eq(paymentReviews.status, "open"));
  return row?.n ?? 0;
}
