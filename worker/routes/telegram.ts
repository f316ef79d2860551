import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import * as telegram from "../contract/telegram";
import * as telegramBot from "../contract/telegram-webhook";
import { AppError } from "../lib/errors";
import { requireAuth } from "../middleware/auth";
import { botAbsent, createLinkToken, enqueueChatMessage, handleTelegramWebhook, telegramState, unlinkUser } from "../services/telegram";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * The Telegram bot's routes (issue 48, decision 070). Without the bot's configuration (TELEGRAM_BOT_TOKEN,
 * TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME) each answers the app's 404, as an address that does not exist.
 */

/** The bot's configured API, or the 404 of a route that is not there. */
const botOf = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => c.var.services.upstreams.telegram() ?? (() => { throw botAbsent(); })();

/** Constant-time comparison of the secret header (a forged or missing one is 401, before the body is validated). */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

const telegramSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bot = botOf(c);
  if (!sameSecret(c.req.header("x-telegram-bot-api-secret-token") ?? "", bot.webhookSecret)) {
    throw new AppError("UNAUTHORIZED", "This is not Telegram: the X-Telegram-Bot-Api-Secret-Token header is missing or wrong.");
  }
  await next();
};

export const telegramRoutes: RouteApp = routeApp()
  .openapi(guarded(telegramBot.telegramWebhook, telegramSecret), async (c) => {
    // The body was validated (an Update with its update_id); grammY's Cloudflare adapter reads it again from here.
    const update = c.req.valid("json");
    const request = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: JSON.stringify(update) });
    return handleTelegramWebhook(c.var.services, botOf(c), request);
  })
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
