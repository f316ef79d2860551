import { and, desc, eq, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { ReviewQueueItem, ReviewVerification } from "../../../schema/admin";
import { formatNaira, koboToNaira, nairaToKobo } from "../../../schema/money";
import { auditInsert } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { payments, reviewItemResolutions, transferDeposits } from "./tables";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { confirmCardPayment } from "./card-payments";
import { MONEY_ARRIVED } from "./crypto-payments";
import { getPaymentReview, listPaymentReviews, openReviewCount, type ReviewListItem } from "./payment-reviews";
import { CARD_PENDING_TOO_LONG_MS } from "./payment-sweep";
import type { Payment } from "./payments";
import { closeUnknownTransfer, creditStaleCard, type QueueDecisionInput, refuseStaleCard, resolvePaymentReview } from "./review-decisions";
import { squadRecordOfArrival } from "./bank-transfers";
import { type PaymentDeps, statement } from "../kernel";

/**
 * The operator console's payment review queue (issue 15, Deposits; docs/decisions/023), kept with the money it decides
 * (the funding room owns payments, reviews and transfer arrivals: issue 42; services/console offers it through its
 * index): one list of what needs an
 * operator's decision on a deposit, two kinds of item.
 * - crypto: a row of payment_reviews (services/payment-reviews.ts): an arrival that did not match its invoice.
 *   Its decision is the resolution row, inserted in one batch with the ledger credit and the audit row.
 * - card: a Squad payment still pending CARD_PENDING_TOO_LONG_MS after checkout (Squad's only webhook is for a
 *   successful charge, so a checkout nobody finished stays pending until the sweep gives it up). Not a row of its own:
 *   the payment is the item, and its decision is a review_item_resolutions row (decision 049), written once by its
 *   primary key in the decision's batch with the audit row.
 *   A card charge Squad confirmed for another amount (decision 031) is a payment_reviews row like a crypto arrival
 *   (provider squad, reason card_amount_mismatch), listed as kind card and decided like a crypto item: credit at most
 *   what Squad's verified record says arrived, or refuse, once by the resolution row. Credit goes through confirmCardPayment (Squad's word, the payment's exact amount, ledger
 *   key fund:squad:<ref>, the key the webhook and the sweep use); refuse is a guarded pending -> refused.
 * Every decision first asks the provider again (verify*), never the client: what it says bounds what may be credited.
 */

export type QueueReason = ReviewListItem["reason"] | "card_pending" | "transfer_unknown_account";
/** A review row: a crypto arrival, or a card charged another amount (the card items that are rows). */
const isReviewRow = (id: string) => id.startsWith("rv_");
/**
 * A bank transfer into an account we do not know (issue 31): no payment and no customer to hang a review row on, so, like
 * a stale card checkout, the arrival itself (transfer_deposits, state unmatched) is the item, `ua_<Squad's reference>`.
 */
const UNKNOWN_ACCOUNT_PREFIX = "ua_";
const isUnknownAccountItem = (id: string) => id.startsWith(UNKNOWN_ACCOUNT_PREFIX);
export type QueueItem = Omit<ReviewListItem, "reason" | "user"> & { kind: "crypto" | "card" | "transfer"; reason: QueueReason; user: ReviewListItem["user"] | null };
// The queue's item is the console's contract (schema/admin.ts): a field added or renamed here fails to compile there.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const queueItemIsTheContract: Same<QueueItem, ReviewQueueItem> = true;
void queueItemIsTheContract;

/** The audit actions of a queue decision (the audit record; the decision itself is its resolution row). */
type ResolveAction = "review.credit" | "review.refuse";

type Resolution = typeof reviewItemResolutions.$inferSelect;
const resolutionView = (r: Resolution): QueueItem["resolution"] => ({
  outcome: r.outcome,
  amount: r.amountKobo === null ? null : koboToNaira(r.amountKobo),
  operator_id: r.operatorId,
  note: r.note,
  at: new Date(r.createdAt).toISOString(),
});

/** Money in messages as the console shows it: ₦15,000.00. */
const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;

const reviewItem = (item: ReviewListItem): QueueItem => ({
  ...item,
  kind: item.reason === "card_amount_mismatch" ? "card" : item.reason.startsWith("transfer_") ? "transfer" : "crypto",
});

const openCardsWhere = (now: number): SQL =>
  and(eq(payments.provider, "squad"), eq(payments.status, "pending"), lt(payments.createdAt, now - CARD_PENDING_TOO_LONG_MS))!;

/** Card items: the payment, its customer and (when an operator decided it) the decision's resolution row. */
async function cardItems(db: Db, where: SQL, opts: { resolvedOnly?: boolean; limit: number }): Promise<QueueItem[]> {
  const join = eq(reviewItemResolutions.itemId, payments.id);
  const base = db
    .select({ payment: payments, email: users.email, username: users.username, resolution: reviewItemResolutions })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId));
  const rows = await (opts.resolvedOnly ? base.innerJoin(reviewItemResolutions, join) : base.leftJoin(reviewItemResolutions, join))
    .where(where)
    .orderBy(desc(payments.createdAt))
    .limit(opts.limit);
  return rows.map(({ payment: p, email, username, resolution }) => {
    return {
      kind: "card",
      id: p.id,
      status: resolution ? resolution.outcome : "open",
      reason: "card_pending",
      payment_id: p.id,
      provider_payment_id: p.id,
      user: { id: p.userId, email, username },
      expected_currency: p.currency,
      expected_amount: String(koboToNaira(p.amountKobo)),
      pay_currency: null,
      actually_paid: null,
      // A card is credited for exactly what was asked, and only when Squad confirms the charge.
      suggested_amount: koboToNaira(p.amountKobo),
      detail: `Card checkout ${p.status} for over ${CARD_PENDING_TOO_LONG_MS / 60_000} minutes: Squad sends a webhook only for a successful charge.`,
      created_at: new Date(p.createdAt).toISOString(),
      resolution: resolution ? resolutionView(resolution) : null,
    } satisfies QueueItem;
  });
}

