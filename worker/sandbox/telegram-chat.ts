import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { registerWebhook } from "../services/telegram";
import { parseTelegramHtml } from "./telegram-html";
import { chatHistory, lastCallbackAnswer, personPresses, personWrites, registeredWebhook } from "./telegram-bot-api";

/**
 * The sandbox chat page (issue 48): a developer talks to the bot locally in the browser, as a person would in Telegram.
 * /sandbox/telegram/chat opens a new private chat; the page shows the chat (the bot's messages with their inline
 * buttons), a box to write in, and "Open a t.me link" for the link Settings' Connect Telegram gives (Telegram's Start
 * button then sends `/start <token>`: https://core.telegram.org/bots/features#deep-linking). Every press and message goes
 * to the bot as the Bot API simulator's update (telegram-bot-api.ts), through the webhook the bot registered; if none
 * is registered yet, the page registers it as `npm run admin -- telegram-set-webhook` does.
 * No script (the worker's pages run none: decision 021): forms post and come back; "Refresh" (or ?live=1, which reloads
 * every 3 seconds) shows what the bot sent since, such as a code.
 */
export const telegramChatSandboxRoutes = new Hono<AppEnv>();

telegramChatSandboxRoutes.use("*", async (c, next) => {
  if (!c.var.config.telegram) throw new AppError("NOT_FOUND", "The Telegram bot is not configured (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME).");
  await next();
});

const escape = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

const chatIdOf = (value: string) => {
  if (!/^\d{1,15}$/.test(value)) throw new AppError("VALIDATION_FAILED", "A sandbox chat id is a number.");
  return value;
};

/** The bot's HTML as the page shows it: the parsed text, escaped, with code, bold and italic kept. */
function render(text: string, parseMode: string | null): string {
  if (parseMode !== "HTML") return escape(text);
  const parsed = parseTelegramHtml(text);
  if (!parsed.ok) return escape(text);
  let out = "";
  let at = 0;
  for (const e of parsed.entities) {
    if (e.offset < at) continue;
    out += escape(parsed.text.slice(at, e.offset));
    const inner = escape(parsed.text.slice(e.offset, e.offset + e.length));
    out += e.type === "code" || e.type === "pre" ? `<code>${inner}</code>` : e.type === "bold" ? `<b>${inner}</b>` : e.type === "italic" ? `<i>${inner}</i>` : inner;
    at = e.offset + e.length;
  }
  return out + escape(parsed.text.slice(at));
}

telegramChatSandboxRoutes.get("/chat", (c) => c.redirect(`/sandbox/telegram/chat/${1_000_000 + Math.floor(Math.random() * 8_999_999_999)}`, 303));

