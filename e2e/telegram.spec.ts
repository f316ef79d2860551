import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { expect, test, balanceOf, openSignedIn, signUpViaApi } from "./support";

// Issue 48: the Telegram bot in the sandbox chat page (worker/sandbox/telegram-chat.ts), a person's private chat with
// the bot through the Bot API simulator. Linked from Settings, then everything from the chat: top up by the sandbox
// transfer, buy and receive the code, cancel another, rent and see a forwarded message. Codes and messages arrive
// outside any update (the outbox's delivery), so the page is reloaded until they show.

/** Presses a button on the newest bot message that has it (each press posts a form and comes back to the chat). */
async function press(chat: Page, name: string | RegExp): Promise<void> {
  const button = chat.getByTestId("bot-message").getByRole("button", { name }).last();
  await expect(button).toBeVisible();
  await Promise.all([chat.waitForEvent("load"), button.click()]);
}

async function say(chat: Page, text: string): Promise<void> {
  await chat.getByPlaceholder("Message").fill(text);
  await Promise.all([chat.waitForEvent("load"), chat.getByRole("button", { name: "Send", exact: true }).click()]);
}

const lastBotMessage = (chat: Page) => chat.getByTestId("bot-message").last();

/** What the bot sends by itself (a credit, a code, a rental's SMS): the chat is read again until it shows. */
async function waitForBot(chat: Page, text: string | RegExp, timeout = 45_000): Promise<void> {
  await expect
    .poll(
      async () => {
        await chat.reload();
        return (await chat.getByTestId("bot-message").allTextContents()).some((t) => (typeof text === "string" ? t.includes(text) : text.test(t)));
      },
      { timeout, intervals: [1_000, 2_000] },
    )
    .toBe(true);
}

/**
 * The service's button in the country's list, found by typing its name (the list pages by 8; a name typed after a
 * country's list is looked for in it), as a customer who knows what they want does.
 */
async function pressService(chat: Page, service: string): Promise<void> {
  await say(chat, service);
  await expect(lastBotMessage(chat)).toContainText("services named like");
  await press(chat, new RegExp(`^${service} · ₦`));
}

test("the Telegram bot: link from Settings, top up, buy and get the code, cancel another, rent and see a forwarded SMS", async ({ page, request, context, baseURL }) => {
  const session = await signUpViaApi(request, "telegram", "Tobiloba");

  // The operator registers the webhook (README "Telegram bot"); locally it goes to this server's Bot API simulator.
  const registered = execFileSync("npx", ["tsx", "scripts/admin.ts", "telegram-set-webhook"], {
    env: { ...process.env, PORT: new URL(baseURL!).port, PUBLIC_URL: baseURL! },
    encoding: "utf8",
  });
  expect(registered).toContain(`posts @VirtualNumSandboxBot's updates to ${baseURL}/api/telegram/webhook (message, callback_query`);

  // Settings → Telegram → Connect Telegram: a single-use t.me link to the bot.
  await openSignedIn(page, session, "#/settings/1");
  const card = page.getByTestId("telegram-section");
  await expect(card).toContainText("Not connected");
  await card.getByRole("button", { name: "Connect Telegram" }).click();
  const link = await card.getByTestId("telegram-link").getAttribute("href");
  expect(link).toMatch(/^https:\/\/t\.me\/VirtualNumSandboxBot\?start=[A-Za-z0-9_-]{1,64}$/);

  // The person opens it in Telegram: Start sends /start <token>; both sides say so.
  const chat = await context.newPage();
  await chat.goto("/sandbox/telegram/chat");
  await chat.getByPlaceholder("https://t.me/…?start=…").fill(link!);
  await Promise.all([chat.waitForEvent("load"), chat.getByRole("button", { name: "Open a t.me link" }).click()]);
  await expect(lastBotMessage(chat)).toContainText("Connected to Tobiloba");
  await expect(card.getByTestId("telegram-linked")).toContainText("Connected to @sandbox_", { timeout: 15_000 });
  await expect(card).toContainText("Connected");

  // Top up by bank transfer: the amount, the way to pay, the account number; the transfer is credited and said here.
  await say(chat, "20000");
  await expect(lastBotMessage(chat)).toContainText("Top up ₦20,000.00");
  await press(chat, "🏦 Bank transfer of ₦20,000.00");
  await expect(lastBotMessage(chat)).toContainText("Transfer exactly ₦20,000.00");
  const account = /\b(\d{10})\b/.exec((await lastBotMessage(chat).textContent()) ?? "")?.[1];
  expect(account).toBeDefined();
  const sent = await request.post("/sandbox/squad-transfers/send", { data: { account_number: account, kind: "exact" } });
  expect(sent.status()).toBe(200);
  await waitForBot(chat, "₦20,000.00 arrived in your wallet");
  expect(await balanceOf(request, session.token)).toBe(20_000);

  // Buy a number: country, service, the price said, confirm; the code is posted in the chat when it arrives.
  await say(chat, "menu");
  await press(chat, "📱 Buy a number");
  await press(chat, "USA");
  await pressService(chat, "WhatsApp");
  await expect(lastBotMessage(chat)).toContainText(/Price: ₦[\d,.]+/);
  const price = Number(/Price: ₦([\d,.]+)/.exec((await lastBotMessage(chat).textContent()) ?? "")![1].replaceAll(",", ""));
  await press(chat, /^Buy for ₦/);
  // The confirm step's message becomes the answer (the code may already be posted below it).
  await expect(chat.getByTestId("bot-message").filter({ hasText: "Waiting for the code" })).toHaveCount(1);
  await waitForBot(chat, /Your code for \d+:\s*\d{4,8}/);
  expect(await balanceOf(request, session.token)).toBeCloseTo(20_000 - price, 2);

  // Cancel another: a number whose code never comes (the sandbox's No-SMS route), cancelled after a confirm that
  // states the refund.
  const before = await balanceOf(request, session.token);
  await say(chat, "menu");
  await press(chat, "📱 Buy a number");
  await press(chat, "USA");
  await pressService(chat, "Sandbox No-SMS");
  await press(chat, /^Buy for ₦/);
  await expect(lastBotMessage(chat)).toContainText("Waiting for the code");
  await press(chat, "Cancel and refund");
  await expect(lastBotMessage(chat)).toContainText("goes back to your wallet");
  await press(chat, /^Cancel and refund ₦/);
  await expect(lastBotMessage(chat)).toContainText("is back in your wallet");
  await expect.poll(() => balanceOf(request, session.token)).toBe(before);
  // The order's end also reaches the chat by itself, from the outbox's delivery (a queue job, decision 073), after the
  // screen's answer: it is let in before the next screen, so that screen is the chat's last message.
  await waitForBot(chat, "cancelled purchase successfully");

  // Rent a number: country, length, the price said, confirm; its first SMS is forwarded to the chat.
  await say(chat, "menu");
  await press(chat, "📆 Rent a number");
  await press(chat, "USA");
  await press(chat, "1 day");
  await expect(lastBotMessage(chat)).toContainText(/Price: ₦/);
  await press(chat, /^Rent for ₦/);
  await expect(chat.getByTestId("bot-message").filter({ hasText: "Rented" })).toHaveCount(1);
  await waitForBot(chat, "New SMS on your rented number");
});
