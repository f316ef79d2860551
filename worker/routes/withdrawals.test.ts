import { env } from "cloudflare:workers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "./../test/helpers";
import { makeOperator } from "../test/operators";
import { postSquadWebhook, squadWebhookRaw } from "../test/payment-fixtures";
import { testServices, useTestUpstreams } from "../test/services";
import { openSandboxBankAccount, reverseSandboxTransfer, scriptNextTransfer } from "../sandbox/squad-payouts";
import { sweepWithdrawals } from "../services/funding";
import { postEntry, putSetting } from "../services/kernel";
import { createKey } from "../test/api-fixtures";
import { pushWordsFor } from "../services/notifications";
import { PUSH_KINDS } from "../../schema/notifications";
import { configFor } from "../config";
import { comparePayouts, type OurPayout } from "../services/funding";

/**
 * Cash out (issue 45): the payout account's checks, what may be withdrawn, the withdrawal's life through Squad's
 * simulator (paid, 424 re-queried, failed, reversed later, approval), and the attack list, each refused with a
 * clear message and moving nothing.
 */

const BANK = "000013";
let seq = 0;
const accountNo = () => `01${String(Date.now()).slice(-5)}${String(++seq).padStart(3, "0")}`;

async function settings(patch: Partial<(typeof SETTING_DEFAULTS)["withdrawals"]> = {}) {
  await putSetting(db(), "withdrawals", { ...SETTING_DEFAULTS.withdrawals, cooling_hours: 0, ...patch });
}

async function fund(user: TestUser, kobo: number, channel: "transfer" | "squad" | "now" = "transfer", at = Date.now()) {
  await postEntry(db(), { at, userId: user.id, key: `fund:${channel}:${crypto.randomUUID()}`, amountKobo: kobo, kind: "fund", note: "test deposit" });
}

/** A customer with a payout account at GTBank in "Ada Obi"'s name (Squad's sandbox holds it as ADA NKEM OBI). */
async function customerWithAccount(transferKobo = 500_000): Promise<{ user: TestUser; account: string }> {
  const user = await createUser();
  const account = accountNo();
  await openSandboxBankAccount(env, { bank_code: BANK, account_number: account, account_name: "Obi Ada Nkem" });
  if (transferKobo) await fund(user, transferKobo);
  const added = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: BANK, account_number: account, full_name: "ada obi" } });
  expect(added.status).toBe(200);
  return { user, account };
}

async function withdrawalRows(userId: string) {
  return (await env.DB.prepare("SELECT id, status, amount_kobo FROM withdrawals WHERE user_id = ?").bind(userId).all<{ id: string; status: string; amount_kobo: number }>()).results;
}

async function ledgerKeys(userId: string, like: string) {
  return (await env.DB.prepare("SELECT key, amount_kobo FROM ledger WHERE user_id = ? AND key LIKE ?").bind(userId, like).all<{ key: string; amount_kobo: number }>()).results;
}

beforeEach(async () => {
  await settings();
});

describe("the payout account", () => {
  it("is looked up at Squad and accepted when the name matches whatever the order, case and middle names", async () => {
    const { user, account } = await customerWithAccount();
    const view = await api("/api/withdrawals/available", { token: user.token });
    expect(view.data.account).toMatchObject({ bank_code: BANK, bank_name: "GTBank", account_last4: account.slice(-4), account_name: "OBI ADA NKEM" });
  });

  it("refuses a bank code we do not know, a number that is not 10 digits, an account the bank does not have, and a name that does not match", async () => {
    const user = await createUser();
    const unknownBank = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: "058", account_number: "0123456789", full_name: "Ada Obi" } });
    expect(unknownBank.status).toBe(400);
    expect(unknownBank.data.message).toMatch(/do not know that bank code/);
    const shortNumber = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: BANK, account_number: "12345", full_name: "Ada Obi" } });
    expect(shortNumber.status).toBe(400);
    expect(shortNumber.data.message).toMatch(/10 digits/);
    const noSuch = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: BANK, account_number: "0999999999", full_name: "Ada Obi" } });
    expect(noSuch.status).toBe(422);
    expect(noSuch.data.message).toMatch(/GTBank has no account 0999999999/);
    const other = accountNo();
    await openSandboxBankAccount(env, { bank_code: BANK, account_number: other, account_name: "Chinedu Okafor" });
    const mismatch = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: BANK, account_number: other, full_name: "Ada Obi" } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.data.message).toMatch(/CHINEDU OKAFOR.*does not match your name Ada Obi \(Ada, Obi not found\)/);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM payout_accounts WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("starts a cooling period: a withdrawal before its end is refused with the time, nothing held", async () => {
    await settings({ cooling_hours: 24 });
    const { user } = await customerWithAccount();
    const view = await api("/api/withdrawals/available", { token: user.token });
    expect(Date.parse(view.data.cooling_until)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const before = await balanceOf(user.id);
    const refused = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 } });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/withdrawals open at/);
    expect(await balanceOf(user.id)).toBe(before);
    expect(await withdrawalRows(user.id)).toEqual([]);
  });

  it("a sign-in from a new device starts the cooling period too", async () => {
    const { user } = await customerWithAccount();
    await settings({ cooling_hours: 24 });
    await env.DB.prepare("INSERT INTO known_devices (user_id, device_hash, first_seen_at) VALUES (?1, 'first', ?2), (?1, 'second', ?3)")
      .bind(user.id, Date.now() - 10 * 86_400_000, Date.now() - 60_000)
      .run();
    const refused = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 } });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/new device/);
    expect(await withdrawalRows(user.id)).toEqual([]);
  });
});

