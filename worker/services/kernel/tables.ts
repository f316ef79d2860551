import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { WEBHOOK_EVENT_STATUSES } from "../../../schema/api-keys";

/**
 * The kernel's tables: the account row with its wallet (users, whose balance only the ledger's trigger moves), the
 * ledger, the outbox of events and the webhook deliveries it fans out to (with the API keys whose URLs they go to),
 * settings, rate limits, the upstreams' last accepted prices, the local e-mail outbox and the sandbox simulators'
 * state. Every room's rows hang on users; the kernel offers these through its index.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

// Money is integer kobo everywhere. Timestamps are epoch milliseconds (integers) so comparisons and sweeps never parse
// strings; `now` is a column's default where the row is written without a time of its own.
export const now = sql`(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))`;

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
    // Set on a reseller's sub-account wallet (issue 46, services/resellers/): the reseller's account that owns it. Such
    // a row never signs in (no password, an .invalid address); its webhooks go to the parent's keys.
    parentUserId: text("parent_user_id"),
    // Issue 46 (decision 074): an active reseller's last-30-day spend (its own and its sub-accounts' kept purchases and
    // rentals at our price), the figure its wholesale tier is read from; null for everyone else. A stored figure, so a
    // price needs no scan: refreshed when the role is granted and by the cron at most hourly (wholesale_volume_at),
    // cleared when the role is revoked (db/wholesale-volume.ts).
    wholesaleVolumeKobo: integer("wholesale_volume_kobo"),
    wholesaleVolumeAt: integer("wholesale_volume_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    index("users_parent_idx").on(t.parentUserId),
    uniqueIndex("users_referral_code_unique").on(t.referralCode),
    check("users_balance_non_negative", sql`${t.balanceKobo} >= 0`),
  ],
);

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
    kind: text("kind", { enum: ["fund", "buy", "refund", "rent", "rent_refund", "admin", "referral", "withdraw", "withdraw_refund", "transfer", "margin", "ref_share"] }).notNull(),
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

/** Operator settings as JSON values: exchange rate, markups, tiers, links, ads, rate settings, referral reward. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
});

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
    // What the key may do beyond buying and renting, as a JSON list (issue 45: "withdraw", granted only by an owner who
    // just proved a passkey or TOTP: services/developer/api-keys.ts setApiKeyScopes).
    scopes: text("scopes").notNull().default("[]"),
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
 * Webhook events, one row per (key, event): the delivery log. The key's delivery job on the queue (decision 073) posts them,
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

/**
 * Deliveries given up (issue 44, decision 073): a webhook, forward or chat message that failed for good, or a delivery
 * job the queue gave up on (its dead-letter queue). The operator reads them in the console and replays one, audited.
 */
export const deliveryDeadLetters = sqliteTable(
  "delivery_dead_letters",
  {
    id: text("id").primaryKey(),
    // Whose sender: "webhook" (a developer key's), "channels" (push, e-mail or webhook forward), "telegram" (a chat's).
    kind: text("kind").notNull(),
    // The key, customer or chat whose deliveries the job drains.
    target: text("target").notNull(),
    // The delivery row that failed (null: the whole job was dead-lettered by the queue).
    deliveryId: text("delivery_id"),
    // Why, as the last attempt or the queue saw it.
    reason: text("reason").notNull(),
    attempts: integer("attempts").notNull(),
    createdAt: integer("created_at").notNull(),
    replayedAt: integer("replayed_at"),
    replayedBy: text("replayed_by"),
  },
  (t) => [index("delivery_dead_letters_open_idx").on(t.replayedAt, t.createdAt)],
);
