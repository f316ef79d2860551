import { execFileSync } from "node:child_process";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { E2E_ALONE_PORT, e2ePersistDir } from "../playwright.config";
import { ALONE, expect, test, balanceOf, openSignedIn, signInBrowser, signUpViaApi } from "./support";

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

// Issue 43, majors 1-3, seen at 360 px and 1280 px: asked ₦4,000, sent ₦3,900. The customer sees one bank-transfer row,
// "₦3,900.00 received, being checked"; the operator sees ₦3,900 arrived in the Deposits table and credits it from the
// review queue with a message; the customer's open transfer card turns to "Credited" live and stays so after a reload,
// and the history holds one row for the transfer. The transfer comes from Squad's simulator (the sandbox page's form:
// a MISMATCH transfer and its signed notification, https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2).
const consoleCli = (...args: string[]) =>
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--persist-to", e2ePersistDir(E2E_ALONE_PORT), "--actor", "e2e-lead"], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });

for (const width of [360, 1280]) {
  test(`${width} px: a short transfer is told straight, credited by the operator, and the customer's card follows`, ALONE.operator, async ({ page, browser, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const customer = await signUpViaApi(request, "short-transfer", "Amaka");
    const operator = await signUpViaApi(request, "transfer-reviewer", "Tunde");
    expect(consoleCli("grant-operator", operator.user.userEmail, "--reason", "e2e transfer reviewer")).toContain("is now an operator");
    const setup = await request.post("/api/2fa/setup", { headers: { authorization: `Bearer ${operator.token}` } });
    const { secret } = await setup.json();
    const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    expect((await request.post("/api/2fa/enable", { headers: { authorization: `Bearer ${operator.token}` }, data: { code } })).ok()).toBe(true);

    await openSignedIn(page, customer, "#/payment/1");
    await page.getByRole("tab", { name: "Pay by transfer" }).click();
    await page.getByLabel("Amount (₦)").fill("4000");
    await page.getByRole("button", { name: "Get an account number" }).click();
    const account = (await page.getByTestId("transfer-account-number").textContent())!;
    expect(account).toMatch(/^\d{10}$/);
    const sent = await request.post("/sandbox/squad-transfers/send", { data: { account_number: account, kind: "short" } });
    expect(await sent.json()).toMatchObject({ squad_status: "MISMATCH", amount: 3900 });
    const state = page.getByTestId("transfer-state");
    await expect(state).toHaveText("₦3,900.00 received, being checked. It will be credited once confirmed: nothing more to do.");

    // Major 1: one bank-transfer row, what arrived, being checked (the API and the screen).
    const auth = { authorization: `Bearer ${customer.token}` };
    const rows = (await (await request.get("/api/get-transaction", { headers: auth })).json()) as { note: string; amount: number; status: string; detail?: string }[];
    expect(rows).toEqual([expect.objectContaining({ note: "Wallet deposit (bank transfer)", amount: 3900, status: "pending", detail: expect.stringMatching(/^₦3,900\.00 received, being checked/) })]);

    // Major 3 and the decision: the operator's Deposits table says what arrived; the review queue credits it.
    const desk = await browser.newContext({ viewport: { width, height: 900 }, baseURL: new URL(page.url()).origin });
    const console_ = await desk.newPage();
    await signInBrowser(console_, operator);
    await console_.goto("/#/admin/deposits");
    const deposits = console_.getByRole("table", { name: "Deposits" });
    const deposit = deposits.getByRole("row").filter({ hasText: customer.user.userEmail });
    await expect(deposit).toContainText("₦3,900.00");
    await expect(deposit).toContainText("arrived, being checked");
    await expect(deposit).not.toContainText("Nothing yet");
    await console_.getByRole("button", { name: `Review: Bank transfer of another amount, ${customer.user.userEmail}` }).click();
    const detail = console_.getByTestId("review-detail");
    await expect(detail.getByLabel(/Amount to credit/)).toHaveValue("3900");
    await detail.getByLabel(/Reason/).fill("short by ₦100, matches Squad");
    await detail.getByLabel("Message to the customer (optional)").fill("We credited the ₦3,900 that arrived.");
    await detail.getByRole("button", { name: "Credit…" }).click();
    await detail.getByRole("group", { name: "Confirm decision" }).getByRole("button", { name: "Confirm credit" }).click();
    await expect(detail.getByRole("status")).toContainText("Credited.");
    await desk.close();

    // Major 2: the customer's card follows live, then after a reload; the history has one row for the transfer.
    const credited = 'Credited ₦3,900.00Support checked ₦3,900.00 and credited ₦3,900.00 to your wallet. Support says: "We credited the ₦3,900 that arrived."';
    await expect(state).toHaveText(credited);
    await page.reload();
    await page.getByRole("tab", { name: "Pay by transfer" }).click();
    await expect(page.getByTestId("transfer-state")).toHaveText(credited);
    expect(await balanceOf(request, customer.token)).toBe(3900);
    await page.goto("/#/dashboard/1");
    const history = page.getByRole("list", { name: "Transactions" }).getByRole("listitem");
    await expect(history).toHaveCount(1);
    await expect(history.first()).toContainText("Wallet deposit (bank transfer, reviewed)");
    await expect(history.first()).toContainText("₦3,900.00");
    await expect(page.getByRole("list", { name: "Transactions" })).not.toContainText(/CRYPTO|\(card\)|Pending/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