describe("what may be withdrawn", () => {
  it("is bank transfers in, card deposits past the chargeback window, less what was spent; crypto and recent card are said why not", async () => {
    const { user } = await customerWithAccount(500_000);
    await fund(user, 300_000, "now");
    await fund(user, 200_000, "squad");
    await fund(user, 100_000, "squad", Date.now() - 31 * 86_400_000);
    await postEntry(db(), { at: Date.now(), userId: user.id, key: `buy:${crypto.randomUUID()}`, amountKobo: -150_000, kind: "buy", note: "a number" });
    const view = await api("/api/withdrawals/available", { token: user.token });
    expect(view.data.balance).toBe(9500);
    expect(view.data.available).toBe(4500); // 5,000 + 1,000 (old card) - 1,500 spent
    expect(view.data.reasons.join(" ")).toMatch(/₦2,000(\.00)? came in by card/);
    expect(view.data.reasons.join(" ")).toMatch(/₦3,000(\.00)? came in by crypto.*back to where it came from on request to support/);
    expect(view.data.minimum).toBe(1000);
  });
});

describe("a withdrawal", () => {
  it("is held at once, sent once with the merchant-prefixed reference, and paid into the account", async () => {
    const { user, account } = await customerWithAccount(500_000);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 1500 }, settle: true });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ state: "paid", amount: 1500, message: `Paid into GTBank ····${account.slice(-4)}` });
    expect(res.data.reference).toBe(`SBSANDBOX_${res.data.id}`);
    expect(await balanceOf(user.id)).toBe(500_000 - 150_000);
    expect(await ledgerKeys(user.id, "withdraw%")).toEqual([{ key: `withdraw:${res.data.id}`, amount_kobo: -150_000 }]);
    const event = await env.DB.prepare("SELECT message FROM outbox_events WHERE user_id = ? AND kind = 'withdrawal.changed' AND dedupe_key = ?").bind(user.id, `withdrawal.paid:${res.data.id}`).first<{ message: string }>();
    expect(JSON.parse(event!.message)).toMatchObject({ state: "paid", withdrawalId: res.data.id });
    const read = await api(`/api/withdrawals/${res.data.id}`, { token: user.token });
    expect(read.data.state).toBe("paid");
    await expectLedgerBalanced();
  });

  it("a 424 is re-queried, never re-sent: one transfer at Squad, settled by the re-query", async () => {
    const { user } = await customerWithAccount(500_000);
    await scriptNextTransfer(env, "timeout");
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 2000 }, settle: true });
    expect(res.data.state).toBe("paid");
    const sent = await env.DB.prepare("SELECT COUNT(*) AS n FROM sandbox_state WHERE key = ?").bind(`squadpo:tx:${res.data.reference}`).first<{ n: number }>();
    expect(sent?.n).toBe(1);
    expect(await balanceOf(user.id)).toBe(300_000);
  });

  it("a failed transfer credits the hold back once and says so", async () => {
    const { user } = await customerWithAccount(500_000);
    await scriptNextTransfer(env, "fail");
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 2000 }, settle: true });
    expect(res.data).toMatchObject({ state: "failed", message: "Failed — ₦2,000.00 is back in your wallet" });
    expect(await balanceOf(user.id)).toBe(500_000);
    expect((await ledgerKeys(user.id, "withdraw_back:%")).map((r) => r.amount_kobo)).toEqual([200_000]);
    await expectLedgerBalanced();
  });

  it("a reversal days later credits the hold back exactly once, however often it is re-queried", async () => {
    const { user } = await customerWithAccount(500_000);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 2500 }, settle: true });
    expect(res.data.state).toBe("paid");
    expect(await reverseSandboxTransfer(env, res.data.reference)).toBe(true);
    const services = testServices();
    await sweepWithdrawals(services.payments);
    await sweepWithdrawals(services.payments);
    await services.settle();
    const read = await api(`/api/withdrawals/${res.data.id}`, { token: user.token });
    expect(read.data.state).toBe("reversed");
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerKeys(user.id, "withdraw_back:%")).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it("above the approval threshold waits for an operator (held meanwhile); a refusal with a reason credits it back, audited", async () => {
    await settings({ approval_above_naira: 3000 });
    const { user } = await customerWithAccount(1_000_000);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 4000 } });
    expect(res.data.state).toBe("approval");
    expect(await balanceOf(user.id)).toBe(600_000);
    const operator = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), operator.sessionId).run();
    const listed = await api("/api/admin/withdrawals?state=approval", { token: operator.token });
    expect(listed.status).toBe(200);
    expect(listed.data.data.some((r: { id: string }) => r.id === res.data.id)).toBe(true);
    const noReason = await api(`/api/admin/withdrawals/${res.data.id}/refuse`, { token: operator.token, json: { reason: "" } });
    expect(noReason.status).toBe(400);
    const refused = await api(`/api/admin/withdrawals/${res.data.id}/refuse`, { token: operator.token, json: { reason: "Account under review" } });
    expect(refused.status).toBe(200);
    expect(refused.data.data).toMatchObject({ state: "refused", decision_reason: "Account under review" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    const audit = await env.DB.prepare("SELECT action, reason FROM audit_log WHERE subject = ?").bind(res.data.id).first<{ action: string; reason: string }>();
    expect(audit).toEqual({ action: "withdrawal.refuse", reason: "Account under review" });
    const again = await api(`/api/admin/withdrawals/${res.data.id}/approve`, { token: operator.token, json: { reason: "changed my mind" } });
    expect(again.status).toBe(409);

    const second = await api("/api/withdrawals", { token: user.token, json: { amount: 3500 } });
    const approved = await api(`/api/admin/withdrawals/${second.data.id}/approve`, { token: operator.token, json: { reason: "Known customer" }, settle: true });
    expect(approved.data.data.state).toBe("paid");
    expect(await balanceOf(user.id)).toBe(650_000);
    await expectLedgerBalanced();
  });
});

