import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The telegram room's tables (issue 48, decision 070). worker/db/tables.ts re-exports them for drizzle-kit and the
 * tests; inside the services only this room reads them. Chat ids are kept as text: Telegram's ids have up to 52
 * significant bits (https://core.telegram.org/bots/api#chat), exact as text whatever reads them.
 * No foreign keys to users: a room keeps its own rows, and an account's rows here go with its link.
 */

/**
 * "Connect Telegram" tokens (Settings): single-use, 10 minutes, only their SHA-256 kept (like password resets). The
 * session that asked is kept too: a token whose session has ended links nothing.
 */
export const telegramLinkTokens = sqliteTable(
  "telegram_link_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    sessionId: text("session_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("telegram_link_tokens_user_idx").on(t.userId)],
);

/**
 * A chat linked to an account: one chat per account, one account per chat. session_id is the session that made the
 * link token; password_stamp a digest of the password hash at linking time: with the `telegram_bot` setting's
 * switches, the link ends when that session is revoked or the password changes (services/telegram/links.ts).
 */
export const telegramLinks = sqliteTable(
  "telegram_links",
  {
    chatId: text("chat_id").primaryKey(),
    userId: text("user_id").notNull(),
    sessionId: text("session_id").notNull(),
    passwordStamp: text("password_stamp").notNull(),
    // What Settings shows: the chat's @username or first name as Telegram sent it (shown escaped, never trusted).
    chatName: text("chat_name"),
    linkedAt: integer("linked_at").notNull(),
    // The country whose services the chat last listed: a name typed afterwards is looked for there (screens.ts search).
    searchCountry: text("search_country"),
  },
  (t) => [uniqueIndex("telegram_links_user_unique").on(t.userId)],
);

/**
 * Every update_id the webhook accepted, so a replayed update (Telegram retrying one we answered late, or a captured one
 * sent again) is handled once. Forgotten after two days (Telegram's ids rise by one per update).
 */
export const telegramUpdates = sqliteTable(
  "telegram_updates",
  {
    updateId: integer("update_id").primaryKey(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("telegram_updates_received_idx").on(t.receivedAt)],
);

export const TELEGRAM_ACTION_KINDS = ["buy", "use_again", "cancel_order", "rent", "extend", "auto_renew", "top_up_transfer", "top_up_card", "unlink"] as const;
export const TELEGRAM_ACTION_STATUSES = ["open", "awaiting_code", "done", "cancelled"] as const;

/**
 * What a confirm button does, kept on the server: the button's callback data is only `a:<id>` (or `x:<id>` to drop it),
 * so a tampered button names no other service, price or account; the row is bound to its chat and account, states the
 * amount the customer saw, is spent once (open -> done by a compare-and-set) and lasts 10 minutes.
 */
export const telegramActions = sqliteTable(
  "telegram_actions",
  {
    id: text("id").primaryKey(),
    chatId: text("chat_id").notNull(),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: TELEGRAM_ACTION_KINDS }).notNull(),
    // The choice as JSON (provider, country, service; rental and duration; ...), read back by its kind's schema.
    payload: text("payload").notNull(),
    // The amount the confirm step stated (kobo): charged at most this, refunded exactly this, or paid in.
    amountKobo: integer("amount_kobo").notNull(),
    status: text("status", { enum: TELEGRAM_ACTION_STATUSES }).notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("telegram_actions_chat_idx").on(t.chatId, t.status)],
);

/**
 * Messages the bot sends outside an update (a code, a rental's SMS, a credit, "disconnected"): the outbox's delivery
 * writes one row per (event, chat) in the batch that marks the event delivered (dedupe_key `<event id>:<chat id>`), and
 * the chat's delivery job on the queue sends it (decision 073) (services/telegram/delivery.ts), so each event reaches each chat once.
 * pending -> sending (claimed just before sendMessage) -> sent (with Telegram's message_id) | pending again (Telegram
 * answered that it did not send it) | failed | dropped; a row left in sending by a run that died is never sent again
 * (the sweep marks it failed): Telegram may have shown it, and sendMessage has no idempotency key.
 */
export const telegramDeliveries = sqliteTable(
  "telegram_deliveries",
  {
    id: text("id").primaryKey(),
    dedupeKey: text("dedupe_key").notNull(),
    chatId: text("chat_id").notNull(),
    userId: text("user_id"),
    // sendMessage's parameters but chat_id, as JSON: { text, parse_mode, reply_markup? }.
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "sending", "sent", "failed", "dropped"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    // A send in progress holds the row until then; past it another run may take it (a run that died mid-send).
    leaseUntil: integer("lease_until"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    // Telegram's message_id for the sent message (sendMessage's answer): proof it was shown, and what an edit would name.
    messageId: integer("message_id"),
    lastError: text("last_error"),
  },
  (t) => [
    uniqueIndex("telegram_deliveries_dedupe_unique").on(t.dedupeKey),
    index("telegram_deliveries_chat_due_idx").on(t.chatId, t.status, t.nextAttemptAt),
    index("telegram_deliveries_due_idx").on(t.status, t.nextAttemptAt),
  ],
);
