import { and, asc, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { configFor, type Env } from "../config";
import { getDb } from "../db/client";
import { TELEGRAM_SIMULATOR_PATH } from "../providers/telegram/bot-api";
import { parseTelegramHtml, type MessageEntity } from "./telegram-html";
import { sandboxTelegramMessages, sandboxTelegramUpdates, sandboxTelegramWebhooks } from "./telegram-tables";

/**
 * The sandbox Telegram Bot API (issue 48), written from Telegram's Bot API documents, never from our bot:
 * - requests: https://core.telegram.org/bots/api#making-requests — `<root>/bot<token>/METHOD_NAME`, GET or POST, with
 *   the parameters in the query string, a form body or a JSON body; every answer is a JSON object with a Boolean `ok`,
 *   the `result` when ok, else `error_code` and a human-readable `description` (401 for a wrong token, 404 for an
 *   unknown method, 400 for a bad request);
 * - setWebhook, deleteWebhook, getWebhookInfo (https://core.telegram.org/bots/api#setwebhook): the URL, secret_token
 *   (1-256 of A-Z a-z 0-9 _ -), allowed_updates; each update then reaches the URL as an HTTPS POST of a JSON-serialized
 *   Update with the secret in X-Telegram-Bot-Api-Secret-Token, and anything but a 2XY answer counts as a failure;
 * - sendMessage (https://core.telegram.org/bots/api#sendmessage): chat_id, text of 1-4096 characters after entities
 *   parsing, parse_mode (HTML: ./telegram-html.ts), reply_markup (an InlineKeyboardMarkup whose buttons carry exactly
 *   one of url or callback_data of 1-64 bytes: https://core.telegram.org/bots/api#inlinekeyboardbutton); answers the
 *   sent Message;
 * - editMessageText (https://core.telegram.org/bots/api#editmessagetext): chat_id + message_id of a message the bot
 *   sent, the new text and reply_markup; answers the edited Message; the same content again is refused ("message is
 *   not modified");
 * - answerCallbackQuery (https://core.telegram.org/bots/api#answercallbackquery): callback_query_id of a query this
 *   bot received, an optional text of 0-200 characters; answers True.
 * - the update shapes the simulator sends (https://core.telegram.org/bots/api#update): `message` (a Message with
 *   message_id, from, chat, date, text and, for a /command, its bot_command entity) and `callback_query`
 *   (https://core.telegram.org/bots/api#callbackquery: id, from, message, chat_instance, data).
 * Differences from Telegram, on purpose: the webhook URL may be http (a local server has no certificate), chats are
 * private chats with one simulated person each, and a private chat exists once its person wrote to the bot (before
 * that, sendMessage answers 400 "chat not found", as Telegram does for a chat it does not know).
 * State lives in D1 (sandbox_telegram_*), shared by this API, the sandbox chat page (routes below) and the tests.
 */

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };

const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
const refuse = (status: number, description: string): Answer => ({ status, body: { ok: false, error_code: status, description } });
const badRequest = (description: string) => refuse(400, `Bad Request: ${description}`);

/** The simulated person of a sandbox chat: a private chat's id is its person's user id. */
export function sandboxPerson(chatId: string) {
  return { id: Number(chatId), is_bot: false, first_name: "Sandbox", last_name: "Tester", username: `sandbox_${chatId}`, language_code: "en" };
}

function botUser(env: Env) {
  const bot = configFor(env).telegram;
  return { id: bot?.botId ?? 0, is_bot: true, first_name: bot?.botUsername ?? "bot", username: bot?.botUsername ?? "bot" };
}

function privateChat(chatId: string) {
  const person = sandboxPerson(chatId);
  return { id: person.id, type: "private", first_name: person.first_name, last_name: person.last_name, username: person.username };
}

type MessageRow = typeof sandboxTelegramMessages.$inferSelect;

/** A stored message as the Bot API's Message object. */
export function messageObject(env: Env, row: MessageRow): Json {
  const parsed = row.parseMode === "HTML" ? parseTelegramHtml(row.text) : null;
  const text = parsed?.ok ? parsed.text : row.text;
  const entities: MessageEntity[] = parsed?.ok ? parsed.entities : [];
  const command = !row.fromBot ? /^\/[A-Za-z0-9_]{1,32}(@\w+)?/.exec(row.text) : null;
  return {
    message_id: row.messageId,
    from: row.fromBot ? botUser(env) : sandboxPerson(row.chatId),
    chat: privateChat(row.chatId),
    date: Math.floor(row.date / 1000),
    ...(row.editedAt ? { edit_date: Math.floor(row.editedAt / 1000) } : {}),
    text,
    ...(command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : entities.length > 0 ? { entities } : {}),
    ...(row.replyMarkup ? { reply_markup: JSON.parse(row.replyMarkup) } : {}),
  };
}