/**
 * Unknown-account transfer items: the unmatched arrival and (when an operator closed it) the decision's resolution row. Never
 * credited from the queue: there is no customer to credit until an operator finds the owner.
 */
async function unknownAccountItems(db: Db, opts: { status: "open" | "resolved" | "all"; squadRef?: string; limit: number }): Promise<QueueItem[]> {
  const join = eq(reviewItemResolutions.itemId, sql`${UNKNOWN_ACCOUNT_PREFIX} || ${transferDeposits.squadRef}`);
  const rows = await db
    .select({ d: transferDeposits, resolution: reviewItemResolutions })
    .from(transferDeposits)
    .leftJoin(reviewItemResolutions, join)
    .where(
      and(
        eq(transferDeposits.state, "unmatched"),
        opts.squadRef === undefined ? undefined : eq(transferDeposits.squadRef, opts.squadRef),
        opts.status === "open" ? isNull(reviewItemResolutions.itemId) : opts.status === "resolved" ? isNotNull(reviewItemResolutions.itemId) : undefined,
      ),
    )
    .orderBy(desc(transferDeposits.receivedAt))
    .limit(opts.limit);
  return rows.map(({ d, resolution }) => {
    const into = d.accountNumber ? `account ${d.accountNumber}` : "an account";
    return {
      kind: "transfer",
      id: `${UNKNOWN_ACCOUNT_PREFIX}${d.squadRef}`,
      status: resolution ? resolution.outcome : "open",
      reason: "transfer_unknown_account",
      payment_id: d.paymentId ?? "",
      provider_payment_id: d.squadRef,
      user: null,
      expected_currency: "NGN",
      expected_amount: null,
      pay_currency: "NGN",
      actually_paid: String(koboToNaira(d.amountKobo)),
      suggested_amount: null,
      detail: `A ${d.kind} transfer of ${ngn(d.amountKobo)} into ${into}, which is not ours${d.senderName ? `, from ${d.senderName}` : ""}: never credited on its own. Find its owner and credit them with a manual credit (Customers), or close it here.`,
      created_at: new Date(d.receivedAt).toISOString(),
      resolution: resolution ? resolutionView(resolution) : null,
    } satisfies QueueItem;
  });
}

