import { runDurableObjectAlarm } from "cloudflare:test";
import { Secret, TOTP } from "otpauth";
import { env } from "cloudflare:workers";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { simulateTransfer } from "../../sandbox/squad-transfers";
import { ledger, rentals, sessions, smsOrders, telegramActions, telegramDeliveries, telegramLinkTokens, telegramUpdates } from "../../db/tables";
import { putSetting } from "../kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { setActivationCodeArrived, upstreamIdOf } from "../../test/reliability/invariants";
import { testCronServices, useTestServices } from "../../test/services";
import { botMessages, buttonsOf, deliverNow, lastBotMessage, lastToast, linkedChatFor, postUpdate, press, say } from "../../test/telegram";
import { sweepTelegram } from "./webhook-setup";

// Issue 48: every money action in the chat has a confirm step that states the amount and moves money only through the
// same services and the ledger as the web; codes and rental messages reach the chat through the outbox's delivery,
// once; a tampered button buys nothing; above the setting, a fresh confirmation is needed.

beforeAll(async () => {
  useTestServices({});
  await resetSmsTestState();
});
beforeEach(() => putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot));
afterAll(async () => {
  restoreSmsProviders();
  await putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot);
});

/** "₦1,234.50" in a text -> 123450 kobo. */
function koboIn(text: string, after: RegExp): number {
  const m = new RegExp(`${after.source}\\s*₦([\\d,]+(?:\\.\\d{1,2})?)`).exec(text);
  if (!m) throw new Error(`no amount after ${after} in: ${text}`);
  return Math.round(Number(m[1].replaceAll(",", "")) * 100);
}

async function buttonText(chatId: string, label: RegExp): Promise<string> {
  for (const message of await botMessages(chatId)) {
    const button = buttonsOf(message).find((b) => label.test(b.text));
    if (button) return button.text;
  }
  throw new Error(`no button ${label}`);
}

/** Menu -> Buy a number -> USA -> its first service: the confirm step. Returns the price it states (kobo). */
async function toBuyConfirm(chatId: string): Promise<number> {
  await say(chatId, "menu");
  await press(chatId, "📱 Buy a number");
  await press(chatId, "USA");
  await press(chatId, / · ₦/);
  const step = await lastBotMessage(chatId);
  expect(step.text).toMatch(/Price: <b>₦/);
  const stated = koboIn(step.text, /Price: <b>/);
  expect(koboIn(await buttonText(chatId, /^Buy for/), /Buy for/)).toBe(stated);
  return stated;
}

async function ledgerOf(userId: string) {
  return db().select().from(ledger).where(eq(ledger.userId, userId));
}

async function fundedChat(balanceKobo = 5_000_000): Promise<{ user: TestUser; chatId: string }> {
  const user = await createUser({ balanceKobo });
  return { user, chatId: await linkedChatFor(user) };
}

const orderIdOf = (data: string) => data.split(":")[1];

