import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../index";
import { telegramDeliveries } from "../../db/tables";
import { api, createUser, db } from "../../test/helpers";
import { testServices, useTestServices } from "../../test/services";
import { deliverNow, lastBotMessage, linkedChatFor, say, WEBHOOK_SECRET } from "../../test/telegram";
import { enqueueChatMessage } from "./delivery";

// Issue 48: the sandbox Bot API simulator answers as Telegram's documents say (https://core.telegram.org/bots/api),
// the bot's delivery reads Telegram's errors as documented, and a deployment without a bot has no bot routes.

const TOKEN = env.TELEGRAM_BOT_TOKEN!;
const call = (method: string, params: Record<string, unknown>, token = TOKEN) =>
  api(`/sandbox/telegram-api/bot${token}/${method}`, { json: params });

afterEach(() => useTestServices({ upstreams: { telegram: null } }));

describe("the Bot API simulator (https://core.telegram.org/bots/api#making-requests)", () => {
  it("answers { ok, result } or { ok: false, error_code, description }: a wrong token 401, an unknown method 404", async () => {
    const me = await call("getMe", {});
    expect(me.data).toMatchObject({ ok: true, result: { is_bot: true, username: "VirtualNumTestBot" } });
    expect((await call("getMe", {}, "123:wrong")).data).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
    expect((await call("getMeNot", {})).data).toEqual({ ok: false, error_code: 404, description: "Not Found" });
    // Parameters by query string and form as well as JSON.
    const form = await api(`/sandbox/telegram-api/bot${TOKEN}/getWebhookInfo?x=1`, { method: "POST", body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.data.ok).toBe(true);
  });

  it("sendMessage refuses what Telegram refuses: bad HTML, an unknown chat, an empty text, a button with both or neither of url and callback_data, callback_data over 64 bytes", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const refused = async (params: Record<string, unknown>, description: RegExp) => {
      const res = await call("sendMessage", { chat_id: chatId, ...params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.data).toMatchObject({ ok: false, error_code: 400, description: expect.stringMatching(description) });
    };
    await refused({ text: "<b>unclosed", parse_mode: "HTML" }, /^Bad Request: can't parse entities/);
    await refused({ text: "<script>x</script>", parse_mode: "HTML" }, /^Bad Request: can't parse entities/);
    await refused({ text: "" }, /message text is empty/);
    await refused({ text: "x", reply_markup: { inline_keyboard: [[{ text: "a", url: "https://x.example", callback_data: "a" }]] } }, /BUTTON_TYPE_INVALID/);
    await refused({ text: "x", reply_markup: { inline_keyboard: [[{ text: "a", callback_data: "é".repeat(33) }]] } }, /BUTTON_DATA_INVALID/);
    const unknown = await call("sendMessage", { chat_id: "42", text: "hello" });
    expect(unknown.data.description).toBe("Bad Request: chat not found");
    const sent = await call("sendMessage", { chat_id: chatId, text: "<b>bold</b> &amp; <code>123</code>", parse_mode: "HTML" });
    expect(sent.data.result).toMatchObject({ text: "bold & 123", entities: [{ type: "bold", offset: 0, length: 4 }, { type: "code", offset: 7, length: 3 }] });
    // editMessageText: the same content again is "message is not modified".
    const edit = { chat_id: chatId, message_id: sent.data.result.message_id, text: "<b>bold</b> &amp; <code>123</code>", parse_mode: "HTML" };
    expect((await call("editMessageText", edit)).data.description).toMatch(/^Bad Request: message is not modified/);
    expect((await call("editMessageText", { ...edit, text: "changed" })).data.result).toMatchObject({ text: "changed" });
    expect((await call("answerCallbackQuery", { callback_query_id: "cq-unknown" })).data.description).toMatch(/query ID is invalid/);
  });
});

describe("the bot's delivery reads Telegram's errors (https://core.telegram.org/bots/api#responseparameters)", () => {
  it("429 waits its retry_after and sends again; 403 (the person blocked the bot) drops the message", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    let answer: "429" | "403" | "pass" = "429";
    useTestServices({
      upstreams: {
        telegram: async (request, simulator) => {
          if (!request.url.endsWith("/sendMessage") || answer === "pass") return simulator(request);
          await request.text();
          const body = answer === "429"
            ? { ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } }
            : { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" };
          return Response.json(body, { status: Number(answer) });
        },
      },
    });
    const services = testServices();
    await enqueueChatMessage(services, chatId, `retry-test:${chatId}`, { text: "Held back once" });
    const { deliverDueTelegram } = await import("./delivery");
    const before = Date.now();
    const next = await deliverDueTelegram(services, chatId);
    const [held] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.dedupeKey, `retry-test:${chatId}`));
    expect(held).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("Too Many Requests") });
    expect(held.nextAttemptAt).toBeGreaterThanOrEqual(before + 7_000);
    expect(next).toBe(held.nextAttemptAt);

    answer = "pass";
    await db().update(telegramDeliveries).set({ nextAttemptAt: Date.now() - 1 }).where(eq(telegramDeliveries.id, held.id));
    await deliverDueTelegram(testServices(), chatId);
    expect((await lastBotMessage(chatId)).text).toBe("Held back once");

    answer = "403";
    await enqueueChatMessage(services, chatId, `blocked-test:${chatId}`, { text: "Never seen" });
    await deliverDueTelegram(testServices(), chatId);
    const [dropped] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.dedupeKey, `blocked-test:${chatId}`));
    expect(dropped.status).toBe("dropped");
    await deliverNow(chatId);
  });
});

describe("a deployment without a bot", () => {
  it("answers 404 on every bot route, the webhook included, and does not handle the update", async () => {
    const user = await createUser();
    const without = { ...env, TELEGRAM_BOT_TOKEN: undefined, TELEGRAM_WEBHOOK_SECRET: undefined, TELEGRAM_BOT_USERNAME: undefined };
    const send = async (path: string, init: RequestInit) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://127.0.0.1:8787${path}`, init) as Request<unknown, IncomingRequestCfProperties>, without, ctx);
      await waitOnExecutionContext(ctx);
      return { status: res.status, body: await res.text() };
    };
    const auth = { authorization: `Bearer ${user.token}` };
    for (const [path, init] of [
      ["/api/telegram", { headers: auth }],
      ["/api/telegram/link", { method: "POST", headers: auth }],
      ["/api/telegram/link", { method: "DELETE", headers: auth }],
      ["/api/telegram/webhook", { method: "POST", headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET }, body: JSON.stringify({ update_id: 1 }) }],
      ["/sandbox/telegram/chat/123", {}],
    ] as const) {
      const res = await send(path, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
      expect(JSON.parse(res.body).code).toBe("NOT_FOUND");
    }
    // The same chat still works where the bot exists.
    const chatId = await linkedChatFor(user);
    await say(chatId, "/balance");
    expect((await lastBotMessage(chatId)).text).toContain("Balance");
  });
});
