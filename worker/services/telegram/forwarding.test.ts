import { runDeliveryJob } from "../../deliveries";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RealtimeMessage } from "../../../schema/realtime";
import { rentals, telegramDeliveries } from "../../db/tables";
import { api, createUser, db, type TestUser } from "../../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { testServices, useTestServices } from "../../test/services";
import { botMessages, botSaid, buttonsOf, deliverNow, lastBotMessage, linkedChatFor, postUpdate, press, say } from "../../test/telegram";
import { forwardsToTelegram } from "../notifications";
import { telegramChannel } from "./delivery";

// Issue 47's per-rental forwarding, the Telegram part (decisions 069, 070): a rental's SMS, its renewal reminder and
// "ends in about an hour" reach the linked chat only while that rental forwards to Telegram (its own choice, from the
// web or the rental's screen in the chat, else Settings' default); codes of bought numbers are not rental forwarding.
// Then issue 48's two minors: a typed name finds a service or a country (the lists page by 8), and a message is sent
// once per event and chat even when a sender dies mid-send.

beforeAll(async () => {
  useTestServices({});
  await resetSmsTestState();
});
afterAll(restoreSmsProviders);

/** A linked chat whose account rented a USA number from the chat (Menu → Rent → USA → 1 day → confirm). */
async function rentedInChat(): Promise<{ user: TestUser; chatId: string; rentalId: string; number: string }> {
  const user = await createUser({ balanceKobo: 5_000_000 });
  const chatId = await linkedChatFor(user);
  await say(chatId, "menu");
  await press(chatId, "📆 Rent a number");
  await press(chatId, "USA");
  await press(chatId, "1 day");
  await press(chatId, /^Rent for ₦/);
  const [rental] = await db().select().from(rentals).where(eq(rentals.userId, user.id));
  return { user, chatId, rentalId: rental.id, number: rental.number ?? "" };
}

let events = 0;
/** How many chat messages the outbox's fan-out would write for one new event of the user (0 or 1). */
async function chatRowsFor(userId: string, message: RealtimeMessage): Promise<number> {
  events += 1;
  const now = Date.now();
  return (await telegramChannel(env, db()).fanOut({ id: `evt_tgfwd_${userId}_${events}`, userId, createdAt: now }, message, now)).length;
}

function rentalEvents(rentalId: string): RealtimeMessage[] {
  const soon = new Date(Date.now() + 3600_000).toISOString();
  return [
    { kind: "rental.sms", rentalId, sender: "Bank", text: "Your code is 123456", code: "123456" },
    { kind: "rental.renewing", rentalId, renewsAt: soon, price: 1200, funded: true },
    { kind: "rental.ending", rentalId, endsAt: soon },
  ];
}

async function countsFor(userId: string, rentalId: string): Promise<number[]> {
  const counts: number[] = [];
  for (const message of rentalEvents(rentalId)) counts.push(await chatRowsFor(userId, message));
  return counts;
}

const code: RealtimeMessage = { kind: "sms.code", orderId: "ord_not_a_rental", code: "4321", number: "15550001111" };

async function openRentalScreen(chatId: string, number: string): Promise<string> {
  await say(chatId, "menu");
  await press(chatId, "📇 Rentals");
  await press(chatId, new RegExp(number));
  // The rental's first SMS may be posted below its screen.
  return (await botSaid(chatId, "New messages and reminders here")).text;
}

