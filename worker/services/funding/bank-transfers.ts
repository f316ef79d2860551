import { and, desc, eq, lt, sql } from "drizzle-orm";
import { formatNaira, koboToNaira, nairaToKobo } from "../../../schema/money";
import { TRANSFER_WINDOW_SECONDS, type StaticAccountRequest, type StaticAccountView, type TransferView } from "../../../schema/transfers";
import type { AdminTransferDeposit } from "../../../schema/admin";
import type { Db } from "../../db/client";
import { payments, transferDeposits, virtualAccounts } from "./tables";
import { users } from "../kernel";
import { AppError, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import type { TransferNotice } from "../../providers/payments/squad-transfer-webhooks";
import { nairaStringToKobo } from "../../providers/payments/squad-virtual-accounts";
import { UpstreamFault } from "../../providers/upstream-http";
import { costLimitInBatch, deliverEvents, move, type PaymentDeps, rowsOf, runBatch, transition } from "../kernel";
import { logReview, openReview, type OpenReviewInput } from "./payment-reviews";
import { checkNairaDepositAmount, newReference } from "./payments";
import { creditDeposit } from "./payment-crediting";
import { type DepositCredit, type NewPayment, openPayment, payment as paymentEntity } from "./payment-transitions";
import { type Deposit, findDeposit, transferDeposit } from "./transfer-deposit";
import { compareTransfers, isReconciliationDay, type TransferReconciliation } from "./transfer-reconciliation";

/**
 * Funding by bank transfer into Squad virtual accounts (issue 31, docs/decisions/036).
 *
 * Dynamic account: startTransfer writes a pending payment (provider squad_transfer) and asks Squad for an account tied
 * to the amount for TRANSFER_WINDOW_SECONDS. Static account: openStaticAccount gives a customer a permanent account.
 * Squad's notification (routes/webhooks.ts, verified on the raw body) only says where to look: acceptTransferNotice
 * records the arrival once (transfer_deposits, keyed by Squad's transaction_reference) and settleDeposit re-queries
 * Squad before anything moves. Money rules:
 * - credited once: one batch [payment -> credited (while the arrival is verifying), ledger row, payment.credited, arrival
 *   -> credited], each written only with the payment's move (payment-crediting.ts creditDeposit), ledger key
 *   fund:transfer:<payment id>, so replays, out-of-order and concurrent notifications and the sweep credit once;
 * - for what arrived, to the account's owner (the owner comes from our own row for the account, never the body);
 * - another amount, after the window, not confirmed by Squad: the operator's review queue (payment_reviews, reasons
 *   transfer_*), never credited here; the customer is told "received, being checked";
 * - an account we do not know: kept as an unmatched arrival for the console, credited to no one.
 */

export const TRANSFER_DEPOSIT_NOTE = "Wallet deposit (bank transfer)";
/** The sweep leaves a fresh payment to its webhook this long before asking Squad itself. */
export const TRANSFER_QUIET_MS = 2 * 60_000;
/** After its window closed this long ago, a payment that never received anything is expired by the sweep. */
export const TRANSFER_GIVE_UP_AFTER_EXPIRY_MS = 60 * 60_000;

type Payment = typeof payments.$inferSelect;

const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;

// ---------------------------------------------------------------------------------------------------------------------
// Customer commands and reads

export async function startTransfer(deps: PaymentDeps, user: { id: string; email: string }, amountNaira: number): Promise<TransferView> {
  const db = deps.db;
  await checkNairaDepositAmount(db, amountNaira);
  const amountKobo = nairaToKobo(amountNaira);
  const now = deps.clock.now();
  const ref = newReference("VT", now);
  // Same per-account cost limit as the card (decision 031): the pending row is written only within it.
  const limit = costLimitInBatch(db, user.id, "payment", now);
  const row: NewPayment = {
    id: ref,
    userId: user.id,
    provider: "squad_transfer",
    amountKobo,
    currency: "NGN",
    expiresAt: now + TRANSFER_WINDOW_SECONDS * 1000,
    createdAt: now,
    updatedAt: now,
  };
  const { counted } = await runBatch(db, { counted: rowsOf(limit.count), opened: openPayment(db, row, now, limit.within) });
  limit.enforce(counted);
  try {
    const account = await deps.provider.squadTransfers.initiateDynamic({ amountKobo, durationSeconds: TRANSFER_WINDOW_SECONDS, email: user.email, transactionRef: ref });
    if (account.expectedKobo !== amountKobo) {
      // Never show an account that expects another amount than ours: the customer would pay into a mismatch.
      throw new AppError("UPSTREAM_UNAVAILABLE", "Squad gave an account for another amount. Please try again.");
    }
    await transition(db, paymentEntity.opened, ref, { details: { bankName: account.bankName, accountNumber: account.accountNumber, accountName: account.accountName, expiresAt: account.expiresAt } }, deps.clock.now());
  } catch (err) {
    await transition(db, paymentEntity.openFailed, ref, {}, deps.clock.now());
    throw err;
  }
  const view = await transferView(db, user.id, ref, deps.clock.now());
  return view!;
}

/** The caller's transfer payment; null for an unknown or someone else's. */
export async function transferView(db: Db, userId: string, ref: string, now: number): Promise<TransferView | null> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, ref), eq(payments.userId, userId), eq(payments.provider, "squad_transfer")))
    .limit(1);
  if (!payment) return null;
  const deposits = await db.select().from(transferDeposits).where(eq(transferDeposits.paymentId, ref));
  const checkingKobo = deposits.filter((d) => d.state === "review" || d.state === "verifying").reduce((s, d) => s + d.amountKobo, 0);
  const state: TransferView["state"] =
    payment.status === "credited"
      ? "credited"
      : payment.status === "failed"
        ? "failed"
        : checkingKobo > 0
          ? "checking"
          : payment.status === "expired" || (payment.expiresAt ?? 0) < now
            ? "expired"
            : "waiting";
  return {
    ref,
    state,
    bank_name: payment.bankName,
    account_number: payment.accountNumber,
    account_name: payment.accountName,
    amount: koboToNaira(payment.amountKobo),
    credited_amount: payment.creditedKobo == null ? null : koboToNaira(payment.creditedKobo),
    checking_amount: koboToNaira(checkingKobo),
    expires_at: payment.expiresAt == null ? null : new Date(payment.expiresAt).toISOString(),
  };
}

