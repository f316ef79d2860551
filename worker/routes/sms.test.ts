import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { smsFault } from "../providers/sms/types";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { useTestUpstreams } from "../test/services";

// The Receive-SMS API as the web client calls it, against the sandbox upstreams unless a test scripts a fake.

const stopPoller = (orderId: string) => pollerOf(orderId).stop();

async function ledgerRows(userId: string) {
  const { results } = await env.DB.prepare("SELECT key, amount_kobo, kind, note, ref FROM ledger WHERE user_id = ? AND kind <> 'admin' ORDER BY id")
    .bind(userId)
    .all<{ key: string; amount_kobo: number; kind: string; note: string; ref: string }>();
  return results;
}

// Whole order lives take many D1 round trips; on a busy shared machine they outlast the 5 s default.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("GET /api/sms/countries and /api/sms/price", () => {
  it("lists USA as 5 for Swift, and 20+ countries for Dynamic", async () => {
    const swift = await api("/api/sms/countries?provider=Swift");
    expect(swift.status).toBe(200);
    expect(swift.data).toEqual([{ id: "5", title: "USA" }]);
    const dynamic = await api("/api/sms/countries?provider=Dynamic");
    expect(dynamic.data.length).toBeGreaterThanOrEqual(21);
    expect(dynamic.data).toContainEqual({ id: "5", title: "USA" });
    expect((await api("/api/sms/countries?provider=Tiger")).status).toBe(400);
  });

  it("prices every service in kobo and naira with stock, discounted for the caller's tier", async () => {
    const anonymous = await api("/api/sms/price?id=5&provider=Swift");
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.data).length).toBeGreaterThanOrEqual(30);
    // $0.50 × 1600 = ₦800 (at most ₦1000, so low_cost 0.5) = ₦1,200
    // cost is the upstream's, in US cents (SPEC "minor units, divided by 100"); price the caller's naira.
    expect(anonymous.data.wa).toEqual({ country_id: "5", application_id: "wa", application: "WhatsApp", cost: 50, count: expect.any(Number), price: 1200 });
    expect(anonymous.data.wa.count).toBeGreaterThan(0);

    const silver = await createUser();
    await env.DB.prepare("UPDATE users SET total_deposited_kobo = ? WHERE id = ?").bind(60_000_00, silver.id).run();
    const discounted = await api("/api/sms/price?id=5&provider=Swift", { token: silver.token });
    expect(discounted.data.wa).toMatchObject({ cost: 50, price: 1176 }); // Silver: 2% off the price; the cost is the upstream's
    expect((await api("/api/sms/price?id=5&provider=Swift", { token: "not-a-token" })).status).toBe(401);
  });

  it("answers an upstream outage with a clear message, not a 500", async () => {
    const fake = new ScriptedSmsProvider();
    fake.services = async () => {
      throw smsFault("bad_reply", "<html>");
    };
    useTestUpstreams({ sms: () => fake });
    const res = await api("/api/sms/price?id=5&provider=Swift");
    expect(res.status).toBe(502);
    expect(res.data).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", message: expect.stringMatching(/unexpected reply/) });
  });
});