describe("buying a number in the chat", () => {
  it("states the price, charges exactly it once through the ledger, and posts the code in the chat once", async () => {
    const { user, chatId } = await fundedChat();
    const stated = await toBuyConfirm(chatId);
    // Nothing is charged by the confirm step itself.
    expect(await balanceOf(user.id)).toBe(5_000_000);
    const confirm = await press(chatId, /^Buy for/);
    const waiting = await lastBotMessage(chatId);
    expect(waiting.text).toContain("Waiting for the code");
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    const [order] = await db().select().from(smsOrders).where(eq(smsOrders.userId, user.id));
    expect(order.priceKobo).toBe(stated);
    expect(buttonsOf(waiting).map((b) => b.callback_data)).toContain(`cx:${order.id}`);

    // Confirm pressed again (a double tap, or the same update replayed with a new id): spent, nothing more charged.
    const pressAgain = await postUpdate(callbackUpdate(chatId, waiting.messageId, confirm));
    expect(pressAgain.status).toBe(200);
    expect((await lastBotMessage(chatId)).text).toContain("What would you like to do?");
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    expect((await ledgerOf(user.id)).filter((row) => row.amountKobo < 0)).toHaveLength(1);

    // The code arrives at the poller; the outbox's delivery queues it for the chat, the chat's sender posts it.
    await runDurableObjectAlarm(pollerOf(order.id));
    await deliverNow(chatId);
    await deliverNow(chatId);
    const codes = (await botMessages(chatId)).filter((m) => m.text.includes("Your code"));
    expect(codes).toHaveLength(1);
    expect(codes[0].text).toMatch(/<code>\d{4,8}<\/code>/);
    // A notice's buttons answer below it (n:), so pressing one never overwrites the code.
    expect(buttonsOf(codes[0]).map((b) => b.callback_data)).toEqual([`n:ac:${order.id}`, `n:ua:${order.id}`, "n:o", "n:m"]);
    const rows = await db().select().from(telegramDeliveries).where(and(eq(telegramDeliveries.chatId, chatId), like(telegramDeliveries.dedupeKey, `%:${chatId}`)));
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it("refuses a buy the wallet cannot pay, charging nothing and offering a top-up", async () => {
    const { user, chatId } = await fundedChat(100);
    const stated = await toBuyConfirm(chatId);
    expect((await lastBotMessage(chatId)).text).toContain("top up");
    await press(chatId, /^Buy for/);
    expect((await lastBotMessage(chatId)).text).toContain("⚠️");
    expect(buttonsOf(await lastBotMessage(chatId)).map((b) => b.callback_data)).toContain("top");
    expect(await balanceOf(user.id)).toBe(100);
    expect(stated).toBeGreaterThan(100);
  });

  it("cancels another order after a confirm that states the refund, and refunds it once", async () => {
    const { user, chatId } = await fundedChat();
    const stated = await toBuyConfirm(chatId);
    await press(chatId, /^Buy for/);
    const [bought] = await db().select().from(smsOrders).where(eq(smsOrders.userId, user.id));
    // This test cancels a number still waiting: its code is held back at the upstream, its poller stopped.
    await pollerOf(bought.id).stop();
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", bought.id), false);
    const cancel = await press(chatId, "Cancel and refund");
    const orderId = orderIdOf(cancel);
    expect(orderId).toBe(bought.id);
    const step = await lastBotMessage(chatId);
    expect(koboIn(step.text, /<b>/)).toBe(stated);
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    await press(chatId, /^Cancel and refund ₦/);
    expect((await lastBotMessage(chatId)).text).toContain("is back in your wallet");
    expect(await balanceOf(user.id)).toBe(5_000_000);
    const [order] = await db().select().from(smsOrders).where(eq(smsOrders.id, orderId));
    expect(order.status).toBe("cancelled");
    await expectLedgerBalanced();
  });
});

let nextUpdate = 3_000_000_000 + Math.floor(Math.random() * 100_000_000);

/** A button press as Telegram sends it (https://core.telegram.org/bots/api#callbackquery), with any data at all. */
function callbackUpdate(chatId: string, messageId: number, data: string) {
  nextUpdate += 1;
  const person = { id: Number(chatId), is_bot: false, first_name: "Sandbox" };
  return {
    update_id: nextUpdate,
    callback_query: {
      id: `forged${nextUpdate}`,
      from: person,
      chat_instance: `ci${chatId}`,
      data,
      message: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: "private" }, text: "…" },
    },
  };
}

describe("tampered callback data", () => {
  it("a made-up, another chat's or a cancelled action id buys nothing; another account's order is not found", async () => {
    const { user, chatId } = await fundedChat();
    const other = await fundedChat();
    await toBuyConfirm(other.chatId);
    const othersConfirm = await buttonText(other.chatId, /^Buy for/);
    const [othersAction] = await db().select().from(telegramActions).where(and(eq(telegramActions.chatId, other.chatId), eq(telegramActions.kind, "buy")));
    expect(othersConfirm).toContain("Buy for");
    const message = (await lastBotMessage(chatId)).messageId;
    for (const data of [`a:${othersAction.id}`, "a:AAAAAAAAAAAAAAAA", "a:../../../etc", `a:${othersAction.id}x`, "bq:S:5:mb:extra", "bq:Z:5:mb", "zz", "a:"]) {
      expect((await postUpdate(callbackUpdate(chatId, message, data))).status, data).toBe(200);
    }
    expect(await balanceOf(user.id)).toBe(5_000_000);
    expect(await balanceOf(other.user.id)).toBe(5_000_000);
    // The other chat's action is still its own, unspent.
    const [still] = await db().select().from(telegramActions).where(eq(telegramActions.id, othersAction.id));
    expect(still.status).toBe("open");

    // A cancel of another account's order: the room's 404, said in the chat; no refund moves.
    await press(other.chatId, /^Buy for/);
    const [othersOrder] = await db().select().from(smsOrders).where(eq(smsOrders.userId, other.user.id));
    await postUpdate(callbackUpdate(chatId, message, `cx:${othersOrder.id}`));
    expect((await lastBotMessage(chatId)).text).toContain("⚠️");
    expect(await db().select().from(telegramActions).where(and(eq(telegramActions.chatId, chatId), eq(telegramActions.kind, "cancel_order")))).toEqual([]);
    expect(await balanceOf(other.user.id)).toBe(5_000_000 - othersOrder.priceKobo);

    // "Cancel" on a confirm step drops it: its confirm then buys nothing.
    await toBuyConfirm(chatId);
    const confirm = (await botMessages(chatId)).flatMap(buttonsOf).find((b) => b.text.startsWith("Buy for"))!.callback_data!;
    await press(chatId, "Cancel");
    expect(await lastToast(chatId)).toContain("nothing was charged");
    await postUpdate(callbackUpdate(chatId, message, confirm));
    expect(await balanceOf(user.id)).toBe(5_000_000);
    await expectLedgerBalanced();
  });

  it("a confirm step older than 10 minutes buys nothing (the price may have moved)", async () => {
    const { user, chatId } = await fundedChat();
    await toBuyConfirm(chatId);
    await db().update(telegramActions).set({ expiresAt: Date.now() - 1 }).where(eq(telegramActions.chatId, chatId));
    await press(chatId, /^Buy for/);
    expect(await lastToast(chatId)).toContain("expired or was already used");
    expect(await balanceOf(user.id)).toBe(5_000_000);
  });
});