describe("rental messages to Telegram follow the rental's forwarding choice", () => {
  it("on by default; off from the rental's screen in the chat stops its SMS and both reminders there, codes still come; the web sees the same choice", async () => {
    const { user, chatId, rentalId, number } = await rentedInChat();
    expect(await countsFor(user.id, rentalId)).toEqual([1, 1, 1]);

    expect(await openRentalScreen(chatId, number)).toContain("New messages and reminders here: on (your default in Settings)");
    await press(chatId, /Stop sending its messages here/);
    const off = await botSaid(chatId, "New messages and reminders here: off");
    expect(buttonsOf(off).map((b) => b.callback_data)).toContain(`rft:${rentalId}:1`);
    expect(await countsFor(user.id, rentalId)).toEqual([0, 0, 0]);
    expect(await chatRowsFor(user.id, code)).toBe(1);

    const view = await api(`/api/rentals/${rentalId}/forwarding`, { token: user.token });
    expect(view.data).toEqual({ email: false, webhook_url: null, telegram: false, inherited: false });
    // A client that does not send `telegram` (from before the bot's choice) leaves it as it is.
    const emailOn = await api(`/api/rentals/${rentalId}/forwarding`, { method: "PUT", token: user.token, json: { email: true, webhook_url: null } });
    expect(emailOn.data).toEqual({ email: true, webhook_url: null, telegram: false, inherited: false });
    expect(await countsFor(user.id, rentalId)).toEqual([0, 0, 0]);

    // Back to the account's default (on).
    const back = await api(`/api/rentals/${rentalId}/forwarding`, { method: "DELETE", token: user.token });
    expect(back.data).toEqual({ email: false, webhook_url: null, telegram: true, inherited: true });
    expect(await countsFor(user.id, rentalId)).toEqual([1, 1, 1]);
  });

  it("Settings' default off stops every rental that follows it; a rental turned on in the chat still forwards there", async () => {
    const { user, chatId, rentalId, number } = await rentedInChat();
    const saved = await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: false, webhook_url: null, telegram: false } });
    expect(saved.status).toBe(200);
    expect(saved.data.forwarding.telegram).toBe(false);
    expect(await countsFor(user.id, rentalId)).toEqual([0, 0, 0]);
    // Leaving `telegram` out of the default keeps it off.
    await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: true, webhook_url: null } });
    expect((await api("/api/notifications", { token: user.token })).data.forwarding.telegram).toBe(false);

    expect(await openRentalScreen(chatId, number)).toContain("New messages and reminders here: off (your default in Settings)");
    await press(chatId, /Send its messages here/);
    await botSaid(chatId, "New messages and reminders here: on");
    expect(await countsFor(user.id, rentalId)).toEqual([1, 1, 1]);
    // The rental keeps the default's e-mail as its own when the chat's switch gives it a choice of its own.
    expect((await api(`/api/rentals/${rentalId}/forwarding`, { token: user.token })).data).toEqual({ email: true, webhook_url: null, telegram: true, inherited: false });
  });

  it("another account's rental never forwards to this chat, and the chat's switch cannot name it", async () => {
    const { user: owner, rentalId } = await rentedInChat();
    const other = await createUser({ balanceKobo: 0 });
    const otherChat = await linkedChatFor(other);
    expect(await forwardsToTelegram(db(), other.id, rentalId)).toBe(false);
    expect(await countsFor(other.id, rentalId)).toEqual([0, 0, 0]);
    // A tampered button (`rft:<another's rental>:0`) answers "not found" and changes nothing.
    await postUpdate({
      update_id: 6_000_000_000 + Math.floor(Math.random() * 1e8),
      callback_query: { id: "t1", from: { id: Number(otherChat), is_bot: false, first_name: "O" }, chat_instance: "c", data: `rft:${rentalId}:0`, message: { message_id: 1, date: 1, chat: { id: Number(otherChat), type: "private" }, text: "…" } },
    });
    expect((await lastBotMessage(otherChat)).text).toContain("⚠️");
    expect(await forwardsToTelegram(db(), owner.id, rentalId)).toBe(true);
  });
});

describe("a withdrawal's end in the linked chat (issue 45)", () => {
  const changed = (state: Extract<RealtimeMessage, { kind: "withdrawal.changed" }>["state"], message: string): RealtimeMessage => ({
    kind: "withdrawal.changed",
    withdrawalId: "wd_0123456789abcdef01234567",
    state,
    amount: 1500,
    message,
  });

  it("paid, failed, reversed and refused reach the chat with the withdrawal's own sentence; a withdrawal in flight does not", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const chatId = await linkedChatFor(user);
    for (const state of ["approval", "held", "sending"] as const) expect(await chatRowsFor(user.id, changed(state, "Sending…"))).toBe(0);
    const ends = [changed("paid", "Paid into <b>GT</b>Bank ····1234"), changed("failed", "Failed — ₦1,500 is back in your wallet"), changed("reversed", "Reversed by the bank — ₦1,500 is back in your wallet"), changed("refused", "Refused — ₦1,500 is back in your wallet")];
    for (const message of ends) {
      events += 1;
      const now = Date.now();
      const rows = await telegramChannel(env, db()).fanOut({ id: `evt_tgwd_${user.id}_${events}`, userId: user.id, createdAt: now }, message, now);
      expect(rows).toHaveLength(1);
      for (const row of rows) await row;
    }
    await deliverNow(chatId);
    const said = (await botMessages(chatId)).map((m) => m.text);
    // What was sent (parse_mode HTML): a bank or account name is escaped, so it is shown as typed and cannot format.
    expect(said).toContain("🏦 Your withdrawal of ₦1,500.00: Paid into &lt;b&gt;GT&lt;/b&gt;Bank ····1234.");
    expect(said).toContain("↩️ Your withdrawal of ₦1,500.00: Failed — ₦1,500 is back in your wallet.");
    expect(said).toContain("↩️ Your withdrawal of ₦1,500.00: Reversed by the bank — ₦1,500 is back in your wallet.");
    expect(said).toContain("↩️ Your withdrawal of ₦1,500.00: Refused — ₦1,500 is back in your wallet.");
    expect(said.filter((t) => t.includes("Your withdrawal"))).toHaveLength(4);
  });

  it("an account without a linked chat gets no chat message", async () => {
    const user = await createUser({ balanceKobo: 0 });
    expect(await chatRowsFor(user.id, changed("paid", "Paid into GTBank ····1234"))).toBe(0);
  });
});