describe("bad input and attack: refused with a clear message, nothing moves", () => {
  async function expectNothingMoved(user: TestUser, balance: number) {
    expect(await balanceOf(user.id)).toBe(balance);
    expect((await withdrawalRows(user.id)).filter((r) => r.status !== "failed")).toEqual([]);
  }

  it("below the minimum, negative, fractional kobo, above the per-transaction cap, above what is withdrawable", async () => {
    const { user } = await customerWithAccount(500_000);
    await fund(user, 400_000, "now");
    const cases: [unknown, number, RegExp][] = [
      [999, 400, /smallest withdrawal is ₦1,000/],
      [-5000, 400, /above zero/],
      [1000.005, 400, /whole kobo/],
      ["1000", 400, /naira/],
      [60_000, 400, /at most ₦50,000(\.00)? at your tier \(Bronze\)/],
      [6000, 422, /withdraw up to ₦5,000/],
    ];
    for (const [amount, status, message] of cases) {
      const res = await api("/api/withdrawals", { token: user.token, json: { amount } });
      expect({ amount, status: res.status }).toEqual({ amount, status });
      expect(res.data.message).toMatch(message);
    }
    await expectNothingMoved(user, 900_000);
  });

  it("caps follow the customer's tier (by total deposited): Bronze ₦50,000 a withdrawal, Gold the global ₦200,000; the screen says which", async () => {
    const { user } = await customerWithAccount(500_000);
    const bronze = await api("/api/withdrawals/available", { token: user.token });
    expect([bronze.data.per_transaction_cap, bronze.data.daily_cap]).toEqual([50_000, 100_000]);
    await env.DB.prepare("UPDATE users SET total_deposited_kobo = ? WHERE id = ?").bind(300_000_00, user.id).run();
    const gold = await api("/api/withdrawals/available", { token: user.token });
    expect([gold.data.per_transaction_cap, gold.data.daily_cap]).toEqual([200_000, 500_000]);
    const above = await api("/api/withdrawals", { token: user.token, json: { amount: 250_000 } });
    expect(above.status).toBe(400);
    expect(above.data.message).toMatch(/at most ₦200,000(\.00)? at your tier \(Gold\)/);
    // A tier's cap never raises the global one.
    await settings({ tier_caps: { Gold: { per_transaction_naira: 900_000, daily_naira: 900_000 } } });
    expect((await api("/api/withdrawals/available", { token: user.token })).data.per_transaction_cap).toBe(200_000);
    await expectNothingMoved(user, 500_000);
  });

  it("a second withdrawal racing the first cannot take more than is withdrawable", async () => {
    const { user } = await customerWithAccount(400_000);
    const [a, b] = await Promise.all([
      api("/api/withdrawals", { token: user.token, json: { amount: 3000 }, settle: true }),
      api("/api/withdrawals", { token: user.token, json: { amount: 3000 }, settle: true }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect(await balanceOf(user.id)).toBe(100_000);
    expect(await ledgerKeys(user.id, "withdraw:%")).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it("a stolen session without the second factor is asked for it and moves nothing", async () => {
    const { user } = await customerWithAccount(500_000);
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = NULL WHERE id = ?").bind(user.sessionId).run();
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 } });
    expect(res.status).toBe(403);
    expect(res.data.code).toBe("STEP_UP_REQUIRED");
    const other = accountNo();
    await openSandboxBankAccount(env, { bank_code: BANK, account_number: other, account_name: "Ada Obi" });
    const swap = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: BANK, account_number: other } });
    expect(swap.status).toBe(403);
    await expectNothingMoved(user, 500_000);
  });

  it("another customer's withdrawal is 404", async () => {
    const { user } = await customerWithAccount(500_000);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 }, settle: true });
    const stranger = await createUser();
    const read = await api(`/api/withdrawals/${res.data.id}`, { token: stranger.token });
    expect(read.status).toBe(404);
  });

  it("a forged Squad notice is refused and a replayed one moves no withdrawal: only our own re-query settles one", async () => {
    const { user } = await customerWithAccount(500_000);
    await scriptNextTransfer(env, "fail");
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 2000 }, settle: true });
    expect(res.data.state).toBe("failed");
    const raw = squadWebhookRaw(res.data.reference, 200_000, user.email);
    const forged = await postSquadWebhook(raw, "00".repeat(64));
    expect(forged.status).toBe(401);
    const replayed = await postSquadWebhook(raw);
    expect(replayed.status).toBeLessThan(500);
    await postSquadWebhook(raw);
    expect((await withdrawalRows(user.id)).map((r) => r.status)).toEqual(["failed"]);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerKeys(user.id, "withdraw_back:%")).toHaveLength(1);
    await expectLedgerBalanced();
  });
});

