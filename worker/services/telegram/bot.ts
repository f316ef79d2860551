import { type Context, GrammyError, webhookCallback } from "grammy/web";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { TelegramBotApi } from "../../providers/telegram/bot-api";
import { confirmedInWebApp, type SignedInUser, totpKey, verifySecondFactor } from "../accounts";
import { clearRateLimit, consumeRateLimit, enforceRateLimit, getSetting, RATE_LIMITS, type Services } from "../kernel";
import { actionAwaitingCode, type ActionRow, dropAction, liveAction, markAwaitingCode, SPENDING_KINDS, spendAction } from "./actions";
import { enqueueChatMessage } from "./delivery";
import { linkChat, linkedChat, type LinkedChat, rememberSearchCountry, unlinkChat } from "./links";
import {
  confirmAutoRenewOff,
  confirmBuy,
  confirmCancelOrder,
  confirmRent,
  confirmTopUp,
  confirmUnlink,
  confirmUseAgain,
  extendChoices,
  runAction,
} from "./money-actions";
import {
  balanceScreen,
  countriesScreen,
  inboxScreen,
  mainMenu,
  orderScreen,
  ordersScreen,
  publicPricesScreen,
  referralScreen,
  rentalScreen,
  rentalsScreen,
  rentCountriesScreen,
  rentDurationsScreen,
  searchScreen,
  servicesScreen,
  setRentalChatForwarding,
  statusScreen,
  topUpScreen,
  unlinkedMenu,
} from "./screens";
import { firstArrival } from "./updates";
import { type BotMessage, escapeHtml, inlineKeyboard, kobo, NOTICE_PREFIX } from "./words";
import { requestAnotherCode } from "../sms";

/**
 * The bot (issue 48, decision 070): grammY behind POST /api/telegram/webhook, through its Cloudflare module-worker adapter
 * (`webhookCallback(bot, "cloudflare-mod")`, which also compares X-Telegram-Bot-Api-Secret-Token in constant time).
 * One Bot per update, on the container's Bot API client. Before any handler: the update_id is recorded (a replay is
 * answered and dropped), group chats are ignored (the bot shows an account only in its private chat), and the chat's
 * rate limit is counted. Then the chat's link says who it acts as (links.ts), and every money action goes through a
 * confirm step that states the amount (money-actions.ts).
 *
 * Telegram's time: the handler's work is bounded by grammY's timeout below, after which the webhook answers 200 and the
 * work finishes under waitUntil (services.defer); it never waits for an SMS (codes come through delivery.ts).
 */
export const HANDLER_BUDGET_MS = 8_000;

/** What a chat's handlers share. */
interface Chat {
  services: Services;
  telegram: TelegramBotApi;
  chatId: string;
  chatName: string | null;
  ctx: Context;
  /** Answer by editing the message whose button was pressed, or by a new message. */
  mode: "edit" | "reply";
}

