import type { Locator, Page } from "@playwright/test";
import { expect, test, balanceOf, openSignedIn, signUpAndFund, signUpViaApi } from "./support";

// Keyboard-only journeys (issue 18): no mouse from the first key to the result. Each step presses Tab until the
// control it needs has focus (failing if that takes more than `limit` presses), then acts with the keyboard.

async function tabTo(page: Page, target: Locator, limit = 40, key: "Tab" | "Shift+Tab" = "Tab"): Promise<number> {
  for (let i = 1; i <= limit; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return i;
  }
  throw new Error(`${target} not reached with ${limit} presses of ${key}`);
}

test("sign up with the keyboard only", async ({ page }) => {
  await page.goto("/#/signup/1");
  await tabTo(page, page.getByLabel("Username"));
  await page.keyboard.type("Adaeze");
  await tabTo(page, page.getByLabel("Email Address"), 3);
  await page.keyboard.type(`kbd-${Date.now()}@example.com`);
  await tabTo(page, page.getByLabel("Phone Number"), 3);
  await page.keyboard.type("08031234567");
  await tabTo(page, page.getByLabel("Password", { exact: true }), 3);
  await page.keyboard.type("secret123");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#\/dashboard\/1$/);
  await expect(page.getByRole("heading", { name: /Welcome/ })).toBeVisible();
});

test("buy a number with the keyboard only: skip link, navigation, selects, dialog, focus back", async ({ page, request }) => {
  const session = await signUpAndFund(request, "kbd-buy", 5000);
  await openSignedIn(page, session, "#/dashboard/1");
  await expect(page.getByRole("heading", { name: /Welcome/ })).toBeVisible();

  // The first Tab stop is the skip link; it moves focus to the content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();

  await tabTo(page, page.getByRole("link", { name: "Receive SMS" }).first());
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Receive SMS", level: 1 })).toBeVisible();

  const service = page.getByRole("combobox", { name: "Service" });
  await expect(service).toHaveText("Select a service");
  await tabTo(page, service);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.type("WhatsApp");
  await page.keyboard.press("Enter");
  await expect(service).toHaveText(/^WhatsApp — ₦/);

  const getNumber = page.getByRole("button", { name: "Get Number" });
  await tabTo(page, getNumber);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "SMS Received" })).toBeVisible({ timeout: 30_000 });
  const done = dialog.getByRole("button", { name: "Done" });
  await tabTo(page, done, 10);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Focus came back to the page, not to the body: the next Tab continues from where the customer was.
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
  expect(await balanceOf(request, session.token)).toBeLessThan(5000);
});

test("fund the wallet with the keyboard only, through the sandbox checkout", async ({ page, request }) => {
  const session = await signUpViaApi(request, "kbd-fund");
  await openSignedIn(page, session, "#/payment/1");
  const amount = page.getByLabel("Amount (₦)");
  await tabTo(page, amount);
  await page.keyboard.type("2500");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/sandbox\/squad\//);
  await tabTo(page, page.getByRole("button", { name: "Pay" }), 10);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#\/dashboard\/1/);
  await expect.poll(() => balanceOf(request, session.token), { timeout: 30_000 }).toBe(2500);
});

test("after logout no request gets 401", async ({ page, request }) => {
  const session = await signUpAndFund(request, "logout", 1000);
  // The page's timers run on Playwright's clock (time flows as usual until told otherwise), so the seconds after the
  // logout in which a signed-in screen's polls would fire again can be run at once instead of waited for (decision 055).
  await page.clock.install();
  const inFlight = new Set<object>();
  page.on("request", (req) => inFlight.add(req));
  page.on("requestfinished", (req) => inFlight.delete(req));
  page.on("requestfailed", (req) => inFlight.delete(req));
  await openSignedIn(page, session, "#/dashboard/1");
  await expect(page.getByTestId("balance-amount")).toBeVisible();
  await page.waitForSelector('html[data-realtime="connected"]', { timeout: 30_000 });
  const unauthorized: string[] = [];
  page.on("response", (res) => {
    if (res.status() === 401) unauthorized.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/#\/homepage\/1$/);
  // Past the 5 s polls a signed-in screen runs: every timer due in the next 6 s fires now, then whatever they sent is
  // answered before the check.
  await page.clock.runFor(6_000);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await expect.poll(() => inFlight.size).toBe(0);
  expect(unauthorized).toEqual([]);
});