describe("notices (issue 45): e-mail, push and the developer webhooks withdrawal.*", () => {
  // The receiver answers 2xx (no request leaves the test).
  beforeAll(() => useTestUpstreams({ webhooks: async () => new Response("ok") }));
  afterAll(() => useTestUpstreams({ webhooks: null }));
  async function webhookTypes(keyId: string) {
    return (await env.DB.prepare("SELECT type, payload FROM webhook_events WHERE api_key_id = ? ORDER BY created_at, rowid").bind(keyId).all<{ type: string; payload: string }>()).results;
  }
  async function mails(userId: string) {
    return (
      await env.DB.prepare("SELECT target, payload FROM channel_deliveries WHERE user_id = ? AND channel = 'email' ORDER BY created_at, rowid").bind(userId).all<{ target: string; payload: string }>()
    ).results.map((r) => ({ to: r.target, ...(JSON.parse(r.payload) as { subject: string; text: string }) }));
  }

  it("a paid withdrawal tells the key's webhook withdrawal.requested then withdrawal.paid, and e-mails both, once each", async () => {
    const { user, account } = await customerWithAccount(500_000);
    const key = await createKey(user, "live");
    const hook = await api("/api/v1/webhook", { method: "PUT", headers: { authorization: `Bearer ${key.secret}` }, json: { url: "https://bot.example.com/hook" } });
    expect(hook.status).toBe(200);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: 1500 }, settle: true });
    expect(res.data.state).toBe("paid");
    await testServices().settle();
    const events = await webhookTypes(key.id);
    expect(events.map((e) => e.type).filter((t) => t.startsWith("withdrawal."))).toEqual(["withdrawal.requested", "withdrawal.paid"]);
    const paid = JSON.parse(events.find((e) => e.type === "withdrawal.paid")!.payload);
    expect(paid.data).toMatchObject({ withdrawal_id: res.data.id, status: "paid", amount: 1500, currency: "NGN", message: `Paid into GTBank ····${account.slice(-4)}` });
    expect(paid.data.url).toMatch(new RegExp(`/api/v1/withdrawals/${res.data.id}$`));
    // The hold moved the wallet: balance.changed beside the request.
    expect(events.some((e) => e.type === "balance.changed")).toBe(true);
    const sent = await mails(user.id);
    expect(sent.map((m) => m.subject)).toEqual(["Withdrawal of ₦1,500.00 on its way", "Withdrawal of ₦1,500.00 paid"].map((s) => expect.stringMatching(s.replace(".00", "(\\.00)?"))));
    expect(sent.every((m) => m.to === user.email)).toBe(true);
    expect(sent[1].text).toMatch(/Paid into GTBank/);
  });

  it("a failure is withdrawal.failed, a reversal withdrawal.reversed, an operator's refusal withdrawal.failed with status refused", async () => {
    const { user } = await customerWithAccount(1_000_000);
    const key = await createKey(user, "live");
    await api("/api/v1/webhook", { method: "PUT", headers: { authorization: `Bearer ${key.secret}` }, json: { url: "https://bot.example.com/hook" } });
    await scriptNextTransfer(env, "fail");
    const failed = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 }, settle: true });
    expect(failed.data.state).toBe("failed");
    const paid = await api("/api/withdrawals", { token: user.token, json: { amount: 1200 }, settle: true });
    expect(await reverseSandboxTransfer(env, paid.data.reference)).toBe(true);
    const services = testServices();
    await sweepWithdrawals(services.payments);
    await services.settle();
    await settings({ approval_above_naira: 1500 });
    const big = await api("/api/withdrawals", { token: user.token, json: { amount: 2000 } });
    expect(big.data.state).toBe("approval");
    const operator = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), operator.sessionId).run();
    expect((await api(`/api/admin/withdrawals/${big.data.id}/refuse`, { token: operator.token, json: { reason: "Checking the account" }, settle: true })).status).toBe(200);
    await services.settle();
    const told = (await webhookTypes(key.id)).filter((e) => e.type.startsWith("withdrawal.")).map((e) => {
      const body = JSON.parse(e.payload);
      return `${e.type}:${body.data.withdrawal_id === failed.data.id ? "a" : body.data.withdrawal_id === paid.data.id ? "b" : "c"}:${body.data.status}`;
    });
    expect(told).toEqual([
      "withdrawal.requested:a:held",
      "withdrawal.failed:a:failed",
      "withdrawal.requested:b:held",
      "withdrawal.paid:b:paid",
      "withdrawal.reversed:b:reversed",
      "withdrawal.requested:c:approval",
      "withdrawal.failed:c:refused",
    ]);
    expect((await mails(user.id)).map((m) => m.subject.replace(/ of ₦[\d,.]+/, ""))).toEqual([
      "Withdrawal on its way",
      "Withdrawal failed",
      "Withdrawal on its way",
      "Withdrawal paid",
      "Withdrawal reversed",
      "Withdrawal waits for approval",
      "Withdrawal refused",
    ]);
  });

  it("a push says the same, under the customer's own 'Cash out' choice", () => {
    const words = pushWordsFor(
      { kind: "withdrawal.changed", withdrawalId: "wd_1", state: "failed", amount: 2000, message: "Failed — ₦2,000 is back in your wallet" },
      { webClient: configFor(env).webClient, hideCode: false, at: Date.now() },
    );
    expect(words).toMatchObject({ kind: "withdrawal", payload: { tag: "withdrawal:wd_1", body: "Failed — ₦2,000 is back in your wallet" } });
    expect(words?.payload.title).toMatch(/^Withdrawal of ₦2,000(\.00)? failed$/);
    expect(PUSH_KINDS).toContain("withdrawal");
    expect(pushWordsFor({ kind: "withdrawal.changed", withdrawalId: "wd_1", state: "sending", amount: 2000, message: "Sending" }, { webClient: configFor(env).webClient, hideCode: false, at: 0 })).toBeNull();
  });
});

