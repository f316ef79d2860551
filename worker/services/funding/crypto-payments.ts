import { desc, eq } from "drizzle-orm";
import type { DepositOutcome, InvoiceAnswer, InvoiceStatusAnswer } from "../../../schema/wallet";
import { INVOICE_LIFETIME_MS } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { paymentReviewResolutions, paymentReviews } from "./tables";
import { isUnderpaid, reviewOutcome, underpaidOutcome } from "./deposit-outcome";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { NowAmountBelowMinimum, type NowPayment, type NowPaymentStatus } from "../../providers/payments/nowpayments";
import { UpstreamFault } from "../../providers/upstream-http";
import { deliverEvents, enforceCostLimit, getSetting, move, type PaymentDeps, runBatch, STOP, type TickResult, transition, wakeAt } from "../kernel";
import { logReview, openReview, type OpenReviewInput } from "./payment-reviews";
import { nowCurrencies } from "./crypto-currencies";
import { creditDeposit } from "./payment-crediting";
import { cryptoDepositNote, findPayment, newReference, type Payment, publicOrigin } from "./payments";
import { discardUnopenedInvoice, FINAL, moveStatus, openPayment, payment as paymentEntity } from "./payment-transitions";

/**
 * Crypto deposits through NOWPayments invoices: create, the IPN, the watcher's tick and settle, arrivals that do not
 * match (review), repeat deposits. Crediting is payment-crediting.ts; the currency lists crypto-currencies.ts.
 */

const MAX_CRYPTO_DEPOSIT_USD = 10_000;
/** NOWPayments statuses that mean the money is on its way: never expire an invoice in one of these. */
const IN_FLIGHT: NowPaymentStatus[] = ["confirming", "confirmed", "sending"];
/** The NOWPayments statuses that say money arrived: the only ones that can credit, and only after a re-read. */
export const MONEY_ARRIVED: ReadonlySet<NowPaymentStatus> = new Set(["finished", "partially_paid"]);
/**
 * Paying more than the invoice by more than this share sends the excess to review (the invoice itself is credited).
 * Less is never rounded up: an underpayment is credited at what arrived.
 */
export const CRYPTO_OVERPAY_TOLERANCE = 0.005;

// ---------------------------------------------------------------------------------------------------------------------
// Crypto (NOWPayments)

