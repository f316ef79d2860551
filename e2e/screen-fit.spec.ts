import type { Locator, Page } from "@playwright/test";
import { axeProblems } from "./axe";
import { expect, openSignedIn, pick, signUpAndFund, test } from "./support";

// Issue 43's "360 px" and "1280 px" points as the outside walk met them: what was clipped, cut, wrapped or covered.

/** How many lines a text is drawn on (a Range's boxes, one per line). */
const lines = (el: Locator) =>
  el.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
  });

/** Whether a box shows all its content (nothing cut off by its own width). */
const whole = (el: Locator) => el.evaluate((node) => node.scrollWidth <= node.clientWidth + 1);

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

test("360 px: a five-figure balance, a failed card row, an account number and a number with its code all fit", async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const session = await signUpAndFund(request, "fit", 16_445, "Oluwaseun");
  const auth = { authorization: `Bearer ${session.token}` };
  const init = await request.post("/api/initialize-transaction", { headers: auth, data: { amount: 2000, currency: "NGN" } });
  const ref = (await init.json()).data.data.transaction_ref as string;
  await request.post(`/sandbox/squad/${encodeURIComponent(ref)}/complete`, { data: { outcome: "failed" } });
  await request.post("/api/verify-payment", { headers: auth, data: { transaction_ref: ref } });

  // The header: the whole balance, the tier, the theme switch and the chat link, each inside the screen.
  await openSignedIn(page, session, "#/dashboard/1");
  await expect(page.getByTestId("header-balance")).toHaveText("₦16,445.00");
  for (const control of [
    page.getByTestId("header-balance"),
    page.getByRole("button", { name: /^Discount tier/ }),
    page.getByRole("switch", { name: "Dark mode" }),
    page.getByTestId("chat-button-header"),
  ]) {
    await expect(control).toBeVisible();
    const box = (await control.boundingBox())!;
    expect(box.x + box.width, `${await control.getAttribute("aria-label")} inside the screen`).toBeLessThanOrEqual(360);
  }
  await noSidewaysScroll(page);

  // The failed card row: no sideways scroll, its description and a one-line time beside "No money moved".
  const failed = page.getByRole("list", { name: "Transactions" }).getByRole("listitem").filter({ hasText: "No money moved" });
  await expect(failed).toContainText("Wallet deposit (card)");
  expect(await whole(failed)).toBe(true);
  expect(await lines(failed.locator("time"))).toBe(1);
  expect(await lines(failed.getByTestId("transaction-amount"))).toBe(1);

  // The chat channel is in the menu too.
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: /Join our chat channel/ })).toBeVisible();
  await page.getByRole("button", { name: "Close menu" }).click();

  // A 10-digit account number on one line.
  await page.goto("/#/payment/1");
  await page.getByRole("tab", { name: "Pay by transfer" }).click();
  await page.getByLabel("Amount (₦)").fill("5000");
  await page.getByRole("button", { name: "Get an account number" }).click();
  const account = page.getByTestId("transfer-account-number");
  await expect(account).toHaveText(/^\d{10}$/);
  expect(await lines(account)).toBe(1);
  expect(await whole(account)).toBe(true);
  await noSidewaysScroll(page);

  // The number on the SMS card after its code: whole, not "+1 555 12…".
  await page.goto("/#/sms/1");
  await pick(page, "Service", /^WhatsApp/, "WhatsApp");
  await page.getByRole("button", { name: "Get Number" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "SMS Received" })).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Done" }).click();
  const number = page.getByTestId("sms-number");
  await expect(page.getByTestId("sms-code")).toHaveText(/^\d{6}$/);
  await expect(number).toHaveText(/^\+1 \d{3} \d{3} \d{4}$/);
  expect(await whole(number)).toBe(true);
  expect(await lines(number)).toBe(1);
  const numberBox = (await number.boundingBox())!;
  const cardBox = (await page.getByTestId("sms-number-box").boundingBox())!;
  expect(numberBox.x + numberBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  await noSidewaysScroll(page);
  expect(await axeProblems(page, "sms card 360")).toEqual([]);
});

test("1280 px: the Rented table shows every column whole, nothing covered by the pinned ones", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const session = await signUpAndFund(request, "fit-wide", 5000, "Ifeoma");
  const rented = await request.post("/api/rent-number", { headers: { authorization: `Bearer ${session.token}` }, data: { countryId: "5", duration: "hour", period: 1 } });
  expect(rented.status()).toBe(201);
  await openSignedIn(page, session, "#/number/1");
  const table = page.getByTestId("orders-table");
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText("Rental, 1 hour");
  await expect(row.getByTestId("order-amount")).toHaveText("₦268.80");
  // Every cell, at one end of the table's scroll or the other, is drawn on top (no pinned column over it) and whole.
  const cells = row.getByRole("cell");
  const count = await cells.count();
  expect(count).toBe(9);
  for (let i = 0; i < count; i += 1) {
    const cell = cells.nth(i);
    const visible = await table.evaluate(async (box, index) => {
      const td = box.querySelectorAll("tbody tr")[0]!.children[index] as HTMLElement;
      for (const left of [0, box.scrollWidth]) {
        box.scrollLeft = left;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        const r = td.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const inBox = r.left >= box.getBoundingClientRect().left - 1 && r.right <= box.getBoundingClientRect().right + 1;
        if (hit && td.contains(hit) && inBox) return true;
      }
      return false;
    }, i);
    expect(visible, `column ${i + 1} (${await cell.textContent()}) is shown whole`).toBe(true);
    expect(await whole(cell)).toBe(true);
  }
  await noSidewaysScroll(page);
  expect(await axeProblems(page, "rented table 1280")).toEqual([]);
});