/** The customer's most recent transfer payment still open (the Fund Wallet tab resumes it after a reload). */
export async function activeTransfer(db: Db, userId: string, now: number): Promise<TransferView | null> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.provider, "squad_transfer"), eq(payments.status, "pending"), sql`${payments.providerPaymentId} IS NULL`, sql`${payments.expiresAt} > ${now}`))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ? transferView(db, userId, row.id, now) : null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Static (per-customer) accounts

const maskBvn = (last4: string) => `*******${last4}`;

export async function staticAccountView(db: Db, userId: string): Promise<StaticAccountView | null> {
  const [row] = await db.select().from(virtualAccounts).where(eq(virtualAccounts.userId, userId)).limit(1);
  return row ? { bank_name: row.bankName, account_number: row.accountNumber, account_name: row.accountName, bvn: maskBvn(row.bvnLast4) } : null;
}

/** The bank names of Squad's bank codes (virtual accounts are GTBank's: 058). */
const BANK_NAMES: Record<string, string> = { "058": "GTBank" };

/**
 * Opens the customer's permanent account once. The input was validated by the route (schema/transfers.ts) before this
 * runs; Squad then checks the BVN against the details. The BVN goes to Squad and nowhere else: not the log, not the
 * database (only its last four digits, for the masked display), not the answer.
 */
