import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// Several numbers at once (POST /api/sms/get-numbers): each number its own order, debit and refund.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function moneyRows(userId: string) {
  const { results } = await env.DB.prepare("SELECT key, amount_kobo, kind, ref FROM ledger WHERE user_id = ? AND kind <> 'admin' ORDER BY id")
    .bind(userId)
    .all<{ key: string; amount_kobo: number; kind: string; ref: string }>();
  return results;
}

// 'Sandbox No-SMS' (sbxnosms) is ₦120: $0.05 × 1600 × 1.5.
const NO_SMS = { provider: "Swift", country: "5", service: "sbxnosms" } as const;

describe("POST /api/sms/get-numbers", () => {
  it("buys three numbers as three orders, each with its own debit; cancelling one refunds only that one", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, price: 120, quantity: 3 } });
    expect(res.status).toBe(200);
    expect(res.data.requested).toBe(3);
    expect(res.data.error).toBeNull();
    const ids: string[] = res.data.orders.map((o: { phone: { request_id: string } }) => o.phone.request_id);
    expect(new Set(ids).size).toBe(3);
    expect(new Set(res.data.orders.map((o: { phone: { number: string } }) => o.phone.number)).size).toBe(3);
    expect(await balanceOf(user.id)).toBe(100_000 - 3 * 12_000);
    expect(await moneyRows(user.id)).toEqual(ids.map((id) => ({ key: `buy:${id}`, amount_kobo: -12_000, kind: "buy", ref: id })));

    const cancel = await api("/api/sms/cancel", { token: user.token, json: { request_id: ids[1] } });
    expect(cancel.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(100_000 - 2 * 12_000);
    expect((await moneyRows(user.id)).filter((r) => r.kind === "refund")).toEqual([{ key: `refund:${ids[1]}`, amount_kobo: 12_000, kind: "refund", ref: ids[1] }]);
    expect((await api(`/api/sms/status/${ids[0]}`, { token: user.token })).data.status).toBe("waiting");
    for (const id of ids) await pollerOf(id).stop();
    await expectLedgerBalanced();
  });

  it("with next_route each number is its own chain: two time out, each moves on once on its own, each paid once for its code", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, quantity: 2, next_route: { cap: 5000 } } });
    expect(res.status).toBe(200);
    const ids: string[] = res.data.orders.map((o: { phone: { request_id: string } }) => o.phone.request_id);
    expect(ids).toHaveLength(2);
    const chains = await env.DB.prepare("SELECT id, current_order_id FROM sms_chains WHERE user_id = ? ORDER BY id").bind(user.id).all<{ id: string; current_order_id: string }>();
    expect(chains.results.map((c) => c.id).sort()).toEqual([...ids].sort());

    // Both USA No-SMS numbers run out of polls: each chain buys its own next route (never one shared number).
    for (const id of ids) {
      await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(id).run();
      await runDurableObjectAlarm(pollerOf(id));
    }
    const nexts: string[] = [];
    for (const id of ids) {
      const status = await api(`/api/sms/status/${id}`, { token: user.token });
      expect(status.data).toMatchObject({ status: "timeout", chain: { id, step: 1 } });
      nexts.push(status.data.chain.next_request_id);
    }
    expect(new Set(nexts).size).toBe(2);
    const routes = await env.DB.prepare("SELECT chain_id, chain_step, status, price_kobo FROM sms_orders WHERE user_id = ? AND chain_step = 2").bind(user.id).all<{ chain_id: string; price_kobo: number }>();
    expect(routes.results.map((r) => r.chain_id).sort()).toEqual([...ids].sort());

    // Each next number gets its code (the sandbox texts numbers outside the USA): each chain ends delivered, and the
    // customer pays for exactly the two numbers that delivered; both first numbers were refunded once.
    for (const id of nexts) await runDurableObjectAlarm(pollerOf(id));
    for (const id of nexts) expect((await api(`/api/sms/status/${id}`, { token: user.token })).data).toMatchObject({ status: "completed", state: "used", chain: { status: "ended" } });
    expect(await balanceOf(user.id)).toBe(1_000_000 - routes.results.reduce((sum, r) => sum + r.price_kobo, 0));
    expect((await moneyRows(user.id)).filter((r) => r.kind === "refund").map((r) => r.ref).sort()).toEqual([...ids].sort());
    for (const id of [...ids, ...nexts]) await pollerOf(id).stop();
    await expectLedgerBalanced();
  });

  it("stops when the wallet runs out: what was bought stays bought, the reason is given, nothing else is charged", async () => {
    const user = await createUser({ balanceKobo: 30_000 });
    const res = await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, quantity: 5 } });
    expect(res.status).toBe(200);
    expect(res.data.orders).toHaveLength(2);
    expect(res.data.error).toEqual({ code: "INSUFFICIENT_BALANCE", message: "Insufficient balance" });
    expect(await balanceOf(user.id)).toBe(6_000);
    expect(await moneyRows(user.id)).toHaveLength(2);
    for (const o of res.data.orders) await pollerOf(o.phone.request_id).stop();
    await expectLedgerBalanced();
  });

  it("holds the max price for every number, refuses a first number like get-number, and allows 1 to 5", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const capped = await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, max_price: 100, quantity: 2 } });
    expect(capped.status).toBe(409);
    expect(capped.data).toMatchObject({ code: "PRICE_CHANGED", price: 120, max_price: 100 });
    const tooMany = await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, quantity: 6 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.message).toMatch(/At most 5 numbers/);
    expect((await api("/api/sms/get-numbers", { token: user.token, json: { ...NO_SMS, quantity: 0 } })).status).toBe(400);
    expect((await api("/api/sms/get-numbers", { json: { ...NO_SMS, quantity: 1 } })).status).toBe(401);
    expect(await balanceOf(user.id)).toBe(100_000);
    expect(await moneyRows(user.id)).toEqual([]);
  });
});
