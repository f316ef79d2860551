import { desc, eq } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { Transaction } from "../../../schema/wallet";
import type { PaymentStatus, TransactionStatus } from "../../../schema/constants";
import type { Db } from "../../db/client";
import type { UserRead } from "../accounts";
import { namedRead, rowsOf } from "../kernel";
import { ledger } from "../kernel";
import { paymentReviewResolutions, paymentReviews, payments } from "./tables";
import { isUnderpaid, reviewOutcome, underpaidOutcome, type PaymentFacts, type ReviewFacts } from "./deposit-outcome";
import { CARD_DEPOSIT_NOTE, cryptoDepositNote } from "./payments";
import { SUPPORT_CREDIT_NOTE, SUPPORT_DEBIT_NOTE } from "../../db/admin-sql";

/**
 * The spec's transaction history, projected from the ledger (money that moved) and the payment attempts (money that
 * has not: pending, failed, expired). Rules:
 * - a deposit, referral bonus or admin movement is one 'successful' row with its note;
 * - a purchase (buy:<id>) or rental (rent:<id>) is 'successful', or 'refunded' when its refund row exists; the refund
 *   is a row of its own ('refunded', money in), so the charge and its return both show and the rows that moved money
 *   add up to the balance (issue 43: a lone "+₦313.60 Returned" had no charge beside it);
 * - a credited payment appears through its ledger row only; other attempts appear as 'pending' or 'failed';
 * - an arrival held for support is 'pending', a refused one 'failed', each with a `detail` sentence (issue 28); an
 *   underpaid invoice's credit and support's credit carry one too.
 * Amounts are positive naira, `direction` says which way each moved; newest first.
 */

/** How far back the history goes (the screen pages through 10 at a time; thousands of rows are never needed). */
const HISTORY_LIMIT = 500;

const REFUND_OF: Record<string, "buy" | "rent"> = { refund: "buy", rent_refund: "rent" };

// 'review': a crypto payment that did not match its invoice, or a card charged another amount, waits for an operator
// (services/payment-reviews.ts).
const PENDING_PAYMENT_STATUSES = new Set<PaymentStatus>(["pending", "waiting", "confirming", "confirmed", "sending", "review"]);

/**
 * The history as a read for readAsSignedInUser (middleware/auth.ts): the route's session check and these two queries
 * go to D1 in one batch, one round trip for the dashboard's most frequent call.
 */
export function transactionsRead(db: Db, userId: string) {
  return namedRead(
    {
      ledgerRows: rowsOf(
        db
      .select({ id: ledger.id, key: ledger.key, amountKobo: ledger.amountKobo, kind: ledger.kind, note: ledger.note, ref: ledger.ref, createdAt: ledger.createdAt })
      .from(ledger)
      .where(eq(ledger.userId, userId))
      .orderBy(desc(ledger.createdAt), desc(ledger.id))
      .limit(HISTORY_LIMIT),
      ),
      attempts: rowsOf(
        db
      .select({
        id: payments.id,
        provider: payments.provider,
        status: payments.status,
        amountKobo: payments.amountKobo,
        creditedKobo: payments.creditedKobo,
        payAmount: payments.payAmount,
        payCurrency: payments.payCurrency,
        actuallyPaid: payments.actuallyPaid,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.createdAt))
      .limit(HISTORY_LIMIT),
      ),
    // Issue 28: arrivals held for support, refused or credited by it, each visible with what arrived.
      reviews: rowsOf(
        db
      .select({
        id: paymentReviews.id,
        paymentId: paymentReviews.paymentId,
        provider: paymentReviews.provider,
        reason: paymentReviews.reason,
        status: paymentReviews.status,
        expectedAmount: paymentReviews.expectedAmount,
        expectedCurrency: paymentReviews.expectedCurrency,
        payCurrency: paymentReviews.payCurrency,
        actuallyPaid: paymentReviews.actuallyPaid,
        suggestedKobo: paymentReviews.suggestedKobo,
        creditedKobo: paymentReviewResolutions.amountKobo,
        createdAt: paymentReviews.createdAt,
        decidedAt: paymentReviewResolutions.createdAt,
      })
      .from(paymentReviews)
      .leftJoin(paymentReviewResolutions, eq(paymentReviewResolutions.reviewId, paymentReviews.id))
      .where(eq(paymentReviews.userId, userId))
      .orderBy(desc(paymentReviews.createdAt))
      .limit(HISTORY_LIMIT),
      ),
    },
    ({ ledgerRows, attempts, reviews }, user: { id: string }) => projectHistory(user.id, ledgerRows, attempts, reviews),
  ) satisfies UserRead<Transaction[]>;
}

type LedgerRow = { id: number; key: string; amountKobo: number; kind: string; note: string; ref: string | null; createdAt: number };
type AttemptRow = PaymentFacts & { id: string; status: PaymentStatus; createdAt: number };
type ReviewRow = ReviewFacts & { id: string; paymentId: string; createdAt: number; decidedAt: number | null };