describe("finding a service or a country by typing its name (the lists page by 8)", () => {
  it("a name typed after a country's list finds its services with their buy buttons; a country's name finds the country", async () => {
    const user = await createUser({ balanceKobo: 5_000_000 });
    const chatId = await linkedChatFor(user);
    await say(chatId, "menu");
    await press(chatId, "📱 Buy a number");
    await press(chatId, "USA");
    const list = buttonsOf(await lastBotMessage(chatId)).filter((b) => b.callback_data?.startsWith("bq:"));
    expect(list.length).toBeGreaterThan(0);
    const wanted = list[list.length - 1];
    const name = wanted.text.split(" · ")[0];
    await say(chatId, name.slice(0, Math.max(3, name.length - 1)).toUpperCase());
    const found = await lastBotMessage(chatId);
    expect(found.text).toContain("services named like");
    expect(buttonsOf(found).map((b) => b.callback_data)).toContain(wanted.callback_data);
    // Its button is the same confirm step as the list's.
    await press(chatId, wanted.text);
    expect((await lastBotMessage(chatId)).text).toMatch(/Price: <b>₦/);

    await say(chatId, "zzqx nothing");
    expect((await lastBotMessage(chatId)).text).toContain("No service named like “zzqx nothing” in USA");
    await say(chatId, "us");
    const countries = await lastBotMessage(chatId);
    expect(countries.text).toContain("Countries named like “us”");
    expect(buttonsOf(countries).map((b) => b.text)).toContain("USA");
  });

  it("markup typed as a name is shown as text; a command is not a search", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await say(chatId, "<b>x</b>");
    expect((await lastBotMessage(chatId)).text).not.toContain("<b>x</b>");
    await say(chatId, "a & b");
    expect((await lastBotMessage(chatId)).text).toContain("“a &amp; b”");
    for (const menu of ["/menu", "menu", "Hi"]) {
      await say(chatId, menu);
      expect((await lastBotMessage(chatId)).text).toContain("What would you like to do?");
    }
  });
});

describe("a chat message is sent once per event and chat", () => {
  // One run of the chat's delivery job, as the queue would run it (decision 073).
  const runJob = (chatId: string) => runDeliveryJob(testServices(), { kind: "telegram", target: chatId });
  async function queued(chatId: string, userId: string, id: string, fields: Partial<typeof telegramDeliveries.$inferInsert>) {
    await db()
      .insert(telegramDeliveries)
      .values({ id, dedupeKey: `${id}:${chatId}`, chatId, userId, payload: JSON.stringify({ text: `Message ${id}`, parse_mode: "HTML" }), status: "pending", attempts: 0, nextAttemptAt: Date.now() - 1000, createdAt: Date.now() - 1000, ...fields });
  }

  it("records Telegram's message_id when sent; a row a dead sender left mid-send is given up, never sent again", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const sent = `tgd_once_${chatId}`;
    const interrupted = `tgd_cut_${chatId}`;
    await queued(chatId, user.id, interrupted, { status: "sending", attempts: 1, leaseUntil: Date.now() - 1 });
    await queued(chatId, user.id, sent, {});
    await runJob(chatId);
    await deliverNow(chatId);
    const messages = await botMessages(chatId);
    const shown = messages.find((m) => m.text === `Message ${sent}`);
    expect(shown).toBeDefined();
    const [sentRow] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.id, sent));
    expect(sentRow.status).toBe("sent");
    expect(sentRow.messageId).toBe(shown!.messageId);
    const [cut] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.id, interrupted));
    expect(cut.status).toBe("failed");
    expect(cut.lastError).toContain("not sent again");
    expect(messages.some((m) => m.text === `Message ${interrupted}`)).toBe(false);
    // Delivery running again sends neither a second time.
    await runJob(chatId);
    await deliverNow(chatId);
    expect((await botMessages(chatId)).filter((m) => m.text.startsWith("Message tgd_")).length).toBe(1);
  });

  it("a row another sender holds (its send in progress) is not sent by a second run", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const held = `tgd_held_${chatId}`;
    await queued(chatId, user.id, held, { status: "sending", attempts: 1, leaseUntil: Date.now() + 60_000 });
    await runJob(chatId);
    await runJob(chatId);
    const [row] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.id, held));
    expect(row.status).toBe("sending");
    expect((await botMessages(chatId)).some((m) => m.text === `Message ${held}`)).toBe(false);
  });
});