/** The queue (`open`), its history (`resolved`) or both, newest first. */
export async function listReviewQueue(db: Db, opts: { status?: "open" | "resolved" | "all"; limit?: number } = {}, now: number): Promise<QueueItem[]> {
  const status = opts.status ?? "open";
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const [crypto, openCards, resolvedCards, unknownAccounts] = await Promise.all([
    listPaymentReviews(db, { status, limit }),
    status === "resolved" ? [] : cardItems(db, openCardsWhere(now), { limit }),
    status === "open" ? [] : cardItems(db, eq(payments.provider, "squad"), { resolvedOnly: true, limit }),
    unknownAccountItems(db, { status, limit }),
  ]);
  return [...crypto.map(reviewItem), ...openCards, ...resolvedCards, ...unknownAccounts].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, limit);
}

/** How many items wait for a decision: the Overview's "deposits in review". */
export async function reviewQueueCount(db: Db, now: number): Promise<number> {
  const [crypto, [cards], unknownAccounts] = await Promise.all([
    openReviewCount(db),
    db.select({ n: sql<number>`count(*)` }).from(payments).where(openCardsWhere(now)),
    unknownAccountItems(db, { status: "open", limit: 200 }),
  ]);
  return Number(crypto) + Number(cards?.n ?? 0) + unknownAccounts.length;
}

/** One item: a review id (rv_...) or a card payment's reference. Null when it is not (or never was) in the queue. */
export async function getQueueItem(db: Db, id: string, now: number): Promise<QueueItem | null> {
  if (isReviewRow(id)) {
    const review = await getPaymentReview(db, id);
    return review ? reviewItem(review) : null;
  }
  if (isUnknownAccountItem(id)) {
    const [item] = await unknownAccountItems(db, { status: "all", squadRef: id.slice(UNKNOWN_ACCOUNT_PREFIX.length), limit: 1 });
    return item ?? null;
  }
  const [card] = await cardItems(db, and(eq(payments.id, id), eq(payments.provider, "squad"))!, { limit: 1 });
  if (!card) return null;
  // A card is in the queue while it is pending too long, and stays (resolved) once an operator decided it.
  const pendingTooLong = card.resolution === null && (await db.select({ id: payments.id }).from(payments).where(and(eq(payments.id, id), openCardsWhere(now))).limit(1)).length > 0;
  return card.resolution || pendingTooLong ? card : null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Verify again with the provider

/** What the provider says now, and what that allows (the contract's type: schema/admin.ts). */
export type Verification = ReviewVerification;

interface Checked {
  view: Verification;
  suggestedKobo: number | null;
  maxKobo: number | null;
}

function checked(view: Omit<Verification, "checked_at" | "suggested_amount" | "max_amount">, suggestedKobo: number | null = null, maxKobo: number | null = null): Checked {
  return {
    view: {
      ...view,
      suggested_amount: suggestedKobo === null ? null : koboToNaira(suggestedKobo),
      max_amount: maxKobo === null ? null : koboToNaira(maxKobo),
      checked_at: new Date().toISOString(),
    },
    suggestedKobo,
    maxKobo,
  };
}

async function paymentOf(db: Db, id: string): Promise<Payment> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", "No deposit with this id.");
  return row;
}

/**
 * A crypto item: NOWPayments' record of the arrival (GET /payment/{id}, the same re-read the IPN path trusts), priced
 * at the invoice's own rate when it is in the invoice's coin, per reason: an excess (overpaid), what arrived beyond
 * the earlier credit (paid_after_settlement), or all of it (a repeat deposit, an invoice held whole). Another coin
 * cannot be priced here: the operator types the amount, at most the invoice's naira value.
 */
