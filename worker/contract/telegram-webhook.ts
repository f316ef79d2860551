import { telegramUpdateSchema } from "../../schema/telegram";
import { jsonBody, route } from "./kit";

/**
 * Telegram's webhook (issue 48): the Bot API posts each Update here (https://core.telegram.org/bots/api#setwebhook)
 * with our secret in X-Telegram-Bot-Api-Secret-Token. Not a face's call: Telegram reads only the status.
 */
export const telegramWebhook = route({
  method: "post",
  path: "/telegram/webhook",
  request: { body: jsonBody(telegramUpdateSchema, "A Telegram Update (https://core.telegram.org/bots/api#update).") },
  // grammY's adapter answers (an empty 200); Telegram reads only the status.
  responses: { 200: { description: "Handled, or a replay answered without handling it (grammY's empty answer)." } },
});
