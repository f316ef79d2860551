import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { WEBHOOK_EVENT_STATUSES } from "../../schema/api-keys";
import { RENTAL_STATUSES } from "../../schema/constants";
import { SMS_CHAIN_STATUSES, SMS_ORDER_STATUSES } from "../../schema/constants";
import { PAYMENT_STATUSES } from "../../schema/constants";

// The drizzle schema is drizzle-kit's source for migrations/. Money is integer kobo everywhere.
// Timestamps are epoch milliseconds (integers) so comparisons and sweeps never parse strings.

const now = sql`(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))`;

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    username: text("username").notNull(),
    // Stored lower-cased: emails are unique case-insensitively.
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    passwordHash: text("password_hash").notNull(),
    referralCode: text("referral_code").notNull(),
    referredBy: text("referred_by"),
    // Maintained only by the ledger trigger (migrations/0001_ledger_triggers.sql): balance = sum(ledger.amount).
    balanceKobo: integer("balance_kobo").notNull().default(0),
    // Confirmed funding only (ledger kind 'fund'); drives the discount tier and /api/level.
    totalDepositedKobo: integer("total_deposited_kobo").notNull().default(0),
    // Set when the customer followed the link e-mailed at sign-up (services/email-verification.ts). Null: unverified.
    emailVerifiedAt: integer("email_verified_at"),
    // TOTP two-factor (services/two-factor.ts): the secret AES-GCM encrypted, never returned after enrolment. A secret
    // with totp_enabled_at null is an enrolment not yet confirmed with a code. totp_last_step refuses a code's replay.
    totpSecret: text("totp_secret"),
    totpEnabledAt: integer("totp_enabled_at"),
    totpLastStep: integer("totp_last_step"),
    // 'operator' opens the console (#/admin, /api/admin) once two-factor is on; granted only by the CLI
    // (npm run admin -- grant-operator), audited. Everyone else is a 'customer'.
    role: text("role", { enum: ["customer", "operator"] }).notNull().default("customer"),
    // Set by an operator's block: sessions end and login is refused while set. The money stays the customer's.
    blockedAt: integer("blocked_at"),
    // Set when the customer followed an e-mail's unsubscribe link: no operator group e-mail reaches them again.
    emailOptOutAt: integer("email_opt_out_at"),
    // Set at a sign-in whose password no longer meets the rules (issue 33: under 8 characters, a common one, the
    // account's e-mail or username); the web asks for a new one. Cleared by a password change or reset.
    passwordChangeRequiredAt: integer("password_change_required_at"),
    // Set when the customer closes or finishes the dashboard tour (issue 28): it stays closed on every device.
    tourClosedAt: integer("tour_closed_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_referral_code_unique").on(t.referralCode),
    check("users_balance_non_negative", sql`${t.balanceKobo} >= 0`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    // What Settings shows for a signed-in device: the User-Agent (cut to 256 characters) and Cloudflare's approximate
    // place for the address it signed in from. last_seen_at moves at most every few minutes (middleware/auth.ts).
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    lastSeenAt: integer("last_seen_at"),
    // How the session signed in (decision 034): 'password', 'password+totp' or 'passkey' (a passkey with user
    // verification counts as two factors). second_factor_at: when it last proved a second factor (a TOTP or recovery
    // code, a passkey), at sign-in or by step-up; reauthenticated_at: when it last proved anything (the same, or the
    // password). Step-up and re-authentication (services/step-up.ts) read these two against a 10-minute window.
    authMethod: text("auth_method", { enum: ["password", "password+totp", "passkey"] }).notNull().default("password"),
    secondFactorAt: integer("second_factor_at"),
    reauthenticatedAt: integer("reauthenticated_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * WebAuthn credentials (passkeys, services/passkeys.ts; decision 034). The id is the credential id (base64url) the
 * authenticator chose; the public key is its COSE key (base64url). counter and backed_up are updated after every
 * verified assertion, as @simplewebauthn/server documents (https://simplewebauthn.dev/docs/packages/server).
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    // JSON array of AuthenticatorTransport strings the browser reported at registration (hints for later ceremonies).
    transports: text("transports").notNull().default("[]"),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(now),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * WebAuthn challenges, single-use and short-lived: a ceremony claims its row with one DELETE ... RETURNING before the
 * answer is verified, so a replayed or second answer finds nothing. 'register' and 'step-up' name the user and the
 * session that asked; 'sign-in' names nobody (discoverable credentials: the passkey says whose it is).
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "sign-in", "step-up"] }).notNull(),
    userId: text("user_id"),
    sessionId: text("session_id"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);