describe("POST /api/sms/get-number", () => {
  it("debits the server's price and answers the spec's shape; client user_id, email, actual are ignored", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const other = await createUser();
    const res = await api("/api/sms/get-number", {
      token: user.token,
      json: { provider: "Swift", country: "5", service: "wa", price: 1200, actual: 0.01, user_id: other.id, email: other.email },
    });
    expect(res.status).toBe(200);
    const orderId = res.data.phone.request_id;
    expect(res.data).toEqual({
      phone: { request_id: orderId, number: expect.stringMatching(/^1\d{10}$/) },
      table: { purchased_number: res.data.phone.number, sms: null, reference_code: orderId },
      debitRef: `buy:${orderId}`,
      price: 1200,
    });
    expect(await balanceOf(user.id)).toBe(380_000);
    expect(await balanceOf(other.id)).toBe(0);
    expect(await ledgerRows(user.id)).toEqual([
      { key: `buy:${orderId}`, amount_kobo: -120_000, kind: "buy", note: "WhatsApp number (USA)", ref: orderId },
    ]);
    await stopPoller(orderId);
    await expectLedgerBalanced();
  });

  it("charges the lower server price when the client showed more (here a tier discount), and says so", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    await env.DB.prepare("UPDATE users SET total_deposited_kobo = ? WHERE id = ?").bind(60_000_00, user.id).run();
    // The spec's client shows the starter price (₦1,200, as displayed text); a Silver customer pays 2% less.
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: "1,200.00" } });
    expect(res.status).toBe(200);
    const orderId = res.data.phone.request_id;
    expect(res.data).toMatchObject({ price: 1176, shown_price: 1200, message: "You were charged ₦1176.00, less than the ₦1200.00 shown." });
    expect(await ledgerRows(user.id)).toEqual([
      { key: `buy:${orderId}`, amount_kobo: -117_600, kind: "buy", note: "WhatsApp number (USA)", ref: orderId },
    ]);
    await stopPoller(orderId);
    await expectLedgerBalanced();
  });

  it("refuses a shown price that is not an amount with 400, before any debit", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: "twelve" } });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", message: "price must be the amount shown, in naira." });
    expect(await ledgerRows(user.id)).toEqual([]);
  });

  it("refuses a tampered client price with 409 and the new price, without a debit", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: 1 } });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "PRICE_CHANGED", price: 1200 });
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerRows(user.id)).toEqual([]);
    expect((await api("/api/orders", { token: user.token })).data.data).toEqual([]);
  });

  it("never charges above the customer's max price: 409 with the price and the ceiling, nothing written", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", max_price: 1199.99 } });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "PRICE_CHANGED", price: 1200, max_price: 1199.99, message: expect.stringMatching(/above your maximum of ₦1199\.99/) });
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerRows(user.id)).toEqual([]);
    expect((await api("/api/orders", { token: user.token })).data.data).toEqual([]);
    expect((await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", max_price: 0 } })).status).toBe(400);
  });

  it("charges the server's price when it is at or below the max price", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", max_price: 1200 } });
    expect(res.status).toBe(200);
    expect(res.data.price).toBe(1200);
    expect(await balanceOf(user.id)).toBe(380_000);
    await stopPoller(res.data.phone.request_id);
    await expectLedgerBalanced();
  });

  it("says 'Missing service or country' and 'Insufficient balance' as the spec does", async () => {
    const user = await createUser({ balanceKobo: 50_000 });
    const missing = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5" } });
    expect(missing.status).toBe(400);
    expect(missing.data.message).toBe("Missing service or country");
    const poor = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(poor.status).toBe(402);
    expect(poor.data).toMatchObject({ code: "INSUFFICIENT_BALANCE", message: "Insufficient balance" });
    // Issue 28: the refusal says what is missing, from the server's price and today's balance (the Fund wallet prefill).
    expect(poor.data).toMatchObject({ shortfall: 700, balance: 500, price: 1200 });
    expect(await balanceOf(user.id)).toBe(50_000);
    expect((await api("/api/sms/get-number", { json: { provider: "Swift", country: "5", service: "wa" } })).status).toBe(401);
  });

  it("refunds at once when the upstream refuses, and tells the customer why", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const fake = new ScriptedSmsProvider();
    fake.buyResult = smsFault("no_numbers");
    useTestUpstreams({ sms: () => fake });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(res.status).toBe(503);
    expect(res.data).toMatchObject({
      code: "NO_NUMBERS",
      message: expect.stringMatching(/No numbers available/),
      phone: { error_msg: expect.stringMatching(/No numbers available/) },
      refunded: true,
    });
    expect(await balanceOf(user.id)).toBe(500_000);
    const rows = await ledgerRows(user.id);
    expect(rows.map((r) => [r.kind, r.amount_kobo])).toEqual([
      ["buy", -120_000],
      ["refund", 120_000],
    ]);
    // An order without a number is not listed.
    expect((await api("/api/orders", { token: user.token })).data.data).toEqual([]);
    await expectLedgerBalanced();
  });

  it("never takes money when the upstream times out or answers garbage", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    for (const failure of [smsFault("timeout"), smsFault("bad_reply", "<html>"), smsFault("no_balance")]) {
      const fake = new ScriptedSmsProvider();
      fake.buyResult = failure;
      useTestUpstreams({ sms: () => fake });
      const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.data.message).not.toMatch(/html|balance/i);
      expect(await balanceOf(user.id)).toBe(500_000);
    }
    await expectLedgerBalanced();
  });
});

