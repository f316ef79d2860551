import { expect, test, balanceOf, openSignedIn, signUpViaApi } from "./support";

// Issue 31: funding by bank transfer into a Squad dynamic account. The transfer is sent from outside the browser (as a
// banking app would: the sandbox's Squad sends its signed notification to our webhook), so the card turning to
// "Credited" proves the live push, with no Verify button and no reload.

test("pay by transfer: the exact amount into the account shown is credited live", async ({ page, request, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const session = await signUpViaApi(request, "transfer", "Ngozi");
  await openSignedIn(page, session, "#/payment/1");

  await page.getByRole("tab", { name: "Pay by transfer" }).click();
  await page.getByLabel("Amount (₦)").fill("5000");
  await page.getByRole("button", { name: "Get an account number" }).click();

  const accountNumber = page.getByTestId("transfer-account-number");
  await expect(accountNumber).toHaveText(/^\d{10}$/);
  await expect(page.getByText("GTBank")).toBeVisible();
  await expect(page.getByTestId("transfer-amount")).toHaveText("₦5,000.00");
  await expect(page.getByTestId("transfer-countdown")).toHaveText(/^00:(29|30):\d\d$/);
  await expect(page.getByRole("button", { name: /verify/i })).toHaveCount(0);

  await page.getByRole("button", { name: "Copy account number" }).click();
  await expect(page.getByRole("button", { name: "Copy account number" })).toContainText("Copied");
  const account = (await accountNumber.textContent())!;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(account);

  const sent = await request.post("/sandbox/squad-transfers/send", { data: { account_number: account, kind: "exact" } });
  expect(sent.status()).toBe(200);
  expect((await sent.json()).squad_status).toBe("SUCCESS");

  await expect(page.getByTestId("transfer-state")).toHaveText("Credited ₦5,000.00");
  expect(await balanceOf(request, session.token)).toBe(5000);
});