/** Single-use links that confirm a customer's e-mail address (the token's SHA-256 only, like password_resets). */
export const emailVerifications = sqliteTable(
  "email_verifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("email_verifications_user_idx").on(t.userId)],
);

/** Two-factor recovery codes: ten per enrolment, SHA-256 only, each spent once by a conditional UPDATE. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_unique").on(t.userId, t.codeHash)],
);

/** Devices a customer has signed in from (browser, OS and country), so a sign-in from an unknown one is e-mailed. */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id").notNull().references(() => users.id),
    // SHA-256 of the device description: the table holds no User-Agent of its own.
    deviceHash: text("device_hash").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
  },
  (t) => [uniqueIndex("known_devices_user_device_unique").on(t.userId, t.deviceHash)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    // SHA-256 of the 32-byte token: the token itself is only ever in the e-mail.
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

// Fixed-window counters for brute-force limits (per account and per address).
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: integer("reset_at").notNull(),
});

// Local outbox: every e-mail the EmailSender sends is stored here too, so a developer can follow a reset link.
export const emailOutbox = sqliteTable("email_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * The append-only ledger. Each row is one money movement with a unique idempotency key
 * (fund:squad:<ref>, fund:now:<payment_id>, buy:<orderId>, refund:<orderId>, rent:<id>, admin:<id>, referral:<userId>).
 * A trigger applies amount_kobo to users.balance_kobo in the same statement, so the balance can never drift from the
 * ledger, and the users CHECK makes a debit that would go below zero abort the whole batch.
 */
export const ledger = sqliteTable(
  "ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id),
    key: text("key").notNull(),
    // Signed: credits positive, debits negative.
    amountKobo: integer("amount_kobo").notNull(),
    kind: text("kind", { enum: ["fund", "buy", "refund", "rent", "rent_refund", "admin", "referral"] }).notNull(),
    note: text("note").notNull(),
    // The order, rental or payment this movement belongs to.
    ref: text("ref"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("ledger_key_unique").on(t.key),
    index("ledger_user_idx").on(t.userId, t.createdAt),
    check("ledger_amount_non_zero", sql`${t.amountKobo} <> 0`),
  ],
);

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
  note: text("note").notNull().default(""),
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
 * credited, review (in the operator's queue: another amount, late, unconfirmed), unmatched (an account we do not
 * know: no customer to credit, the console lists it). The console's transfer deposits and the reconciliation read it.
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
    state: text("state", { enum: ["verifying", "credited", "review", "unmatched"] }).notNull(),
    creditedKobo: integer("credited_kobo"),
    senderName: text("sender_name"),
    detail: text("detail").notNull().default(""),
    receivedAt: integer("received_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("transfer_deposits_state_idx").on(t.state, t.receivedAt), index("transfer_deposits_payment_idx").on(t.paymentId)],
);

/** Receive-SMS orders. id is public (the spec's request_id / reference_code); the upstream id stays internal. */
export const smsOrders = sqliteTable(
  "sms_orders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    provider: text("provider").notNull(),
    countryId: text("country_id").notNull(),
    countryName: text("country_name").notNull(),
    serviceId: text("service_id").notNull(),
    serviceName: text("service_name").notNull(),
    priceKobo: integer("price_kobo").notNull(),
    upstreamId: text("upstream_id"),
    number: text("number"),
    // The latest code; every code received is in sms_order_codes.
    code: text("code"),
    // "Request another code": when the customer asked (null: not waiting for another), and until when the upstream
    // activation stays open for it (set when the first code arrives; the poller completes it upstream then).
    anotherCodeRequestedAt: integer("another_code_requested_at"),
    activationClosesAt: integer("activation_closes_at"),
    // pending (debited, upstream not yet asked) -> waiting -> used | timeout | error | cancelled | failed
    status: text("status", { enum: SMS_ORDER_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    failureReason: text("failure_reason"),
    // "Code or next route" (sms_chains): which chain the order is a route of, and its place in it (1 = the first).
    chainId: text("chain_id"),
    chainStep: integer("chain_step"),
    // Issue 32: which upstream served the order (daisysms, smsman, herosms, grizzly; null: the provider's primary, as
    // before routing existed) and which of its accounts (issue 30's key pool; 0 is the first key). Operators see it;
    // customers see only the provider.
    upstream: text("upstream"),
    upstreamAccount: integer("upstream_account").notNull().default(0),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    index("sms_orders_user_idx").on(t.userId, t.createdAt),
    // Slots in use per upstream account (waiting orders), and routing's recent outcomes per upstream.
    index("sms_orders_upstream_slots_idx").on(t.upstream, t.upstreamAccount, t.status),
    // One order per place in a chain: two ticks moving on at once cannot both buy the next route.
    uniqueIndex("sms_orders_chain_step_unique").on(t.chainId, t.chainStep),
    index("sms_orders_status_idx").on(t.status),
    // A pushed code names the upstream's activation id (routes/webhooks.ts).
    index("sms_orders_upstream_idx").on(t.provider, t.upstreamId),
  ],
);

/**
 * "If no code comes, try another number" (issue 17, docs/decisions/022): one row per purchase that may move on. Each
 * route is its own sms_orders row (chain_id, chain_step) with its own buy:<id> debit and refund:<id>; at most one of
 * them holds money at a time, because the next is bought only after the previous one ended refunded.
 */
export const smsChains = sqliteTable("sms_chains", {
  // The first order's id.
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id),
  serviceName: text("service_name").notNull(),
  // The customer's naira ceiling for every further route, in kobo.
  capKobo: integer("cap_kobo").notNull(),
  // The routes the customer allowed, JSON ["Swift:5", "Dynamic:12"]; [] allows every route selling the service.
  routes: text("routes").notNull().default("[]"),
  maxRoutes: integer("max_routes").notNull(),
  // active (a route is live or being bought) -> ended (a code came, or no route is left) | cancelled (by the customer)
  status: text("status", { enum: SMS_CHAIN_STATUSES }).notNull().default("active"),
  currentOrderId: text("current_order_id").notNull(),
  endReason: text("end_reason"),
  createdAt: integer("created_at").notNull().default(now),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * A customer's starred Receive-SMS services (issue 17 "favourites"): shown first in the service list, kept on the
 * server so every device of the account sees the same stars. Per provider, since each names its services its own way.
 */
export const smsFavourites = sqliteTable(
  "sms_favourites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    serviceId: text("service_id").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider, t.serviceId] })],
);

/** Rented numbers. */
export const rentals = sqliteTable(
  "rentals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    provider: text("provider").notNull(),
    countryId: text("country_id").notNull(),
    countryName: text("country_name").notNull(),
    unit: text("unit", { enum: ["hour", "day", "week", "month"] }).notNull(),
    period: integer("period").notNull(),
    priceKobo: integer("price_kobo").notNull(),
    upstreamId: text("upstream_id"),
    number: text("number"),
    // pending -> active -> ended | cancelled | failed
    status: text("status", { enum: RENTAL_STATUSES }).notNull().default("pending"),
    expiresAt: integer("expires_at"),
    smsCount: integer("sms_count").notNull().default(0),
    lastCheckedAt: integer("last_checked_at"),
    // When the "ends in 1 hour" reminder went out for the current expiry (claimed by a conditional UPDATE so a repeated
    // watcher alarm sends it once); cleared when an extension moves the expiry.
    remindedAt: integer("reminded_at"),
    // Extensions paid so far: the n of the ledger key rent_extend:<id>:<n>. Moved from n-1 to n by the same batch that
    // debits extension n, so a double click charges once (docs/decisions/019).
    extendedCount: integer("extended_count").notNull().default(0),
    // Auto-renew (issue 32, services/rent/renewals.ts): the price agreed when it was turned on (kobo, null: off) and the
    // length of each renewal; a renewal above that price pauses (auto_renew_paused: price | funds | provider) and asks.
    autoRenewPriceKobo: integer("auto_renew_price_kobo"),
    autoRenewUnit: text("auto_renew_unit", { enum: ["hour", "day", "week", "month"] }),
    autoRenewPeriod: integer("auto_renew_period"),
    autoRenewPaused: text("auto_renew_paused"),
    // The expiry a renewal was claimed for: one compare-and-set per expiry, batched with its ledger row
    // rent_renew:<id>:<expiry>, so two alarms racing renew (and charge) once.
    renewedExpiry: integer("renewed_expiry"),
    // When the current period began (the last renewal or extension; null: when rented): reminders fall inside it.
    periodStartedAt: integer("period_started_at"),
    // The "renews in 24 hours" reminder for the current expiry (claimed like reminded_at).
    remindedDayAt: integer("reminded_day_at"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("rentals_user_idx").on(t.userId, t.createdAt), index("rentals_status_idx").on(t.status)],
);

export const rentalMessages = sqliteTable(
  "rental_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    rentalId: text("rental_id").notNull().references(() => rentals.id),
    // Identifies one upstream SMS so a message polled twice is stored once.
    fingerprint: text("fingerprint").notNull(),
    sender: text("sender").notNull(),
    text: text("text").notNull(),
    code: text("code"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [uniqueIndex("rental_messages_fingerprint_unique").on(t.rentalId, t.fingerprint)],
);

/** Operator settings as JSON values: exchange rate, markups, tiers, links, ads, rate settings, referral reward. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * Who changed what, when and why (operator CLI, the console, manual ledger entries). `previous` is the value before the
 * change (JSON, null when there was none); `subject` names what changed (a setting key, a user id) for the history.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    detail: text("detail").notNull(),
    reason: text("reason"),
    subject: text("subject"),
    previous: text("previous"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("audit_log_subject_idx").on(t.subject, t.id), index("audit_log_action_idx").on(t.action, t.id)],
);

/**
 * Incidents the operator posts on the public status page (issue 32, #/status): what is wrong, with which provider
 * (null: the whole service), from when, and when it was resolved (null: still open). Every post and resolve is also in
 * audit_log with its reason.
 */
export const statusIncidents = sqliteTable(
  "status_incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    provider: text("provider"),
    startedAt: integer("started_at").notNull(),
    resolvedAt: integer("resolved_at"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("status_incidents_started_idx").on(t.startedAt)],
);

/**
 * Operator changes that take effect only once a SECOND operator approves them (issue 33, ASVS 5.0 2.3.5 and 7.4.5):
 * a manual credit or debit above the approval_threshold setting, a reset of a customer's two-factor sign-in, and a
 * change of the threshold itself (services/operator-approvals.ts). `payload` is what the change needs (JSON); the
 * request and the decision are each also written to audit_log. The CHECK makes "the same operator approves" impossible
 * even for a statement that forgot to ask; `request_key` makes a repeated click one request.
 */
export const operatorApprovals = sqliteTable(
  "operator_approvals",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["ledger_entry", "reset_2fa", "setting"] }).notNull(),
    /** What the change is about: the customer's id, or the setting's key. */
    subject: text("subject").notNull(),
    payload: text("payload").notNull(),
    reason: text("reason").notNull(),
    requestKey: text("request_key").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedByEmail: text("requested_by_email").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decisionReason: text("decision_reason"),
    decidedAt: integer("decided_at"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("operator_approvals_request_key_unique").on(t.requestKey),
    index("operator_approvals_status_idx").on(t.status, t.createdAt),
    // Approving takes another operator; the one who asked may still withdraw (reject) it.
    check("operator_approvals_second_operator", sql`${t.status} <> 'approved' OR ${t.decidedBy} <> ${t.requestedBy}`),
    check("operator_approvals_decided", sql`(${t.status} = 'pending') = (${t.decidedBy} IS NULL)`),
  ],
);

/** State of the built-in protocol simulators used in sandbox mode only (never read by live adapters). */
export const sandboxState = sqliteTable("sandbox_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * The last accepted upstream cost of each SMS offer, in US dollars: the jump guard compares every new price list with
 * it (services/sms-catalogue.ts). A refused price is never stored, so one bad list cannot become the new normal.
 */
export const upstreamPrices = sqliteTable(
  "upstream_prices",
  {
    provider: text("provider").notNull(),
    countryId: text("country_id").notNull(),
    serviceId: text("service_id").notNull(),
    costUsd: real("cost_usd").notNull(),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.provider, t.countryId, t.serviceId] })],
);