export async function handleTelegramWebhook(services: Services, telegram: TelegramBotApi, request: Request): Promise<Response> {
  const bot = telegram.newBot();
  bot.use(async (ctx, next) => {
    const { db } = services;
    const now = services.clock.now();
    if (!(await firstArrival(db, ctx.update.update_id, now))) return;
    // Only private chats: in a group every member would read the account (https://core.telegram.org/bots/api#chat).
    if (ctx.chat?.type !== "private") return;
    const setting = await getSetting(db, "telegram_bot");
    const limit = await consumeRateLimit(db, `telegram:${ctx.chat.id}`, { limit: setting.updates_per_minute, windowMs: 60_000 }, now);
    if (!limit.allowed) {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: "Too many requests: wait a minute." }).catch(() => undefined);
      else if (limit.count === setting.updates_per_minute + 1) await ctx.reply(`Too many messages: wait ${limit.retryAfterSeconds} seconds.`).catch(() => undefined);
      return;
    }
    // Past grammY's timeout the webhook answers and this keeps running under the request's waitUntil. A failure is
    // logged and the update answered 200: with a webhook grammY rethrows it (bot.catch serves long polling only), and a
    // 500 would only make Telegram send again an update that is already recorded as handled.
    const work = next().catch((err: unknown) => {
      log("error", "telegram update failed", { updateId: ctx.update.update_id, error: err instanceof Error ? err.message : String(err) });
    });
    services.defer(work);
    await work;
  });
  bot.on("message:text", async (ctx) => {
    await onText({ services, telegram, chatId: String(ctx.chat.id), chatName: nameOf(ctx), ctx, mode: "reply" }, ctx.message.text.trim());
  });
  bot.on("callback_query:data", async (ctx) => {
    // A button on a notice (a code, a rental's SMS: words.ts NOTICE_PREFIX) answers below it, so the code stays in the
    // chat; a button on a screen edits that screen in place.
    const data = ctx.callbackQuery.data;
    const onNotice = data.startsWith(NOTICE_PREFIX);
    await onButton({ services, telegram, chatId: String(ctx.chat!.id), chatName: nameOf(ctx), ctx, mode: onNotice ? "reply" : "edit" }, onNotice ? data.slice(NOTICE_PREFIX.length) : data);
  });
  return webhookCallback(bot, "cloudflare-mod", { secretToken: telegram.webhookSecret, timeoutMilliseconds: HANDLER_BUDGET_MS, onTimeout: "return" })(request);
}

function nameOf(ctx: Context): string | null {
  const from = ctx.from;
  if (!from) return null;
  return (from.username ? `@${from.username}` : [from.first_name, from.last_name].filter(Boolean).join(" ")).slice(0, 64) || null;
}

async function show(chat: Chat, message: BotMessage): Promise<void> {
  const other = { parse_mode: "HTML" as const, reply_markup: inlineKeyboard(message.keyboard), link_preview_options: { is_disabled: true } };
  if (chat.mode === "edit" && chat.ctx.callbackQuery?.message) {
    try {
      await chat.ctx.editMessageText(message.text, other);
      return;
    } catch (err) {
      if (err instanceof GrammyError && err.description.includes("message is not modified")) return;
      // A message too old to edit (or gone): say it anew.
    }
  }
  await chat.ctx.reply(message.text, other);
}

/** An AppError is the customer's sentence (escaped); anything else is logged and said plainly. */
function failureWords(err: unknown): BotMessage {
  if (err instanceof AppError) {
    const extra = err.code === "INSUFFICIENT_BALANCE" ? [[{ text: "💳 Top up", data: "top" }]] : [];
    return { text: `⚠️ ${escapeHtml(err.message)}`, keyboard: [...extra, [{ text: "« Menu", data: "m" }]] };
  }
  log("error", "telegram action failed", { error: err instanceof Error ? err.message : String(err) });
  return { text: "⚠️ Something went wrong on our side. Please try again in a moment.", keyboard: [[{ text: "« Menu", data: "m" }]] };
}

const maskEmail = (email: string) => email.replace(/^(.)[^@]*@/, "$1***@");

const ENDED_WORDS: Record<"blocked" | "session" | "password" | "gone", string> = {
  blocked: "the account is blocked",
  session: "the web session that connected it was signed out",
  password: "the account's password changed",
  gone: "the account is gone",
};

async function linked(chat: Chat): Promise<LinkedChat> {
  const state = await linkedChat(chat.services.db, chat.chatId);
  if (state.state === "ended") {
    await chat.ctx.reply(`This chat was disconnected because ${ENDED_WORDS[state.why]}. Connect it again from Settings in the web app.`).catch(() => undefined);
  }
  return state;
}

// ---------------------------------------------------------------------------------------------------------------------
// Messages

