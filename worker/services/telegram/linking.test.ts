import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putSetting } from "../kernel";
import { sessions, telegramLinks, telegramLinkTokens, users } from "../../db/tables";
import { api, createUser, db } from "../../test/helpers";
import { recordingNotify } from "../../test/flow-deps";
import { useTestServices } from "../../test/services";
import { deliverNow, lastBotMessage, linkedChatFor, newChatId, openChat, openLink, press, say } from "../../test/telegram";
import { SETTING_DEFAULTS } from "../../../schema/settings";

// Issue 48: linking a Telegram chat to an account from Settings (single-use, hashed, 10-minute token), saying so on
// both sides, unlinking from either side, and what an unlinked chat may do.

const recorder = recordingNotify();
beforeAll(() => useTestServices({ notify: recorder.notify }));
afterAll(() => putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot));

const tokenOf = (url: string) => new URL(url).searchParams.get("start")!;

describe("Connect Telegram", () => {
  it("makes a t.me link with a single-use token of at most 64 of A-Za-z0-9_-, stored only as its hash, valid 10 minutes", async () => {
    const user = await createUser();
    const before = Date.now();
    const res = await api("/api/telegram/link", { method: "POST", token: user.token });
    expect(res.status).toBe(200);
    expect(res.data.url).toMatch(/^https:\/\/t\.me\/VirtualNumTestBot\?start=[A-Za-z0-9_-]{1,64}$/);
    const token = tokenOf(res.data.url);
    const expires = Date.parse(res.data.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(10 * 60_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(10 * 60_000 + 5000);
    const rows = await db().select().from(telegramLinkTokens).where(eq(telegramLinkTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("/start <token> links the chat and says so in the chat and on the web; the token then works no more", async () => {
    const user = await createUser({ username: "Ngozi" });
    const chatId = newChatId();
    await openChat(chatId);
    const link = await api("/api/telegram/link", { method: "POST", token: user.token });
    recorder.sent.length = 0;
    await openLink(chatId, link.data.url);
    expect((await lastBotMessage(chatId)).text).toContain("Connected to <b>Ngozi</b>");
    expect(recorder.sent).toContainEqual({ userId: user.id, message: expect.objectContaining({ kind: "toast", type: "success", message: expect.stringContaining("Telegram connected") }) });
    const state = await api("/api/telegram", { token: user.token });
    expect(state.data).toMatchObject({ bot_username: "VirtualNumTestBot", linked: true, chat_name: `@sandbox_${chatId}` });

    // The same link again, from another chat: spent.
    const other = newChatId();
    await openChat(other);
    await openLink(other, link.data.url);
    expect((await lastBotMessage(other)).text).toContain("expired or was already used");
    expect(await db().select().from(telegramLinks).where(eq(telegramLinks.chatId, other))).toEqual([]);
  });

  it("an expired token links nothing", async () => {
    const user = await createUser();
    const link = await api("/api/telegram/link", { method: "POST", token: user.token });
    await db().update(telegramLinkTokens).set({ expiresAt: Date.now() - 1 }).where(eq(telegramLinkTokens.userId, user.id));
    const chatId = newChatId();
    await openChat(chatId);
    await openLink(chatId, link.data.url);
    expect((await lastBotMessage(chatId)).text).toContain("expired or was already used");
    expect((await api("/api/telegram", { token: user.token })).data.linked).toBe(false);
  });

  it("a token for another account does not move a linked chat; a token whose session ended links nothing", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const chatId = await linkedChatFor(owner);
    const strangers = await api("/api/telegram/link", { method: "POST", token: stranger.token });
    await openLink(chatId, strangers.data.url);
    expect((await lastBotMessage(chatId)).text).toContain("connected to another account");
    const [link] = await db().select().from(telegramLinks).where(eq(telegramLinks.chatId, chatId));
    expect(link.userId).toBe(owner.id);

    const late = await createUser();
    const lateLink = await api("/api/telegram/link", { method: "POST", token: late.token });
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, late.sessionId));
    const fresh = newChatId();
    await openChat(fresh);
    await openLink(fresh, lateLink.data.url);
    expect((await lastBotMessage(fresh)).text).toContain("session that made this link has ended");
  });

  it("a new link replaces the account's earlier unused one", async () => {
    const user = await createUser();
    const first = await api("/api/telegram/link", { method: "POST", token: user.token });
    await api("/api/telegram/link", { method: "POST", token: user.token });
    const chatId = newChatId();
    await openChat(chatId);
    await openLink(chatId, first.data.url);
    expect((await lastBotMessage(chatId)).text).toContain("expired or was already used");
  });
});

describe("unlinking", () => {
  it("from the web: the chat is told (once, through its delivery) and sees only the public menu", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const res = await api("/api/telegram/link", { method: "DELETE", token: user.token });
    expect(res.status).toBe(200);
    expect(res.data.linked).toBe(false);
    await deliverNow(chatId);
    await deliverNow(chatId);
    const said = (await lastBotMessage(chatId)).text;
    expect(said).toContain("disconnected from your account in the web app");
    await say(chatId, "/balance");
    expect((await lastBotMessage(chatId)).text).toContain("not connected to an account");
  });

  it("from the chat: a confirm step, then the web hears of it", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await press(chatId, "Disconnect");
    expect((await lastBotMessage(chatId)).text).toContain("Disconnect this chat");
    recorder.sent.length = 0;
    await press(chatId, "Disconnect");
    expect((await lastBotMessage(chatId)).text).toContain("disconnected from your account");
    expect((await api("/api/telegram", { token: user.token })).data.linked).toBe(false);
    expect(recorder.sent).toContainEqual({ userId: user.id, message: expect.objectContaining({ kind: "toast", message: "Telegram disconnected." }) });
  });

  it("an unlinked chat can only link, or see the public prices and status", async () => {
    const chatId = newChatId();
    await openChat(chatId);
    await say(chatId, "/start");
    const menu = await lastBotMessage(chatId);
    expect(menu.text).toContain("not connected to an account");
    expect(JSON.parse(menu.replyMarkup!).inline_keyboard.flat().map((b: { callback_data: string }) => b.callback_data)).toEqual(["pr", "st"]);
    await press(chatId, /Status/);
    expect((await lastBotMessage(chatId)).text).toContain("Status");
    await press(chatId, "« Menu");
    await press(chatId, /Prices/);
    expect((await lastBotMessage(chatId)).text).toContain("Choose a country");
    await press(chatId, "USA");
    expect((await lastBotMessage(chatId)).text).toMatch(/Prices in USA[\s\S]*₦/);
  });

  it("ends when the linking session is revoked or the password changes (settings), and is told once", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    await say(chatId, "menu");
    const texts = (await import("../../test/telegram")).botMessages;
    const [unlinked, told] = await texts(chatId);
    expect(told.text).toContain("the web session that connected it was signed out");
    expect(unlinked.text).toContain("not connected");

    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, unlink_on_session_revoked: false });
    const keeper = await createUser();
    const kept = await linkedChatFor(keeper);
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, keeper.sessionId));
    await say(kept, "menu");
    expect((await lastBotMessage(kept)).text).toContain("Balance");
    await db().update(users).set({ passwordHash: "another-hash" }).where(eq(users.id, keeper.id));
    await say(kept, "menu");
    expect((await texts(kept))[1].text).toContain("password changed");
    await putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot);
    void env;
  });
});
