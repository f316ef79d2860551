import { and, desc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { webLink } from "../../lib/public-origin";
import type { CheckoutStart, DepositOutcome, InvoiceAnswer, InvoiceStatusAnswer, MerchantCurrency, PaymentConfirmation, PendingCardPayment } from "../../../schema/wallet";
import { INVOICE_LIFETIME_MS, type PaymentStatus } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { rowAsSelect } from "../../db/insert-select";
import { paymentReviewResolutions, paymentReviews, payments, users } from "../../db/tables";
import { isUnderpaid, reviewOutcome, underpaidOutcome } from "./deposit-outcome";
import { configFor, type Env } from "../../config";
import { TtlCache } from "../../lib/cache";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { NowAmountBelowMinimum, type NowPayment, type NowPaymentStatus } from "../../providers/payments/nowpayments";
import { UpstreamFault } from "../../providers/upstream-http";
import { costLimitInBatch, deliverEvents, enforceCostLimit, getSetting, ledgerInsert, ledgerRowWritten, outboxInsert, paymentDeps, type PaymentDeps, STOP, type TickResult, wakeAt } from "../kernel";
import { logReview, openReviewStatement, type OpenReviewInput } from "./payment-reviews";
import { referralRewardStatement } from "../accounts";

/**
 * Funding the wallet. A payment row records each attempt (Squad checkout or NOWPayments invoice); money moves only
 * through the ledger, in one D1 batch with the payment's status change. The ledger key (fund:squad:<ref>,
 * fund:now:<payment_id>) is UNIQUE and inserted with ON CONFLICT DO NOTHING, so any number of webhooks, callbacks,
 * verify clicks and alarms, in any order and concurrently, credit a payment exactly once.
 */

export type Payment = typeof payments.$inferSelect;


/**
 * Where the customer's browser and the provider reach us: the configured PUBLIC_URL, never a request header (a forged
 * Host must not choose where a callback or the IPN points).
 */
const publicOrigin = (deps: PaymentDeps): string => configFor(deps.env).publicUrl;

export const CARD_DEPOSIT_NOTE = "Wallet deposit (card)";
export const cryptoDepositNote = (payCurrency: string | null) => `Wallet deposit (${(payCurrency ?? "crypto").toUpperCase()})`;

/** Upper bound on one naira deposit (card or bank transfer): far above real use, far below integer trouble. */
const MAX_NAIRA_DEPOSIT = 10_000_000;

/**
 * The bounds every naira deposit shares, card and bank transfer alike (issue 31: "the same minimum as card"): at least
 * the operator's squadmin, at most MAX_NAIRA_DEPOSIT. A 400 naming the field, before anything is written.
 */
export async function checkNairaDepositAmount(db: Db, amountNaira: number): Promise<void> {
  const { squadmin } = await getSetting(db, "rate_settings");
  if (amountNaira < squadmin) throw new AppError("VALIDATION_FAILED", `min amount is ₦${squadmin}`, { field: "amount" });
  if (amountNaira > MAX_NAIRA_DEPOSIT) {
    throw new AppError("VALIDATION_FAILED", `max amount is ₦${MAX_NAIRA_DEPOSIT.toLocaleString("en-NG")}`, { field: "amount" });
  }
}
const MAX_CRYPTO_DEPOSIT_USD = 10_000;

/** NOWPayments statuses that mean the money is on its way: never expire an invoice in one of these. */
const IN_FLIGHT: NowPaymentStatus[] = ["confirming", "confirmed", "sending"];
/** Statuses after which nothing more is expected (a late 'finished' still credits: the provider has the money). */
const FINAL = new Set<PaymentStatus>(["credited", "failed", "expired", "refunded", "abandoned", "amount_mismatch", "review", "refused"]);
/** The NOWPayments statuses that say money arrived: the only ones that can credit, and only after a re-read. */
export const MONEY_ARRIVED: ReadonlySet<NowPaymentStatus> = new Set(["finished", "partially_paid"]);
/**
 * Paying more than the invoice by more than this share sends the excess to review (the invoice itself is credited).
 * Less is never rounded up: an underpayment is credited at what arrived.
 */
export const CRYPTO_OVERPAY_TOLERANCE = 0.005;
const STATUS_RANK: Partial<Record<PaymentStatus, number>> = {
  pending: 0,
  waiting: 0,
  confirming: 1,
  confirmed: 2,
  sending: 3,
  partially_paid: 4,
  failed: 5,
  expired: 5,
  refunded: 5,
  abandoned: 5,
  amount_mismatch: 5,
  review: 6,
  refused: 6,
  credited: 6,
};

/**
 * Our payment references: prefix, time, randomness, letters and digits only. Squad documents transaction_ref as
 * alphanumeric (https://docs.squadco.com/Payments/Initiate-payment), so no dashes. References stored before this
 * change (VN-...-...) stay valid: lookups never parse a reference, they only compare it.
 */
export function newReference(prefix: string, now: number): string {
  const random = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}${now.toString(36).toUpperCase()}${[...random].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}

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
    await db.update(payments).set({ checkoutUrl: checkout.checkoutUrl, updatedAt: deps.clock.now() }).where(eq(payments.id, ref));
    return { checkout_url: checkout.checkoutUrl, transaction_ref: ref };
  } catch (err) {
    // Nothing was charged: the attempt is recorded as failed so it is visible, and the customer can try again.
    await db.update(payments).set({ status: "failed", updatedAt: deps.clock.now() }).where(eq(payments.id, ref));
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
    db
      .update(payments)
      .set({ status: "review", actuallyPaid: String(koboToNaira(verified.amountKobo)), updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, payment.id), inArray(payments.status, ["pending", "amount_mismatch"]))),
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

