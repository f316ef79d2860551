import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rentals, smsOrders } from "../../db/tables";
import { balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { useTestServices, useTestUpstreams } from "../../test/services";
import { configFor } from "../../config";
import { rentalProviderFor } from "../../providers/rent";
import type { RentalProvider } from "../../providers/rent/types";
import { botMessages, botSaid, buttonsOf, deliverNow, lastBotMessage, linkedChatFor, press, say } from "../../test/telegram";

// Issue 48: the chat's other actions on the same services: orders and one order, "another code" and "use again" from
// a code's message (use again behind its own confirm step), rentals and their inbox, the referral link; and none of
// them shows another account's data.

beforeAll(async () => {
  useTestServices({});
  await resetSmsTestState();
});
afterAll(restoreSmsProviders);

const started: string[] = [];
afterAll(async () => {
  for (const id of started) await runInDurableObject(pollerOf(id), (_o, state) => state.storage.deleteAlarm());
});

async function chatWithUsedOrder(): Promise<{ user: TestUser; chatId: string; orderId: string }> {
  const user = await createUser({ balanceKobo: 5_000_000 });
  const chatId = await linkedChatFor(user);
  await say(chatId, "menu");
  await press(chatId, "📱 Buy a number");
  await press(chatId, "USA");
  await press(chatId, / · ₦/);
  await press(chatId, /^Buy for/);
  const [order] = await db().select().from(smsOrders).where(eq(smsOrders.userId, user.id));
  started.push(order.id);
  await runDurableObjectAlarm(pollerOf(order.id));
  // The code's message (with its Another code and Use again buttons) is posted before the test presses them.
  await deliverNow(chatId);
  const [used] = await db().select().from(smsOrders).where(eq(smsOrders.id, order.id));
  expect(used.status).toBe("used");
  return { user, chatId, orderId: order.id };
}

describe("orders in the chat", () => {
  it("lists the account's orders, opens one with its number and code; another account's order is not found", async () => {
    const { chatId, orderId } = await chatWithUsedOrder();
    const [order] = await db().select().from(smsOrders).where(eq(smsOrders.id, orderId));
    await say(chatId, "menu");
    await press(chatId, "🧾 Orders");
    const list = await lastBotMessage(chatId);
    expect(list.text).toContain("Your latest orders");
    expect(buttonsOf(list).map((b) => b.callback_data)).toContain(`ov:${orderId}`);
    await press(chatId, new RegExp(`${order.number}`));
    const shown = await lastBotMessage(chatId);
    expect(shown.text).toContain(`<code>${order.number}</code>`);
    expect(shown.text).toContain(`<code>${order.code}</code>`);
    expect(shown.text).toContain("code received");

    // Another customer's chat asking for this order by its id: the room's 404, no number, no code.
    const stranger = await createUser();
    const strangerChat = await linkedChatFor(stranger);
    const { postUpdate } = await import("../../test/telegram");
    await postUpdate({
      update_id: 5_000_000_000 + Math.floor(Math.random() * 1e8),
      callback_query: { id: "x1", from: { id: Number(strangerChat), is_bot: false, first_name: "S" }, chat_instance: "c", data: `ov:${orderId}`, message: { message_id: 1, date: 1, chat: { id: Number(strangerChat), type: "private" }, text: "…" } },
    });
    const said = await lastBotMessage(strangerChat);
    expect(said.text).toContain("⚠️");
    expect(said.text).not.toContain(order.number!);
    expect(said.text).not.toContain(order.code!);
  });

  it("'Use again' from a code's message is a confirm step stating the price, then a new order charged once", async () => {
    const { user, chatId, orderId } = await chatWithUsedOrder();
    // The number's own window for another code is over: only then is it "used again" (as on the web).
    await db().update(smsOrders).set({ activationClosesAt: Date.now() - 1000 }).where(eq(smsOrders.id, orderId));
    const before = await balanceOf(user.id);
    const [codeMessage] = (await botMessages(chatId)).filter((m) => m.text.includes("Your code"));
    await press(chatId, "Use again");
    const step = await lastBotMessage(chatId);
    // The confirm step is a new message: the code's message is left as it was.
    expect(step.messageId).toBeGreaterThan(codeMessage.messageId);
    expect((await botMessages(chatId)).find((m) => m.messageId === codeMessage.messageId)?.text).toBe(codeMessage.text);
    expect(step.text).toMatch(/Use <b>\d+<\/b> again for WhatsApp\?|Use <b>\d+<\/b> again for/);
    const stated = Math.round(Number(/Price: <b>₦([\d,.]+)/.exec(step.text)![1].replaceAll(",", "")) * 100);
    expect(await balanceOf(user.id)).toBe(before);
    await press(chatId, /^Use again for ₦/);
    expect((await lastBotMessage(chatId)).text).toContain("Waiting for the code");
    expect(await balanceOf(user.id)).toBe(before - stated);
    const orders = await db().select().from(smsOrders).where(eq(smsOrders.userId, user.id));
    expect(orders).toHaveLength(2);
    started.push(...orders.map((o) => o.id));
    await expectLedgerBalanced();
  });

  it("'Another code' asks the same number for another code, free, and says it is posted here", async () => {
    const { user, chatId, orderId } = await chatWithUsedOrder();
    const before = await balanceOf(user.id);
    await press(chatId, "Another code");
    expect((await lastBotMessage(chatId)).text).toContain("Asked for another code on this number");
    const [order] = await db().select().from(smsOrders).where(eq(smsOrders.id, orderId));
    expect(order.anotherCodeRequestedAt).not.toBeNull();
    expect(await balanceOf(user.id)).toBe(before);
  });
});

describe("extending a rental and auto-renew from the chat", () => {
  it("each extension length is a button stating its price, charged once when pressed; auto-renew on at a stated price, then off", async () => {
    // sms-man documents no extension: as in rental-extension.test.ts, the sandbox adapter plus the SMS-Activate rent
    // protocol's prolongation (US$0.10 an hour).
    const base = rentalProviderFor(env, configFor(env));
    const extending: RentalProvider = Object.assign(Object.create(base), {
      extension: { price: async (_id: string, hours: number) => ({ amount: Math.round(hours * 10) / 100, currency: "USD" as const }), extend: async () => undefined },
    });
    useTestUpstreams({ rent: () => extending });
    try {
      const user = await createUser({ balanceKobo: 5_000_000 });
      const chatId = await linkedChatFor(user);
      await say(chatId, "menu");
      await press(chatId, "📆 Rent a number");
      await press(chatId, "USA");
      await press(chatId, "1 day");
      await press(chatId, /^Rent for ₦/);
      const [rental] = await db().select().from(rentals).where(eq(rentals.userId, user.id));
      await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(rental.id)), (_o, state) => state.storage.deleteAlarm());
      // Whatever the watcher already forwarded is posted first, so the screens below are the newest messages.
      await deliverNow(chatId);
      await say(chatId, "menu");
      await press(chatId, "📇 Rentals");
      await press(chatId, new RegExp(rental.number!));
      await press(chatId, "⏩ Extend");
      const choices = await botSaid(chatId, "the price of each length");
      expect(choices.text).toContain("the price of each length");
      const option = buttonsOf(choices).find((b) => b.text.startsWith("Extend "))!;
      const price = Math.round(Number(/₦([\d,.]+)/.exec(option.text)![1].replaceAll(",", "")) * 100);
      const before = await balanceOf(user.id);
      const [ends] = await db().select({ at: rentals.expiresAt }).from(rentals).where(eq(rentals.id, rental.id));
      await press(chatId, option.text);
      await botSaid(chatId, "Extended by");
      expect(await balanceOf(user.id)).toBe(before - price);
      const [after] = await db().select({ at: rentals.expiresAt }).from(rentals).where(eq(rentals.id, rental.id));
      expect(after.at!).toBeGreaterThan(ends.at!);

      await press(chatId, "Rental");
      await press(chatId, "Turn auto-renew on");
      const renew = buttonsOf(await botSaid(chatId, "Auto-renew</b>")).find((b) => b.text.startsWith("Every "))!;
      expect(renew.text).toMatch(/each$/);
      await press(chatId, renew.text);
      await botSaid(chatId, "Auto-renew is on");
      expect(await balanceOf(user.id)).toBe(before - price);
      await press(chatId, "Rental");
      await botSaid(chatId, /Auto-renew: on, every/);
      await press(chatId, "Turn auto-renew off");
      await press(chatId, "Turn it off");
      await botSaid(chatId, "Auto-renew is off");
      await expectLedgerBalanced();
    } finally {
      useTestUpstreams({ rent: null });
    }
  });
});

