import type { TelegramLinkStart, TelegramState } from "../../schema/telegram";
import { answer, route } from "./kit";

/**
 * Settings' Telegram section (issue 48, decision 070), mounted at /api (routes/telegram.ts). Signed-in only; each
 * answers 404 when the deployment has no bot (the section then shows nothing).
 */

export const telegramState = route({ method: "get", path: "/telegram", responses: { 200: answer<TelegramState>() } });

/** A new single-use link (10 minutes) to t.me/<bot>?start=<token>; earlier unused links stop working. */
export const startTelegramLink = route({ method: "post", path: "/telegram/link", responses: { 200: answer<TelegramLinkStart>() } });

/** Unlinks the account's chat (the chat is told); answers the state, unlinked. */
export const unlinkTelegram = route({ method: "delete", path: "/telegram/link", responses: { 200: answer<TelegramState>() } });
