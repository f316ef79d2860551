import type { APIRequestContext } from "@playwright/test";
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
  tier_caps: { Bronze: { per_transaction_naira: 50_000, daily_naira: 100_000 }, Silver: { per_transaction_naira: 100_000, daily_naira: 250_000 } },
};

/**
 * A customer funded by bank transfer with a name-matched account at GTBank, cooling off (the journeys below are about
 * Squad's answers, not the cooling period: the first journey walks that).
 */
async function customerReadyToWithdraw(request: APIRequestContext, tag: string) {
  const session = await signUpViaApi(request, tag, "Chidinma");
  const auth = { authorization: `Bearer ${session.token}` };
  const started = await request.post("/api/transfers", { headers: auth, data: { amount: 5000 } });
  expect(started.status()).toBe(200);
  expect((await request.post("/sandbox/squad-transfers/send", { data: { account_number: (await started.json()).account_number, kind: "exact" } })).status()).toBe(200);
  await expect.poll(() => balanceOf(request, session.token)).toBe(5000);
  const accountNumber = `04${String(Date.now()).slice(-8)}`;
  expect((await request.post("/sandbox/squad-payouts/accounts", { data: { bank_code: "000013", account_number: accountNumber, account_name: "Eze Chidinma" } })).status()).toBe(200);
  const added = await request.post("/api/withdrawals/account", { headers: auth, data: { bank_code: "000013", account_number: accountNumber, full_name: "Chidinma Eze" } });
  expect(added.status()).toBe(200);
  return { session, auth, accountNumber };
}

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

test("cash out: Squad times out (424) and the re-query settles it paid, sent once", ALONE.operator, async ({ page, request }) => {
  expect((await request.post("/sandbox/settings/withdrawals", { data: { ...DEFAULT_WITHDRAWALS, cooling_hours: 0 } })).status()).toBe(200);
  try {
    const { session, auth, accountNumber } = await customerReadyToWithdraw(request, "cashout424");
    // The sandbox page scripts the next transfer: Squad answers 424 "timeout, please requery"; its re-query says paid.
    expect((await request.post("/sandbox/squad-payouts/next", { data: { outcome: "timeout" } })).status()).toBe(200);
    await openSignedIn(page, session, "#/settings/1");
    await page.getByLabel("Amount to withdraw (₦)").fill("1500");
    await page.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByTestId("cashout-status")).toHaveText(`Paid into GTBank ····${accountNumber.slice(-4)}`);
    expect(await balanceOf(request, session.token)).toBe(3500);
    const list = await (await request.get("/api/withdrawals", { headers: auth })).json();
    expect(list.data.map((w: { state: string }) => w.state)).toEqual(["paid"]);
  } finally {
    await request.post("/sandbox/settings/withdrawals", { data: DEFAULT_WITHDRAWALS });
  }
});

test("cash out: a paid transfer reversed later is credited back once, however often the sweep re-queries", ALONE.operator, async ({ page, request }) => {
  expect((await request.post("/sandbox/settings/withdrawals", { data: { ...DEFAULT_WITHDRAWALS, cooling_hours: 0 } })).status()).toBe(200);
  try {
    const { session, auth, accountNumber } = await customerReadyToWithdraw(request, "cashoutrev");
    await openSignedIn(page, session, "#/settings/1");
    await page.getByLabel("Amount to withdraw (₦)").fill("2000");
    await page.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByTestId("cashout-status")).toHaveText(`Paid into GTBank ····${accountNumber.slice(-4)}`);
    expect(await balanceOf(request, session.token)).toBe(3000);
    const [paid] = (await (await request.get("/api/withdrawals", { headers: auth })).json()).data;

    // A day later the bank sends it back: Squad's re-query now answers 412. The cron sweep (run now, twice) notices.
    expect((await request.post("/sandbox/squad-payouts/reverse", { data: { reference: paid.reference } })).status()).toBe(200);
    for (let i = 0; i < 2; i++) expect((await request.post("/sandbox/squad-payouts/sweep")).status()).toBe(200);
    await expect.poll(() => balanceOf(request, session.token)).toBe(5000);
    // The screen was told live (the socket): the available amount is back.
    await expect(page.getByTestId("cashout-available")).toHaveText("₦5,000.00");
    const again = await (await request.get(`/api/withdrawals/${paid.id}`, { headers: auth })).json();
    expect(again).toMatchObject({ state: "reversed", message: "Reversed by the bank — ₦2,000.00 is back in your wallet" });
    expect((await request.post("/sandbox/squad-payouts/reverse", { data: { reference: paid.reference } })).status()).toBe(404);
    expect((await request.post("/sandbox/squad-payouts/sweep")).status()).toBe(200);
    expect(await balanceOf(request, session.token)).toBe(5000);
  } finally {
    await request.post("/sandbox/settings/withdrawals", { data: DEFAULT_WITHDRAWALS });
  }
});
