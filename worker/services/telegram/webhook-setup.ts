import { lt, or, isNotNull } from "drizzle-orm";
import { setWebhookParameters } from "../../providers/telegram/bot-api";
import type { Services } from "../kernel";
import { purgeActions } from "./actions";
import { sweepTelegramDeliveries } from "./delivery";
import { telegramLinkTokens } from "./tables";
import { purgeUpdates } from "./updates";

/**
 * setWebhook (https://core.telegram.org/bots/api#setwebhook): Telegram posts every update to
 * PUBLIC_URL/api/telegram/webhook with our secret in X-Telegram-Bot-Api-Secret-Token, only the update types we read.
 * The URL comes from configuration, never a request. `npm run admin -- telegram-set-webhook` does the same from the CLI.
 */
export async function registerWebhook(services: Services): Promise<{ url: string }> {
  const telegram = services.upstreams.telegram();
  if (!telegram) throw new Error("The Telegram bot is not configured (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME).");
  const { url, ...other } = setWebhookParameters(services.config.publicUrl, telegram.webhookSecret);
  await telegram.api.setWebhook(url, other);
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