describe("a fresh confirmation above the setting", () => {
  it("holds a spend above `confirm_above_naira` until the web app's step-up, then charges once", async () => {
    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, confirm_above_naira: 1 });
    const { user, chatId } = await fundedChat();
    await db().update(sessions).set({ reauthenticatedAt: Date.now() - 3600_000 }).where(eq(sessions.userId, user.id));
    const stated = await toBuyConfirm(chatId);
    await press(chatId, /^Buy for/);
    expect((await lastBotMessage(chatId)).text).toContain("needs a fresh confirmation");
    expect(await balanceOf(user.id)).toBe(5_000_000);
    // Pressed again without the step-up: still held.
    await press(chatId, /^Confirm ₦/);
    expect((await lastBotMessage(chatId)).text).toContain("needs a fresh confirmation");
    expect(await balanceOf(user.id)).toBe(5_000_000);
    // The customer confirms in the web app (Settings → Security), then presses Confirm again.
    await db().update(sessions).set({ reauthenticatedAt: Date.now() }).where(eq(sessions.userId, user.id));
    await press(chatId, /^Confirm ₦/);
    expect((await lastBotMessage(chatId)).text).toContain("Waiting for the code");
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    await press(chatId, /^Confirm ₦/).catch(() => undefined);
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
  });

  it("or until the account's TOTP code is sent in the chat: a wrong code charges nothing, the right one charges once", async () => {
    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, confirm_above_naira: 1 });
    const { user, chatId } = await fundedChat();
    const setup = await api("/api/2fa/setup", { method: "POST", token: user.token });
    expect(setup.status).toBe(200);
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(setup.data.secret) });
    const codeAt = (steps: number) => totp.generate({ timestamp: Date.now() + steps * 30_000 });
    expect((await api("/api/2fa/enable", { method: "POST", token: user.token, json: { code: codeAt(0) } })).status).toBe(200);
    // The web app's confirmation is long past: only a code sent here will do.
    await db().update(sessions).set({ reauthenticatedAt: Date.now() - 3600_000, secondFactorAt: Date.now() - 3600_000 }).where(eq(sessions.userId, user.id));
    const stated = await toBuyConfirm(chatId);
    await press(chatId, /^Buy for/);
    expect((await lastBotMessage(chatId)).text).toContain("Send the 6-digit code from your authenticator app here");
    const right = codeAt(1);
    await say(chatId, right === "000000" ? "111111" : "000000");
    expect((await lastBotMessage(chatId)).text).toContain("That code is not right");
    expect(await balanceOf(user.id)).toBe(5_000_000);
    await say(chatId, right);
    expect((await lastBotMessage(chatId)).text).toContain("Waiting for the code");
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    // The same code again: used once, and nothing waits for a code any more.
    await say(chatId, right);
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
  });

  it("never holds what spends nothing (a top-up), whatever the setting", async () => {
    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, confirm_above_naira: 0 });
    const { user, chatId } = await fundedChat();
    await say(chatId, "2500");
    await press(chatId, /Bank transfer of ₦2,500.00/);
    expect((await lastBotMessage(chatId)).text).toContain("Transfer exactly <b>₦2,500.00</b>");
    expect(await balanceOf(user.id)).toBe(5_000_000);
  });
});