async function onText(chat: Chat, text: string): Promise<void> {
  const start = /^\/start(?:@\w+)?(?:\s+(\S+))?$/.exec(text);
  if (start?.[1]) return startWithToken(chat, start[1]);
  const state = await linked(chat);
  if (state.state !== "linked") return show(chat, unlinkedMenu(chat.telegram.username));
  const user = state.user;
  try {
    if (/^\/unlink(@\w+)?$/.test(text)) return await show(chat, await confirmUnlink(chat.services, chat.chatId, user));
    if (/^\/balance(@\w+)?$/.test(text)) return await show(chat, balanceScreen(user));
    if (/^\d{6}$/.test(text)) {
      const waiting = await actionAwaitingCode(chat.services.db, chat.chatId, user.id, chat.services.clock.now());
      if (waiting) return await confirmWithCode(chat, user, waiting, text);
    }
    const amount = /^₦?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?$/.exec(text);
    if (amount) return await show(chat, await confirmTopUp(chat.services, chat.chatId, user, Number(`${amount[1].replaceAll(",", "")}${amount[2] ?? ""}`)));
    // A name: the lists page by 8, so a service (in the country last listed) or a country is found by typing it.
    if (SEARCHABLE.test(text) && !MENU_WORDS.has(text.toLowerCase())) return await show(chat, await searchScreen(chat.services, user, text, state.link.searchCountry));
    return await show(chat, mainMenu(user));
  } catch (err) {
    return show(chat, failureWords(err));
  }
}

