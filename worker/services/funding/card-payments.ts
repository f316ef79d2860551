import { and, desc, eq, gt } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { webLink } from "../../lib/public-origin";
import type { CheckoutStart, PaymentConfirmation, PendingCardPayment } from "../../../schema/wallet";
import { payments } from "./tables";
import { configFor } from "../../config";
import { log } from "../../lib/log";
import { costLimitInBatch, deliverEvents, enforceCostLimit, move, type PaymentDeps, rowsOf, runBatch, transition } from "../kernel";
import { logReview, openReview, type OpenReviewInput } from "./payment-reviews";
import { creditDeposit } from "./payment-crediting";
import { CARD_DEPOSIT_NOTE, checkNairaDepositAmount, findPayment, newReference, type Payment } from "./payments";
import { FINAL, moveStatus, openPayment, payment as paymentEntity } from "./payment-transitions";

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
  const row = { id: ref, userId: user.id, provider: "squad" as const, amountKobo, currency: "NGN", createdAt: now, updatedAt: now };
  const { counted } = await runBatch(db, { counted: rowsOf(limit.count), opened: openPayment(db, row, now, limit.within) });
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
    await transition(db, paymentEntity.opened, ref, { details: { checkoutUrl: checkout.checkoutUrl } }, deps.clock.now());
    return { checkout_url: checkout.checkoutUrl, transaction_ref: ref };
  } catch (err) {
    // Nothing was charged: the attempt is recorded as failed so it is visible, and the customer can try again.
    await transition(db, paymentEntity.openFailed, ref, {}, deps.clock.now());
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
  if (ownerId !== undefined) await enforceCostLimit(db, ownerId, "verify", deps.clock.now());
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
    await creditDeposit(deps, { via: "payment", payment }, cardCredit(payment));
    return "success";
  }
  if (verification.status === "failed" || verification.status === "abandoned") {
    // Told in the same batch (payment.failed, socket and webhooks).
    if (await moveStatus(db, deps.clock.now(), payment, verification.status, { userId: payment.userId, publicId: ref, message: "Transaction not successful" })) {
      deps.defer(deliverEvents(deps, payment.userId));
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
  const at = deps.clock.now();
  const { opened, held } = await runBatch(db, {
    opened: openReview(db, input, at),
    held: move(db, paymentEntity.holdCard, payment.id, {
      paymentId: payment.id,
      actuallyPaid: String(koboToNaira(verified.amountKobo)),
      told: { userId: payment.userId, publicId: payment.id, message: "Your card was charged a different amount than the checkout. Our team will review it and credit what arrived." },
    }, at),
  });
  if (opened.moved) logReview(input);
  if (held.eventWritten) deps.defer(deliverEvents(deps, payment.userId));
}

/** A card deposit's credit: Squad's reference is its key (fund:squad:<ref>), the checkout's exact amount. */
export function cardCredit(payment: Payment, message?: string) {
  return { userId: payment.userId, paymentId: payment.id, publicId: payment.id, channel: "squad" as const, keyId: payment.id, amountKobo: payment.amountKobo, note: CARD_DEPOSIT_NOTE, ...(message ? { message } : {}) };
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
