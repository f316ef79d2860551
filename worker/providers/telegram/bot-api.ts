import { Api, Bot } from "grammy/web";
import type { UserFromGetMe } from "grammy/types";

/**
 * The Telegram Bot API adapter (issue 48, decision 070): grammY's client, pointed at Telegram
 * (https://api.telegram.org/bot<token>/METHOD_NAME, https://core.telegram.org/bots/api#making-requests) or, in sandbox
 * mode, at the Bot API simulator (worker/sandbox/telegram-bot-api.ts) in-process. Built only by the services container
 * (worker/container.ts); the telegram room takes it from there.
 *
 * grammY 1.46.0's web build ("grammy/web": the platform's own fetch, no node-fetch) runs on Workers and on Node 20.
 */
/** The bot's configuration (worker/config.ts reads it from TELEGRAM_*; the operator CLI from its environment). */
export interface TelegramConfig {
  token: string;
  webhookSecret: string;
  botUsername: string;
  /** The bot's own user id: the token's part before the colon (https://core.telegram.org/bots/api#authorizing-your-bot). */
  botId: number;
}

/** Where the sandbox Bot API simulator answers on our own origin (worker/sandbox/telegram-bot-api.ts). */
export const TELEGRAM_SIMULATOR_PATH = "/sandbox/telegram-api";

export interface TelegramBotApi {
  /** The bot's @username without the @ (t.me links). */
  username: string;
  /** What Telegram echoes in X-Telegram-Bot-Api-Secret-Token (setWebhook's secret_token). */
  webhookSecret: string;
  /** The Bot API methods (sendMessage, editMessageText, answerCallbackQuery, setWebhook, ...). */
  api: Api;
  /** A grammY Bot on the same client and identity, for one update's handlers (no getMe call: botInfo is known). */
  newBot(): Bot;
}

export interface BotApiTransport {
  /** Where the methods are posted: https://api.telegram.org, or the simulator's base on our own origin. */
  apiRoot: string;
  fetch: typeof fetch;
}

/** A Bot API call waits at most this long (grammY's default is 500 s, for long polling we never do). */
const CALL_TIMEOUT_SECONDS = 10;

export const TELEGRAM_API_ROOT = "https://api.telegram.org";

export function telegramBotApiFor(config: TelegramConfig, transport: BotApiTransport): TelegramBotApi {
  const client = {
    apiRoot: transport.apiRoot,
    // The platform's fetch, called unbound (Workers refuse a fetch called on another object).
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => transport.fetch(input, init)) as typeof fetch,
    timeoutSeconds: CALL_TIMEOUT_SECONDS,
    // Never answer an update with a method call in the webhook's response body: every call is a request of its own,
    // so its result is known (https://core.telegram.org/bots/faq#how-can-i-make-requests-in-response-to-updates).
    canUseWebhookReply: () => false,
  };
  const botInfo: UserFromGetMe = {
    id: config.botId,
    is_bot: true,
    first_name: config.botUsername,
    username: config.botUsername,
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };
  return {
    username: config.botUsername,
    webhookSecret: config.webhookSecret,
    api: new Api(config.token, client),
    newBot: () => new Bot(config.token, { botInfo, client }),
  };
}

/** The updates the bot handles: messages and inline-button presses (https://core.telegram.org/bots/api#update). */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

/**
 * setWebhook's parameters (https://core.telegram.org/bots/api#setwebhook), one shape for the worker and the operator
 * CLI (`npm run admin -- telegram-set-webhook`): our URL from PUBLIC_URL, the secret Telegram echoes, only the update
 * types we read, and at most 40 connections at once (Telegram's default; a flood is the rate limit's).
 */
export function setWebhookParameters(publicUrl: string, secretToken: string) {
  return { url: `${publicUrl.replace(/\/+$/, "")}/api/telegram/webhook`, secret_token: secretToken, allowed_updates: [...ALLOWED_UPDATES], max_connections: 40 };
}