async function verifyCrypto(deps: PaymentDeps, item: QueueItem): Promise<Checked> {
  const payment = await paymentOf(deps.db, item.payment_id);
  const remote = await deps.provider.nowpayments.getPayment(item.provider_payment_id);
  if (!remote) {
    return checked({ provider: "nowpayments", status: "unknown", pay_currency: null, actually_paid: null, creditable: false, message: "NOWPayments does not know this payment: nothing to credit." });
  }
  const base = {
    provider: "nowpayments" as const,
    status: remote.paymentStatus,
    pay_currency: remote.payCurrency?.toUpperCase() ?? null,
    actually_paid: remote.actuallyPaid == null ? null : String(remote.actuallyPaid),
  };
  if (item.reason === "repeat_payment" && remote.parentPaymentId !== payment.providerPaymentId) {
    return checked({ ...base, creditable: false, message: "NOWPayments no longer names this invoice as the payment's parent: nothing to credit." });
  }
  if (!MONEY_ARRIVED.has(remote.paymentStatus)) {
    return checked({ ...base, creditable: false, message: `NOWPayments reports "${remote.paymentStatus}": no money has arrived to credit.` });
  }
  const invoiceCurrency = (payment.payCurrency ?? "").toUpperCase();
  const expected = Number(payment.payAmount);
  const paid = remote.actuallyPaid ?? 0;
  const priced = base.pay_currency === invoiceCurrency && expected > 0 && paid > 0;
  if (!priced) {
    return checked(
      {
        ...base,
        creditable: true,
        message: `Paid ${paid || "an unknown amount"} ${base.pay_currency ?? ""} against an invoice in ${invoiceCurrency}: it cannot be priced at the invoice's rate. Check its value and type the amount (at most the invoice's ${ngn(payment.amountKobo)}).`,
      },
      null,
      payment.amountKobo,
    );
  }
  // The naira value of what arrived at the rate fixed on the invoice, rounded down like settleArrival (payments.ts).
  const arrivedKobo = Math.floor((payment.amountKobo * paid) / expected);
  const due =
    item.reason === "overpaid"
      ? arrivedKobo - payment.amountKobo
      : item.reason === "paid_after_settlement"
        ? arrivedKobo - (payment.creditedKobo ?? payment.amountKobo)
        : arrivedKobo;
  if (due <= 0) {
    return checked({ ...base, creditable: false, message: `By NOWPayments' record (${paid} ${base.pay_currency}) nothing beyond what was already credited is due.` });
  }
  return checked({ ...base, creditable: true, message: `NOWPayments reports ${paid} ${base.pay_currency} (${remote.paymentStatus}): ${ngn(due)} at the invoice's rate.` }, due, due);
}

/**
 * A card charged another amount (decision 031): Squad's verify record again, read only. Credit at most what it says
 * arrived, in naira; a charge in another currency cannot be priced here, so the operator types the amount, at most the
 * checkout's (what the customer meant to deposit), as with a crypto arrival in another coin.
 */
async function verifyCardMismatch(deps: PaymentDeps, item: QueueItem): Promise<Checked> {
  const payment = await paymentOf(deps.db, item.payment_id);
  const v = await deps.provider.squad.verify(payment.id);
  const base = { provider: "squad" as const, pay_currency: v?.currency ?? null, actually_paid: v ? String(koboToNaira(v.amountKobo)) : null };
  if (!v) return checked({ ...base, status: "unknown", creditable: false, message: "Squad does not know this reference: nothing to credit." });
  if (v.status !== "success") return checked({ ...base, status: v.status, creditable: false, message: `Squad reports the charge "${v.status}": nothing to credit.` });
  if (v.currency !== "NGN") {
    return checked(
      {
        ...base,
        status: v.status,
        creditable: true,
        message: `Squad confirmed ${koboToNaira(v.amountKobo)} ${v.currency} for a checkout of ${ngn(payment.amountKobo)}: it cannot be priced here. Check its value and type the amount (at most ${ngn(payment.amountKobo)}).`,
      },
      null,
      payment.amountKobo,
    );
  }
  return checked(
    { ...base, status: v.status, creditable: true, message: `Squad confirms a charge of ${ngn(v.amountKobo)} for a checkout of ${ngn(payment.amountKobo)}: at most ${ngn(v.amountKobo)} may be credited.` },
    v.amountKobo,
    v.amountKobo,
  );
}

