import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PAYMENT_STATUSES, TRANSFER_DEPOSIT_STATES } from "../../../schema/constants";
import { WITHDRAWAL_STATES } from "../../../schema/withdrawals";
import { now, users } from "../kernel/tables";

/**
 * The funding room's tables: payments, bank-transfer arrivals and virtual accounts, review items and their decisions.
 * Written only by their entity modules (scripts/money-writers.ts).
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/** Payment attempts (Squad checkouts and NOWPayments invoices). Credited only through the ledger. */
export const payments = sqliteTable(
  "payments",
  {
    // Our own unique reference: Squad's transaction_ref, or the order_id we give NOWPayments.
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    // squad_transfer: a dynamic (per-payment) Squad virtual account, or one transfer into a customer's static account.
    provider: text("provider", { enum: ["squad", "nowpayments", "squad_transfer"] }).notNull(),
    // Typed only (no CHECK in SQL): the services' compare-and-sets are the authority on which moves are allowed.
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    // What the wallet receives when the payment is confirmed.
    amountKobo: integer("amount_kobo").notNull(),
    currency: text("currency").notNull(),
    // NOWPayments: payment_id, the USD price, the naira rate fixed at creation, and what to pay where.
    providerPaymentId: text("provider_payment_id"),
    priceUsdCents: integer("price_usd_cents"),
    rateKoboPerUsd: integer("rate_kobo_per_usd"),
    payAddress: text("pay_address"),
    payAmount: text("pay_amount"),
    payCurrency: text("pay_currency"),
    network: text("network"),
    checkoutUrl: text("checkout_url"),
    // Bank transfer (squad_transfer): where the customer pays, as Squad assigned it.
    bankName: text("bank_name"),
    accountNumber: text("account_number"),
    accountName: text("account_name"),
    expiresAt: integer("expires_at"),
    creditedAt: integer("credited_at"),
    // What the wallet actually received (a crypto underpayment is credited at what arrived, not at amount_kobo).
    creditedKobo: integer("credited_kobo"),
    // NOWPayments' actually_paid, in pay_currency, as read back from GET /payment/{id} before crediting.
    actuallyPaid: text("actually_paid"),
    // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
    // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    index("payments_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("payments_provider_payment_unique").on(t.provider, t.providerPaymentId),
    index("payments_status_idx").on(t.status),
  ],
);

/**
 * Crypto arrivals that do not match their invoice (another currency, a repeat deposit with parent_payment_id, an
 * amount above the tolerance, a 'finished' without an amount) wait here for an operator; they are never credited
 * automatically. One row per upstream payment and reason, so a replayed IPN adds nothing.
 */
export const paymentReviews = sqliteTable(
  "payment_reviews",
  {
    id: text("id").primaryKey(),
    // Our invoice the arrival belongs to (a repeat deposit: the invoice its parent_payment_id names).
    paymentId: text("payment_id").notNull().references(() => payments.id),
    userId: text("user_id").notNull().references(() => users.id),
    // squad: a card payment Squad confirmed for another amount than the checkout's (decision 031).
    provider: text("provider", { enum: ["nowpayments", "squad"] }).notNull(),
    // The upstream payment that arrived (a repeat deposit has its own payment_id).
    providerPaymentId: text("provider_payment_id").notNull(),
        // transfer_*: a bank transfer into a virtual account that may not be credited on its own (services/bank-transfers.ts).
    reason: text("reason", {
      enum: ["other_currency", "repeat_payment", "overpaid", "no_amount", "paid_after_settlement", "card_amount_mismatch", "transfer_amount_mismatch", "transfer_late", "transfer_unverified"],
    }).notNull(),
    status: text("status", { enum: ["open", "credited", "refused"] }).notNull().default("open"),
    expectedCurrency: text("expected_currency"),
    expectedAmount: text("expected_amount"),
    payCurrency: text("pay_currency"),
    actuallyPaid: text("actually_paid"),
    // The naira value we would credit at the invoice's rate when the currency matches; null when we cannot price it.
    suggestedKobo: integer("suggested_kobo"),
    detail: text("detail").notNull().default(""),
    // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
    // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("payment_reviews_arrival_unique").on(t.provider, t.providerPaymentId, t.reason),
    index("payment_reviews_status_idx").on(t.status, t.createdAt),
  ],
);

/**
 * The operator's decision on a review, one row per review (the primary key): a second decision is a UNIQUE violation
 * that rolls back its whole batch, ledger credit included, so a review is resolved exactly once. Also the audit record.
 */