/**
 * Manual entries written before issue 28 carried the operator's reason in their note ("Manual deposit adjustment:
 * <reason>"); the ledger is append-only, so the customer is shown the neutral label instead. Newer entries already
 * say "Adjustment by support" (db/admin-sql.ts supportNote) and are shown as written.
 */
function customerNote(row: LedgerRow): string {
  if (row.kind === "admin" && /^Manual (deposit adjustment|debit):/.test(row.note)) return row.amountKobo > 0 ? SUPPORT_CREDIT_NOTE : SUPPORT_DEBIT_NOTE;
  return row.note;
}

function projectHistory(userId: string, ledgerRows: LedgerRow[], attemptRows: AttemptRow[], reviewRows: ReviewRow[] = []): Transaction[] {
  const paymentsById = new Map(attemptRows.map((p) => [p.id, p]));
  const reviewsById = new Map(reviewRows.map((r) => [r.id, r]));
  // An invoice held whole (another coin, a card charged another amount) keeps its own row, id and status, and says
  // through its newest review what arrived and what happens next; other reviews (an excess, a repeat deposit) are rows
  // of their own.
  const heldWhole = new Map<string, ReviewRow>();
  for (const review of reviewRows) {
    const status = paymentsById.get(review.paymentId)?.status;
    if ((status === "review" || status === "refused") && !heldWhole.has(review.paymentId)) heldWhole.set(review.paymentId, review);
  }
  // Purchases and rentals whose money came back: "buy:<ref>" / "rent:<ref>" keyed by the refunded movement.
  const refunded = new Set<string>();
  for (const row of ledgerRows) {
    const of = REFUND_OF[row.kind];
    if (of && row.ref) refunded.add(`${of}:${row.ref}`);
  }

  const out: (Transaction & { sortKey: number })[] = [];
  for (const row of ledgerRows) {
    let status: TransactionStatus = "successful";
    if (REFUND_OF[row.kind] || ((row.kind === "buy" || row.kind === "rent") && row.ref && refunded.has(`${row.kind}:${row.ref}`))) status = "refunded";
    out.push({
      id: row.key,
      user_id: userId,
      status,
      amount: koboToNaira(Math.abs(row.amountKobo)),
      note: customerNote(row),
      created_at: new Date(row.createdAt).toISOString(),
      direction: row.amountKobo > 0 ? "in" : "out",
      sortKey: row.createdAt,
      ...depositDetail(row, paymentsById, reviewsById),
    });
  }
  for (const attempt of attemptRows) {
    if (attempt.status === "credited") continue;
    const held = heldWhole.get(attempt.id);
    out.push({
      ...(held ? { detail: reviewOutcome(held, attempt.amountKobo).message } : {}),
      id: attempt.id,
      user_id: userId,
      status: PENDING_PAYMENT_STATUSES.has(attempt.status) ? "pending" : "failed",
      amount: koboToNaira(attempt.amountKobo),
      note: attempt.provider === "squad" ? CARD_DEPOSIT_NOTE : cryptoDepositNote(attempt.payCurrency),
      created_at: new Date(attempt.createdAt).toISOString(),
      direction: "none",
      sortKey: attempt.createdAt,
    });
  }
  for (const review of reviewRows) {
    // A credited review is the ledger's "(reviewed)" row, which carries the sentence.
    if (review.status === "credited" || heldWhole.get(review.paymentId) === review) continue;
    const payment = paymentsById.get(review.paymentId);
    const at = review.status === "refused" ? (review.decidedAt ?? review.createdAt) : review.createdAt;
    out.push({
      id: review.id,
      user_id: userId,
      status: review.status === "refused" ? "failed" : "pending",
      // What we would credit when the coin matches; 0 when support must price it (another coin): nothing moved yet.
      amount: koboToNaira(review.suggestedKobo ?? 0),
      note: review.provider === "squad" ? CARD_DEPOSIT_NOTE : cryptoDepositNote(review.payCurrency),
      created_at: new Date(at).toISOString(),
      direction: "none",
      sortKey: at,
      detail: reviewOutcome(review, payment?.amountKobo ?? 0).message,
    });
  }
  // Stable: equal timestamps keep the ledger's own newest-first order.
  out.sort((a, b) => b.sortKey - a.sortKey);
  return out.map(({ sortKey: _sortKey, ...t }) => t);
}

/** The sentence on a deposit's ledger row: an underpaid invoice's shortfall, or support's credit of a held arrival. */
function depositDetail(row: LedgerRow, paymentsById: Map<string, AttemptRow>, reviewsById: Map<string, ReviewRow>): { detail?: string } {
  if (row.kind !== "fund") return {};
  if (row.key.startsWith("fund:review:")) {
    const review = reviewsById.get(row.key.slice("fund:review:".length));
    const payment = review ? paymentsById.get(review.paymentId) : undefined;
    return review ? { detail: reviewOutcome({ ...review, status: "credited", creditedKobo: Math.abs(row.amountKobo) }, payment?.amountKobo ?? 0).message } : {};
  }
  const payment = row.ref ? paymentsById.get(row.ref) : undefined;
  return payment && isUnderpaid(payment) ? { detail: underpaidOutcome(payment).message } : {};
}
