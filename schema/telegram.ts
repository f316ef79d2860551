import { z } from "zod";

/**
 * The Telegram bot (issue 48, docs/decisions/070-telegram-bot.md): what the web's Settings section and the worker share.
 * The bot is another face on the same services; this is only its linking contract and the few words both sides show.
 */

/**
 * A link token is a Telegram deep-link start parameter: at most 64 characters of A-Z, a-z, 0-9, _ and -
 * (https://core.telegram.org/bots/features#deep-linking). Ours are 43 (32 random bytes, base64url).
 */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** How long a "Connect Telegram" link works (issue 48: 10 minutes), once. */
export const LINK_TOKEN_TTL_MS = 10 * 60 * 1000;

/** GET /api/telegram: is a chat linked to this account, and which bot to open. */
export interface TelegramState {
  bot_username: string;
  linked: boolean;
  /** The linked chat's Telegram name (@username or first name), as Telegram sent it; null while unlinked. */
  chat_name: string | null;
  linked_at: string | null;
}

/** POST /api/telegram/link: the single-use link to open (t.me/<bot>?start=<token>) and when it stops working. */
export interface TelegramLinkStart {
  url: string;
  expires_at: string;
}

/**
 * The webhook's body as far as the worker reads it before the bot does: an Update object
 * (https://core.telegram.org/bots/api#update) always carries update_id, "the update's unique identifier", which
 * increases sequentially. Everything else is the bot's (grammY reads it); the route only refuses what is not an update.
 */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int().nonnegative({ message: "update_id must be a non-negative integer." }),
});

export const TELEGRAM_MESSAGES = {
  linked: "Telegram connected.",
  unlinked: "Telegram disconnected.",
  notConfigured: "The Telegram bot is not set up on this server.",
} as const;