/**
 * Each upstream's health as the cron sweep last read it (services/upstream-health.ts): our balance there, in its own
 * currency and in dollars, against the operator's floor. status: ok | low (hidden from customers) | unreachable.
 */
export const upstreamHealth = sqliteTable("upstream_health", {
  provider: text("provider").primaryKey(),
  status: text("status", { enum: ["ok", "low", "unreachable"] }).notNull(),
  balance: real("balance"),
  currency: text("currency"),
  balanceUsd: real("balance_usd"),
  floorUsd: real("floor_usd").notNull(),
  detail: text("detail"),
  checkedAt: integer("checked_at").notNull().default(now),
});

/**
 * Developer API keys (docs/decisions/011-developer-api.md). Only the SHA-256 of the secret is kept; the secret is shown
 * once at creation. `actingUserId` is whose wallet and orders the key uses: the owner for live keys, the owner's
 * sandbox account (id `sbx_<ownerId>`) for test keys.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    actingUserId: text("acting_user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    // The first characters of the secret (sk_live_AbC123), so the owner can tell keys apart.
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    // Webhooks: where events go, and the HMAC key they are signed with (shown to the owner: it must be usable).
    webhookUrl: text("webhook_url"),
    webhookSecret: text("webhook_secret").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_unique").on(t.secretHash),
    index("api_keys_user_idx").on(t.userId),
    index("api_keys_acting_user_idx").on(t.actingUserId),
    check("api_keys_mode", sql`${t.mode} IN ('test', 'live')`),
  ],
);

/**
 * Idempotency-Key records for POST /api/v1/*: the first request with a key inserts its row (the unique primary key
 * decides the race), runs, and stores its answer; a repeat with the same body gets that answer, with another body 422.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    apiKeyId: text("api_key_id").notNull().references(() => apiKeys.id),
    key: text("key").notNull(),
    // SHA-256 of method, path and body: what "the same request" means.
    requestHash: text("request_hash").notNull(),
    // null while the first request is still running
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("idempotency_keys_pk").on(t.apiKeyId, t.key)],
);

/** The SMS-Activate protocol's numeric activation id for an order bought through /stubs/handler_api.php. */
export const apiActivations = sqliteTable(
  "api_activations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull().references(() => smsOrders.id),
  },
  (t) => [uniqueIndex("api_activations_order_unique").on(t.orderId)],
);