// ---------------------------------------------------------------------------------------------------------------------
// Crypto (NOWPayments)

export async function createInvoice(
  deps: PaymentDeps,
  user: { id: string },
  priceUsd: number,
  payCurrency: string,
): Promise<InvoiceAnswer> {
  const db = deps.db;
  await enforceCostLimit(db, user.id, "payment");
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
  const id = newReference("NP", deps.clock.now());
  await db.insert(payments).values({
    id,
    userId: user.id,
    provider: "nowpayments",
    status: "pending",
    amountKobo,
    currency,
    priceUsdCents,
    rateKoboPerUsd,
    payCurrency: currency,
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
      await db.delete(payments).where(and(eq(payments.id, id), eq(payments.status, "pending"), sql`${payments.providerPaymentId} IS NULL`));
      log("info", "nowpayments refused the invoice amount as below its minimum", { paymentId: id, currency, detail: err.detail });
      throw new AppError(
        "VALIDATION_FAILED",
        `The minimum for ${currency} is above $${(priceUsdCents / 100).toFixed(2)} right now. Please enter a larger amount or choose another currency.`,
        { field: "price_amount" },
      );
    }
    await db.update(payments).set({ status: "failed", updatedAt: deps.clock.now() }).where(eq(payments.id, id));
    throw err;
  }
  const expiresAt = deps.clock.now() + INVOICE_LIFETIME_MS;
  await db
    .update(payments)
    .set({
      providerPaymentId: created.paymentId,
      status: created.paymentStatus === "waiting" ? "waiting" : created.paymentStatus,
      payAddress: created.payAddress,
      payAmount: created.payAmount,
      payCurrency: (created.payCurrency ?? currency).toUpperCase(),
      network: created.network,
      expiresAt,
      updatedAt: deps.clock.now(),
    })
    .where(eq(payments.id, id));
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
  const moved = await moveStatus(deps, payment, status);
  if (moved && (status === "failed" || status === "expired" || status === "refunded")) {
    deps.defer(
      deps.notify(payment.userId, {
        kind: "payment.failed",
        paymentId: payment.providerPaymentId ?? payment.id,
        status,
        message: NOW_FAILURE_MESSAGES[status],
      }),
    );
  }
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
    if (remote.paymentStatus === "partially_paid") return (await moveStatus(deps, payment, "partially_paid")) ? "updated" : "unchanged";
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
  await creditPayment(deps, payment, `fund:now:${payment.providerPaymentId}`, cryptoDepositNote(payment.payCurrency), {
    amountKobo: creditKobo,
    actuallyPaid: String(paid),
    review: excess,
    message: shortfall ?? (excess ? reviewOutcome({ ...excess, provider: "nowpayments", status: "open", expectedAmount: payment.payAmount, expectedCurrency: payment.payCurrency, actuallyPaid: String(paid), creditedKobo: null }, payment.amountKobo).message : undefined),
  });
  return "credited";
}

/**
 * Sends an arrival to review; `holdInvoice` also moves the invoice itself to 'review' (nothing of it was credited).
 * Review row and status change go in one batch; a replayed IPN finds both done and changes nothing.
 */
