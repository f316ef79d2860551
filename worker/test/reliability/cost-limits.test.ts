import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { COST_LIMITS, type CostAction } from "../../services/kernel";
import { createKey, handler } from "../api-fixtures";
import { api, balanceOf, createUser, type ApiReply } from "../helpers";

/**
 * Issue 12, hole 6: per-account limits on every action that costs an upstream call or creates an object, with the one
 * 429 body and Retry-After, shared by the web app, /api/v1 and /stubs/handler_api.php (they live in the services).
 * One real burst proves the counting; the other actions fast-forward their counter to the limit (hundreds of real
 * purchases would only make the suite slow) and prove the next one is refused before anything is written or bought.
 */

const HEAVY = { timeout: 60_000 };

function expectLimited(res: ApiReply, what: string): void {
  expect(res.status, what).toBe(429);
  expect(res.data, what).toMatchObject({ code: "RATE_LIMITED", message: expect.any(String), error: expect.any(String), retry_after: expect.any(Number) });
  expect(res.data.retry_after, what).toBeGreaterThan(0);
  expect(res.data.retry_after, what).toBeLessThanOrEqual(60);
  expect(res.headers.get("retry-after"), what).toBe(String(res.data.retry_after));
}

async function fastForward(userId: string, action: CostAction): Promise<void> {
  const { limit, windowMs } = COST_LIMITS[action];
  await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at")
    .bind(`cost:${action}:${userId}`, limit, Date.now() + windowMs)
    .run();
}

const count = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;

describe("per-account cost limits (issue 12, hole 6)", HEAVY, () => {
  it("a burst of card checkouts: the first 20 open, the rest get the one 429; another account is not affected", async () => {
    const user = await createUser();
    const other = await createUser();
    const { limit } = COST_LIMITS.payment;
    const burst = await Promise.all(Array.from({ length: limit + 5 }, () => api("/api/initialize-transaction", { token: user.token, json: { amount: 5000 } })));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(limit);
    const refused = burst.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(5);
    for (const res of refused) expectLimited(res, "checkout");
    expect(await count("SELECT count(*) AS n FROM payments WHERE user_id = ?", user.id)).toBe(limit);
    // Invoices share the payment limit: the account cannot switch to crypto to open more objects.
    expectLimited(await api("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: "BTC" } }), "invoice");
    expect(await count("SELECT count(*) AS n FROM payments WHERE user_id = ?", user.id)).toBe(limit);
    expect((await api("/api/initialize-transaction", { token: other.token, json: { amount: 5000 } })).status).toBe(200);
  });

  it("Verify Payment clicks are limited per account", async () => {
    const user = await createUser();
    const checkout = await api("/api/initialize-transaction", { token: user.token, json: { amount: 5000 } });
    const ref = checkout.data.data.data.transaction_ref as string;
    expect((await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } })).status).toBe(200);
    await fastForward(user.id, "verify");
    expectLimited(await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } }), "verify");
    expectLimited(await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } }), "squad-callback");
  });

  it("SMS purchases share one limit on the web, /api/v1 and handler_api.php: nothing bought, nothing debited", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    await fastForward(user.id, "smsBuy");
    expectLimited(await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } }), "web buy");
    expectLimited(await api("/api/sms/get-numbers", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", quantity: 2 } }), "web multi-buy");
    expectLimited(
      await api("/api/v1/sms/orders", { method: "POST", headers: { authorization: `Bearer ${secret}`, "idempotency-key": crypto.randomUUID() }, json: { provider: "Swift", country: "5", service: "wa" } }),
      "/api/v1 buy",
    );
    const protocol = await handler({ api_key: secret, action: "getNumber", service: "wa", country: 187 });
    expect(protocol.status).toBe(429);
    expect(protocol.json).toMatchObject({ code: "RATE_LIMITED", retry_after: expect.any(Number) });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await count("SELECT count(*) AS n FROM sms_orders WHERE user_id = ?", user.id)).toBe(0);
  });

  it("SMS cancels are limited: the order stays waiting, nothing refunded twice", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    expect(bought.status).toBe(200);
    const orderId = bought.data.phone.request_id as string;
    await fastForward(user.id, "smsCancel");
    expectLimited(await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } }), "cancel");
    const status = await env.DB.prepare("SELECT status FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string }>();
    expect(status?.status).toBe("waiting");
  });

  it("rentals and API-key actions are limited: nothing created", async () => {
    const user = await createUser({ balanceKobo: 5_000_000 });
    await fastForward(user.id, "rental");
    expectLimited(await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "hour", period: 1 } }), "rent");
    expect(await count("SELECT count(*) AS n FROM rentals WHERE user_id = ?", user.id)).toBe(0);

    const key = await createKey(user, "live");
    await fastForward(user.id, "apiKey");
    expectLimited(await api("/api/keys", { token: user.token, json: { name: "one more", mode: "live" } }), "create key");
    expectLimited(await api(`/api/keys/${key.id}/revoke`, { method: "POST", token: user.token }), "revoke key");
    expectLimited(await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url: "https://hooks.example.com/x" } }), "webhook URL");
    expect(await count("SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL", user.id)).toBe(1);
  });
});
