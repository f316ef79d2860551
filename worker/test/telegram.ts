import { runDeliveryJob } from "../deliveries";
import { testServices } from "./services";
import { env } from "cloudflare:workers";
import { getDb } from "../db/client";
import { sandboxTelegramMessages, sandboxTelegramUpdates, telegramDeliveries } from "../db/tables";
import { and, desc, eq, gt, lte, or } from "drizzle-orm";
import { api, type ApiReply } from "./helpers";

/**
 * The Telegram bot's tests talk to it as a person does in the sandbox chat page (worker/sandbox/telegram-chat.ts): each
 * message and button press becomes the Bot API simulator's update, posted to /api/telegram/webhook with the secret, and
 * the bot's answers land in the simulator's chat. What the bot sends outside an update (a code) goes through the chat's
 * TelegramDelivery object, run here with `deliverNow`.
 */

export const WEBHOOK_SECRET = env.TELEGRAM_WEBHOOK_SECRET!;

let chats = 0;
/** A fresh sandbox chat id (a person's id), unique per test file run. */
export function newChatId(): string {
  chats += 1;
  return String(9_000_000_000 + Math.floor(Math.random() * 900_000_000) + chats);
}

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

/** Opens the chat page once (it registers the bot's webhook with the simulator if none is set). */
export async function openChat(chatId: string): Promise<ApiReply> {
  return api(`/sandbox/telegram/chat/${chatId}`, { settle: true });
}

export async function say(chatId: string, text: string): Promise<ApiReply> {
  return api(`/sandbox/telegram/chat/${chatId}/send`, { method: "POST", ...form({ text }), settle: true });
}

export async function openLink(chatId: string, link: string): Promise<ApiReply> {
  return api(`/sandbox/telegram/chat/${chatId}/open`, { method: "POST", ...form({ link }), settle: true });
}

type Message = typeof sandboxTelegramMessages.$inferSelect;
type Button = { text: string; callback_data?: string; url?: string };

export function buttonsOf(message: Message | undefined): Button[] {
  return message?.replyMarkup ? (JSON.parse(message.replyMarkup) as { inline_keyboard: Button[][] }).inline_keyboard.flat() : [];
}

/** The bot's messages in the chat, newest first. */
export async function botMessages(chatId: string): Promise<Message[]> {
  return getDb(env.DB)
    .select()
    .from(sandboxTelegramMessages)
    .where(and(eq(sandboxTelegramMessages.chatId, chatId), eq(sandboxTelegramMessages.fromBot, true)))
    .orderBy(desc(sandboxTelegramMessages.messageId));
}

export async function lastBotMessage(chatId: string): Promise<Message> {
  const [last] = await botMessages(chatId);
  if (!last) throw new Error(`the bot said nothing in chat ${chatId}`);
  return last;
}

/**
 * The newest of the bot's last few messages that says `text`: an answer edits the message whose button was pressed,
 * and what the bot posts by itself (a code, a rental's new SMS read while its screen was open) may have come below it.
 */
export async function botSaid(chatId: string, text: string | RegExp, within = 3): Promise<Message> {
  const recent = (await botMessages(chatId)).slice(0, within);
  const found = recent.find((m) => (typeof text === "string" ? m.text.includes(text) : text.test(m.text)));
  if (!found) throw new Error(`the bot's last ${within} messages in chat ${chatId} do not say ${String(text)}: ${recent.map((m) => JSON.stringify(m.text.slice(0, 60))).join(", ")}`);
  return found;
}

/** Presses the button whose text matches, on the newest bot message that has one. Returns its callback data. */
export async function press(chatId: string, label: RegExp | string): Promise<string> {
  for (const message of await botMessages(chatId)) {
    const button = buttonsOf(message).find((b) => b.callback_data && (typeof label === "string" ? b.text === label : label.test(b.text)));
    if (button) {
      const res = await api(`/sandbox/telegram/chat/${chatId}/press`, { method: "POST", ...form({ message_id: String(message.messageId), data: button.callback_data! }), settle: true });
      if (res.status !== 200 && res.status !== 303) throw new Error(`press answered ${res.status}`);
      return button.callback_data!;
    }
  }
  throw new Error(`no button ${String(label)} in chat ${chatId}`);
}

/** The callback answer (toast) of the chat's last button press. */
export async function lastToast(chatId: string): Promise<string | null> {
  const [row] = await getDb(env.DB)
    .select({ answer: sandboxTelegramUpdates.callbackAnswer })
    .from(sandboxTelegramUpdates)
    .where(eq(sandboxTelegramUpdates.chatId, chatId))
    .orderBy(desc(sandboxTelegramUpdates.updateId))
    .limit(1);
  return row?.answer ?? null;
}

/** Posts a raw update to the webhook (the attack tests), with the real secret unless told otherwise. */
export function postUpdate(update: unknown, secret: string | null = WEBHOOK_SECRET): Promise<ApiReply> {
  return api("/api/telegram/webhook", { json: update, headers: secret === null ? {} : { "x-telegram-bot-api-secret-token": secret }, settle: true });
}

/**
 * Runs the chat's delivery job now (what its enqueue asked for), until nothing due is left for the chat: the queue also
 * delivers jobs on its own in the test runtime, so one may be running (holding its rows' lease) when the test asks.
 */
export async function deliverNow(chatId: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await runDeliveryJob(testServices(), { kind: "telegram", target: chatId });
    const due = await getDb(env.DB)
      .select({ id: telegramDeliveries.id })
      .from(telegramDeliveries)
      // A row in sending is another run's send in progress (an alarm fires on its own too): its answer is awaited.
      .where(and(eq(telegramDeliveries.chatId, chatId), or(and(eq(telegramDeliveries.status, "pending"), lte(telegramDeliveries.nextAttemptAt, Date.now())), and(eq(telegramDeliveries.status, "sending"), gt(telegramDeliveries.leaseUntil, Date.now())))))
      .limit(1);
    if (due.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`chat ${chatId} still has messages due after 40 runs of its sender`);
}

/** Links a fresh chat to the user as Settings and the bot do: returns the chat id. */
export async function linkedChatFor(user: { token: string }): Promise<string> {
  const chatId = newChatId();
  await openChat(chatId);
  const link = await api("/api/telegram/link", { method: "POST", token: user.token });
  if (link.status !== 200) throw new Error(`link answered ${link.status}`);
  await openLink(chatId, link.data.url);
  return chatId;
}

/** A private-chat text message update as Telegram sends it (https://core.telegram.org/bots/api#update). */
export function textUpdate(updateId: number, chatId: string, text: string, from: Record<string, unknown> = {}) {
  const person = { id: Number(chatId), is_bot: false, first_name: "Test", ...from };
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      from: person,
      chat: { id: Number(chatId), type: "private", first_name: person.first_name },
      date: Math.floor(Date.now() / 1000),
      text,
      ...(text.startsWith("/") ? { entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0].length }] } : {}),
    },
  };
}