describe("topping up in the chat", () => {
  it("bank transfer: the amount confirmed, the account number shown, the transfer credited once and said in the chat", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await say(chatId, "menu");
    await press(chatId, "💳 Top up");
    await press(chatId, /^₦5,000/);
    expect((await lastBotMessage(chatId)).text).toContain("Top up <b>₦5,000.00</b>");
    await press(chatId, /^🏦 Bank transfer of ₦5,000.00/);
    const shown = await lastBotMessage(chatId);
    const account = /<code>(\d{10})<\/code>/.exec(shown.text)?.[1];
    expect(account).toBeDefined();
    expect(shown.text).toContain("Transfer exactly <b>₦5,000.00</b>");
    const n = await simulateTransfer(env, { accountNumber: account!, amountKobo: 500_000 });
    for (let i = 0; i < 2; i++) {
      const res = await api("/api/webhooks/squad", { method: "POST", body: JSON.stringify(n.body), headers: { "content-type": "application/json", ...n.headers }, settle: true });
      expect(res.status).toBe(200);
    }
    expect(await balanceOf(user.id)).toBe(500_000);
    await deliverNow(chatId);
    await deliverNow(chatId);
    const credited = (await botMessages(chatId)).filter((m) => m.text.includes("arrived in your wallet"));
    expect(credited).toHaveLength(1);
    expect(credited[0].text).toContain("₦5,000.00 arrived");
    await expectLedgerBalanced();
  });

  it("card: a checkout link button for the confirmed amount; nothing is credited until Squad says so", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await say(chatId, "₦3,500");
    await press(chatId, /^💳 Card payment of ₦3,500.00/);
    const link = buttonsOf(await lastBotMessage(chatId)).find((b) => b.url);
    expect(link?.text).toBe("Pay ₦3,500.00");
    expect(link?.url).toMatch(/^https?:\/\//);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("refuses an amount outside the limits without a payment", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    await say(chatId, "5");
    expect((await lastBotMessage(chatId)).text).toContain("Send an amount between");
    expect(await db().select().from(telegramActions).where(and(eq(telegramActions.chatId, chatId), like(telegramActions.kind, "top_up%")))).toEqual([]);
  });
});

describe("renting in the chat", () => {
  it("rents after a confirm stating the price, and posts the rental's new messages in the chat once", async () => {
    const { user, chatId } = await fundedChat();
    await say(chatId, "menu");
    await press(chatId, "📆 Rent a number");
    await press(chatId, "USA");
    await press(chatId, "1 day");
    const step = await lastBotMessage(chatId);
    const stated = koboIn(step.text, /Price: <b>/);
    expect(await balanceOf(user.id)).toBe(5_000_000);
    await press(chatId, /^Rent for ₦/);
    // The confirm step's message becomes the answer; the rental's first SMS may already be posted below it.
    expect((await botMessages(chatId)).slice(0, 2).some((m) => m.text.includes("Rented"))).toBe(true);
    expect(await balanceOf(user.id)).toBe(5_000_000 - stated);
    const [rental] = await db().select().from(rentals).where(eq(rentals.userId, user.id));
    // The watcher reads the upstream's inbox (the sandbox's first SMS is due at once in tests): a rental.sms event.
    await runDurableObjectAlarm(env.RENTAL.get(env.RENTAL.idFromName(rental.id)));
    await deliverNow(chatId);
    await deliverNow(chatId);
    const forwarded = (await botMessages(chatId)).filter((m) => m.text.includes("New SMS"));
    expect(forwarded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(forwarded.map((m) => m.text)).size).toBe(forwarded.length);
    expect(buttonsOf(forwarded[0]).map((b) => b.callback_data)).toContain(`n:ri:${rental.id}`);
    await expectLedgerBalanced();
  });
});

describe("the sweep", () => {
  it("sends what a lost kick left, and forgets old update ids, spent confirm steps and used link tokens", async () => {
    const user = await createUser();
    const chatId = await linkedChatFor(user);
    const long = Date.now() - 3 * 86_400_000;
    await db().insert(telegramDeliveries).values({
      id: `tgd_sweep_${chatId}`,
      dedupeKey: `sweep-test:${chatId}`,
      chatId,
      userId: user.id,
      payload: JSON.stringify({ text: "A message whose kick was lost", parse_mode: "HTML" }),
      status: "pending",
      attempts: 0,
      nextAttemptAt: Date.now() - 60_000,
      createdAt: Date.now() - 60_000,
    });
    const oldUpdate = 1 + Math.floor(Math.random() * 1_000_000_000);
    await db().insert(telegramUpdates).values({ updateId: oldUpdate, receivedAt: long });
    const spentId = `sweep${chatId}`.slice(0, 16);
    await db().insert(telegramActions).values({ id: spentId, chatId, userId: user.id, kind: "unlink", payload: "{}", amountKobo: 0, status: "done", createdAt: long, expiresAt: long + 600_000 });
    const { services, settle } = testCronServices();
    await sweepTelegram(services);
    await settle();
    await deliverNow(chatId);
    expect((await lastBotMessage(chatId)).text).toBe("A message whose kick was lost");
    const [row] = await db().select().from(telegramDeliveries).where(eq(telegramDeliveries.id, `tgd_sweep_${chatId}`));
    expect(row.status).toBe("sent");
    expect(await db().select().from(telegramUpdates).where(eq(telegramUpdates.updateId, oldUpdate))).toEqual([]);
    expect(await db().select().from(telegramActions).where(eq(telegramActions.id, spentId))).toEqual([]);
    expect(await db().select().from(telegramLinkTokens).where(eq(telegramLinkTokens.userId, user.id))).toEqual([]);
  });
});