/** The parameters of a call: query string, then a form or JSON body (https://core.telegram.org/bots/api#making-requests). */
async function paramsOf(c: Context): Promise<Json | null> {
  const params: Json = Object.fromEntries(new URL(c.req.url).searchParams);
  if (c.req.method !== "POST") return params;
  const type = c.req.header("content-type") ?? "";
  // Read as bytes then decoded: a form body read with text() draws workerd's "not text" warning.
  const raw = new TextDecoder().decode(await c.req.arrayBuffer());
  if (!raw) return params;
  if (type.includes("application/json")) {
    try {
      const body: unknown = JSON.parse(raw);
      return body && typeof body === "object" && !Array.isArray(body) ? { ...params, ...(body as Json) } : null;
    } catch {
      return null;
    }
  }
  return { ...params, ...Object.fromEntries(new URLSearchParams(raw)) };
}

/** A JSON-serialized parameter (reply_markup, allowed_updates) arrives as an object (JSON body) or as a string (form). */
function jsonParam(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** An InlineKeyboardMarkup as documented, or the Bot API's words for what is wrong with it. */
function inlineKeyboardOf(value: unknown): { markup: Json | null } | { error: string } {
  if (value === undefined || value === null || value === "") return { markup: null };
  const markup = jsonParam(value) as { inline_keyboard?: unknown } | undefined;
  if (!markup || typeof markup !== "object" || !Array.isArray(markup.inline_keyboard)) return { error: "can't parse reply keyboard markup JSON object" };
  for (const row of markup.inline_keyboard) {
    if (!Array.isArray(row)) return { error: "field \"inline_keyboard\" of the InlineKeyboardMarkup must be an Array of Arrays" };
    for (const button of row as Json[]) {
      if (!button || typeof button.text !== "string" || button.text.length === 0) return { error: "BUTTON_TEXT_EMPTY" };
      const kinds = ["url", "callback_data"].filter((k) => button[k] !== undefined);
      if (kinds.length !== 1) return { error: "BUTTON_TYPE_INVALID" };
      if (button.callback_data !== undefined) {
        const bytes = new TextEncoder().encode(String(button.callback_data)).length;
        if (bytes < 1 || bytes > 64) return { error: "BUTTON_DATA_INVALID" };
      }
      if (button.url !== undefined && !/^(https?|tg):\/\//.test(String(button.url))) return { error: "BUTTON_URL_INVALID" };
    }
  }
  return { markup: markup as Json };
}

/** The text as Telegram keeps it: parsed when parse_mode is HTML; 1-4096 characters after that. */
function checkedText(text: unknown, parseMode: unknown): { error: string } | { plain: string } {
  if (typeof text !== "string" || text.length === 0) return { error: "message text is empty" };
  let plain = text;
  if (parseMode === "HTML") {
    const parsed = parseTelegramHtml(text);
    if (!parsed.ok) return { error: parsed.description.replace(/^Bad Request: /, "") };
    plain = parsed.text;
  } else if (parseMode !== undefined && parseMode !== "") {
    // The simulator knows HTML only: the bot never sends Markdown (every dynamic text is HTML-escaped instead).
    return { error: `unsupported parse_mode "${String(parseMode)}"` };
  }
  if (plain.trim().length === 0) return { error: "message text is empty" };
  if (plain.length > 4096) return { error: "message is too long" };
  return { plain };
}

async function chatKnown(env: Env, chatId: string): Promise<boolean> {
  const [row] = await getDb(env.DB)
    .select({ id: sandboxTelegramMessages.messageId })
    .from(sandboxTelegramMessages)
    .where(and(eq(sandboxTelegramMessages.chatId, chatId), eq(sandboxTelegramMessages.fromBot, false)))
    .limit(1);
  return row !== undefined;
}

const chatIdOf = (value: unknown): string | null => (typeof value === "number" || (typeof value === "string" && /^-?\d{1,16}$/.test(value)) ? String(value) : null);

async function callMethod(env: Env, method: string, p: Json, now: number): Promise<Answer> {
  const db = getDb(env.DB);
  const bot = configFor(env).telegram!;
  switch (method) {
    case "getMe":
      return ok({ ...botUser(env), can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false, can_connect_to_business: false, has_main_web_app: false });
    case "setWebhook": {
      const url = typeof p.url === "string" ? p.url : "";
      if (url === "") {
        await db.delete(sandboxTelegramWebhooks).where(eq(sandboxTelegramWebhooks.botId, String(bot.botId)));
        return { status: 200, body: { ok: true, result: true, description: "Webhook was deleted" } };
      }
      if (!/^https?:\/\/[^\s/]+/.test(url)) return badRequest("bad webhook: An HTTPS URL must be provided for webhook");
      const secret = p.secret_token;
      if (secret !== undefined && (typeof secret !== "string" || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) return badRequest("bad webhook: secret token contains unallowed characters");
      const allowed = p.allowed_updates === undefined ? null : jsonParam(p.allowed_updates);
      if (allowed !== null && !Array.isArray(allowed)) return badRequest("can't parse allowed updates JSON");
      const row = { botId: String(bot.botId), url, secretToken: (secret as string | undefined) ?? null, allowedUpdates: allowed ? JSON.stringify(allowed) : null, setAt: now };
      await db.insert(sandboxTelegramWebhooks).values(row).onConflictDoUpdate({ target: sandboxTelegramWebhooks.botId, set: row });
      return { status: 200, body: { ok: true, result: true, description: "Webhook was set" } };
    }
    case "deleteWebhook":
      await db.delete(sandboxTelegramWebhooks).where(eq(sandboxTelegramWebhooks.botId, String(bot.botId)));
      return { status: 200, body: { ok: true, result: true, description: "Webhook was deleted" } };
    case "getWebhookInfo": {
      const [hook] = await db.select().from(sandboxTelegramWebhooks).where(eq(sandboxTelegramWebhooks.botId, String(bot.botId))).limit(1);
      return ok({
        url: hook?.url ?? "",
        has_custom_certificate: false,
        pending_update_count: 0,
        ...(hook?.allowedUpdates ? { allowed_updates: JSON.parse(hook.allowedUpdates) } : {}),
      });
    }
    case "sendMessage": {
      const chatId = chatIdOf(p.chat_id);
      if (!chatId) return badRequest("chat_id is empty");
      const text = checkedText(p.text, p.parse_mode);
      if ("error" in text) return badRequest(text.error);
      const keyboard = inlineKeyboardOf(p.reply_markup);
      if ("error" in keyboard) return badRequest(keyboard.error);
      if (!(await chatKnown(env, chatId))) return badRequest("chat not found");
      const [row] = await db
        .insert(sandboxTelegramMessages)
        .values({
          chatId,
          fromBot: true,
          text: p.text as string,
          parseMode: p.parse_mode === "HTML" ? "HTML" : null,
          replyMarkup: keyboard.markup ? JSON.stringify(keyboard.markup) : null,
          date: now,
        })
        .returning();
      return ok(messageObject(env, row));
    }
    case "editMessageText": {
      const chatId = chatIdOf(p.chat_id);
      const messageId = Number(p.message_id);
      if (!chatId || !Number.isInteger(messageId)) return badRequest("message to edit not found");
      const text = checkedText(p.text, p.parse_mode);
      if ("error" in text) return badRequest(text.error);
      const keyboard = inlineKeyboardOf(p.reply_markup);
      if ("error" in keyboard) return badRequest(keyboard.error);
      const [current] = await db
        .select()
        .from(sandboxTelegramMessages)
        .where(and(eq(sandboxTelegramMessages.chatId, chatId), eq(sandboxTelegramMessages.messageId, messageId)))
        .limit(1);
      if (!current) return badRequest("message to edit not found");
      if (!current.fromBot) return badRequest("message can't be edited");
      const markup = keyboard.markup ? JSON.stringify(keyboard.markup) : null;
      const parseMode = p.parse_mode === "HTML" ? "HTML" : null;
      if (current.text === p.text && current.replyMarkup === markup && current.parseMode === parseMode) {
        return badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message");
      }
      const [row] = await db
        .update(sandboxTelegramMessages)
        .set({ text: p.text as string, parseMode, replyMarkup: markup, editedAt: now })
        .where(eq(sandboxTelegramMessages.messageId, messageId))
        .returning();
      return ok(messageObject(env, row));
    }
    case "answerCallbackQuery": {
      const id = typeof p.callback_query_id === "string" ? p.callback_query_id : "";
      const updateId = /^cq(\d+)$/.exec(id)?.[1];
      const text = p.text === undefined ? "" : String(p.text);
      if (text.length > 200) return badRequest("MESSAGE_TOO_LONG");
      const [row] = updateId
        ? await db.update(sandboxTelegramUpdates).set({ callbackAnswer: text }).where(eq(sandboxTelegramUpdates.updateId, Number(updateId))).returning({ id: sandboxTelegramUpdates.updateId })
        : [];
      if (!row) return badRequest("query is too old and response timeout expired or query ID is invalid");
      return ok(true);
    }
    default:
      return refuse(404, "Not Found");
  }
}

export const telegramBotApiSimulator = new Hono<{ Bindings: Env }>().basePath(TELEGRAM_SIMULATOR_PATH);

telegramBotApiSimulator.all("/:token/:method", async (c) => {
  const bot = configFor(c.env).telegram;
  const token = c.req.param("token");
  if (!bot || token !== `bot${bot.token}`) {
    // The body is read either way: an answer that leaves it unread resets the connection locally.
    await c.req.text().catch(() => "");
    return c.json(refuse(401, "Unauthorized").body, 401);
  }
  const params = await paramsOf(c);
  if (!params) return c.json(badRequest("can't parse JSON object").body, 400);
  const answer = await callMethod(c.env, c.req.param("method"), params, Date.now());
  return c.json(answer.body, answer.status as 200);
});

// ---------------------------------------------------------------------------------------------------------------------
// The simulated person's side: what the sandbox chat page does (worker/sandbox/telegram-chat.ts).

export type Loopback = (request: Request) => Promise<Response>;

/** The messages of a chat, oldest first. */
export async function chatHistory(env: Env, chatId: string): Promise<MessageRow[]> {
  return getDb(env.DB).select().from(sandboxTelegramMessages).where(eq(sandboxTelegramMessages.chatId, chatId)).orderBy(asc(sandboxTelegramMessages.messageId));
}

export async function registeredWebhook(env: Env) {
  const bot = configFor(env).telegram;
  if (!bot) return null;
  const [hook] = await getDb(env.DB).select().from(sandboxTelegramWebhooks).where(eq(sandboxTelegramWebhooks.botId, String(bot.botId))).limit(1);
  return hook ?? null;
}

/** The last callback answer a chat got (Telegram shows it as a toast over the chat). */
export async function lastCallbackAnswer(env: Env, chatId: string): Promise<string | null> {
  const rows = await getDb(env.DB).select().from(sandboxTelegramUpdates).where(eq(sandboxTelegramUpdates.chatId, chatId));
  const last = rows.filter((r) => r.body.includes('"callback_query"')).sort((a, b) => b.updateId - a.updateId)[0];
  return last?.callbackAnswer || null;
}

/**
 * Sends one update to the registered webhook as Telegram does: a POST of the JSON-serialized Update with the secret in
 * X-Telegram-Bot-Api-Secret-Token. Returns the webhook's status (null: no webhook set).
 */
async function deliverUpdate(env: Env, loopback: Loopback, chatId: string, build: (updateId: number) => Json, kind: "message" | "callback_query"): Promise<number | null> {
  const hook = await registeredWebhook(env);
  if (!hook) return null;
  const allowed = hook.allowedUpdates ? (JSON.parse(hook.allowedUpdates) as string[]) : null;
  const db = getDb(env.DB);
  const [row] = await db.insert(sandboxTelegramUpdates).values({ chatId, body: "{}", sentAt: Date.now() }).returning({ updateId: sandboxTelegramUpdates.updateId });
  const update = build(row.updateId);
  const body = JSON.stringify(update);
  await db.update(sandboxTelegramUpdates).set({ body }).where(eq(sandboxTelegramUpdates.updateId, row.updateId));
  if (allowed && allowed.length > 0 && !allowed.includes(kind)) return 200;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (hook.secretToken) headers["x-telegram-bot-api-secret-token"] = hook.secretToken;
  const answer = await loopback(new Request(hook.url, { method: "POST", headers, body }));
  await answer.arrayBuffer().catch(() => undefined);
  await db.update(sandboxTelegramUpdates).set({ answeredStatus: answer.status }).where(eq(sandboxTelegramUpdates.updateId, row.updateId));
  return answer.status;
}

/** The person writes `text` in the chat: stored as their message, then sent to the bot as a `message` update. */
export async function personWrites(env: Env, loopback: Loopback, chatId: string, text: string): Promise<number | null> {
  const [row] = await getDb(env.DB).insert(sandboxTelegramMessages).values({ chatId, fromBot: false, text, date: Date.now() }).returning();
  return deliverUpdate(env, loopback, chatId, (updateId) => ({ update_id: updateId, message: messageObject(env, row) }), "message");
}

/** The person presses an inline button with callback_data on one of the bot's messages: a `callback_query` update. */
export async function personPresses(env: Env, loopback: Loopback, chatId: string, messageId: number, data: string): Promise<number | null | "no-such-button"> {
  const [message] = await getDb(env.DB)
    .select()
    .from(sandboxTelegramMessages)
    .where(and(eq(sandboxTelegramMessages.chatId, chatId), eq(sandboxTelegramMessages.messageId, messageId), eq(sandboxTelegramMessages.fromBot, true)))
    .limit(1);
  const buttons = message?.replyMarkup ? ((JSON.parse(message.replyMarkup) as { inline_keyboard: Json[][] }).inline_keyboard.flat() as Json[]) : [];
  if (!message || !buttons.some((b) => b.callback_data === data)) return "no-such-button";
  return deliverUpdate(
    env,
    loopback,
    chatId,
    (updateId) => ({
      update_id: updateId,
      callback_query: { id: `cq${updateId}`, from: sandboxPerson(chatId), message: messageObject(env, message), chat_instance: `ci${chatId}`, data },
    }),
    "callback_query",
  );
}
