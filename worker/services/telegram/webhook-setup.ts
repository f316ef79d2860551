import { lt, or, isNotNull } from "drizzle-orm";
import type { Services } from "../kernel";
import { purgeActions } from "./actions";
import { sweepTelegramDeliveries } from "./delivery";
import { telegramLinkTokens } from "./tables";
import { purgeUpdates } from "./updates";

/** The updates the bot handles: messages and inline-button presses (https://core.telegram.org/bots/api#update). */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

/**
 * setWebhook (https://core.telegram.org/bots/api#setwebhook): Telegram posts every update to
 * PUBLIC_URL/api/telegram/webhook with our secret in X-Telegram-Bot-Api-Secret-Token, only the update types we read.
 * The URL comes from configuration, never a request. `npm run admin -- telegram-set-webhook` does the same from the CLI.
 */
export async function registerWebhook(services: Services): Promise<{ url: string }> {
  const telegram = services.upstreams.telegram();
  if (!telegram) throw new Error("The Telegram bot is not configured (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME).");
  const url = `${services.config.publicUrl}/api/telegram/webhook`;
  await telegram.api.setWebhook(url, { secret_token: telegram.webhookSecret, allowed_updates: [...ALLOWED_UPDATES], max_connections: 40 });
  return { url };
}

/** The cron's part: lost delivery kicks, and forgetting old update ids, spent confirm steps and link tokens. */
export async function sweepTelegram(services: Services): Promise<void> {
  const now = services.clock.now();
  await sweepTelegramDeliveries(services);
  await purgeUpdates(services.db, now);
  await purgeActions(services.db, now);
  await services.db.delete(telegramLinkTokens).where(or(lt(telegramLinkTokens.expiresAt, now - 86_400_000), isNotNull(telegramLinkTokens.usedAt)));
}
