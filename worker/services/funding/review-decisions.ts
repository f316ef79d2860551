import { eq } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { paymentReviews, payments } from "./tables";
import { users } from "../kernel";
import { configFor } from "../../config";
import { depositReviewedEmail } from "../accounts";
import { AppError, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { deliverEvents, move, type MoneyStep, type PaymentDeps, runBatch } from "../kernel";
import { reviewOutcome } from "./deposit-outcome";
import { creditDeposit } from "./payment-crediting";
import { decideQueueItem, getPaymentReview, type PaymentReview, queueDecision, reviewItem, reviewResolution, type ReviewListItem } from "./payment-reviews";
import { cardCredit } from "./card-payments";
import { payment as paymentEntity, type Payment } from "./payment-transitions";
import { transferDeposit } from "./transfer-deposit";

/**
 * An operator's decisions on the review queue (services/console/review-queue.ts reads the provider and calls these),
 * each one batch with its audit row: a review row credited (creditDeposit, the review's own key fund:review:<id>) or
 * refused, a stale card credited or refused, an unknown account's transfer closed. Each decision is a row written once
 * by its primary key, so a second decision, concurrent or later, fails and its whole batch rolls back: 409.
 */

/** Upper bound on one operator credit: far above a real deposit, far below integer trouble. */
const MAX_REVIEW_CREDIT_KOBO = 10_000_000 * 100;

export type ReviewDecision = { action: "credit"; amountKobo: number } | { action: "refuse" };

const alreadyResolved = () => new AppError("CONFLICT", "This review is already resolved.");

/** Runs a decision; a second decision on the same item fails on its decision row's primary key: 409, nothing written. */
async function once<R>(decide: () => Promise<R>): Promise<R> {
  try {
    return await decide();
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyResolved();
    throw err;
  }
}

/**
 * Whether a review's decision moves the payment it is about: an invoice or card held whole (status review), or a bank
 * transfer's payment that still waits (a short, over or late transfer: the payment itself is what arrived). A repeat
 * deposit or an excess leaves its already-settled invoice as it is.
 */
function movesPayment(row: PaymentReview, payment: Pick<Payment, "status"> | undefined): boolean {
  return payment !== undefined && (payment.status === "review" || row.reason.startsWith("transfer_"));
}

/**
 * Resolves one review exactly once: [resolution row (primary key = review id), the review's move with its ledger row
 * and event, the payment and the bank transfer's arrival it is about, `also` (the console's audit row)] in one atomic
 * batch. A short dynamic transfer credited here moves its payment to credited for what arrived, so the customer's
 * transfer card and history say credited (issue 42).
 */
export async function resolvePaymentReview(
  deps: PaymentDeps,
  input: { reviewId: string; operatorId: string; decision: ReviewDecision; note?: string; also?: Record<string, MoneyStep<unknown>> },
): Promise<{ review: ReviewListItem; balance: number | null }> {
  const { db } = deps;
  const [row] = await db.select().from(paymentReviews).where(eq(paymentReviews.id, input.reviewId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", "No review with this id.");
  if (row.status !== "open") throw alreadyResolved();
  const { decision } = input;
  if (decision.action === "credit" && (!Number.isSafeInteger(decision.amountKobo) || decision.amountKobo <= 0 || decision.amountKobo > MAX_REVIEW_CREDIT_KOBO)) {
    throw new AppError("VALIDATION_FAILED", "The amount to credit must be a positive amount of naira (at most ₦10,000,000).", { field: "amount" });
  }
  const at = deps.clock.now();
  const note = (input.note ?? "").trim().slice(0, 500);
  const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId)).limit(1);
  const squadRef = row.reason.startsWith("transfer_") ? row.providerPaymentId : null;
  const credited = decision.action === "credit" ? decision.amountKobo : null;
  const resolution = reviewResolution(db, { reviewId: row.id, outcome: credited === null ? "refused" : "credited", amountKobo: credited, operatorId: input.operatorId, note, at });
  // The customer's sentence, read before the batch: it rides the decision's event.
  const told = reviewOutcome({ ...row, status: credited === null ? "refused" : "credited", creditedKobo: credited }, payment?.amountKobo ?? 0).message;
  await once(async () => {
    if (decision.action === "credit") {
      await creditDeposit(
        deps,
        { via: "review", review: row, movesPayment: movesPayment(row, payment), squadRef },
        {
          userId: row.userId,
          paymentId: row.paymentId,
          publicId: row.providerPaymentId,
          channel: "review",
          keyId: row.id,
          amountKobo: decision.amountKobo,
          note: row.reason.startsWith("transfer_") ? "Wallet deposit (bank transfer, reviewed)" : row.provider === "squad" ? "Wallet deposit (card, reviewed)" : `Wallet deposit (${row.payCurrency ?? "crypto"}, reviewed)`,
          message: told,
        },
        input.also ?? {},
        { resolution },
      );
      log("info", "payment review credited", { reviewId: row.id, paymentId: row.paymentId, amountKobo: decision.amountKobo, operatorId: input.operatorId });
    } else {
      const refused = move(db, reviewItem.refuse, row.id, { userId: row.userId, dedupe: `payment.failed:${row.id}:refused`, message: { kind: "payment.failed", paymentId: row.providerPaymentId, status: "refused", message: told } }, at);
      const result = await runBatch(db, {
        resolution,
        refused,
        paymentRefused: movesPayment(row, payment) ? move(db, paymentEntity.refuseReviewed, row.paymentId, {}, at, { when: refused.madeIt }) : null,
        arrivalRefused: squadRef ? move(db, transferDeposit.refuseReviewed, squadRef, {}, at, { when: refused.madeIt }) : null,
        ...(input.also ?? {}),
      });
      log("info", "payment review refused", { reviewId: row.id, paymentId: row.paymentId, operatorId: input.operatorId });
      // Issue 28: the customer learns the decision at once (the event: a toast on an open screen, and webhooks).
      if (result.refused.eventWritten) deps.defer(deliverEvents(deps, row.userId));
    }
  });
  deps.defer(mailDecision(deps, row.userId, credited !== null, told));
  const review = await getPaymentReview(db, row.id);
  const [user] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, row.userId));
  return { review: review!, balance: user ? koboToNaira(user.balanceKobo) : null };
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