describe("GET /api/admin/withdrawals pages like the audit log", () => {
  it("newest first, `limit` rows a page, `before` the last id seen (ties on the time broken by id), and a state filter", async () => {
    const user = await createUser();
    const operator = await makeOperator();
    // Later than any other test's rows, so these three are the first page; two share the millisecond.
    const at = Date.UTC(2099, 0, 1);
    const ids = ["wd_" + "0".repeat(23) + "1", "wd_" + "0".repeat(23) + "2", "wd_" + "0".repeat(23) + "3"];
    const made: Array<[string, number, string]> = [
      [ids[0]!, at - 1000, "failed"],
      [ids[1]!, at, "paid"],
      [ids[2]!, at, "failed"],
    ];
    for (const [id, createdAt, status] of made) {
      await env.DB.prepare(
        "INSERT INTO withdrawals (id, user_id, amount_kobo, fee_kobo, bank_code, account_number, account_name, reference, status, created_at, updated_at) VALUES (?, ?, 100000, 0, ?, '0123456789', 'ADA OBI', ?, ?, ?, ?)",
      ).bind(id, user.id, BANK, `ref_${id}`, status, createdAt, createdAt).run();
    }
    const list = async (query: string) => {
      const res = await api(`/api/admin/withdrawals?${query}`, { token: operator.token });
      expect(res.status).toBe(200);
      return (res.data.data as Array<{ id: string; state: string }>).map((r) => r.id);
    };
    expect(await list("limit=2")).toEqual([ids[2], ids[1]]);
    expect((await list(`limit=2&before=${ids[1]}`))[0]).toBe(ids[0]);
    expect(await list(`limit=1&before=${ids[2]}`)).toEqual([ids[1]]);
    expect(await list(`state=failed&limit=2`)).toEqual([ids[2], ids[0]]);
    expect(await list(`before=wd_${"f".repeat(24)}`)).toEqual([]);
    const bad = await api("/api/admin/withdrawals?limit=500", { token: operator.token });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toMatch(/limit is at most 200/);
    expect((await api("/api/admin/withdrawals?before=12", { token: operator.token })).status).toBe(400);
  });
});

