import { and, desc, eq, gt } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { webLink } from "../../lib/public-origin";
import type { CheckoutStart, PaymentConfirmation, PendingCardPayment } from "../../../schema/wallet";
import { rowAsSelect } from "../../db/insert-select";
import { payments, users } from "../../db/tables";
import { configFor } from "../../config";
import { log } from "../../lib/log";
import { costLimitInBatch, enforceCostLimit, type PaymentDeps } from "../kernel";
import { logReview, openReviewStatement, type OpenReviewInput } from "./payment-reviews";
import { creditPayment } from "./payment-crediting";
import { CARD_DEPOSIT_NOTE, checkNairaDepositAmount, findPayment, newReference, type Payment } from "./payments";
import { FINAL, moveStatus, paymentTransition } from "./payment-transitions";

/**
 * Card deposits through Squad's checkout: start, confirm (webhook, return page, verify click, sweep) and the
 * customer's pending list. Crediting is payment-crediting.ts; the shared row helpers are payments.ts.
 */

// ---------------------------------------------------------------------------------------------------------------------
// Card (Squad)

export async function startCardPayment(
  deps: PaymentDeps,
  user: { id: string; email: string; username: string },
  amountNaira: number,
): Promise<CheckoutStart> {
  const db = deps.db;
  await checkNairaDepositAmount(db, amountNaira);
  const amountKobo = nairaToKobo(amountNaira);
  const now = deps.clock.now();
  const ref = newReference("VN", now);
  // The per-account cost limit rides the pending row's own write (decision 031): one batch counts the hit and writes
  // the row only within the limit, so past it nothing is written and Squad is never asked.
  const limit = costLimitInBatch(db, user.id, "payment", now);
  const row: typeof payments.$inferInsert = {
    id: ref,
    userId: user.id,
    provider: "squad",
    status: "pending",
    amountKobo,
    currency: "NGN",
    createdAt: now,
    updatedAt: now,
  };
  const [counted] = await db.batch([
    limit.count,
    db.insert(payments).select(db.select(rowAsSelect(payments, row)).from(users).where(and(eq(users.id, user.id), limit.within))),
  ]);
  limit.enforce(counted);
  try {
    const checkout = await deps.provider.squad.initiate({
      amountKobo,
      email: user.email,
      transactionRef: ref,
      // Where Squad returns the customer: the configured web client's dashboard (decision 032), which confirms `reference`.
      callbackUrl: webLink(configFor(deps.env).webClient, "dashboard/1", { reference: ref }),
      customerName: user.username,
    });
    await paymentTransition(db, "opened", ref, deps.clock.now(), { checkoutUrl: checkout.checkoutUrl });
    return { checkout_url: checkout.checkoutUrl, transaction_ref: ref };
  } catch (err) {
    // Nothing was charged: the attempt is recorded as failed so it is visible, and the customer can try again.
    await paymentTransition(db, "openFailed", ref, deps.clock.now());
    throw err;
  }
}

/**
 * Asks Squad about a card payment and credits it when Squad says it succeeded for exactly the amount and currency we
 * asked for. Used by the webhook, the dashboard's return polling, Verify Payment and the sweep: the client is never
 * trusted, and neither is a webhook body beyond being the trigger. `ownerId` limits the lookup to the caller's payments.
 * Returns null for an unknown (or someone else's) reference.
 */
