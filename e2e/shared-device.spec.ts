import type { Page } from "@playwright/test";
import { expect, test, signUpViaApi } from "./support";

// Issue 12, hole 10: two customers on one browser. What the first leaves behind (a pending card payment with its Verify
// button, the tour flags) must never reach the second.

async function logIn(page: Page, email: string, password: string) {
  await page.goto("/#/login/1");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/#\/dashboard\/1/);
}

test("customer B on A's browser sees none of A's pending payment, its Verify button, or A's tour state", async ({ page, request }) => {
  const a = await signUpViaApi(request, "shared-a", "Amaka");
  const b = await signUpViaApi(request, "shared-b", "Bayo");
  const password = "secret123"; // signUpViaApi's

  // A signs in (their first visit opens the tour), starts a card payment and comes back without paying.
  await logIn(page, a.user.userEmail, password);
  await expect(page.getByTestId("tour-card")).toBeVisible();
  await page.goto("/#/payment/1");
  await page.getByLabel("Amount (₦)").fill("5000");
  await page.getByRole("button", { name: "Pay with card or bank" }).click();
  await page.waitForURL(/\/sandbox\/squad\/checkout\//);
  await page.goto("/#/payment/1");
  await expect(page.getByRole("button", { name: "Verify Payment" })).toBeVisible();
  const aRef = await page.evaluate(() => JSON.parse(localStorage.getItem("pending-payments") ?? "[]")[0]?.ref as string | undefined);
  expect(aRef).toBeTruthy();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/#\/homepage\/1/);

  // B signs in on the same browser: a first visit of their own (the tour opens), and nothing of A's.
  await logIn(page, b.user.userEmail, password);
  await expect(page.getByTestId("tour-card")).toBeVisible();
  await page.goto("/#/payment/1");
  await expect(page.getByLabel("Amount (₦)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Verify Payment" })).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(aRef!);
});