describe("POST /api/v1/withdrawals and GET /api/v1/withdrawals/{id}: the key's scope withdraw stands in for the step-up", () => {
  const v1 = (secret: string, idempotencyKey?: string) => ({ authorization: `Bearer ${secret}`, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) });
  const scopes = (user: TestUser, keyId: string, list: string[]) => api(`/api/keys/${keyId}/scopes`, { method: "PUT", token: user.token, json: { scopes: list } });

  it("only an owner with a passkey or TOTP proved in the last 10 minutes may grant withdraw, and only to a live key", async () => {
    const { user } = await customerWithAccount(500_000);
    const live = await createKey(user, "live");
    const noFactor = await scopes(user, live.id, ["withdraw"]);
    expect(noFactor.status).toBe(403);
    expect(noFactor.data.message).toMatch(/needs a passkey or two-factor codes/);
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    // A password proved a minute ago is no second factor.
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ?, reauthenticated_at = ? WHERE id = ?").bind(Date.now() - 3_600_000, Date.now() - 60_000, user.sessionId).run();
    const stale = await scopes(user, live.id, ["withdraw"]);
    expect(stale.status).toBe(403);
    expect(stale.data).toMatchObject({ code: "STEP_UP_REQUIRED", methods: ["totp"] });
    expect((await api("/api/keys", { token: user.token })).data.data[0].scopes).toEqual([]);
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), user.sessionId).run();
    const granted = await scopes(user, live.id, ["withdraw"]);
    expect(granted.status).toBe(200);
    expect(granted.data.scopes).toEqual(["withdraw"]);
    const test = await createKey(user, "test");
    const onTest = await scopes(user, test.id, ["withdraw"]);
    expect(onTest.status).toBe(400);
    expect(onTest.data.message).toMatch(/Only a live key/);
    const unknown = await scopes(user, live.id, ["admin"]);
    expect(unknown.status).toBe(400);
    // Taking it away needs no second factor.
    await env.DB.prepare("UPDATE sessions SET second_factor_at = NULL WHERE id = ?").bind(user.sessionId).run();
    expect((await scopes(user, live.id, [])).data.scopes).toEqual([]);
    const stranger = await createUser();
    expect((await scopes(stranger, live.id, [])).status).toBe(404);
  });

  it("granting or removing withdraw e-mails the owner a security notice; an unchanged set or a refused grant does not", async () => {
    const { user } = await customerWithAccount(500_000);
    const live = await createKey(user, "live", "Payroll bot");
    const notices = async () =>
      (await env.DB.prepare("SELECT subject, body FROM email_outbox WHERE \"to\" = ? AND subject LIKE '%API key%' ORDER BY id").bind(user.email).all<{ subject: string; body: string }>()).results;
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), user.sessionId).run();
    // A refused grant (a test key) tells nothing: nothing changed.
    const test = await createKey(user, "test");
    expect((await scopes(user, test.id, ["withdraw"])).status).toBe(400);
    expect(await notices()).toEqual([]);

    expect((await scopes(user, live.id, ["withdraw"])).status).toBe(200);
    const granted = await notices();
    expect(granted).toHaveLength(1);
    expect(granted[0]!.subject).toBe("An API key can now withdraw money");
    expect(granted[0]!.body).toContain("A key can now withdraw money from your wallet");
    expect(granted[0]!.body).toContain('"Payroll bot"');
    expect(granted[0]!.body).not.toContain(live.secret);

    // The same set again changes nothing and says nothing.
    expect((await scopes(user, live.id, ["withdraw"])).status).toBe(200);
    expect(await notices()).toHaveLength(1);

    expect((await scopes(user, live.id, [])).status).toBe(200);
    const after = await notices();
    expect(after.map((m) => m.subject)).toEqual(["An API key can now withdraw money", "An API key can no longer withdraw money"]);
    expect(after[1]!.body).toContain('"Payroll bot" can no longer withdraw');
    expect((await scopes(user, live.id, [])).status).toBe(200);
    expect(await notices()).toHaveLength(2);
  });

  it("withdraws once per Idempotency-Key, reads it back, refuses a key without the scope, and another account's is 404", async () => {
    const { user, account } = await customerWithAccount(500_000);
    const key = await createKey(user, "live");
    const idem = crypto.randomUUID();
    const unscoped = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, idem), json: { amount: 1500 } });
    expect(unscoped.status).toBe(403);
    expect(unscoped.data.message).toMatch(/may not withdraw.*Settings → API/);
    expect(await balanceOf(user.id)).toBe(500_000);

    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), user.sessionId).run();
    expect((await scopes(user, key.id, ["withdraw"])).status).toBe(200);
    // The key needs no session and no step-up: a stale second factor on the web does not matter to it.
    await env.DB.prepare("UPDATE sessions SET second_factor_at = NULL WHERE id = ?").bind(user.sessionId).run();
    const idem2 = crypto.randomUUID();
    const made = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, idem2), json: { amount: 1500 }, settle: true });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ status: "paid", amount: 1500, fee: 0, currency: "NGN", bank_name: "GTBank", account_last4: account.slice(-4) });
    const replay = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, idem2), json: { amount: 1500 } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.data.id).toBe(made.data.id);
    const otherBody = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, idem2), json: { amount: 1600 } });
    expect(otherBody.status).toBe(422);
    expect(await ledgerKeys(user.id, "withdraw:%")).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(500_000 - 150_000);

    const read = await api(`/api/v1/withdrawals/${made.data.id}`, { headers: v1(key.secret) });
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ id: made.data.id, status: "paid", message: `Paid into GTBank ····${account.slice(-4)}` });
    const stranger = await createUser();
    const strangerKey = await createKey(stranger, "live");
    expect((await api(`/api/v1/withdrawals/${made.data.id}`, { headers: v1(strangerKey.secret) })).status).toBe(404);
    const fractional = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, crypto.randomUUID()), json: { amount: 1000.005 } });
    expect(fractional.status).toBe(400);
    const tooMuch = await api("/api/v1/withdrawals", { method: "POST", headers: v1(key.secret, crypto.randomUUID()), json: { amount: 4000 } });
    expect(tooMuch.status).toBe(422);
    expect(await balanceOf(user.id)).toBe(500_000 - 150_000);
    await expectLedgerBalanced();
  });
});

