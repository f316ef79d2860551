/**
 * Telegram: the bot, a face like the web and the v1 API on the same services (issue 48, decision 070): linking a chat
 * to an account, the chat's menus and money actions (each with a confirm step stating the amount), and the bot's
 * delivery channel for codes, rental messages and credits.
 * This file is the room's one entry point: everything outside worker/services/telegram/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { purgeActions } from "./actions";
export { HANDLER_BUDGET_MS, handleTelegramWebhook } from "./bot";
export { deliverDueTelegram, enqueueChatMessage, kickChat, reviveTelegramDelivery, sweepTelegramDeliveries, telegramChannel } from "./delivery";
export { botAbsent, createLinkToken, linkOfUser, telegramState, unlinkUser } from "./links";
export { purgeUpdates } from "./updates";
export { registerWebhook, sweepTelegram } from "./webhook-setup";