export interface QueueDecisionInput {
  operatorId: string;
  note: string;
  /** The console's audit row, written with the decision (and only with it). */
  audit: (madeIt: ReturnType<typeof decideQueueItem>["madeIt"]) => MoneyStep<unknown>;
}

/**
 * Support credits a stale card checkout Squad confirmed for the exact amount: the card's credit (fund:squad:<ref>, the
 * key the webhook and the sweep use) and the decision row in one batch. A card credited a moment ago (a webhook, the
 * sweep) is not credited again; the decision is still recorded, once.
 */
export async function creditStaleCard(deps: PaymentDeps, payment: Payment, input: QueueDecisionInput): Promise<void> {
  const decided = decideQueueItem(deps.db, queueDecision.creditCard, { itemId: payment.id, kind: "card", amountKobo: payment.amountKobo, operatorId: input.operatorId, note: input.note }, deps.clock.now());
  await once(() => creditDeposit(deps, { via: "payment", payment }, cardCredit(payment), { audit: input.audit(decided.madeIt) }, { decided }));
}

/**
 * Support refuses a stale card checkout still pending: the decision row (only while the payment is pending), the
 * payment pending -> refused and the customer's payment.failed, one batch. Answers 409 when it was decided or settled
 * meanwhile.
 */
export async function refuseStaleCard(deps: PaymentDeps, payment: Payment, input: QueueDecisionInput): Promise<void> {
  const db = deps.db;
  const at = deps.clock.now();
  const refused = move(db, paymentEntity.refuseCard, payment.id, { paymentId: payment.id, userId: payment.userId, publicId: payment.id, message: "Your card payment was not confirmed by the bank and has been closed. Nothing was added to your wallet." }, at);
  const decided = decideQueueItem(db, queueDecision.refuseCard, { itemId: payment.id, kind: "card", amountKobo: null, operatorId: input.operatorId, note: input.note }, at, refused.madeIt);
  const result = await once(() => runBatch(db, { refused, decided, audit: input.audit(decided.madeIt) }));
  if (!result.refused.moved || !result.decided.moved) throw alreadyResolved();
  deps.defer(deliverEvents(deps, payment.userId));
}

/** Support closes a transfer into an account we do not know (never credited from the queue: decision 036). */
export async function closeUnknownTransfer(db: Db, itemId: string, input: QueueDecisionInput, at: number): Promise<void> {
  const decided = decideQueueItem(db, queueDecision.closeUnknownTransfer, { itemId, kind: "transfer", amountKobo: null, operatorId: input.operatorId, note: input.note }, at);
  await once(() => runBatch(db, { decided, audit: input.audit(decided.madeIt) }));
}