/** A review row's provider record: NOWPayments' for a crypto arrival, Squad's for a card charged another amount. */
const verifyReview = (deps: PaymentDeps, item: QueueItem): Promise<Checked> =>
  item.reason === "card_amount_mismatch" ? verifyCardMismatch(deps, item) : item.kind === "transfer" ? verifyTransfer(deps, item) : verifyCrypto(deps, item);

/** A bank transfer held for review (issue 31): Squad's transaction list and re-query (services/bank-transfers.ts). */
async function verifyTransfer(deps: PaymentDeps, item: QueueItem): Promise<Checked> {
  const r = await squadRecordOfArrival(deps, { paymentId: item.payment_id, squadRef: item.provider_payment_id });
  const view = { provider: "squad" as const, status: r.status, pay_currency: "NGN", actually_paid: r.actuallyPaid, creditable: r.creditable, message: r.message };
  return r.creditable ? checked(view, r.maxKobo ?? null, r.maxKobo ?? null) : checked(view);
}

/**
 * An unknown-account transfer: Squad's own list entry for the reference (read only), beside what the notice said. Never
 * creditable from the queue: whose money it is cannot be read from Squad's record.
 */
async function verifyUnknownAccount(deps: PaymentDeps, item: QueueItem): Promise<Checked> {
  const t = await deps.provider.squadTransfers.findTransaction(item.provider_payment_id);
  if (!t) return checked({ provider: "squad", status: "unknown", pay_currency: null, actually_paid: null, creditable: false, message: "Squad's transaction list has no credit with this reference: nothing arrived." });
  return checked({
    provider: "squad",
    status: t.indicator === "C" ? "credit" : t.indicator,
    pay_currency: t.currency,
    actually_paid: String(koboToNaira(t.principalKobo)),
    creditable: false,
    message: `Squad lists ${ngn(t.principalKobo)} into ${t.accountNumber} on ${t.transactionDate}${t.customerIdentifier ? ` (customer ${t.customerIdentifier})` : ""}: no customer of ours holds that account, so nothing is credited from here.`,
  });
}

/** A card item: Squad's verify call (https://docs.squadco.com/Payments/verify-transaction), read only. */
async function verifyCard(deps: PaymentDeps, payment: Payment): Promise<Checked> {
  const v = await deps.provider.squad.verify(payment.id);
  const base = { provider: "squad" as const, pay_currency: v?.currency ?? null, actually_paid: v ? String(koboToNaira(v.amountKobo)) : null };
  if (!v) return checked({ ...base, status: "unknown", creditable: false, message: "Squad does not know this reference: the checkout was never paid." });
  if (v.status !== "success") return checked({ ...base, status: v.status, creditable: false, message: `Squad reports the charge "${v.status}": nothing to credit.` });
  if (v.amountKobo !== payment.amountKobo || v.currency !== "NGN") {
    return checked({
      ...base,
      status: v.status,
      creditable: false,
      message: `Squad confirmed ${koboToNaira(v.amountKobo)} ${v.currency}, not the ${ngn(payment.amountKobo)} asked: not credited from the queue.`,
    });
  }
  return checked({ ...base, status: v.status, creditable: true, message: `Squad confirms the charge of ${ngn(payment.amountKobo)}.` }, payment.amountKobo, payment.amountKobo);
}

/** Verify again: the provider's current word on one item (no state changes: resolve asks again itself). */
export async function verifyQueueItem(deps: PaymentDeps, item: QueueItem): Promise<Verification> {
  if (isReviewRow(item.id)) return (await verifyReview(deps, item)).view;
  if (isUnknownAccountItem(item.id)) return (await verifyUnknownAccount(deps, item)).view;
  return (await verifyCard(deps, await paymentOf(deps.db, item.id))).view;
}

// ---------------------------------------------------------------------------------------------------------------------
// Resolve, once

export interface ResolveInput {
  id: string;
  operator: { id: string; email: string };
  action: "credit" | "refuse";
  /** Naira; optional for a credit (the provider's priced record is the default), refused with a refuse. */
  amount?: number;
  reason: string;
}

