import { env } from "cloudflare:workers";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { sandboxTelegramMessages, telegramUpdates } from "../../db/tables";
import { putSetting } from "../kernel";
import { api, createUser, db } from "../../test/helpers";
import { useTestServices } from "../../test/services";
import { botMessages, lastBotMessage, linkedChatFor, newChatId, openChat, postUpdate, say, textUpdate, WEBHOOK_SECRET } from "../../test/telegram";

// Issue 48's attack list at the webhook: forged calls (wrong or missing secret), replayed updates, floods, and markup
// injection in names. Each is refused or handled without moving money or leaking data.

beforeAll(() => useTestServices({}));
afterAll(() => putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot));

let nextUpdateId = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
const updateId = () => (nextUpdateId += 1);

async function handled(id: number): Promise<boolean> {
  const rows = await db().select().from(telegramUpdates).where(eq(telegramUpdates.updateId, id));
  return rows.length > 0;
}

async function botMessageCount(chatId: string): Promise<number> {
  const [row] = await db().select({ n: count() }).from(sandboxTelegramMessages).where(eq(sandboxTelegramMessages.chatId, chatId));
  return row.n;
}

describe("the webhook's secret (https://core.telegram.org/bots/api#setwebhook: X-Telegram-Bot-Api-Secret-Token)", () => {
  it("refuses a call without the header, or with a wrong one, with 401 in the one error body, and handles nothing", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const before = await botMessageCount(chatId);
    for (const secret of [null, "", "wrong-secret-of-the-right-length-0123456", `${WEBHOOK_SECRET}x`, WEBHOOK_SECRET.slice(0, -1)]) {
      const id = updateId();
      const res = await postUpdate(textUpdate(id, chatId, "/balance"), secret);
      expect(res.status, `secret ${String(secret)}`).toBe(401);
      expect(res.data).toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("X-Telegram-Bot-Api-Secret-Token") });
      expect(await handled(id)).toBe(false);
    }
    expect(await botMessageCount(chatId)).toBe(before);
  });

  it("checks the secret before the body: a forged call with a broken body is 401, an authentic one 400", async () => {
    const forged = await api("/api/telegram/webhook", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(forged.status).toBe(401);
    const broken = await api("/api/telegram/webhook", { method: "POST", body: "{not json", headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET } });
    expect(broken.status).toBe(400);
    expect(broken.data.code).toBe("BAD_JSON");
    for (const body of [{}, { update_id: -1 }, { update_id: "7" }, { update_id: 1.5 }, []]) {
      const res = await postUpdate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.data.code).toBe("VALIDATION_FAILED");
    }
  });

  it("answers an authentic update 200 and handles it, even when the handler fails (Telegram would only send it again)", async () => {
    const chatId = newChatId();
    await say(chatId, "hello");
    const id = updateId();
    const res = await postUpdate(textUpdate(id, chatId, "/start"));
    expect(res.status).toBe(200);
    expect(await handled(id)).toBe(true);
    expect((await lastBotMessage(chatId)).text).toContain("not connected to an account");
    // A chat the Bot API does not know: the answer fails (400 "chat not found"), the update is still answered 200.
    const unknown = newChatId();
    const failing = updateId();
    expect((await postUpdate(textUpdate(failing, unknown, "/start"))).status).toBe(200);
    expect(await handled(failing)).toBe(true);
  });
});

describe("replayed updates (https://core.telegram.org/bots/api#update: update_id is the update's unique identifier)", () => {
  it("handles an update once however often it arrives: a replayed amount starts no second top-up", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const before = await botMessageCount(chatId);
    const update = textUpdate(updateId(), chatId, "5000");
    const answers = await Promise.all([postUpdate(update), postUpdate(update), postUpdate(update)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await botMessageCount(chatId)).toBe(before + 1);
    expect((await lastBotMessage(chatId)).text).toContain("Top up <b>₦5,000.00</b>");
    await postUpdate(update);
    expect(await botMessageCount(chatId)).toBe(before + 1);
  });
});

describe("a flood of updates", () => {
  it("answers a chat at most `updates_per_minute` times a minute, says so once, and leaves other chats alone", async () => {
    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, updates_per_minute: 3 });
    try {
      const user = await createUser();
      const chatId = await linkedChatFor(user);
      const before = await botMessageCount(chatId);
      for (let i = 0; i < 8; i++) await postUpdate(textUpdate(updateId(), chatId, "/balance"));
      const said = (await botMessages(chatId)).slice(0, (await botMessageCount(chatId)) - before);
      // The link's /start counted too: at most 3 answers in the minute, then one "too many".
      expect(said.length).toBeLessThanOrEqual(3);
      expect(said.filter((m) => m.text.startsWith("Too many messages"))).toHaveLength(1);
      const other = newChatId();
      await openChat(other);
      await say(other, "/start");
      expect((await lastBotMessage(other)).text).toContain("not connected");
    } finally {
      await putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot);
    }
  });
});

describe("markup in names (https://core.telegram.org/bots/api#html-style)", () => {
  it("shows a username with tags and entities as typed: it neither formats nor links, and Telegram accepts the message", async () => {
    const user = await createUser({ username: `<a href="https://evil.example">x</a><b>&amp;` });
    const chatId = await linkedChatFor(user);
    const connected = await lastBotMessage(chatId);
    expect(connected.text).toContain("Connected to <b>&lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;&lt;b&gt;&amp;amp;</b>");
    expect(connected.text).not.toContain('<a href="https://evil.example">');
    // The simulator parsed it as Telegram would (a bad tag would have been refused with 400 and nothing stored).
    await say(chatId, "menu");
    expect((await lastBotMessage(chatId)).text).toContain("Hello &lt;a href=");
    void env;
  });
});
