import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ReviewQueueItem } from "../../../schema/admin";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { paymentReviewResolutions, paymentReviews, payments, reviewItemResolutions, users } from "../../db/tables";
import { configFor } from "../../config";
import { depositReviewedEmail } from "../accounts";
import { reviewOutcome } from "./deposit-outcome";
import { paymentTransition } from "./payment-transitions";
import { AppError, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { deliverEvents, ledgerInsert, ledgerRowWritten, notify, outboxInsert, type OutboxMessage, type PaymentDeps } from "../kernel";

/**
 * Crypto arrivals that do not match their invoice (docs/decisions/015), and card payments Squad confirmed for another
 * amount than the checkout's (decision 031), wait for an operator here: never credited automatically. The console lists them (listPaymentReviews) and resolves each one exactly once
 * (resolvePaymentReview): credit an amount through the ledger, or refuse. The resolution row is the audit record.
 */

export type PaymentReview = typeof paymentReviews.$inferSelect;

/**
 * The review item as a money entity (docs/decisions/049): a payment_reviews row (crypto arrival, card or transfer of
 * another amount) or a queue item that is no row of its own (a card checkout pending too long, a transfer into an
 * account we do not know: services/console/review-queue.ts). Every decision is a resolution row, written once (its
 * primary key) in the batch of the move it decides, with its ledger row and events; nothing reads a decision back
 * from audit_log. This module is the only writer of payment_reviews (scripts/money-writers.ts).
 */
export const REVIEW_ITEM_TRANSITIONS = {
  /** An arrival that may not be credited on its own is held (crypto-payments.ts, card-payments.ts, bank-transfers.ts). */
  open: { from: [], to: "open", resolution: null, ledger: null, events: [] },
  /** A review row credited: payment_review_resolutions row, ledger fund:review:<id>, the held payment credited. */
  credit: { from: ["open"], to: "credited", resolution: "payment_review_resolutions", ledger: "fund:review:<review id>", events: ["payment.credited"] },
  /** A review row refused (the held payment refused; the customer told by a socket toast and an e-mail). */
  refuse: { from: ["open"], to: "refused", resolution: "payment_review_resolutions", ledger: null, events: [] },
  /** A stale card checkout Squad confirmed: credited by confirmCardPayment's own batch (fund:squad:<ref>), then decided. */
  creditCard: { from: ["open"], to: "credited", resolution: "review_item_resolutions", ledger: null, events: [] },
  /** A stale card checkout refused: its payment pending -> refused in the same batch (payment-transitions.ts refuseCard). */
  refuseCard: { from: ["open"], to: "refused", resolution: "review_item_resolutions", ledger: null, events: [] },
  /** A transfer into an unknown account closed (never credited from the queue: decision 036). */
  closeUnknownTransfer: { from: ["open"], to: "refused", resolution: "review_item_resolutions", ledger: null, events: [] },
} as const satisfies Record<string, { from: readonly ("open")[]; to: "open" | "credited" | "refused"; resolution: string | null; ledger: string | null; events: readonly OutboxMessage["kind"][] }>;

/**
 * The decision on a queue item that is no payment_reviews row, as a statement for the decision's batch: a second
 * decision on the same item fails on the primary key and rolls its whole batch back (catch `isUniqueViolation`).
 * `onlyIf` guards the row on the state the decision needs (the card still pending): nothing is written otherwise.
 */
export function reviewItemResolution(
  db: Db,
  row: { itemId: string; kind: "card" | "transfer"; outcome: "credited" | "refused"; amountKobo: number | null; operatorId: string; note: string; at: number },
  onlyIf?: SQL,
) {
  const values = { itemId: row.itemId, kind: row.kind, outcome: row.outcome, amountKobo: row.amountKobo, operatorId: row.operatorId, note: row.note.slice(0, 2000), createdAt: row.at };
  if (!onlyIf) return db.insert(reviewItemResolutions).values(values);
  return db.insert(reviewItemResolutions).select(
    db
      .select({
        itemId: sql<string>`${values.itemId}`.as("item_id"),
        kind: sql<"card" | "transfer">`${values.kind}`.as("kind"),
        outcome: sql<"credited" | "refused">`${values.outcome}`.as("outcome"),
        amountKobo: sql<number | null>`${values.amountKobo}`.as("amount_kobo"),
        operatorId: sql<string>`${values.operatorId}`.as("operator_id"),
        note: sql<string>`${values.note}`.as("note"),
        createdAt: sql<number>`${values.createdAt}`.as("created_at"),
      })
      .from(sql`(SELECT 1)`)
      .where(onlyIf),
  );
}
export type PaymentReviewReason = PaymentReview["reason"];

/** Upper bound on one operator credit: far above a real deposit, far below integer trouble. */
const MAX_REVIEW_CREDIT_KOBO = 10_000_000 * 100;

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

/** The statement that records one arrival for review; a replay (same upstream payment and reason) adds nothing. */
export function openReviewStatement(db: Db, input: OpenReviewInput) {
  const now = Date.now();
  return db
    .insert(paymentReviews)
    .values({
      id: `rv_${crypto.randomUUID().replace(/-/g, "")}`,
      paymentId: input.payment.id,
      userId: input.payment.userId,
      provider: input.provider ?? "nowpayments",
      providerPaymentId: input.providerPaymentId,
      reason: input.reason,
      status: "open",
      expectedCurrency: input.payment.payCurrency,
      expectedAmount: input.payment.payAmount,
      payCurrency: input.payCurrency?.toUpperCase() ?? null,
      actuallyPaid: input.actuallyPaid == null ? null : String(input.actuallyPaid),
      suggestedKobo: input.suggestedKobo != null && input.suggestedKobo > 0 ? input.suggestedKobo : null,
      detail: input.detail.slice(0, 500),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

/** Records an arrival for review on its own (when no other state changes with it). Returns whether it is new. */
export async function openReview(db: Db, input: OpenReviewInput): Promise<boolean> {
  const result = await openReviewStatement(db, input).run();
  const created = (result.meta?.changes ?? 0) > 0;
  if (created) logReview(input);
  return created;
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

export type ReviewDecision = { action: "credit"; amountKobo: number } | { action: "refuse" };

/**
 * Resolves one review exactly once: [resolution row (primary key = review id), ledger credit?, review status, the
 * invoice's status when it was itself held for review] in one atomic batch. A second decision, concurrent or later,
 * fails on the resolution's primary key and its whole batch (credit included) rolls back: 409, nothing moved.
 * `also` joins the same batch (the console's audit_log row), so it is written with the decision or not at all.
 */
export async function resolvePaymentReview(
  deps: PaymentDeps,
  input: { reviewId: string; operatorId: string; decision: ReviewDecision; note?: string; also?: BatchItem<"sqlite">[] },
): Promise<{ review: ReviewListItem; balance: number | null }> {
  const { env, db, defer } = deps;
  const [row] = await db.select().from(paymentReviews).where(eq(paymentReviews.id, input.reviewId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", "No review with this id.");
  if (row.status !== "open") throw new AppError("CONFLICT", "This review is already resolved.");
  const { decision } = input;
  if (decision.action === "credit" && (!Number.isSafeInteger(decision.amountKobo) || decision.amountKobo <= 0 || decision.amountKobo > MAX_REVIEW_CREDIT_KOBO)) {
    throw new AppError("VALIDATION_FAILED", "The amount to credit must be a positive amount of naira (at most ₦10,000,000).", { field: "amount" });
  }
  const now = Date.now();
  const note = (input.note ?? "").trim().slice(0, 500);
  const outcome = decision.action === "credit" ? "credited" : "refused";
  const recordResolution = db.insert(paymentReviewResolutions).values({
    reviewId: row.id,
    outcome,
    amountKobo: decision.action === "credit" ? decision.amountKobo : null,
    operatorId: input.operatorId,
    note,
    createdAt: now,
  });
  const markReview = db.update(paymentReviews).set({ status: outcome, updatedAt: now }).where(and(eq(paymentReviews.id, row.id), eq(paymentReviews.status, "open")));
  // An invoice held whole (another currency, no amount) takes the decision's outcome; a repeat deposit or an excess
  // leaves its already-settled invoice as it is.
  const settleHeldPayment =
    decision.action === "credit"
      ? paymentTransition(db, "reviewCredit", row.paymentId, now, { creditedKobo: decision.amountKobo, creditedAt: now })
      : paymentTransition(db, "reviewRefuse", row.paymentId, now);
  try {
    if (decision.action === "credit") {
      const credit = ledgerInsert(db, {
        userId: row.userId,
        key: `fund:review:${row.id}`,
        amountKobo: decision.amountKobo,
        kind: "fund",
        note: row.reason.startsWith("transfer_") ? "Wallet deposit (bank transfer, reviewed)" : row.provider === "squad" ? "Wallet deposit (card, reviewed)" : `Wallet deposit (${row.payCurrency ?? "crypto"}, reviewed)`,
        ref: row.paymentId,
      });
      // The sentence is read before the batch: the customer's payment.credited is written in it (services/kernel/outbox.ts).
      const told = await decisionSentence(db, row, decision.amountKobo);
      const event = outboxInsert(
        db,
        {
          userId: row.userId,
          dedupe: `payment.credited:fund:review:${row.id}`,
          message: { kind: "payment.credited", paymentId: row.providerPaymentId, amount: koboToNaira(decision.amountKobo), message: told },
          at: now,
        },
        ledgerRowWritten(db, `fund:review:${row.id}`),
      );
      await db.batch([recordResolution, credit, markReview, settleHeldPayment, event, ...(input.also ?? [])]);
      log("info", "payment review credited", { reviewId: row.id, paymentId: row.paymentId, amountKobo: decision.amountKobo, operatorId: input.operatorId });
      defer(deliverEvents(deps, row.userId));
      defer(mailDecision(deps, row.userId, true, told));
    } else {
      await db.batch([recordResolution, markReview, settleHeldPayment, ...(input.also ?? [])]);
      log("info", "payment review refused", { reviewId: row.id, paymentId: row.paymentId, operatorId: input.operatorId });
      // Issue 28: the customer learns the decision at once (toast on an open screen, and an e-mail), not by chance.
      const told = await decisionSentence(db, row, null);
      defer(notify(env, row.userId, { kind: "payment.failed", paymentId: row.providerPaymentId, status: "refused", message: told }));
      defer(mailDecision(deps, row.userId, false, told));
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", "This review is already resolved.");
    throw err;
  }
  const review = await getPaymentReview(db, row.id);
  const [user] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, row.userId));
  return { review: review!, balance: user ? koboToNaira(user.balanceKobo) : null };
}

/** The customer's sentence for a decision just made (worker/services/deposit-outcome.ts). */
async function decisionSentence(db: Db, row: PaymentReview, creditedKobo: number | null): Promise<string> {
  const [payment] = await db.select({ amountKobo: payments.amountKobo }).from(payments).where(eq(payments.id, row.paymentId)).limit(1);
  return reviewOutcome({ ...row, status: creditedKobo === null ? "refused" : "credited", creditedKobo }, payment?.amountKobo ?? 0).message;
}

/** The decision's e-mail, in the background; a delivery failure is logged, never undoes the decision. */
async function mailDecision(deps: PaymentDeps, userId: string, credited: boolean, sentence: string): Promise<void> {
  const [user] = await deps.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return;
  const config = configFor(deps.env);
  const sender = deps.upstreams.email();
  await sender.send(depositReviewedEmail(user, credited, sentence, `${config.publicUrl}/#/payment/1`)).catch((err: unknown) => {
    log("error", "deposit decision e-mail not delivered", { userId, sender: sender.name, reason: err instanceof Error ? err.message : "unknown" });
  });
}

/** How many reviews wait (the console's badge, health). */
export async function openReviewCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(paymentReviews).where(eq(paymentReviews.status, "open"));
  return row?.n ?? 0;
}