export interface ResolveAnswer {
  review: QueueItem;
  verification: Verification;
  balance: number | null;
}

const alreadyResolved = () => new AppError("CONFLICT", "This review is already resolved.");

/**
 * Verify again with the provider, then credit the right amount or refuse, once. A second decision (a double click,
 * two operators) is 409 and moves nothing: crypto by the resolution row's primary key in the credit's own batch
 * (payment-reviews.ts), card by the ledger key fund:squad:<ref> plus the audit row's NOT EXISTS guard and the
 * pending -> refused compare-and-set.
 */
export async function resolveQueueItem(deps: PaymentDeps, input: ResolveInput, now = deps.clock.now()): Promise<ResolveAnswer> {
  const db = deps.db;
  const item = await getQueueItem(db, input.id, now);
  if (!item) {
    // A card payment that left the queue meanwhile (Squad settled it, the sweep gave it up) or has not entered it yet.
    const [card] = isReviewRow(input.id) ? [] : await db.select().from(payments).where(and(eq(payments.id, input.id), eq(payments.provider, "squad"))).limit(1);
    if (!card) throw new AppError("NOT_FOUND", "No review with this id.");
    throw new AppError(
      "INVALID_STATE",
      card.status === "pending"
        ? `This card payment is not ${CARD_PENDING_TOO_LONG_MS / 60_000} minutes old yet: Squad may still confirm it.`
        : `This card payment is no longer pending (${card.status.replace("_", " ")}): nothing to decide.`,
    );
  }
  if (item.status !== "open") throw alreadyResolved();
  if (input.action === "refuse" && input.amount !== undefined) {
    throw new AppError("VALIDATION_FAILED", "A refusal takes no amount.", { field: "amount" });
  }
  if (isUnknownAccountItem(item.id)) return resolveUnknownAccount(deps, item, input);
  return isReviewRow(item.id) ? resolveReview(deps, item, input) : resolveCard(deps, item, input);
}

/**
 * An unknown-account transfer: only closed (refused) here, once, by its resolution row's primary key; the money is
 * credited only to a customer an operator names, through the audited manual credit (decision 036).
 */
async function resolveUnknownAccount(deps: PaymentDeps, item: QueueItem, input: ResolveInput): Promise<ResolveAnswer> {
  const check = await verifyUnknownAccount(deps, item);
  if (input.action === "credit") {
    throw new AppError("INVALID_STATE", "A transfer into an account we do not know has no customer to credit: find its owner and use a manual credit (Customers), then close this item.");
  }
  const db = deps.db;
  const at = deps.clock.now();
  await closeUnknownTransfer(
    db,
    item.id,
    {
      operatorId: input.operator.id,
      note: input.reason,
      audit: (decided) =>
        statement(
          auditInsert(
            db,
            {
              actor: input.operator.email,
              action: "review.refuse",
              detail: { kind: "transfer", reviewId: item.id, squadRef: item.provider_payment_id, amount: null, operatorId: input.operator.id, provider: check.view },
              reason: input.reason,
              subject: item.id,
              previous: JSON.stringify("open"),
              onlyIf: decided,
            },
            at,
          ),
        ),
    },
    at,
  );
  return { review: (await getQueueItem(db, item.id, deps.clock.now()))!, verification: check.view, balance: null };
}