describe("status, cancel, refund-user and orders", () => {
  it("another user's order is 404 on status, cancel and refund-user", async () => {
    const owner = await createUser({ balanceKobo: 500_000 });
    const stranger = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: owner.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const orderId = bought.data.phone.request_id;
    expect((await api(`/api/sms/status/${orderId}`, { token: stranger.token })).status).toBe(404);
    const cancel = await api("/api/sms/cancel", { token: stranger.token, json: { request_id: orderId } });
    expect(cancel.status).toBe(404);
    expect(cancel.data.message).toBe("Order not found.");
    expect((await api("/api/refund-user", { token: stranger.token, json: { request_id: orderId } })).status).toBe(404);
    expect((await api(`/api/sms/status/${orderId}`, { token: owner.token })).data.status).toBe("waiting");
    expect(await balanceOf(stranger.id)).toBe(500_000);
    await stopPoller(orderId);
  });

  it("cancel releases the number and refunds once; repeating it changes nothing", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const orderId = bought.data.phone.request_id;
    const first = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId, debitref: "x", user_id: "y" } });
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ status: "cancelled", refunded: true, message: "cancelled purchase successfully" });
    const again = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } });
    expect(again.data.status).toBe("cancelled");
    const state = await api("/api/refund-user", { token: user.token, json: { request_id: orderId, cost: 999999 } });
    expect(state.data).toEqual({ request_id: orderId, status: "cancelled", refunded: true, amount: 120 }); // $0.05 × 1600 × 1.5
    // Issue 29: what the customer sees, decided by the server.
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data).toMatchObject({ state: "cancelled", phase: "cancelled" });
    expect(await balanceOf(user.id)).toBe(500_000);
    expect((await ledgerRows(user.id)).filter((r) => r.kind === "refund")).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it("cancel after the code came answers 409 with the code and keeps the money", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    const orderId = bought.data.phone.request_id;
    const cancel = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } });
    expect(cancel.status).toBe(409);
    expect(cancel.data).toMatchObject({ status: "used", refunded: false, sms: expect.stringMatching(/^\d{6}$/) });
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data).toMatchObject({ phase: "received", sms_code: cancel.data.sms });
    expect(await balanceOf(user.id)).toBe(380_000);
    await stopPoller(orderId);
    await expectLedgerBalanced();
  });

  it("lists the caller's orders with a number, newest first, in the spec's Order shape", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const first = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const second = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "12", service: "2" } });
    expect(second.status).toBe(200);
    const orders = await api("/api/orders", { token: user.token });
    expect(orders.status).toBe(200);
    expect(orders.data.data.map((o: { reference_code: string }) => o.reference_code)).toEqual([second.data.phone.request_id, first.data.phone.request_id]);
    expect(orders.data.data[0]).toEqual({
      kind: "sms",
      reference_code: second.data.phone.request_id,
      purchased_number: second.data.phone.number,
      sms: null,
      country: "Nigeria",
      service: "Telegram",
      provider: "Dynamic",
      amount: second.data.price,
      status: "waiting",
      balance: (await balanceOf(user.id)) / 100,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await stopPoller(first.data.phone.request_id);
    await stopPoller(second.data.phone.request_id);
  });
});