describe("the console (issue 45): the second-operator rule for large approvals, and what is owed to customers", () => {
  async function freshOperator() {
    const operator = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), operator.sessionId).run();
    return operator;
  }

  it("approving one above approval_threshold waits for a second operator (202, still held); the second approves it once and it is sent", async () => {
    await settings({ approval_above_naira: 3000 });
    await putSetting(db(), "approval_threshold", { naira: 3500 });
    try {
      const { user } = await customerWithAccount(1_000_000);
      const [alice, bola] = [await freshOperator(), await freshOperator()];
      const big = await api("/api/withdrawals", { token: user.token, json: { amount: 4000 } });
      expect(big.data.state).toBe("approval");
      const overview = await api("/api/admin/overview?period=today", { token: alice.token });
      expect(overview.data.owedToCustomers.heldForWithdrawals).toBeGreaterThanOrEqual(4000);
      expect(overview.data.owedToCustomers.total).toBe(Math.round((overview.data.owedToCustomers.balances + overview.data.owedToCustomers.heldForWithdrawals) * 100) / 100);

      const asked = await api(`/api/admin/withdrawals/${big.data.id}/approve`, { token: alice.token, json: { reason: "Known reseller" } });
      expect(asked.status).toBe(202);
      expect(asked.data.approval).toMatchObject({ kind: "withdrawal", status: "pending", requestedByMe: true, amount: -4000 });
      expect(asked.data.data.state).toBe("approval");
      expect((await api(`/api/admin/withdrawals/${big.data.id}/approve`, { token: alice.token, json: { reason: "Known reseller" } })).data.approval.id).toBe(asked.data.approval.id);
      const own = await api(`/api/admin/approvals/${asked.data.approval.id}/approve`, { token: alice.token, json: { reason: "me again" } });
      expect(own.status).toBe(403);
      expect((await withdrawalRows(user.id))[0].status).toBe("approval");

      const ok = await api(`/api/admin/approvals/${asked.data.approval.id}/approve`, { token: bola.token, json: { reason: "Checked the account" } });
      expect(ok.status).toBe(200);
      expect((await api(`/api/withdrawals/${big.data.id}`, { token: user.token })).data.state).toBe("paid");
      expect(await balanceOf(user.id)).toBe(600_000);
      const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE subject = ? ORDER BY id").bind(big.data.id).all<{ action: string }>();
      expect(audit.results.map((r) => r.action)).toEqual(["withdrawal.approve"]);
      expect((await api(`/api/admin/approvals/${asked.data.approval.id}/approve`, { token: bola.token, json: { reason: "twice" } })).status).toBe(409);

      // Refused meanwhile: the second operator's approval changes nothing and says why.
      const other = await api("/api/withdrawals", { token: user.token, json: { amount: 3600 } });
      const asked2 = await api(`/api/admin/withdrawals/${other.data.id}/approve`, { token: alice.token, json: { reason: "Fine" } });
      expect(asked2.status).toBe(202);
      expect((await api(`/api/admin/withdrawals/${other.data.id}/refuse`, { token: bola.token, json: { reason: "Name looks off" } })).status).toBe(200);
      const late = await api(`/api/admin/approvals/${asked2.data.approval.id}/approve`, { token: bola.token, json: { reason: "ok" } });
      expect(late.status).toBe(409);
      expect(late.data.message).toMatch(/no longer waiting for approval/);
      expect(await balanceOf(user.id)).toBe(600_000);
      await expectLedgerBalanced();
    } finally {
      await putSetting(db(), "approval_threshold", SETTING_DEFAULTS.approval_threshold);
    }
  });
});