async function holdForReview(deps: PaymentDeps, payment: Payment, input: OpenReviewInput, holdInvoice: boolean): Promise<"review" | "credited"> {
  const db = deps.db;
  const now = deps.clock.now();
  const insert = openReviewStatement(db, input);
  const [created] = holdInvoice
    ? await db.batch([
        insert,
        db
          .update(payments)
          .set({ status: "review", actuallyPaid: input.actuallyPaid == null ? null : String(input.actuallyPaid), updatedAt: now })
          .where(and(eq(payments.id, payment.id), ne(payments.status, "credited"))),
      ])
    : await db.batch([insert]);
  if (((created as { meta?: { changes?: number } }).meta?.changes ?? 0) > 0) {
    logReview(input);
    if (holdInvoice) {
      deps.defer(
        deps.notify(payment.userId, {
          kind: "payment.failed",
          paymentId: payment.providerPaymentId ?? payment.id,
          status: "review",
          message: "Your crypto payment does not match the invoice. Our team will review it and credit what arrived.",
        }),
      );
    }
  }
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
    await moveStatus(deps, payment, "failed");
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

// ---------------------------------------------------------------------------------------------------------------------
// Shared

async function findPayment(
  db: Db,
  where: { id?: string; providerPaymentId?: string; provider: "squad" | "nowpayments"; ownerId?: string },
): Promise<Payment | null> {
  const conditions = [eq(payments.provider, where.provider)];
  if (where.id !== undefined) conditions.push(eq(payments.id, where.id));
  if (where.providerPaymentId !== undefined) conditions.push(eq(payments.providerPaymentId, where.providerPaymentId));
  if (where.ownerId !== undefined) conditions.push(eq(payments.userId, where.ownerId));
  const [row] = await db.select().from(payments).where(and(...conditions)).limit(1);
  return row ?? null;
}

/**
 * Moves a payment's status forward only (an out-of-order 'confirming' after 'partially_paid' changes nothing) and
 * never off 'credited'. Conditional on the status we read, so two writers cannot both "win". Returns whether it moved.
 */
async function moveStatus(deps: PaymentDeps, payment: Payment, status: PaymentStatus): Promise<boolean> {
  const db = deps.db;
  if (payment.status === status || payment.status === "credited") return false;
  if ((STATUS_RANK[status] ?? 0) < (STATUS_RANK[payment.status] ?? 0)) return false;
  const result = await db
    .update(payments)
    .set({ status, updatedAt: deps.clock.now() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, payment.status)));
  return (result.meta?.changes ?? 0) > 0;
}

/**
 * The one place a deposit is credited: [referral reward?, ledger credit, payment -> credited, review of an excess?,
 * read balance] in one atomic batch. A replay finds the ledger key taken and changes nothing; only the call that
 * inserted the row notifies. `amountKobo` defaults to the payment's own amount (a card payment verified exact).
 */
async function creditPayment(
  deps: PaymentDeps,
  payment: Payment,
  key: string,
  note: string,
  opts: { amountKobo?: number; actuallyPaid?: string; review?: OpenReviewInput | null; message?: string } = {},
): Promise<void> {
  const db = deps.db;
  const now = deps.clock.now();
  const amountKobo = opts.amountKobo ?? payment.amountKobo;
  const referral = await referralRewardStatement(db, { userId: payment.userId, amountKobo, paymentId: payment.id });
  const credit = ledgerInsert(db, { userId: payment.userId, key, amountKobo, kind: "fund", note, ref: payment.id });
  const markCredited = db
    .update(payments)
    .set({ status: "credited", creditedAt: now, creditedKobo: amountKobo, actuallyPaid: opts.actuallyPaid ?? payment.actuallyPaid, updatedAt: now })
    .where(and(eq(payments.id, payment.id), ne(payments.status, "credited")));
  // The customer's payment.credited (screens and webhooks), written only with its ledger row (services/kernel/outbox.ts).
  const event = outboxInsert(
    db,
    {
      userId: payment.userId,
      dedupe: `payment.credited:${key}`,
      message: { kind: "payment.credited", paymentId: payment.providerPaymentId ?? payment.id, amount: koboToNaira(amountKobo), ...(opts.message ? { message: opts.message } : {}) },
      at: now,
    },
    ledgerRowWritten(db, key),
  );
  const head = referral ? [referral.statement] : [];
  const results = opts.review
    ? (await db.batch([...head, credit, markCredited, openReviewStatement(db, opts.review), event] as unknown as Parameters<typeof db.batch>[0])).slice(head.length)
    : (await db.batch([...head, credit, markCredited, event] as unknown as Parameters<typeof db.batch>[0])).slice(head.length);
  const creditResult = results[0] as { meta?: { changes?: number } };
  if ((creditResult.meta?.changes ?? 0) === 0) return;
  if (opts.review && ((results[2] as { meta?: { changes?: number } }).meta?.changes ?? 0) > 0) logReview(opts.review);
  log("info", "payment credited", { paymentId: payment.id, provider: payment.provider, amountKobo, invoiceKobo: payment.amountKobo });
  deps.defer(deliverEvents(deps, payment.userId));
}

