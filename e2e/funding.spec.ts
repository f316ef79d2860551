import { expect, test, balanceOf, openSignedIn, signUpViaApi } from "./support";

// Funding journeys against the real product in sandbox mode: the Squad checkout page (Pay / Fail) and a NOWPayments
// invoice completed through the sandbox's signed IPN.

test("fund ₦5,000 through the sandbox checkout and see the balance and the history row", async ({ page, request }) => {
  const session = await signUpViaApi(request, "fund", "Adaeze");
  await openSignedIn(page, session, "#/payment/1");

  const amount = page.getByLabel("Amount (₦)");
  await expect(page.getByText("Min is ₦1,000.00")).toBeVisible();
  await amount.fill("500");
  await page.getByRole("button", { name: "Pay with card or bank" }).click();
  await expect(page.getByText("min amount is ₦1,000.00")).toBeVisible();
  // The message hides again as soon as the amount changes.
  await amount.fill("5000");
  await expect(page.getByText("min amount is ₦1,000.00")).toBeHidden();

  await page.getByRole("button", { name: "Pay with card or bank" }).click();
  await page.waitForURL(/\/sandbox\/squad\/checkout\//);
  await page.getByRole("button", { name: "Pay", exact: true }).click();

  // Back on the dashboard with ?reference=: the return polling confirms and clears the reference.
  await page.waitForURL(/#\/dashboard\/1/);
  await expect(page.getByText("Payment confirmed successfully!")).toBeVisible();
  await expect(page).not.toHaveURL(/reference=/);

  const figure = page.getByTestId("balance-amount");
  await expect(figure).not.toContainText("5,000.00");
  await page.getByTestId("balance-toggle").click();
  await expect(figure).toHaveText("₦5,000.00");

  const history = page.getByRole("list", { name: "Transactions" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByRole("listitem").first()).toContainText("+₦5,000.00");
  await expect(history.getByRole("listitem").first()).toContainText("Successful");
  expect(await balanceOf(request, session.token)).toBe(5000);

  // The balance stays visible on the next visit: the eye toggle is persisted.
  await page.reload();
  await expect(page.getByTestId("balance-amount")).toHaveText("₦5,000.00");
});

test("create a crypto invoice, complete it through the sandbox and see 'Balance Updated'", async ({ page, request }) => {
  const session = await signUpViaApi(request, "fund", "Adaeze");
  await openSignedIn(page, session, "#/payment/1");

  await page.getByRole("tab", { name: "Pay in Crypto" }).click();
  await expect(page.getByText("$5", { exact: true })).toBeVisible();

  await page.getByRole("combobox", { name: "Payment currency" }).click();
  const options = page.getByRole("option");
  await expect(options.nth(0)).toContainText("BTC");
  await expect(options.nth(1)).toContainText("USDTTRC20");
  await expect(options.nth(2)).toContainText("ETH");
  await expect(options.nth(3)).toContainText("SOL");
  await page.getByRole("option", { name: /^USDTTRC20/ }).click();

  const usd = page.getByLabel("Amount (USD)");
  await usd.fill("4.99");
  await page.getByRole("button", { name: "Create Invoice" }).click();
  await expect(page.getByText("Minimum amount is $5")).toBeVisible();
  await expect(page.getByText("Invoice Created")).toHaveCount(0);

  await usd.fill("20");
  const created = page.waitForResponse((r) => r.url().endsWith("/api/invoice") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Create Invoice" }).click();
  const invoice = (await (await created).json()) as { payment_id: string | number; pay_address: string };
  expect((await created).status()).toBe(200);

  await expect(page.getByText("Invoice Created")).toBeVisible();
  await expect(page.getByTestId("invoice-countdown")).toHaveText(/^00:16:[0-4]\d$/);
  await expect(page.getByTestId("invoice-address")).toHaveText(invoice.pay_address);
  await expect(page.getByText("Send exactly the required amount to the address above. Payment will be confirmed automatically.")).toBeVisible();

  // The newcomer's way (sandbox builds only): the invoice card shows the payment id and offers Simulate payment, which
  // pays it through the NOWPayments simulator and its signed IPN.
  const tools = page.getByTestId("sandbox-tools");
  await expect(tools).toContainText(String(invoice.payment_id));
  await tools.getByRole("button", { name: "Simulate payment" }).click();

  // Status is polled every 8 s (sooner when the realtime push arrives).
  await expect(page.getByText("Balance Updated")).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => balanceOf(request, session.token)).toBe(20 * 1550);
  // After the overlay the invoice is gone and the form is back.
  await expect(page.getByRole("button", { name: "Create Invoice" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Invoice Created")).toHaveCount(0);
});