export async function createInvoice(
  deps: PaymentDeps,
  user: { id: string },
  priceUsd: number,
  payCurrency: string,
): Promise<InvoiceAnswer> {
  const db = deps.db;
  await enforceCostLimit(db, user.id, "payment", deps.clock.now());
  const { cryptomin, rate } = await getSetting(db, "rate_settings");
  if (priceUsd < cryptomin) throw new AppError("VALIDATION_FAILED", `Minimum amount is $${cryptomin}`, { field: "price_amount" });
  if (priceUsd > MAX_CRYPTO_DEPOSIT_USD) throw new AppError("VALIDATION_FAILED", `Maximum amount is $${MAX_CRYPTO_DEPOSIT_USD}`, { field: "price_amount" });
  const currency = payCurrency.toUpperCase();
  // Checked before anything is written or created upstream: an unsupported currency is the customer's input error
  // (400), not a failed deposit in their history (issue 12, hole 5).
  const supported = await nowCurrencies(deps);
  if (!supported.includes(currency)) {
    throw new AppError("VALIDATION_FAILED", `${currency} is not accepted. Choose one of: ${supported.join(", ")}.`, { field: "pay_currency" });
  }
  // NOWPayments' real minimum per currency (GET /min-amount), so a too-small invoice is a clear 400 instead of an
  // upstream refusal. If the check itself is unavailable, NOWPayments still refuses below its minimum on create.
  try {
    const min = await deps.provider.nowpayments.minAmount(currency);
    if (min.fiatEquivalentUsd !== null && priceUsd < min.fiatEquivalentUsd) {
      const minimum = Math.ceil(min.fiatEquivalentUsd * 100) / 100;
      throw new AppError("VALIDATION_FAILED", `The minimum for ${currency} is $${minimum.toFixed(2)}.`, { field: "price_amount", minimum });
    }
  } catch (err) {
    if (!(err instanceof UpstreamFault)) throw err;
    log("warn", "nowpayments min-amount unavailable: creating the invoice without it", { currency, reason: err.reason });
  }
  const priceUsdCents = Math.round(priceUsd * 100);
  // The naira rate is fixed now, when the customer sees the invoice, and used for the credit whenever it arrives.
  const rateKoboPerUsd = Math.round(rate * 100);
  const amountKobo = Math.round((priceUsdCents * rateKoboPerUsd) / 100);
  const now = deps.clock.now();
  const id = newReference("NP", now);
  await runBatch(db, {
    opened: openPayment(db, { id, userId: user.id, provider: "nowpayments", amountKobo, currency, priceUsdCents, rateKoboPerUsd, payCurrency: currency, createdAt: now, updatedAt: now }, now),
  });
  let created;
  try {
    created = await deps.provider.nowpayments.createPayment({
      priceAmountUsd: priceUsdCents / 100,
      payCurrency: currency,
      orderId: id,
      orderDescription: "deposit",
      ipnCallbackUrl: `${publicOrigin(deps)}/api/webhooks/nowpayments`,
    });
  } catch (err) {
    if (err instanceof NowAmountBelowMinimum) {
      // NOWPayments refused the amount itself (AMOUNT_MINIMAL_ERROR; see the adapter for their document): nothing
      // exists upstream, so nothing stays here either. The row goes, as if the minimum check above had refused it,
      // and the customer gets the same kind of 400 on the same field instead of a 502 and a failed deposit.
      await discardUnopenedInvoice(db, id);
      log("info", "nowpayments refused the invoice amount as below its minimum", { paymentId: id, currency, detail: err.detail });
      throw new AppError(
        "VALIDATION_FAILED",
        `The minimum for ${currency} is above $${(priceUsdCents / 100).toFixed(2)} right now. Please enter a larger amount or choose another currency.`,
        { field: "price_amount" },
      );
    }
    await transition(db, paymentEntity.openFailed, id, {}, deps.clock.now());
    throw err;
  }
  const expiresAt = deps.clock.now() + INVOICE_LIFETIME_MS;
  await transition(
    db,
    paymentEntity.invoiced,
    id,
    {
      status: created.paymentStatus === "waiting" ? "waiting" : created.paymentStatus,
      details: {
        providerPaymentId: created.paymentId,
        payAddress: created.payAddress,
        payAmount: created.payAmount,
        payCurrency: (created.payCurrency ?? currency).toUpperCase(),
        network: created.network,
        expiresAt,
      },
    },
    deps.clock.now(),
  );
  try {
    const watcher = deps.env.INVOICE.get(deps.env.INVOICE.idFromName(id));
    await watcher.watch({ paymentId: id, expiresAt });
  } catch (err) {
    // The cron sweep settles invoices whose watcher never started.
    log("warn", "invoice watcher not started", { paymentId: id, error: err instanceof Error ? err.message : String(err) });
  }
  return {
    payment_id: created.paymentId,
    pay_amount: Number(created.payAmount),
    pay_currency: (created.payCurrency ?? currency).toUpperCase(),
    network: created.network,
    pay_address: created.payAddress ?? "",
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/**
 * A verified IPN: applies its status to the payment it names. Unknown payments and mismatched orders change nothing.
 * The IPN is only the trigger: money statuses are re-read from NOWPayments (GET /payment/{id}) before anything is
 * credited, and the amount credited is what that re-read says arrived (settleArrival).
 */
export async function applyNowPaymentsIpn(
  deps: PaymentDeps,
  ipn: { paymentId: string; status: NowPaymentStatus; orderId: string | null; parentPaymentId?: string | null },
): Promise<"credited" | "updated" | "unchanged" | "unknown" | "review"> {
  const db = deps.db;
  const payment = await findPayment(db, { providerPaymentId: ipn.paymentId, provider: "nowpayments" });
  if (!payment) {
    // A repeat deposit to an invoice's address arrives as a new payment naming the invoice in parent_payment_id.
    if (ipn.parentPaymentId) return applyRepeatDeposit(deps, ipn.paymentId, ipn.parentPaymentId, ipn.status);
    return "unknown";
  }
  if (ipn.orderId && ipn.orderId !== payment.id) {
    log("warn", "nowpayments ipn order_id does not match the payment: ignored", { paymentId: ipn.paymentId });
    return "unknown";
  }
  return applyNowStatus(deps, payment, ipn.status);
}

async function applyNowStatus(
  deps: PaymentDeps,
  payment: Payment,
  status: NowPaymentStatus,
  remote?: NowPayment,
): Promise<"credited" | "updated" | "unchanged" | "review"> {
  if (payment.status === "review" || payment.status === "refused") return "review";
  const partlyCredited = payment.status === "credited" && (payment.creditedKobo ?? payment.amountKobo) < payment.amountKobo;
  if (payment.status === "credited" && !partlyCredited) return "credited";
  if (MONEY_ARRIVED.has(status)) {
    const read = remote ?? (payment.providerPaymentId ? await deps.provider.nowpayments.getPayment(payment.providerPaymentId) : null);
    if (!read) {
      log("warn", "nowpayments does not know a payment it reported as paid: not credited", { paymentId: payment.id });
      return "unchanged";
    }
    // Re-read ours too: an IPN and the watcher may race; the ledger key and conditional updates hold either way.
    const current = (await findPayment(deps.db, { id: payment.id, provider: "nowpayments" })) ?? payment;
    if (!MONEY_ARRIVED.has(read.paymentStatus)) {
      // NOWPayments' own record is the authority: an IPN saying 'finished' while the payment is still confirming waits.
      return current.status === "credited" ? "credited" : applyNowStatus(deps, current, read.paymentStatus, read);
    }
    return settleArrival(deps, current, read);
  }
  if (payment.status === "credited") return "credited";
  // A failure is told in the move's own batch (payment.failed, socket and webhooks).
  const told = status === "failed" || status === "expired" || status === "refunded" ? { userId: payment.userId, publicId: payment.providerPaymentId ?? payment.id, message: NOW_FAILURE_MESSAGES[status] } : null;
  const moved = await moveStatus(deps.db, deps.clock.now(), payment, status, told);
  if (moved && told) deps.defer(deliverEvents(deps, payment.userId));
  return moved ? "updated" : "unchanged";
}

/**
 * Money arrived (per NOWPayments' own record `remote`): credit the naira value of what was paid, at the invoice's
 * fixed rate, never more than the invoice; anything that does not match the invoice goes to review instead.
 * - another pay_currency, or a 'finished' without an amount: the invoice is held for review, nothing credited;
 * - less than pay_amount (partially_paid, or a 'finished' that is short): credited pro rata, at what arrived;
 * - more than pay_amount beyond CRYPTO_OVERPAY_TOLERANCE: the invoice is credited, the excess goes to review;
 * - more arriving after a partial credit: the difference goes to review.
 */
async function settleArrival(deps: PaymentDeps, payment: Payment, remote: NowPayment): Promise<"credited" | "updated" | "unchanged" | "review"> {
  const expectedCurrency = (payment.payCurrency ?? "").toUpperCase();
  const paidCurrency = (remote.payCurrency ?? "").toUpperCase();
  const expectedAmount = Number(payment.payAmount ?? remote.payAmount);
  const paid = remote.actuallyPaid ?? 0;
  const review = (reason: OpenReviewInput["reason"], suggestedKobo: number | null, detail: string): OpenReviewInput => ({
    payment,
    providerPaymentId: remote.paymentId,
    reason,
    payCurrency: remote.payCurrency,
    actuallyPaid: remote.actuallyPaid,
    suggestedKobo,
    detail,
  });

  if (remote.parentPaymentId) return holdForReview(deps, payment, review("repeat_payment", null, `parent_payment_id ${remote.parentPaymentId}`), false);
  if (paidCurrency !== expectedCurrency) {
    return holdForReview(deps, payment, review("other_currency", null, `paid in ${paidCurrency || "an unnamed currency"}, invoice in ${expectedCurrency}`), true);
  }
  if (!(paid > 0) || !(expectedAmount > 0)) {
    if (remote.paymentStatus === "partially_paid") return (await moveStatus(deps.db, deps.clock.now(), payment, "partially_paid")) ? "updated" : "unchanged";
    return holdForReview(deps, payment, review("no_amount", null, `${remote.paymentStatus} without actually_paid`), true);
  }
  // The naira value of what arrived, at the rate fixed when the invoice was created (floor: never round up money).
  const arrivedKobo = Math.floor((payment.amountKobo * paid) / expectedAmount);
  const overpaid = paid > expectedAmount * (1 + CRYPTO_OVERPAY_TOLERANCE);
  if (payment.status === "credited") {
    const credited = payment.creditedKobo ?? payment.amountKobo;
    const more = Math.min(arrivedKobo, payment.amountKobo) - credited;
    if (more <= 0 && !overpaid) return "credited";
    const suggested = arrivedKobo - credited;
    const created = await holdForReview(deps, payment, review("paid_after_settlement", suggested, `credited ${credited} kobo, ${paid} ${paidCurrency} arrived in total`), false);
    return created === "review" ? "review" : "credited";
  }
  const creditKobo = Math.min(arrivedKobo, payment.amountKobo);
  if (creditKobo <= 0) return holdForReview(deps, payment, review("no_amount", null, `${paid} ${paidCurrency} is worth less than one kobo`), true);
  const excess = overpaid
    ? review("overpaid", arrivedKobo - payment.amountKobo, `paid ${paid} ${paidCurrency} for an invoice of ${expectedAmount}`)
    : null;
  // An underpayment's toast says the shortfall, never only "Payment confirmed successfully!" (issue 28).
  const shortfall =
    creditKobo < payment.amountKobo
      ? underpaidOutcome({ ...payment, status: "credited", creditedKobo: creditKobo, actuallyPaid: String(paid), payCurrency: payment.payCurrency }).message
      : undefined;
  const message = shortfall ?? (excess ? reviewOutcome({ ...excess, provider: "nowpayments", status: "open", expectedAmount: payment.payAmount, expectedCurrency: payment.payCurrency, actuallyPaid: String(paid), creditedKobo: null }, payment.amountKobo).message : undefined);
  await creditDeposit(
    deps,
    { via: "payment", payment, actuallyPaid: String(paid), excess },
    {
      userId: payment.userId,
      paymentId: payment.id,
      publicId: payment.providerPaymentId ?? payment.id,
      channel: "now",
      keyId: payment.providerPaymentId ?? payment.id,
      amountKobo: creditKobo,
      note: cryptoDepositNote(payment.payCurrency),
      ...(message ? { message } : {}),
    },
  );
  return "credited";
}

/**
 * Sends an arrival to review; `holdInvoice` also moves the invoice itself to 'review' (nothing of it was credited).
 * Review row and status change go in one batch; a replayed IPN finds both done and changes nothing.
 */
async function holdForReview(deps: PaymentDeps, payment: Payment, input: OpenReviewInput, holdInvoice: boolean): Promise<"review" | "credited"> {
  const db = deps.db;
  const now = deps.clock.now();
  const { opened, held } = await runBatch(db, {
    opened: openReview(db, input, now),
    // The invoice held whole, the customer told in the same batch (payment.failed, socket and webhooks), once.
    held: holdInvoice
      ? move(db, paymentEntity.holdInvoice, payment.id, {
          paymentId: payment.id,
          actuallyPaid: input.actuallyPaid == null ? null : String(input.actuallyPaid),
          told: { userId: payment.userId, publicId: payment.providerPaymentId ?? payment.id, message: "Your crypto payment does not match the invoice. Our team will review it and credit what arrived." },
        }, now)
      : null,
  });
  if (opened.moved) logReview(input);
  if (held?.eventWritten) deps.defer(deliverEvents(deps, payment.userId));
  return payment.status === "credited" ? "credited" : "review";
}

/**
 * A repeat deposit (parent_payment_id names one of our invoices): its own payment is re-read from NOWPayments and,
 * once money arrived, recorded for an operator. Never credited automatically: a second deposit to an old address is
 * not something the customer was quoted for.
 */
async function applyRepeatDeposit(
  deps: PaymentDeps,
  childPaymentId: string,
  parentPaymentId: string,
  status: NowPaymentStatus,
): Promise<"unknown" | "unchanged" | "review"> {
  const db = deps.db;
  const parent = await findPayment(db, { providerPaymentId: parentPaymentId, provider: "nowpayments" });
  if (!parent) return "unknown";
  if (!MONEY_ARRIVED.has(status)) return "unchanged";
  const remote = await deps.provider.nowpayments.getPayment(childPaymentId);
  if (!remote || remote.parentPaymentId !== parentPaymentId || !MONEY_ARRIVED.has(remote.paymentStatus)) {
    log("warn", "nowpayments repeat deposit not confirmed by a re-read: ignored", { childPaymentId, parentPaymentId });
    return "unchanged";
  }
  const sameCurrency = (remote.payCurrency ?? "").toUpperCase() === (parent.payCurrency ?? "").toUpperCase();
  const expected = Number(parent.payAmount);
  const suggested = sameCurrency && expected > 0 && remote.actuallyPaid ? Math.floor((parent.amountKobo * remote.actuallyPaid) / expected) : null;
  await holdForReview(
    deps,
    parent,
    {
      payment: parent,
      providerPaymentId: remote.paymentId,
      reason: "repeat_payment",
      payCurrency: remote.payCurrency,
      actuallyPaid: remote.actuallyPaid,
      suggestedKobo: suggested,
      detail: `repeat deposit ${remote.paymentId} to invoice ${parentPaymentId}`,
    },
    false,
  );
  return "review";
}

const NOW_FAILURE_MESSAGES = {
  failed: "The crypto payment failed. Nothing was charged to your wallet.",
  expired: "The invoice expired before a payment arrived.",
  refunded: "The crypto payment was refunded to you.",
} as const;

/** The caller's invoice status (GET /now-status). null for an unknown or someone else's payment. */
export async function nowPaymentStatus(db: Db, userId: string, providerPaymentId: string): Promise<InvoiceStatusAnswer | null> {
  const payment = await findPayment(db, { providerPaymentId, provider: "nowpayments", ownerId: userId });
  if (!payment) return null;
  const credited = payment.status === "credited";
  const paymentStatus = credited ? "finished" : payment.status === "pending" ? "waiting" : payment.status;
  return { payment_status: paymentStatus, credited, outcome: await invoiceOutcome(db, payment) };
}

/**
 * What the invoice card says when what arrived did not match the invoice (issue 28): the newest review of this invoice
 * (held, refused or credited by support) wins over an underpayment, since it is the later fact.
 */
async function invoiceOutcome(db: Db, payment: Payment): Promise<DepositOutcome | null> {
  const [review] = await db
    .select({ review: paymentReviews, creditedKobo: paymentReviewResolutions.amountKobo })
    .from(paymentReviews)
    .leftJoin(paymentReviewResolutions, eq(paymentReviewResolutions.reviewId, paymentReviews.id))
    .where(eq(paymentReviews.paymentId, payment.id))
    .orderBy(desc(paymentReviews.createdAt))
    .limit(1);
  if (review) return reviewOutcome({ ...review.review, creditedKobo: review.creditedKobo }, payment.amountKobo);
  return isUnderpaid(payment) ? underpaidOutcome(payment) : null;
}

/** While the coins are confirming on-chain, the watcher looks again this often instead of expiring the invoice. */
const IN_FLIGHT_RECHECK_MS = 10 * 60_000;
/** NOWPayments could not be read: the watcher's next look, the retry (services/tick.ts). */
const UPSTREAM_RETRY_MS = 60_000;
/** The watcher gives in-flight payments this long after expiry; the cron sweep keeps checking after that. */
const IN_FLIGHT_GIVE_UP_MS = 24 * 3600_000;

/**
 * One wake-up of the invoice's watcher (objects/invoice-watcher.ts), first at the invoice's expiry: settle it after
 * asking NOWPayments (a lost IPN still credits), and while coins are still on their way, or NOWPayments cannot be read,
 * look again later, for at most a day past the expiry (then the cron sweep carries on). Anything but an upstream fault
 * throws (services/tick.ts).
 */
export async function invoiceTick(deps: PaymentDeps, paymentId: string): Promise<TickResult> {
  let settled: boolean;
  let retryMs = IN_FLIGHT_RECHECK_MS;
  try {
    ({ settled } = await settleInvoice(deps, paymentId));
  } catch (err) {
    if (!(err instanceof UpstreamFault)) throw err;
    log("warn", "invoice settle failed, will retry", { paymentId, reason: err.reason });
    settled = false;
    retryMs = UPSTREAM_RETRY_MS;
  }
  if (settled) return STOP;
  const payment = await findPayment(deps.db, { id: paymentId, provider: "nowpayments" });
  if (!payment || deps.clock.now() > (payment.expiresAt ?? 0) + IN_FLIGHT_GIVE_UP_MS) return STOP;
  return wakeAt(deps.clock.now() + retryMs);
}

/**
 * The invoice watcher's tick and the sweep: before giving an invoice up, ask NOWPayments, so a lost IPN never loses
 * a deposit. Returns whether the invoice is settled; when money is still in flight, it asks to be called again.
 */
export async function settleInvoice(deps: PaymentDeps, paymentId: string): Promise<{ settled: boolean }> {
  const db = deps.db;
  const payment = await findPayment(db, { id: paymentId, provider: "nowpayments" });
  if (!payment || FINAL.has(payment.status)) return { settled: true };
  if (!payment.providerPaymentId) {
    await moveStatus(db, deps.clock.now(), payment, "failed");
    return { settled: true };
  }
  const remote = await deps.provider.nowpayments.getPayment(payment.providerPaymentId);
  // Re-read after the network call: an IPN may have credited the payment meanwhile (the ledger key would hold anyway).
  const current = await findPayment(db, { id: paymentId, provider: "nowpayments" });
  if (!current || FINAL.has(current.status)) return { settled: true };
  if (!remote || remote.paymentStatus === "waiting") {
    await applyNowStatus(deps, current, "expired");
    return { settled: true };
  }
  await applyNowStatus(deps, current, remote.paymentStatus, remote);
  return { settled: !IN_FLIGHT.includes(remote.paymentStatus) };
}