export async function confirmCardPayment(deps: PaymentDeps, ref: string, ownerId?: string): Promise<PaymentConfirmation | null> {
  const db = deps.db;
  // A customer's click (or the return page's polling) asks Squad: limited per account. The sweep passes no owner.
  if (ownerId !== undefined) await enforceCostLimit(db, ownerId, "verify");
  const payment = await findPayment(db, { id: ref, provider: "squad", ownerId });
  if (!payment) return null;
  if (payment.status === "credited") return "success";
  // Held for the operator's review queue (Squad confirmed another amount): only the operator's decision credits it.
  if (payment.status === "review") return "failed";
  const verification = await deps.provider.squad.verify(ref);
  if (!verification) return payment.status === "pending" ? "pending" : "failed";
  if (verification.status === "success") {
    if (verification.amountKobo !== payment.amountKobo || verification.currency !== "NGN") {
      log("warn", "squad amount or currency mismatch: not credited, held for review", {
        ref,
        expectedKobo: payment.amountKobo,
        verifiedKobo: verification.amountKobo,
        currency: verification.currency,
      });
      await holdCardForReview(deps, payment, verification);
      return "failed";
    }
    await creditPayment(deps, payment, `fund:squad:${ref}`, CARD_DEPOSIT_NOTE);
    return "success";
  }
  if (verification.status === "failed" || verification.status === "abandoned") {
    if (await moveStatus(deps, payment, verification.status)) {
      deps.defer(deps.notify(payment.userId, { kind: "payment.failed", paymentId: ref, status: verification.status, message: "Transaction not successful" }));
    }
    return "failed";
  }
  return FINAL.has(payment.status) ? "failed" : "pending";
}

/**
 * Squad confirmed a charge of another amount (or currency) than the checkout's: never credited here (the ledger's
 * fund:squad:<ref> is for the exact amount only), but no longer a dead end either (decision 031). One batch opens the
 * operator's review (payment_reviews, provider squad, reason card_amount_mismatch: once per payment by its unique
 * index) and holds the payment as 'review', from 'pending' or from the 'amount_mismatch' an earlier check left; a
 * payment already refused or credited is not touched. The operator then credits at most what Squad's record says
 * arrived, or refuses, once (services/review-queue.ts).
 */
async function holdCardForReview(deps: PaymentDeps, payment: Payment, verified: { amountKobo: number; currency: string }): Promise<void> {
  const db = deps.db;
  const inNaira = verified.currency === "NGN";
  const input: OpenReviewInput = {
    provider: "squad",
    payment: { id: payment.id, userId: payment.userId, payCurrency: payment.currency, payAmount: String(koboToNaira(payment.amountKobo)) },
    providerPaymentId: payment.id,
    reason: "card_amount_mismatch",
    payCurrency: verified.currency,
    actuallyPaid: koboToNaira(verified.amountKobo),
    suggestedKobo: inNaira ? verified.amountKobo : null,
    detail: `Squad confirmed a charge of ${koboToNaira(verified.amountKobo)} ${verified.currency} for a checkout of ${koboToNaira(payment.amountKobo)} ${payment.currency}.`,
  };
  const [opened, held] = await db.batch([
    openReviewStatement(db, input),
    paymentTransition(db, "holdCard", payment.id, deps.clock.now(), { actuallyPaid: String(koboToNaira(verified.amountKobo)) }),
  ]);
  if ((opened.meta?.changes ?? 0) > 0) logReview(input);
  if ((held.meta?.changes ?? 0) > 0) {
    deps.defer(
      deps.notify(payment.userId, {
        kind: "payment.failed",
        paymentId: payment.id,
        status: "review",
        message: "Your card was charged a different amount than the checkout. Our team will review it and credit what arrived.",
      }),
    );
  }
}

/** The caller's card payments still waiting for confirmation (the Fund Wallet page's pending card), last 24 h. */
export async function listPendingCardPayments(deps: PaymentDeps, userId: string): Promise<PendingCardPayment[]> {
  const db = deps.db;
  const rows = await db
    .select({ id: payments.id, amountKobo: payments.amountKobo, currency: payments.currency, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.provider, "squad"),
        eq(payments.status, "pending"),
        gt(payments.createdAt, deps.clock.now() - 24 * 3600_000),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(50);
  return rows.map((r) => ({ ref: r.id, amount: koboToNaira(r.amountKobo), currency: r.currency, created_at: new Date(r.createdAt).toISOString() }));
}