describe("reconcile-payouts (issue 45): our withdrawals against Squad's transfer list, by reference", () => {
  it("agrees after a paid and a failed one, and names each difference: paid twice, missing at Squad, unknown to us", async () => {
    const { user } = await customerWithAccount(1_000_000);
    const paid = await api("/api/withdrawals", { token: user.token, json: { amount: 1000 }, settle: true });
    await scriptNextTransfer(env, "fail");
    const failed = await api("/api/withdrawals", { token: user.token, json: { amount: 1100 }, settle: true });
    expect([paid.data.state, failed.data.state]).toEqual(["paid", "failed"]);
    const squadClient = testServices().payments.provider.squadPayouts;
    const ours = async () =>
      (await env.DB.prepare("SELECT id, reference, status, amount_kobo AS amountKobo FROM withdrawals WHERE user_id = ?").bind(user.id).all<OurPayout>()).results;
    const mine = new Set((await ours()).map((w) => w.reference));
    const scoped = async () => (await squadClient.listTransfers()).filter((r) => mine.has(r.transactionReference));
    const clean = comparePayouts("2026-11-29", await ours(), await scoped(), { referencePrefix: squadClient.reference("wd_"), isOurs: (r) => mine.has(r) });
    expect(clean.differences).toEqual([]);
    expect(clean.ours).toEqual({ count: 2, paid: 1000 });

    // Tampered: ours says failed where Squad paid; ours says paid where Squad has nothing; Squad lists one we never made.
    const tampered = (await ours()).map((w) => (w.id === paid.data.id ? { ...w, status: "failed" } : w));
    tampered.push({ id: "wd_ghost", reference: squadClient.reference("wd_ghost0000000000000000"), status: "paid", amountKobo: 50_000 });
    const stranger = { transactionReference: squadClient.reference("wd_unknown000000000000000"), status: "success" as const, amountKobo: 70_000, nipReference: null, description: "" };
    const report = comparePayouts("2026-11-29", tampered, [...(await scoped()), stranger], { referencePrefix: squadClient.reference("wd_"), isOurs: (r) => mine.has(r) });
    expect(report.ok).toBe(false);
    expect(report.differences.map((d) => [d.kind, d.reference])).toEqual([
      ["status", paid.data.reference],
      ["ours_only", squadClient.reference("wd_ghost0000000000000000")],
      ["squad_only", stranger.transactionReference],
    ]);
    expect(report.differences[0].note).toMatch(/went out twice/);
  });
});
