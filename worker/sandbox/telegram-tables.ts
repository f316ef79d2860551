import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The sandbox Bot API simulator's world (worker/sandbox/telegram-bot-api.ts): what Telegram's servers would hold for
 * our bot. Only the simulator and the sandbox chat page read and write them; live deployments leave them empty.
 */

/** The webhook setWebhook registered, per bot (https://core.telegram.org/bots/api#setwebhook). */
export const sandboxTelegramWebhooks = sqliteTable("sandbox_telegram_webhooks", {
  botId: text("bot_id").primaryKey(),
  url: text("url").notNull(),
  secretToken: text("secret_token"),
  allowedUpdates: text("allowed_updates"),
  setAt: integer("set_at").notNull(),
});

/** Every message of a sandbox chat, the bot's and the person's, in order (message_id is the row id). */
export const sandboxTelegramMessages = sqliteTable(
  "sandbox_telegram_messages",
  {
    messageId: integer("message_id").primaryKey({ autoIncrement: true }),
    chatId: text("chat_id").notNull(),
    fromBot: integer("from_bot", { mode: "boolean" }).notNull(),
    text: text("text").notNull(),
    parseMode: text("parse_mode"),
    // The inline keyboard as JSON (InlineKeyboardMarkup), or null.
    replyMarkup: text("reply_markup"),
    date: integer("date").notNull(),
    editedAt: integer("edited_at"),
  },
  (t) => [index("sandbox_telegram_messages_chat_idx").on(t.chatId, t.messageId)],
);

/** Every update the simulator sent to the webhook (update_id is the row id) and what the webhook answered. */
export const sandboxTelegramUpdates = sqliteTable("sandbox_telegram_updates", {
  updateId: integer("update_id").primaryKey({ autoIncrement: true }),
  chatId: text("chat_id").notNull(),
  body: text("body").notNull(),
  answeredStatus: integer("answered_status"),
  // answerCallbackQuery's text for a callback query update, shown on the chat page as Telegram shows a toast.
  callbackAnswer: text("callback_answer"),
  sentAt: integer("sent_at").notNull(),
});