/** Every code an SMS order received (the first, and each one after "request another code"). */
export const smsOrderCodes = sqliteTable(
  "sms_order_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull().references(() => smsOrders.id),
    code: text("code").notNull(),
    receivedAt: integer("received_at").notNull(),
    // The whole SMS where the upstream gives it (issue 28: DaisySMS does, sms-man gives only the code): null then.
    text: text("text"),
  },
  (t) => [uniqueIndex("sms_order_codes_unique").on(t.orderId, t.code)],
);

/**
 * Webhook events, one row per (key, event): the delivery log. A Durable Object per key (WebhookDelivery) posts them,
 * oldest first and never two of one order out of sequence, retrying with backoff for 24 hours until a 2xx.
 */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    apiKeyId: text("api_key_id").notNull().references(() => apiKeys.id),
    type: text("type").notNull(),
    // What the event is about (an order or rental id; "wallet" for balance.changed): deliveries per subject stay in order.
    subject: text("subject").notNull(),
    // Makes enqueuing the same happening twice a no-op.
    dedupeKey: text("dedupe_key").notNull(),
    payload: text("payload").notNull(),
    // pending -> delivered | failed (24 h without a 2xx)
    status: text("status", { enum: WEBHOOK_EVENT_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastResponseCode: integer("last_response_code"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_events_dedupe_unique").on(t.apiKeyId, t.dedupeKey),
    index("webhook_events_key_idx").on(t.apiKeyId, t.status, t.createdAt),
  ],
);

/**
 * The outbox (docs/decisions/040-declared-transitions-and-outbox.md): every event a money transition tells the
 * customer (socket push) and their developer webhooks, written in the transition's own D1 batch by
 * services/kernel/outbox.ts (`outboxInsert`, guarded like `guardedLedgerInsert`), so a commit without its event cannot
 * happen. Delivery reads it, fans it out to `webhook_events` and marks it delivered in one batch; the cron sweep
 * delivers what an evicted worker left pending.
 */
export const outboxEvents = sqliteTable(
  "outbox_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    kind: text("kind").notNull(),
    // The realtime message (schema/realtime.ts) as JSON; a balance it leaves out is balance_kobo below.
    message: text("message").notNull(),
    // Makes writing the same happening twice a no-op (e.g. `payment.credited:<ledger key>`, `sms.code:<order>:<code>`).
    dedupeKey: text("dedupe_key").notNull(),
    // The wallet as the writing batch left it (read in the same statement, after the batch's ledger row).
    balanceKobo: integer("balance_kobo").notNull(),
    createdAt: integer("created_at").notNull(),
    // Null while pending; set by the one delivery that fanned it out.
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    uniqueIndex("outbox_events_dedupe_unique").on(t.dedupeKey),
    index("outbox_events_pending_idx").on(t.deliveredAt, t.userId, t.createdAt),
  ],
);

// Issue 48: the telegram room's tables, in the room's own schema file (decision 070), and the sandbox Bot API's.
export * from "../services/telegram/tables";
export * from "../sandbox/telegram-tables";