telegramChatSandboxRoutes.get("/chat/:chatId", async (c) => {
  const chatId = chatIdOf(c.req.param("chatId"));
  if (!(await registeredWebhook(c.env))) await registerWebhook(c.var.services);
  const [messages, toast] = await Promise.all([chatHistory(c.env, chatId), lastCallbackAnswer(c.env, chatId)]);
  const live = c.req.query("live") === "1";
  const base = `/sandbox/telegram/chat/${chatId}`;
  const rows = messages
    .map((m) => {
      const buttons = m.replyMarkup
        ? (JSON.parse(m.replyMarkup) as { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] }).inline_keyboard
            .map(
              (row) =>
                `<div class="row">${row
                  .map((b) =>
                    b.url
                      ? `<a class="button" href="${escape(b.url)}" rel="noopener">${escape(b.text)} ↗</a>`
                      : `<form method="post" action="${base}/press"><input type="hidden" name="message_id" value="${m.messageId}"><input type="hidden" name="data" value="${escape(b.callback_data ?? "")}"><button type="submit">${escape(b.text)}</button></form>`,
                  )
                  .join("")}</div>`,
            )
            .join("")
        : "";
      return `<li class="${m.fromBot ? "bot" : "me"}" data-testid="${m.fromBot ? "bot-message" : "my-message"}"><div class="text">${render(m.text, m.parseMode)}</div>${buttons}</li>`;
    })
    .join("\n");
  return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${live ? '<meta http-equiv="refresh" content="3">' : ""}
<title>Sandbox Telegram chat ${chatId}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem;background:#e7ebf0;color:#111}
ol{list-style:none;padding:0;display:flex;flex-direction:column;gap:.6rem}
li{padding:.6rem .8rem;border-radius:.8rem;max-width:85%;white-space:pre-wrap;overflow-wrap:anywhere}
li.bot{background:#fff;align-self:flex-start}li.me{background:#d9fdd3;align-self:flex-end}
.row{display:flex;gap:.3rem;margin-top:.3rem;flex-wrap:wrap}.row form{flex:1;margin:0}
button,.button{width:100%;padding:.45rem;border:1px solid #9ab;border-radius:.4rem;background:#f4f8fb;color:#134;font:inherit;cursor:pointer;text-decoration:none;display:block;text-align:center}
code{background:#eef;padding:0 .2rem;border-radius:.2rem}
.toast{background:#333;color:#fff;padding:.5rem .8rem;border-radius:.5rem}
.bar{display:flex;gap:.4rem;margin:.4rem 0}.bar input{flex:1;padding:.45rem;font:inherit}.bar button{width:auto}
</style></head><body>
<h1>Sandbox Telegram chat</h1>
<p>You are <b>Sandbox Tester</b> (chat ${chatId}) talking to <b>@${escape(c.var.config.telegram!.botUsername)}</b> through the Bot API simulator.
<a href="${base}">Refresh</a> · <a href="${base}?live=${live ? "0" : "1"}">${live ? "Stop auto-refresh" : "Auto-refresh"}</a> · <a href="/sandbox/telegram/chat">New chat</a></p>
${toast ? `<p class="toast" role="status" data-testid="callback-answer">${escape(toast)}</p>` : ""}
<ol aria-label="Messages">${rows || "<li class=bot>Send /start, or open a t.me link from Settings below.</li>"}</ol>
<form class="bar" method="post" action="${base}/send"><label for="text" hidden>Message</label><input id="text" name="text" placeholder="Message" autocomplete="off" required maxlength="4096"><button type="submit">Send</button></form>
<form class="bar" method="post" action="${base}/open"><label for="link" hidden>t.me link</label><input id="link" name="link" placeholder="https://t.me/…?start=…" autocomplete="off" required><button type="submit">Open a t.me link</button></form>
</body></html>`);
});

telegramChatSandboxRoutes.post("/chat/:chatId/send", async (c) => {
  const chatId = chatIdOf(c.req.param("chatId"));
  const text = String((await c.req.parseBody()).text ?? "").trim();
  if (text) await personWrites(c.env, c.var.loopback, chatId, text.slice(0, 4096));
  return c.redirect(`/sandbox/telegram/chat/${chatId}`, 303);
});

/** A t.me link with ?start=: pressing Start sends `/start <parameter>` to the bot. */
telegramChatSandboxRoutes.post("/chat/:chatId/open", async (c) => {
  const chatId = chatIdOf(c.req.param("chatId"));
  const link = String((await c.req.parseBody()).link ?? "").trim();
  let start: string | null = null;
  try {
    start = new URL(link).searchParams.get("start");
  } catch {
    start = null;
  }
  if (!start) throw new AppError("VALIDATION_FAILED", "That is not a t.me link with ?start=.");
  await personWrites(c.env, c.var.loopback, chatId, `/start ${start}`);
  return c.redirect(`/sandbox/telegram/chat/${chatId}`, 303);
});

telegramChatSandboxRoutes.post("/chat/:chatId/press", async (c) => {
  const chatId = chatIdOf(c.req.param("chatId"));
  const body = await c.req.parseBody();
  const sent = await personPresses(c.env, c.var.loopback, chatId, Number(body.message_id), String(body.data ?? ""));
  if (sent === "no-such-button") throw new AppError("VALIDATION_FAILED", "That message has no such button (anymore).");
  return c.redirect(`/sandbox/telegram/chat/${chatId}`, 303);
});