/** A review row (crypto arrival or card charged another amount): the provider's record bounds the credit. */
async function resolveReview(deps: PaymentDeps, item: QueueItem, input: ResolveInput): Promise<ResolveAnswer> {
  const db = deps.db;
  const check = await verifyReview(deps, item);
  let amountKobo: number | null = null;
  if (input.action === "credit") {
    if (!check.view.creditable) throw new AppError("INVALID_STATE", check.view.message);
    amountKobo = input.amount !== undefined ? nairaToKobo(input.amount) : check.suggestedKobo;
    if (amountKobo === null) throw new AppError("VALIDATION_FAILED", `Type the amount to credit. ${check.view.message}`, { field: "amount" });
    if (check.maxKobo !== null && amountKobo > check.maxKobo) {
      throw new AppError("VALIDATION_FAILED", `At most ${ngn(check.maxKobo)} may be credited for this review. ${check.view.message}`, {
        field: "amount",
        max_amount: koboToNaira(check.maxKobo),
      });
    }
  }
  const auditRow = auditInsert(
    db,
    {
      actor: input.operator.email,
      action: input.action === "credit" ? "review.credit" : "review.refuse",
      detail: { kind: item.kind, reviewId: item.id, paymentId: item.payment_id, userId: item.user?.id ?? null, amount: amountKobo === null ? null : koboToNaira(amountKobo), operatorId: input.operator.id, provider: check.view },
      reason: input.reason,
      subject: item.id,
      previous: JSON.stringify("open"),
    },
    deps.clock.now(),
  );
  const { review, balance } = await resolvePaymentReview(
    deps,
    {
      reviewId: item.id,
      operatorId: input.operator.id,
      decision: amountKobo === null ? { action: "refuse" } : { action: "credit", amountKobo },
      note: input.reason,
      also: { audit: statement(auditRow) },
    },
  );
  return { review: reviewItem(review), verification: check.view, balance };
}

async function resolveCard(deps: PaymentDeps, item: QueueItem, input: ResolveInput): Promise<ResolveAnswer> {
  const db = deps.db;
  if (input.action === "credit" && input.amount !== undefined && nairaToKobo(input.amount) !== nairaToKobo(Number(item.expected_amount))) {
    throw new AppError("VALIDATION_FAILED", `A card payment is credited for exactly what Squad charged: ${ngn(nairaToKobo(Number(item.expected_amount)))}.`, { field: "amount" });
  }
  const payment = await paymentOf(db, item.id);
  const check = await verifyCard(deps, payment);
  const decidedAt = deps.clock.now();
  const decision = (action: ResolveAction): QueueDecisionInput => ({
    operatorId: input.operator.id,
    note: input.reason,
    audit: (decided) =>
      statement(
        auditInsert(
          db,
          {
            actor: input.operator.email,
            action,
            detail: { kind: "card", paymentId: payment.id, userId: payment.userId, amount: action === "review.credit" ? koboToNaira(payment.amountKobo) : null, operatorId: input.operator.id, provider: check.view },
            reason: input.reason,
            subject: payment.id,
            previous: JSON.stringify(payment.status),
            onlyIf: decided,
          },
          decidedAt,
        ),
      ),
  });

  if (input.action === "credit") {
    if (!check.view.creditable) {
      // Squad's word moves a failed or abandoned checkout (the webhook's and the sweep's own confirmation).
      await confirmCardPayment(deps, payment.id);
      const after = await paymentOf(db, payment.id);
      const why =
        after.status === "pending" || after.status === "credited"
          ? "Squad does not report this charge as successful: nothing credited. Verify again later, or refuse it."
          : `Squad reports this checkout ${after.status.replace("_", " ")}: nothing credited.`;
      throw new AppError("INVALID_STATE", why);
    }
    // Squad confirms the exact charge: credited now or a moment ago (by this click, a webhook or the sweep), once by
    // the ledger key fund:squad:<ref>; the decision is recorded once, in the same batch: a second click fails on the
    // first's decision row and is told so.
    await creditStaleCard(deps, payment, decision("review.credit"));
  } else {
    // The same confirmation the webhook, the return page and the sweep run: a charge Squad calls successful is credited,
    // not refused; a failed one moves to failed.
    const outcome = await confirmCardPayment(deps, payment.id);
    if (outcome === "success") throw new AppError("CONFLICT", "Squad reports this charge successful: it has been credited, not refused.");
    const after = await paymentOf(db, payment.id);
    if (after.status !== "pending") throw new AppError("INVALID_STATE", `Squad reports this checkout ${after.status.replace("_", " ")}: it is closed, nothing to refuse.`);
    await refuseStaleCard(deps, after, decision("review.refuse"));
  }
  const review = await getQueueItem(db, payment.id, deps.clock.now());
  const [user] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, payment.userId));
  return { review: review!, verification: check.view, balance: user ? koboToNaira(user.balanceKobo) : null };
}