/**
 * A card payment still pending this long after checkout has been asked about by the sweep (Squad's only webhook is
 * charge_successful; a failed or abandoned checkout is learnt through the verify call,
 * https://docs.squadco.com/Payments/verify-transaction): from then on it is also in the operator's review
 * queue (services/review-queue.ts, docs/decisions/023), until Squad settles it or the sweep gives it up.
 */
export const CARD_PENDING_TOO_LONG_MS = 30 * 60_000;
/** After this the sweep stops asking Squad about a pending card payment and marks it abandoned. */
export const CARD_GIVE_UP_MS = 24 * 3600_000;

/**
 * Cron backstop: settles invoices whose watcher gave up or never ran, and asks Squad about card payments whose webhook
 * and return page never came (or gives them up after a day). Bounded per run.
 */
export async function sweepPayments(deps: PaymentDeps): Promise<{ invoices: number; cards: number }> {
  const db = deps.db;
  const now = deps.clock.now();
  // A grace period after expiry lets the invoice watcher's own alarm go first.
  const staleInvoices = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.provider, "nowpayments"),
        // partially_paid is left alone: after expiry NOWPayments does not move it again.
        inArray(payments.status, ["pending", "waiting", "confirming", "confirmed", "sending"]),
        lt(payments.expiresAt, now - 5 * 60_000),
      ),
    )
    .limit(25);
  let invoices = 0;
  for (const row of staleInvoices) {
    try {
      await settleInvoice(deps, row.id);
      invoices += 1;
    } catch (err) {
      log("warn", "invoice sweep failed", { paymentId: row.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const staleCards = await db
    .select({ id: payments.id, createdAt: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.provider, "squad"), eq(payments.status, "pending"), lt(payments.createdAt, now - CARD_PENDING_TOO_LONG_MS)))
    .orderBy(payments.createdAt)
    .limit(25);
  let cards = 0;
  for (const row of staleCards) {
    try {
      const outcome = await confirmCardPayment(deps, row.id);
      if (outcome === "pending" && row.createdAt < now - CARD_GIVE_UP_MS) {
        await db.run(sql`UPDATE payments SET status = 'abandoned', updated_at = ${now} WHERE id = ${row.id} AND status = 'pending'`);
      }
      cards += 1;
    } catch (err) {
      log("warn", "card payment sweep failed", { paymentId: row.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { invoices, cards };
}

// ---------------------------------------------------------------------------------------------------------------------
// Currency lists (cached per isolate: they change rarely and every Fund Wallet visit asks)

const CURRENCY_CACHE_MS = 5 * 60_000;
const currencyCache = new TtlCache<"coins", Promise<string[]>>(CURRENCY_CACHE_MS);
const merchantCurrencyCache = new TtlCache<"merchant", Promise<MerchantCurrency[]>>(CURRENCY_CACHE_MS);

export function nowCurrencies(deps: PaymentDeps): Promise<string[]> {
  return currencyCache.getOrLoad("coins", async () => (await deps.provider.nowpayments.merchantCoins()).map((c) => c.toUpperCase()));
}

/** Every currency NOWPayments lists, flagged available_for_payment when it is enabled and selected by the merchant. */
export function nowMerchantCurrencies(deps: PaymentDeps): Promise<MerchantCurrency[]> {
  return merchantCurrencyCache.getOrLoad("merchant", async () => {
    const [selected, all] = await Promise.all([nowCurrencies(deps), deps.provider.nowpayments.fullCurrencies()]);
    const chosen = new Set(selected);
    return all.map((c) => ({ code: c.code.toUpperCase(), name: c.name, available_for_payment: c.enabled && chosen.has(c.code.toUpperCase()) }));
  });
}

/** The cron's entry point: no request here, so notifications are awaited before the sweep returns. */
export async function runPaymentSweep(env: Env): Promise<void> {
  const pending: Promise<unknown>[] = [];
  const deps = paymentDeps(env, configFor(env), (work) => void pending.push(work));
  const result = await sweepPayments(deps);
  await Promise.allSettled(pending);
  if (result.invoices + result.cards > 0) log("info", "payment sweep", result);
}