/** What a typed name may be: 2 to 40 letters, digits, spaces and a few marks, not a command. */
const SEARCHABLE = /^(?!\/)[\p{L}\p{N}][\p{L}\p{N} .&'+-]{1,39}$/u;
/** Words people send to get the menu: never a search. */
const MENU_WORDS = new Set(["menu", "hi", "hello", "hey", "start", "help", "home", "back"]);

/** `/start <token>`: link this chat (links.ts), and say so here and on the web. */
async function startWithToken(chat: Chat, token: string): Promise<void> {
  const { services } = chat;
  const outcome = await linkChat(services.db, token, { chatId: chat.chatId, chatName: chat.chatName }, services.clock.now());
  if (!outcome.linked) {
    const words = {
      invalid: "This link has expired or was already used. Open Settings → Telegram in the web app and press Connect Telegram for a new one.",
      "other-account": "This chat is connected to another account. Send /unlink first to connect a different one.",
      "session-ended": "The web session that made this link has ended. Sign in again and make a new link from Settings.",
    }[outcome.reason];
    return show(chat, { text: words });
  }
  const state = await linkedChat(services.db, chat.chatId);
  if (state.state !== "linked") return show(chat, unlinkedMenu(chat.telegram.username));
  if (outcome.previousChatId) {
    await enqueueChatMessage(services, outcome.previousChatId, `replaced:${outcome.previousChatId}:${services.clock.now()}`, {
      text: "This chat was disconnected: your account is now connected to another Telegram chat.",
    });
  }
  await services.notify(outcome.userId, { kind: "toast", type: "success", message: `Telegram connected${chat.chatName ? `: ${chat.chatName}` : "."}` });
  const menu = mainMenu(state.user);
  return show(chat, { ...menu, text: `✅ Connected to <b>${escapeHtml(state.user.username)}</b> (${escapeHtml(maskEmail(state.user.email))}).\n\n${menu.text}` });
}

// ---------------------------------------------------------------------------------------------------------------------
// Buttons

/** What an unlinked chat may press: the public prices and status. */
const PUBLIC_BUTTON = /^(pr|prp:\d{1,3}|ps:[\w-]{1,16}:\d{1,3}|st|m)$/;

async function onButton(chat: Chat, data: string): Promise<void> {
  const { ctx } = chat;
  const state = await linked(chat);
  if (state.state !== "linked") {
    if (!PUBLIC_BUTTON.test(data)) {
      await ctx.answerCallbackQuery({ text: "Connect this chat to your account first." }).catch(() => undefined);
      return show(chat, unlinkedMenu(chat.telegram.username));
    }
    await ctx.answerCallbackQuery().catch(() => undefined);
    try {
      return await show(chat, await publicScreen(chat, data));
    } catch (err) {
      return show(chat, failureWords(err));
    }
  }
  const user = state.user;
  const [head, ...args] = data.split(":");
  if (head === "a" || head === "x") return actionButton(chat, user, head, args[0] ?? "");
  await ctx.answerCallbackQuery().catch(() => undefined);
  try {
    const screen = await linkedScreen(chat, user, head, args);
    if (screen) return await show(chat, screen);
    return await show(chat, mainMenu(user));
  } catch (err) {
    return show(chat, failureWords(err));
  }
}

async function publicScreen(chat: Chat, data: string): Promise<BotMessage> {
  const [head, a, b] = data.split(":");
  const { services } = chat;
  if (head === "pr") return countriesScreen(services, null, "prices", 0);
  if (head === "prp") return countriesScreen(services, null, "prices", Number(a));
  if (head === "ps") return publicPricesScreen(services, a, Number(b));
  if (head === "st") return statusScreen(services);
  return unlinkedMenu(chat.telegram.username);
}

const id = (value: string | undefined) => (value && /^[\w-]{1,64}$/.test(value) ? value : null);
const page = (value: string | undefined) => Math.min(Math.max(Number.parseInt(value ?? "0", 10) || 0, 0), 999);

/** A linked chat's navigation: every argument is checked again here; another account's id is the room's 404. */
async function linkedScreen(chat: Chat, user: SignedInUser, head: string, args: string[]): Promise<BotMessage | null> {
  const { services, chatId } = chat;
  const [a, b, c] = args.map(id);
  switch (head) {
    case "m":
      return mainMenu(user);
    case "bal":
      return balanceScreen(user);
    case "top":
      return topUpScreen(services, user);
    case "tpa":
      return confirmTopUp(services, chatId, user, Number(a));
    case "buy":
      return countriesScreen(services, user.id, "buy", 0);
    case "bcp":
      return countriesScreen(services, user.id, "buy", page(a ?? undefined));
    case "bs":
      if (!a) return null;
      await rememberSearchCountry(services.db, chatId, a);
      return servicesScreen(services, user, a, page(b ?? undefined));
    case "bq":
      return a && b && c ? confirmBuy(services, chatId, user, a, b, c) : null;
    case "o":
      return ordersScreen(services, user);
    case "ov":
      return a ? orderScreen(services, user, a) : null;
    case "ac":
      if (!a) return null;
      await requestAnotherCode(services.sms, user.id, a);
      return { text: "🔁 Asked for another code on this number: it is posted here when it arrives.", keyboard: [[{ text: "Order", data: `ov:${a}` }]] };
    case "cx":
      return a ? confirmCancelOrder(services, chatId, user, a) : null;
    case "ua":
      return a ? confirmUseAgain(services, chatId, user, a) : null;
    case "r":
      return rentalsScreen(services, user);
    case "rv":
      return a ? rentalScreen(services, user, a) : null;
    case "ri":
      return a ? inboxScreen(services, user, a) : null;
    case "rft":
      return a && (b === "0" || b === "1") ? setRentalChatForwarding(services, user, a, b === "1") : null;
    case "re":
      return a ? extendChoices(services, chatId, user, a, "extend") : null;
    case "ron":
      return a ? extendChoices(services, chatId, user, a, "auto_renew") : null;
    case "rof":
      return a ? confirmAutoRenewOff(services, chatId, user, a) : null;
    case "rent":
      return rentCountriesScreen(services, user, 0);
    case "rcp":
      return rentCountriesScreen(services, user, page(a ?? undefined));
    case "rd":
      return a ? rentDurationsScreen(a) : null;
    case "rq":
      return a && b && c ? confirmRent(services, chatId, user, a, b, c) : null;
    case "ref":
      return referralScreen(services, user);
    case "pr":
      return countriesScreen(services, null, "prices", 0);
    case "prp":
      return countriesScreen(services, null, "prices", page(a ?? undefined));
    case "ps":
      return a ? publicPricesScreen(services, a, page(b ?? undefined)) : null;
    case "st":
      return statusScreen(services);
    case "unl":
      return confirmUnlink(services, chatId, user);
    default:
      return null;
  }
}

/**
 * A confirm (`a:<id>`) or cancel (`x:<id>`) button: the id must be this chat's and account's live action. A spending
 * action above the `telegram_bot` threshold runs only after a fresh confirmation: the web app's step-up in the last 10
 * minutes, or a TOTP code sent here (confirmWithCode).
 */
async function actionButton(chat: Chat, user: SignedInUser, head: "a" | "x", actionId: string): Promise<void> {
  const { services, ctx } = chat;
  const now = services.clock.now();
  const action = /^[\w-]{16}$/.test(actionId) ? await liveAction(services.db, actionId, chat.chatId, user.id, now) : null;
  if (!action) {
    await ctx.answerCallbackQuery({ text: "This button has expired or was already used." }).catch(() => undefined);
    return show(chat, mainMenu(user));
  }
  if (head === "x") {
    await dropAction(services.db, action.id, chat.chatId);
    await ctx.answerCallbackQuery({ text: "Cancelled: nothing was charged." }).catch(() => undefined);
    return show(chat, mainMenu(user));
  }
  await ctx.answerCallbackQuery().catch(() => undefined);
  if (await needsFreshConfirmation(services, user, action, now)) {
    await markAwaitingCode(services.db, action.id);
    const threshold = (await getSetting(services.db, "telegram_bot")).confirm_above_naira;
    const how =
      user.totpEnabledAt !== null
        ? "Send the 6-digit code from your authenticator app here, or confirm in the web app (Settings → Security) and press Confirm again."
        : "Confirm it is you in the web app (Settings → Security: Confirm), then press Confirm again here. (Turn on two-factor to confirm with a code here instead.)";
    return show(chat, {
      text: `🔐 ${kobo(action.amountKobo)} is above ${kobo(threshold * 100)}, so it needs a fresh confirmation.\n${how}`,
      keyboard: [[{ text: `Confirm ${kobo(action.amountKobo)}`, data: `a:${action.id}` }, { text: "Cancel", data: `x:${action.id}` }]],
    });
  }
  return spendAndRun(chat, user, action);
}

async function needsFreshConfirmation(services: Services, user: SignedInUser, action: ActionRow, now: number): Promise<boolean> {
  if (!SPENDING_KINDS.has(action.kind)) return false;
  const threshold = (await getSetting(services.db, "telegram_bot")).confirm_above_naira;
  if (action.amountKobo <= threshold * 100) return false;
  return !(await confirmedInWebApp(services.db, user, now));
}

/** A TOTP (or recovery) code sent while an action waits for one: counted like a login's second step. */
async function confirmWithCode(chat: Chat, user: SignedInUser, action: ActionRow, code: string): Promise<void> {
  const { services } = chat;
  if (user.totpEnabledAt === null) return show(chat, { text: "Two-factor is off on your account: confirm in the web app instead, then press Confirm again." });
  const limitKey = `2fa:${user.id}`;
  await enforceRateLimit(services.db, limitKey, RATE_LIMITS.twoFactorPerUser, services.clock.now());
  const verdict = await verifySecondFactor(services.db, await totpKey(services.config.jwtSecret), user.id, code, services.clock.now());
  if (verdict !== "totp" && verdict !== "recovery") {
    return show(chat, { text: "That code is not right (or was already used). Send the current code from your authenticator app.", keyboard: [[{ text: "Cancel", data: `x:${action.id}` }]] });
  }
  await clearRateLimit(services.db, limitKey);
  return spendAndRun({ ...chat, mode: "reply" }, user, action);
}

async function spendAndRun(chat: Chat, user: SignedInUser, action: ActionRow): Promise<void> {
  const { services } = chat;
  if (!(await spendAction(services.db, action, services.clock.now()))) return show(chat, { text: "This was already done.", keyboard: [[{ text: "« Menu", data: "m" }]] });
  try {
    const outcome = await runAction(services, user, action);
    if (outcome.unlinked) {
      await unlinkChat(services.db, chat.chatId);
      await services.notify(user.id, { kind: "toast", type: "info", message: "Telegram disconnected." });
    }
    return await show(chat, outcome.message);
  } catch (err) {
    return show(chat, failureWords(err));
  }
}