describe("rentals and the referral link in the chat", () => {
  it("lists rentals, opens one and its inbox with the messages received", async () => {
    const user = await createUser({ balanceKobo: 5_000_000 });
    const chatId = await linkedChatFor(user);
    await say(chatId, "menu");
    await press(chatId, "📆 Rent a number");
    await press(chatId, "USA");
    await press(chatId, "1 day");
    await press(chatId, /^Rent for ₦/);
    const [rental] = await db().select().from(rentals).where(eq(rentals.userId, user.id));
    await runDurableObjectAlarm(env.RENTAL.get(env.RENTAL.idFromName(rental.id)));
    // The forwarded SMS is posted first, so the screens below are the newest messages.
    await deliverNow(chatId);
    await say(chatId, "menu");
    await press(chatId, "📇 Rentals");
    await press(chatId, new RegExp(rental.number ?? "USA"));
    await botSaid(chatId, "Auto-renew: off");
    await press(chatId, "📥 Inbox");
    const inbox = await botSaid(chatId, "Inbox of");
    expect(inbox.text).toContain("Inbox of");
    expect(inbox.text).toMatch(/code is \d+|Code: <code>/);
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(rental.id)), (_o, state) => state.storage.deleteAlarm());
  });

  it("shows the account's own referral link on the configured web client", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const [row] = await env.DB.prepare("SELECT referral_code FROM users WHERE id = ?").bind(user.id).all<{ referral_code: string }>().then((r) => r.results);
    await say(chatId, "menu");
    await press(chatId, "🎁 Referral link");
    const said = (await lastBotMessage(chatId)).text;
    expect(said).toContain("Your referral link");
    expect(said).toContain(`ref=${row.referral_code}`);
    expect(said).toMatch(/^🎁 <b>Your referral link<\/b>\nhttps?:\/\//);
  });
});