export const paymentReviewResolutions = sqliteTable("payment_review_resolutions", {
  reviewId: text("review_id")
    .primaryKey()
    .references(() => paymentReviews.id),
  outcome: text("outcome", { enum: ["credited", "refused"] }).notNull(),
  amountKobo: integer("amount_kobo"),
  operatorId: text("operator_id").notNull(),
  // Internal: the audit's reason, never shown to the customer.
  note: text("note").notNull().default(""),
  // Optional, written for the customer (issue 43): their history row, transfer card, toast and e-mail carry it.
  customerMessage: text("customer_message"),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * The operator's decision on a review-queue item that is not a payment_reviews row (services/console/review-queue.ts):
 * a card checkout pending too long (item id: the payment's id) or a transfer into an account we do not know (item id:
 * ua_<Squad's reference>). One row per item (the primary key): a second decision is a UNIQUE violation that rolls
 * back its whole batch (the audit row and the payment's move included), so an item is resolved exactly once, and the
 * queue reads its resolutions here, not back from audit_log (issue 29, decision 049).
 */
export const reviewItemResolutions = sqliteTable("review_item_resolutions", {
  itemId: text("item_id").primaryKey(),
  kind: text("kind", { enum: ["card", "transfer"] }).notNull(),
  outcome: text("outcome", { enum: ["credited", "refused"] }).notNull(),
  amountKobo: integer("amount_kobo"),
  operatorId: text("operator_id").notNull(),
  note: text("note").notNull().default(""),
  // The id of the declared move that wrote this decision (services/kernel/money-entity.ts).
  moveId: text("move_id"),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * A customer's static (permanent) Squad virtual account (issue 31). Only what is needed to credit and show it: the
 * account, the identifier we gave Squad, and the BVN's last four digits for the masked display. The BVN itself is
 * sent to Squad once and never stored.
 */
export const virtualAccounts = sqliteTable(
  "virtual_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id),
    accountNumber: text("account_number").notNull(),
    customerIdentifier: text("customer_identifier").notNull(),
    bankName: text("bank_name").notNull(),
    accountName: text("account_name").notNull(),
    bvnLast4: text("bvn_last4").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("virtual_accounts_number_unique").on(t.accountNumber), uniqueIndex("virtual_accounts_identifier_unique").on(t.customerIdentifier)],
);

/**
 * Every transfer Squad told us arrived in a virtual account, one row per Squad transaction_reference (a replayed or
 * concurrent notification finds it and adds nothing). state: verifying (heard, not yet confirmed by Squad's re-query),
 * credited, review (in the operator's queue: another amount, late, unconfirmed), refused (the operator refused it),
 * unmatched (an account we do not know: no customer to credit, the console lists it). The console's transfer deposits and the reconciliation read it.
 */
export const transferDeposits = sqliteTable(
  "transfer_deposits",
  {
    squadRef: text("squad_ref").primaryKey(),
    kind: text("kind", { enum: ["dynamic", "static"] }).notNull(),
    // dynamic: the payment (our merchant_reference) it paid; static: the payment row written for it.
    paymentId: text("payment_id"),
    accountNumber: text("account_number"),
    // Null while the account is unknown to us.
    userId: text("user_id"),
    // What the notification says arrived; credited only after Squad's re-query agrees.
    amountKobo: integer("amount_kobo").notNull(),
    // Squad's word on this transfer (SUCCESS, MISMATCH, EXPIRED, or C for a static credit).
    squadStatus: text("squad_status").notNull(),
    state: text("state", { enum: TRANSFER_DEPOSIT_STATES }).notNull(),
    creditedKobo: integer("credited_kobo"),
    senderName: text("sender_name"),
    detail: text("detail").notNull().default(""),
    // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
    // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
    moveId: text("move_id"),
    receivedAt: integer("received_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("transfer_deposits_state_idx").on(t.state, t.receivedAt), index("transfer_deposits_payment_idx").on(t.paymentId)],
);

/**
 * The bank account a customer cashes out to (issue 45, docs/decisions/071): one per customer, its holder's name as
 * Squad's lookup gave it, and the verified name it was matched against. usable_from ends the cooling period a new
 * account starts. Written only by payout-accounts.ts.
 */
export const payoutAccounts = sqliteTable("payout_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  bankCode: text("bank_code").notNull(),
  accountNumber: text("account_number").notNull(),
  // The holder's name as Squad's account lookup answered it.
  accountName: text("account_name").notNull(),
  // The name it was matched against: the BVN-checked name of the permanent transfer account, else the customer's own.
  verifiedName: text("verified_name").notNull(),
  nameSource: text("name_source", { enum: ["bvn", "declared"] }).notNull(),
  usableFrom: integer("usable_from").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Withdrawals to a payout account, a money entity (withdrawal-transitions.ts is its only writer). The amount and fee
 * are held in the ledger when the row is written (withdraw:<id>); a failure, a refusal or a later reversal credits
 * them back once (withdraw_back:<id>). reference: Squad's transaction_reference, `<merchant id>_<id>`, sent once.
 */
export const withdrawals = sqliteTable(
  "withdrawals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    amountKobo: integer("amount_kobo").notNull(),
    feeKobo: integer("fee_kobo").notNull(),
    bankCode: text("bank_code").notNull(),
    accountNumber: text("account_number").notNull(),
    accountName: text("account_name").notNull(),
    reference: text("reference").notNull(),
    status: text("status", { enum: WITHDRAWAL_STATES }).notNull(),
    // Squad's last word (success, failed, reversed, pending, timeout) and its NIP session id once paid.
    squadStatus: text("squad_status"),
    nipReference: text("nip_reference"),
    detail: text("detail").notNull().default(""),
    // The operator who approved or refused (a large withdrawal), and why.
    decidedBy: text("decided_by"),
    decisionReason: text("decision_reason"),
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("withdrawals_reference_unique").on(t.reference),
    index("withdrawals_user_idx").on(t.userId, t.createdAt),
    index("withdrawals_status_idx").on(t.status, t.updatedAt),
  ],
);
