import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, balanceOf, createUser, expectLedgerBalanced, type TestUser } from "../../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { smsDeps } from "../../test/services";
import { pollSmsOrderTick } from "./sms-poll";
import { canUseAgain, USE_AGAIN_WITHIN_MS } from "./use-again";

// "Use this number again" (issue 32) end to end over HTTP: the real Swift adapter against the DaisySMS simulator
// (getExtraActivation written from https://daisysms.com/docs/api), the orders table's button flag, the confirm step's
// quote, the new order's own debit, code and refund; sms-man (no such call) offers nothing.

const started: string[] = [];
beforeEach(() => resetSmsTestState());
afterEach(async () => {
  restoreSmsProviders();
  for (const id of started.splice(0)) await runInDurableObject(pollerOf(id), (_o, state) => state.storage.deleteAlarm());
});

async function usedOrder(user: TestUser, choice = { provider: "Swift", country: "5", service: "wa" }) {
  const res = await api("/api/sms/get-number", { token: user.token, json: choice });
  expect(res.status).toBe(200);
  const id: string = res.data.phone.request_id;
  started.push(id);
  await pollSmsOrderTick(smsDeps(env), id); // the sandbox's code is there at once in tests (delay 0)
  // Its own activation window (another code for free) is over: only then is the number "used again".
  await env.DB.prepare("UPDATE sms_orders SET activation_closes_at = ? WHERE id = ?").bind(Date.now() - 1000, id).run();
  const row = await env.DB.prepare("SELECT status, number FROM sms_orders WHERE id = ?").bind(id).first<{ status: string; number: string }>();
  expect(row!.status).toBe("used");
  return { id, number: row!.number, price: res.data.price as number };
}

const rowOf = async (user: TestUser, id: string) => ((await api("/api/orders", { token: user.token })).data.data as { reference_code: string; use_again?: true }[]).find((r) => r.reference_code === id);

describe("Use this number again", () => {
  it("shows the price and the wait first, then buys the same number as a new order with its own debit and code", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const past = await usedOrder(user);
    expect((await rowOf(user, past.id))?.use_again).toBe(true);

    const quote = await api(`/api/sms/use-again/${past.id}`, { token: user.token });
    expect(quote.status).toBe(200);
    expect(quote.data).toMatchObject({ request_id: past.id, number: past.number, service: "WhatsApp", country: "USA", price: past.price, typical_wait_seconds: null });
    expect(quote.data.refund_after_seconds).toBeGreaterThan(0);

    const before = await balanceOf(user.id);
    const res = await api("/api/sms/use-again", { token: user.token, json: { request_id: past.id, price: quote.data.price } });
    expect(res.status).toBe(200);
    const id: string = res.data.phone.request_id;
    started.push(id);
    expect(id).not.toBe(past.id);
    expect(res.data.phone.number).toBe(past.number);
    expect(await balanceOf(user.id)).toBe(before - Math.round(quote.data.price * 100));
    const debit = await env.DB.prepare("SELECT amount_kobo FROM ledger WHERE key = ?").bind(`buy:${id}`).first<{ amount_kobo: number }>();
    expect(debit!.amount_kobo).toBe(-Math.round(quote.data.price * 100));

    // Its own poller finds its own code.
    expect(await runDurableObjectAlarm(pollerOf(id))).toBe(true);
    const row = await env.DB.prepare("SELECT status, code FROM sms_orders WHERE id = ?").bind(id).first<{ status: string; code: string }>();
    expect(row).toMatchObject({ status: "used", code: expect.stringMatching(/^\d{6}$/) });
    await expectLedgerBalanced();
  });

  it("refunds the new order at once when the upstream will not give the number again, and times out with a refund like any order", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const past = await usedOrder(user);
    // Upstream forgot the past activation: BAD_ID.
    await env.DB.prepare("DELETE FROM sandbox_state WHERE key = (SELECT 'sms-activation:' || upstream_id FROM sms_orders WHERE id = ?)").bind(past.id).run();
    const before = await balanceOf(user.id);
    const refused = await api("/api/sms/use-again", { token: user.token, json: { request_id: past.id, price: past.price } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.data).toMatchObject({ refunded: true });
    expect(await balanceOf(user.id)).toBe(before);

    const other = await usedOrder(user);
    const res = await api("/api/sms/use-again", { token: user.token, json: { request_id: other.id, price: other.price } });
    const id: string = res.data.phone.request_id;
    started.push(id);
    // Hold the code back upstream, then let every poll come up empty: timeout and its own refund:<id>.
    await env.DB.prepare("UPDATE sandbox_state SET value = json_set(value, '$.createdAt', ?) WHERE key = (SELECT 'sms-activation:' || upstream_id FROM sms_orders WHERE id = ?)").bind(Date.now() + 3_600_000, id).run();
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(id).run();
    await pollSmsOrderTick(smsDeps(env), id);
    const row = await env.DB.prepare("SELECT status FROM sms_orders WHERE id = ?").bind(id).first<{ status: string }>();
    expect(row!.status).toBe("timeout");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${id}`).first<{ n: number }>()).toEqual({ n: 1 });
    await expectLedgerBalanced();
  });

  it("is 404 on another customer's order, refuses a lower shown price, and asks for the price shown", async () => {
    const owner = await createUser({ balanceKobo: 500_000 });
    const stranger = await createUser({ balanceKobo: 500_000 });
    const past = await usedOrder(owner);
    expect((await api(`/api/sms/use-again/${past.id}`, { token: stranger.token })).status).toBe(404);
    expect((await api("/api/sms/use-again", { token: stranger.token, json: { request_id: past.id, price: past.price } })).status).toBe(404);
    const cheap = await api("/api/sms/use-again", { token: owner.token, json: { request_id: past.id, price: past.price / 2 } });
    expect(cheap.status).toBe(409);
    expect(cheap.data.code).toBe("PRICE_CHANGED");
    const unpriced = await api("/api/sms/use-again", { token: owner.token, json: { request_id: past.id } });
    expect(unpriced.status).toBe(400);
    expect(unpriced.data.message).toMatch(/price/);
    expect(await balanceOf(owner.id)).toBe(500_000 - Math.round(past.price * 100));
  });

  it("offers no button where the upstream has no such call (sms-man) and refuses it there", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const past = await usedOrder(user, { provider: "Dynamic", country: "12", service: "21" });
    expect(await rowOf(user, past.id)).not.toHaveProperty("use_again");
    const res = await api(`/api/sms/use-again/${past.id}`, { token: user.token });
    expect(res.status).toBe(409);
    expect(res.data.message).toMatch(/cannot be used again/);
  });

  it("needs a code received, the number's own window over, and a purchase within 30 days", () => {
    const now = 10 * USE_AGAIN_WITHIN_MS;
    const base = { status: "used" as const, upstreamId: "1", number: "1202", createdAt: now - 60_000, activationClosesAt: now - 1, anotherCodeRequestedAt: null };
    expect(canUseAgain(base, true, now)).toBe(true);
    expect(canUseAgain(base, false, now)).toBe(false);
    expect(canUseAgain({ ...base, status: "timeout" }, true, now)).toBe(false);
    expect(canUseAgain({ ...base, activationClosesAt: now + 1 }, true, now)).toBe(false);
    expect(canUseAgain({ ...base, createdAt: now - USE_AGAIN_WITHIN_MS - 1 }, true, now)).toBe(false);
  });
});