export async function openStaticAccount(deps: PaymentDeps, user: { id: string; email: string }, input: StaticAccountRequest): Promise<StaticAccountView> {
  const db = deps.db;
  if (await staticAccountView(db, user.id)) throw new AppError("CONFLICT", "You already have a permanent account number.");
  const [y, m, d] = input.dob.split("-");
  // Our identifier at Squad: derived from the user id, letters and digits only, stable (a retry after a lost answer
  // asks for the same customer, and Squad refuses a second account for it).
  const customerIdentifier = `VN${user.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 24).toUpperCase()}`;
  let account;
  try {
    account = await deps.provider.squadTransfers.createStaticAccount({
      customerIdentifier,
      firstName: input.first_name,
      lastName: input.last_name,
      middleName: input.middle_name || undefined,
      mobileNumber: input.mobile_num,
      dob: `${m}/${d}/${y}`,
      email: user.email,
      bvn: input.bvn,
      gender: input.gender === "male" ? "1" : "2",
      address: input.address,
    });
  } catch (err) {
    if (!(err instanceof UpstreamFault && err.reason === "rejected")) throw err;
    // A retry after an attempt whose answer we lost (a timeout, a dropped connection) is refused by Squad because our
    // stable identifier already has its account: that is not a BVN mismatch. Ask Squad for the account it holds under
    // our identifier and keep it; only when it has none was it the details Squad could not match.
    const existing = await deps.provider.squadTransfers.findStaticAccount(customerIdentifier);
    if (!existing) {
      // Squad's refusal words may echo the input, so they are not logged; the customer gets our sentence.
      log("warn", "squad refused a static virtual account", { userId: user.id, status: err.httpStatus });
      throw new AppError("VALIDATION_FAILED", "Squad could not match these details to your BVN. Check your names, date of birth, gender and phone number as registered on your BVN.", { field: "bvn" });
    }
    log("info", "static virtual account already open at squad: kept", { userId: user.id });
    account = existing;
  }
  try {
    await db.insert(virtualAccounts).values({
      userId: user.id,
      accountNumber: account.accountNumber,
      customerIdentifier: account.customerIdentifier,
      bankName: BANK_NAMES[account.bankCode] ?? "GTBank",
      accountName: account.accountName || `${input.first_name} ${input.last_name}`,
      bvnLast4: input.bvn.slice(-4),
      createdAt: deps.clock.now(),
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  return (await staticAccountView(db, user.id))!;
}

// ---------------------------------------------------------------------------------------------------------------------
// Arrivals: notification -> one row -> re-query -> credit once or review

export type SettleOutcome = "credited" | "review" | "unmatched" | "verifying" | "duplicate";

/**
 * A verified notification: recorded once (its Squad transaction_reference is the key), then settled. A replay finds
 * the row and settles again, which changes nothing once the row is final.
 */
export async function acceptTransferNotice(deps: PaymentDeps, input: TransferNotice): Promise<SettleOutcome> {
  const db = deps.db;
  const now = deps.clock.now();
  if (input.kind === "dynamic") {
    const n = input.notice;
    const amountKobo = nairaStringToKobo(n.amount_received);
    if (amountKobo === null) throw new AppError("VALIDATION_FAILED", "amount_received is not an amount of naira.");
    const [payment] = await db.select().from(payments).where(and(eq(payments.id, n.merchant_reference), eq(payments.provider, "squad_transfer"))).limit(1);
    const row = {
      squadRef: n.transaction_reference,
      kind: "dynamic" as const,
      paymentId: payment?.id ?? null,
      accountNumber: payment?.accountNumber ?? null,
      userId: payment?.userId ?? null,
      amountKobo,
      squadStatus: n.transaction_status.toUpperCase(),
      senderName: n.sender_name?.slice(0, 120) ?? null,
      detail: payment ? "" : `No payment of ours has the reference ${n.merchant_reference.slice(0, 60)}.`,
      receivedAt: now,
      updatedAt: now,
    };
    await transition(db, payment ? transferDeposit.arrive : transferDeposit.arriveUnknown, row.squadRef, { row }, now);
  } else {
    const n = input.notice;
    const amountKobo = nairaStringToKobo(n.principal_amount);
    if (amountKobo === null) throw new AppError("VALIDATION_FAILED", "principal_amount is not an amount of naira.");
    const [account] = await db.select().from(virtualAccounts).where(eq(virtualAccounts.accountNumber, n.virtual_account_number)).limit(1);
    const row = {
      squadRef: n.transaction_reference,
      kind: "static" as const,
      paymentId: null,
      accountNumber: n.virtual_account_number,
      userId: account?.userId ?? null,
      amountKobo,
      squadStatus: (n.transaction_indicator ?? "C").toUpperCase(),
      senderName: n.sender_name?.slice(0, 120) ?? null,
      detail: account ? "" : `No customer of ours has the account ${n.virtual_account_number}.`,
      receivedAt: now,
      updatedAt: now,
    };
    await transition(db, account ? transferDeposit.arrive : transferDeposit.arriveUnknown, row.squadRef, { row }, now);
  }
  const ref = input.notice.transaction_reference;
  const outcome = await settleDeposit(deps, ref);
  if (outcome === "unmatched") log("warn", "bank transfer into an account we do not know: not credited", { squadRef: ref, kind: input.kind });
  return outcome;
}

/** Settles one arrival: asks Squad, then credits once or opens the review. Idempotent; safe to run concurrently. */
export async function settleDeposit(deps: PaymentDeps, squadRef: string): Promise<SettleOutcome> {
  const deposit = await findDeposit(deps.db, squadRef);
  if (!deposit) return "unmatched";
  if (deposit.state === "credited") return "duplicate";
  if (deposit.state === "review" || deposit.state === "unmatched") return deposit.state;
  if (deposit.state === "refused") return "review";
  return deposit.kind === "dynamic" ? settleDynamic(deps, deposit) : settleStatic(deps, deposit);
}

async function settleDynamic(deps: PaymentDeps, deposit: Deposit): Promise<SettleOutcome> {
  const db = deps.db;
  const [payment] = await db.select().from(payments).where(eq(payments.id, deposit.paymentId!)).limit(1);
  if (!payment) return "unmatched";
  // Squad's own record of every attempt to pay this reference, before anything moves
  // (https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2#re-query-transaction).
  const attempts = await deps.provider.squadTransfers.requeryDynamic(payment.id);
  const said = deposit.squadStatus;
  const confirmed = attempts.some((a) => a.status === said);
  if (said === "SUCCESS" && confirmed && deposit.amountKobo === payment.amountKobo) {
    if (payment.status === "credited") {
      // The sweep (or an earlier notice) credited this payment from Squad's SUCCESS already: the same transfer.
      await transition(db, transferDeposit.duplicate, deposit.squadRef, { detail: "Already credited from Squad's re-query." }, deps.clock.now());
      return "duplicate";
    }
    return (await creditDynamic(deps, payment, deposit.squadRef)) ? "credited" : "duplicate";
  }
  const reason: OpenReviewInput["reason"] = !confirmed ? "transfer_unverified" : said === "EXPIRED" ? "transfer_late" : "transfer_amount_mismatch";
  const detail = !confirmed
    ? `Squad's re-query of ${payment.id} has no ${said} attempt: ${ngn(deposit.amountKobo)} reported, not confirmed.`
    : said === "EXPIRED"
      ? `${ngn(deposit.amountKobo)} arrived after the account's window closed (or after it was paid) for a payment of ${ngn(payment.amountKobo)}.`
      : `${ngn(deposit.amountKobo)} arrived for a payment of ${ngn(payment.amountKobo)}.`;
  await holdDeposit(deps, deposit, payment, null, reason, detail, confirmed ? deposit.amountKobo : null);
  return "review";
}

/** A bank transfer's credit: our payment is its key (fund:transfer:<payment id>). */
function transferCredit(p: { id: string; userId: string }, amountKobo: number): DepositCredit {
  return { userId: p.userId, paymentId: p.id, publicId: p.id, channel: "transfer", keyId: p.id, amountKobo, note: TRANSFER_DEPOSIT_NOTE };
}

/**
 * The credit of a dynamic payment (payment-crediting.ts creditDeposit): one batch, the payment's move first (only
 * while it still waits, and while the arrival is still verifying), so only the arrival that moved the payment pays it,
 * and the ledger key fund:transfer:<payment id> makes a second credit of the payment impossible.
 */
async function creditDynamic(deps: PaymentDeps, payment: Payment, squadRef: string | null): Promise<boolean> {
  // Only a payment still waiting can be paid (an expired or failed one is the operator's); see also the batch's guards.
  if (payment.status !== "pending") return false;
  const { credited } = await creditDeposit(deps, { via: "transfer", payment, squadRef }, transferCredit(payment, payment.amountKobo));
  if (!credited && squadRef) {
    // Someone else (a concurrent notice, the sweep) credited it: this arrival is the same transfer, already paid.
    await transition(deps.db, transferDeposit.duplicate, squadRef, { detail: "Credited by a concurrent confirmation of the same transfer." }, deps.clock.now());
  }
  return credited;
}

async function settleStatic(deps: PaymentDeps, deposit: Deposit): Promise<SettleOutcome> {
  const db = deps.db;
  const [account] = await db.select().from(virtualAccounts).where(eq(virtualAccounts.accountNumber, deposit.accountNumber ?? "")).limit(1);
  if (!account) return "unmatched";
  // Squad's record of this very transaction (https://docs.squadco.com/Virtual-accounts/api-specifications, Query All
  // Merchant Transactions with Multiple Filters, transactionReference): the credit is what Squad says arrived, into
  // the account Squad says, never the notification's word.
  const record = await deps.provider.squadTransfers.findTransaction(deposit.squadRef);
  const now = deps.clock.now();
  const paymentId = `VA${deposit.squadRef.replace(/[^A-Za-z0-9]/g, "").slice(0, 60)}`;
  const confirmed =
    record !== null && record.accountNumber === account.accountNumber && record.indicator === "C" && record.currency === "NGN" && record.principalKobo > 0;
  const amountKobo = confirmed ? record!.principalKobo : deposit.amountKobo;
  // The arrival's own payment row (the history and the review queue hang on a payment), written once, in the same
  // batch as its credit or its hold: nothing of it exists unless its arrival moved with it.
  const arrival: NewPayment = {
    id: paymentId,
    userId: account.userId,
    provider: "squad_transfer",
    amountKobo,
    currency: "NGN",
    providerPaymentId: deposit.squadRef,
    accountNumber: account.accountNumber,
    bankName: account.bankName,
    accountName: account.accountName,
    createdAt: now,
    updatedAt: now,
  };
  if (!confirmed) {
    const detail = `Squad's transaction list has no matching credit ${deposit.squadRef} into ${account.accountNumber}: ${ngn(deposit.amountKobo)} reported, not confirmed.`;
    await holdDeposit(deps, deposit, { id: paymentId, userId: account.userId, amountKobo }, arrival, "transfer_unverified", detail, null);
    return "review";
  }
  if (record!.principalKobo !== deposit.amountKobo) log("warn", "static transfer: notification and Squad's record disagree; crediting Squad's", { squadRef: deposit.squadRef });
  const { credited } = await creditDeposit(deps, { via: "transfer", payment: { id: paymentId, userId: account.userId }, squadRef: deposit.squadRef, arrival }, transferCredit({ id: paymentId, userId: account.userId }, amountKobo));
  return credited ? "credited" : "duplicate";
}

/**
 * An arrival that may not be credited on its own: one batch opens the operator's review (payment_reviews, provider
 * squad, providerPaymentId = Squad's reference, so once per arrival and reason), moves the arrival to review and tells
 * the customer (payment.failed, status review: the socket and the webhooks), and for a static account's arrival opens
 * its payment. The operator credits at most what Squad's record says arrived (services/console/review-queue.ts).
 */
async function holdDeposit(
  deps: PaymentDeps,
  deposit: Deposit,
  payment: { id: string; userId: string; amountKobo: number },
  arrival: NewPayment | null,
  reason: OpenReviewInput["reason"],
  detail: string,
  suggestedKobo: number | null,
): Promise<void> {
  const db = deps.db;
  const at = deps.clock.now();
  const input: OpenReviewInput = {
    provider: "squad",
    payment: { id: payment.id, userId: payment.userId, payCurrency: "NGN", payAmount: String(koboToNaira(payment.amountKobo)) },
    providerPaymentId: deposit.squadRef,
    reason,
    payCurrency: "NGN",
    actuallyPaid: koboToNaira(deposit.amountKobo),
    suggestedKobo,
    detail,
  };
  const held = move(db, transferDeposit.hold, deposit.squadRef, { squadRef: deposit.squadRef, userId: payment.userId, paymentId: payment.id, amountKobo: deposit.amountKobo, detail }, at);
  const result = await runBatch(db, {
    held,
    arrival: arrival ? move(db, paymentEntity.openArrival, arrival.id, { row: arrival }, at, { when: held.madeIt }) : null,
    // After the payment it names (a static arrival's is written just above).
    opened: openReview(db, input, at),
  });
  if (result.opened.moved) logReview(input);
  if (result.held.eventWritten) deps.defer(deliverEvents(deps, payment.userId));
}

// ---------------------------------------------------------------------------------------------------------------------
// Sweep: transfers whose notification never came, arrivals Squad could not be asked about

export async function sweepTransfers(deps: PaymentDeps): Promise<{ requeried: number; settled: number; expired: number }> {
  const db = deps.db;
  const now = deps.clock.now();
  let requeried = 0;
  let settled = 0;
  let expired = 0;
  // Arrivals heard but not yet confirmed (Squad's re-query failed when the notification came).
  const verifying = await db
    .select({ squadRef: transferDeposits.squadRef })
    .from(transferDeposits)
    .where(and(eq(transferDeposits.state, "verifying"), lt(transferDeposits.receivedAt, now - 60_000)))
    .limit(25);
  for (const row of verifying) {
    try {
      await settleDeposit(deps, row.squadRef);
      settled += 1;
    } catch (err) {
      log("warn", "transfer arrival sweep failed", { squadRef: row.squadRef, error: err instanceof Error ? err.message : String(err) });
    }
  }
  // Dynamic payments still waiting: Squad's re-query says whether the exact transfer came (SUCCESS) without a notice.
  const waiting = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, "squad_transfer"), eq(payments.status, "pending"), sql`${payments.accountNumber} IS NOT NULL`, sql`${payments.providerPaymentId} IS NULL`, lt(payments.createdAt, now - TRANSFER_QUIET_MS)))
    .orderBy(payments.createdAt)
    .limit(25);
  for (const payment of waiting) {
    try {
      const attempts = await deps.provider.squadTransfers.requeryDynamic(payment.id);
      requeried += 1;
      if (attempts.some((a) => a.status === "SUCCESS")) {
        // SUCCESS is Squad's word that the expected amount arrived in time: the payment's own amount, exactly.
        await creditDynamic(deps, payment, null);
      } else if ((payment.expiresAt ?? 0) < now - TRANSFER_GIVE_UP_AFTER_EXPIRY_MS) {
        if ((await transition(db, paymentEntity.expire, payment.id, {}, now)).moved) expired += 1;
      }
    } catch (err) {
      log("warn", "transfer payment sweep failed", { paymentId: payment.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { requeried, settled, expired };
}

/** The console's "verify again" on a transfer payment: its arrivals settled, then Squad's re-query for a lost notice. */
export async function recheckTransfer(deps: PaymentDeps, paymentId: string): Promise<void> {
  const deposits = await deps.db.select({ squadRef: transferDeposits.squadRef }).from(transferDeposits).where(eq(transferDeposits.paymentId, paymentId));
  for (const d of deposits) await settleDeposit(deps, d.squadRef);
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (payment?.status === "pending" && payment.providerPaymentId === null) {
    const attempts = await deps.provider.squadTransfers.requeryDynamic(payment.id);
    if (attempts.some((a) => a.status === "SUCCESS")) await creditDynamic(deps, payment, null);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Console: deposits and the daily reconciliation

export type TransferDepositRow = AdminTransferDeposit;

export async function listTransferDeposits(db: Db, opts: { state?: Deposit["state"]; limit?: number } = {}): Promise<TransferDepositRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
  const rows = await db
    .select({ d: transferDeposits, email: users.email })
    .from(transferDeposits)
    .leftJoin(users, eq(users.id, transferDeposits.userId))
    .where(opts.state ? eq(transferDeposits.state, opts.state) : undefined)
    .orderBy(desc(transferDeposits.receivedAt))
    .limit(limit);
  return rows.map(({ d, email }) => ({
    squad_ref: d.squadRef,
    kind: d.kind,
    state: d.state,
    squad_status: d.squadStatus,
    payment_id: d.paymentId,
    account_number: d.accountNumber,
    user: d.userId && email ? { id: d.userId, email } : null,
    amount: koboToNaira(d.amountKobo),
    credited_amount: d.creditedKobo == null ? null : koboToNaira(d.creditedKobo),
    sender_name: d.senderName,
    detail: d.detail,
    received_at: new Date(d.receivedAt).toISOString(),
  }));
}

/** Our credited transfers of one UTC day against Squad's transaction list for it (services/transfer-reconciliation.ts). */
export async function reconcileTransfers(deps: PaymentDeps, day: string): Promise<TransferReconciliation> {
  if (!isReconciliationDay(day)) throw new AppError("VALIDATION_FAILED", "date must be YYYY-MM-DD", { field: "date" });
  const start = Date.parse(`${day}T00:00:00Z`);
  const end = start + 24 * 3600_000;
  const ours = await deps.db
    .select({ id: payments.id, accountNumber: payments.accountNumber, creditedKobo: payments.creditedKobo })
    .from(payments)
    .where(and(eq(payments.provider, "squad_transfer"), eq(payments.status, "credited"), sql`${payments.creditedAt} >= ${start}`, sql`${payments.creditedAt} < ${end}`));
  const squad = await deps.provider.squadTransfers.listTransactions(day);
  return compareTransfers(day, ours.map((p) => ({ ...p, creditedKobo: p.creditedKobo ?? 0 })), squad);
}

/** The cron's entry point, on the cron's container (worker/scheduled.ts awaits what it defers before the run ends). */
export async function runTransferSweep(deps: PaymentDeps): Promise<void> {
  const result = await sweepTransfers(deps);
  if (result.requeried + result.settled + result.expired > 0) log("info", "bank transfer sweep", result);
}

/**
 * The operator's "Squad's record beside ours" for a transfer review (services/review-queue.ts): Squad's transaction
 * list entry for the arrival (what arrived, into which account) and, for a dynamic account, the re-query's attempts
 * with their refund flags (Squad refunds mismatched and expired transfers itself unless the merchant is profiled to
 * keep them: https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2#dva-refunds). Creditable only for
 * money Squad lists as arrived and not refunded; at most that much.
 */
export async function squadRecordOfArrival(
  deps: PaymentDeps,
  review: { paymentId: string; squadRef: string },
): Promise<{ status: string; actuallyPaid: string | null; creditable: boolean; message: string; maxKobo?: number | null }> {
  const [deposit] = await deps.db.select().from(transferDeposits).where(eq(transferDeposits.squadRef, review.squadRef)).limit(1);
  const record = await deps.provider.squadTransfers.findTransaction(review.squadRef);
  if (!record || record.indicator !== "C" || record.currency !== "NGN") {
    return { status: "unknown", actuallyPaid: null, creditable: false, message: "Squad's transaction list has no credit with this reference: nothing to credit." };
  }
  if (deposit?.accountNumber && record.accountNumber !== deposit.accountNumber) {
    return { status: "other_account", actuallyPaid: String(koboToNaira(record.principalKobo)), creditable: false, message: `Squad lists this transfer into ${record.accountNumber}, not ${deposit.accountNumber}: not credited from the queue.` };
  }
  let status = "C";
  if (deposit?.kind === "dynamic") {
    const attempts = await deps.provider.squadTransfers.requeryDynamic(review.paymentId);
    const words = attempts.map((a) => a.status + (a.refund ? " (refunded)" : "")).join(", ");
    status = words || "no attempts";
    if (attempts.some((a) => a.status !== "SUCCESS" && a.refund === true) && !attempts.some((a) => a.status !== "SUCCESS" && a.refund !== true)) {
      return { status, actuallyPaid: String(koboToNaira(record.principalKobo)), creditable: false, message: `Squad refunded this transfer to the sender (${words}): nothing to credit.` };
    }
  }
  return {
    status,
    actuallyPaid: String(koboToNaira(record.principalKobo)),
    creditable: true,
    message: `Squad lists ${ngn(record.principalKobo)} into ${record.accountNumber} (${record.transactionDate}): at most ${ngn(record.principalKobo)} may be credited.`,
    maxKobo: record.principalKobo,
  };
}
