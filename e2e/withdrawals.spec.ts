import { ALONE, expect, test, balanceOf, openSignedIn, signUpViaApi } from "./support";

// Issue 45: cash out. The customer funds by bank transfer (withdrawable at once), adds a bank account in their own name
// (Squad's sandbox lookup answers the holder's name, matched whatever the order and case), waits out a cooling period
// the operator's setting shortens for the journey (so it runs ALONE: every other journey reads that setting), withdraws,
// and sees it paid live.

const DEFAULT_WITHDRAWALS = {
  minimum_naira: 1_000,
  fee_naira: 0,
  per_transaction_naira: 200_000,
  daily_naira: 500_000,
  daily_count: 3,
  approval_above_naira: 100_000,
  cooling_hours: 24,
  card_chargeback_days: 30,
};

test("cash out: add a name-matched bank account, wait out the cooling period, withdraw, see it paid", ALONE.operator, async ({ page, request }) => {
  const session = await signUpViaApi(request, "cashout", "Chidinma");
  const auth = { authorization: `Bearer ${session.token}` };
  const started = await request.post("/api/transfers", { headers: auth, data: { amount: 5000 } });
  expect(started.status()).toBe(200);
  const sent = await request.post("/sandbox/squad-transfers/send", { data: { account_number: (await started.json()).account_number, kind: "exact" } });
  expect(sent.status()).toBe(200);
  await expect.poll(() => balanceOf(request, session.token)).toBe(5000);

  const accountNumber = `03${String(Date.now()).slice(-8)}`;
  const opened = await request.post("/sandbox/squad-payouts/accounts", { data: { bank_code: "000013", account_number: accountNumber, account_name: "Eze Chidinma" } });
  expect(opened.status()).toBe(200);
  // About 10 seconds of cooling instead of 24 hours.
  expect((await request.post("/sandbox/settings/withdrawals", { data: { ...DEFAULT_WITHDRAWALS, cooling_hours: 0.003 } })).status()).toBe(200);
  try {
    await openSignedIn(page, session, "#/settings/1");
    await expect(page.getByTestId("cashout-available")).toHaveText("₦5,000.00");
    await page.getByLabel("Account number (10 digits)").fill(accountNumber);
    await page.getByLabel("Your full name as your bank has it").fill("Chidinma Eze");
    await page.getByRole("button", { name: "Add bank account" }).click();
    await expect(page.getByTestId("cashout-account")).toHaveText(`To GTBank ····${accountNumber.slice(-4)} · EZE CHIDINMA`);
    await expect(page.getByText(/withdrawals open at/)).toBeVisible();

    // The cooling period ends while the screen is open: it offers the withdrawal by itself.
    await expect(page.getByLabel("Amount to withdraw (₦)")).toBeVisible({ timeout: 40_000 });
    await expect(page.getByText("Fee: ₦0.00.", { exact: false })).toBeVisible();
    await page.getByLabel("Amount to withdraw (₦)").fill("2000");
    await page.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByTestId("cashout-status")).toHaveText(`Paid into GTBank ····${accountNumber.slice(-4)}`);
    expect(await balanceOf(request, session.token)).toBe(3000);
    await expect(page.getByTestId("cashout-available")).toHaveText("₦3,000.00");
  } finally {
    await request.post("/sandbox/settings/withdrawals", { data: DEFAULT_WITHDRAWALS });
  }
});
