import { Hono, type MiddlewareHandler } from "hono";
import { telegramUpdateSchema } from "../../schema/telegram";
import type { AppEnv } from "../app-env";
import * as telegram from "../contract/telegram";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { requireAuth } from "../middleware/auth";
import { botAbsent, createLinkToken, enqueueChatMessage, handleTelegramWebhook, telegramState, unlinkUser } from "../services/telegram";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * The Telegram bot's routes (issue 48, decision 070). Without the bot's configuration (TELEGRAM_BOT_TOKEN,
 * TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME) each answers the app's 404, as an address that does not exist.
 */

/** The bot's configured API, or the 404 of a route that is not there. */
const botOf = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => c.var.services.upstreams.telegram() ?? (() => { throw botAbsent(); })();

/** Constant-time comparison of the secret header with ours (no early exit on the first differing byte). */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

function parseUpdate(raw: string) {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new AppError("BAD_JSON", "The request body is not valid JSON.");
  }
  const update = telegramUpdateSchema.safeParse(body);
  if (!update.success) throw new AppError("VALIDATION_FAILED", "This is not a Telegram Update: it needs a non-negative integer update_id.");
  return update.data;
}

/**
 * Telegram's webhook (https://core.telegram.org/bots/api#setwebhook): Telegram posts each Update as JSON with our
 * secret_token in X-Telegram-Bot-Api-Secret-Token. Like the providers' webhooks (routes/webhooks.ts) it is checked on
 * the raw request before anything is parsed: the body is read first (an early answer must not leave it unread), then
 * a missing or wrong secret is 401 and nothing is handled, then a body that is not an Update is 400. The raw body, not
 * a re-serialisation, goes on to grammY's Cloudflare adapter (which compares the header again). Not in the OpenAPI
 * document: Telegram is its only caller and reads only the status.
 */
export const telegramWebhookRoutes = new Hono<AppEnv>().post("/telegram/webhook", async (c) => {
  const raw = await c.req.text();
  const bot = botOf(c);
  if (!sameSecret(c.req.header("x-telegram-bot-api-secret-token") ?? "", bot.webhookSecret)) {
    log("warn", "telegram webhook refused: missing or wrong secret token", { rid: c.var.requestId });
    throw new AppError("UNAUTHORIZED", "This is not Telegram: the X-Telegram-Bot-Api-Secret-Token header is missing or wrong.");
  }
  parseUpdate(raw);
  const request = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: raw });
  return handleTelegramWebhook(c.var.services, bot, request);
});

export const telegramRoutes: RouteApp = routeApp()
  .openapi(guarded(telegram.telegramState, requireAuth), async (c) => c.json(await telegramState(c.var.services.db, c.var.user.id, botOf(c).username)))
  .openapi(guarded(telegram.startTelegramLink, requireAuth), async (c) => {
    const bot = botOf(c);
    return c.json(await createLinkToken(c.var.services.db, { userId: c.var.user.id, sessionId: c.var.sessionId }, bot.username, c.var.services.clock.now()));
  })
  .openapi(guarded(telegram.unlinkTelegram, requireAuth), async (c) => {
    const bot = botOf(c);
    const { services } = c.var;
    const chatId = await unlinkUser(services.db, c.var.user.id);
    if (chatId) {
      await enqueueChatMessage(services, chatId, `unlinked:${chatId}:${services.clock.now()}`, {
        text: "This chat was disconnected from your account in the web app. Connect it again from Settings whenever you like.",
      });
    }
    return c.json(await telegramState(services.db, c.var.user.id, bot.username));
  });
