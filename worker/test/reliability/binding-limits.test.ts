import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BINDING_LIMITS } from "../../services/kernel";
import { api, createUser } from "../helpers";
import { setActivationCodeArrived, upstreamIdOf } from "./invariants";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../sms-fixtures";
import { inOneWindow, WINDOW_NEEDED_MS } from "../rate-windows";

/**
 * Issue 44 (decision 073): the per-address and check-now throttles run on the Workers Rate Limiting binding
 * (wrangler.toml [[ratelimits]]), with no D1 row; the numbers the code states (BINDING_LIMITS) are the bindings'.
 */

beforeEach(() => resetSmsTestState());
afterEach(() => restoreSmsProviders());

describe("the Rate Limiting bindings", () => {
  it("are configured with BINDING_LIMITS' numbers (wrangler.toml and the code agree)", async () => {
    for (const [name, { limit, periodSeconds }] of Object.entries(BINDING_LIMITS)) {
      expect([10, 60]).toContain(periodSeconds);
      await inOneWindow(periodSeconds, WINDOW_NEEDED_MS);
      const key = `config-check:${crypto.randomUUID()}`;
      const binding = env[name as keyof typeof BINDING_LIMITS];
      const outcomes = [];
      for (let i = 0; i <= limit; i++) outcomes.push((await binding.limit({ key })).success);
      expect(outcomes.filter(Boolean)).toHaveLength(limit);
      expect(outcomes.at(-1)).toBe(false);
    }
  });

  it("Check Now past 30 a minute answers the one 429 with retry_after, and writes no D1 counter for it", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(bought.status).toBe(200);
    const orderId = (bought.data as { phone: { request_id: string } }).phone.request_id;
    await pollerOf(orderId).stop();
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", orderId), false);
    const { limit, periodSeconds } = BINDING_LIMITS.CHECK_NOW_LIMITER;
    await inOneWindow(periodSeconds, WINDOW_NEEDED_MS);
    const check = () => api(`/api/sms/check/${orderId}`, { method: "POST", token: user.token, json: {} });
    for (let i = 0; i < limit; i++) expect((await check()).status).toBe(200);
    const limited = await check();
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ code: "RATE_LIMITED", retry_after: periodSeconds });
    expect(limited.headers.get("retry-after")).toBe(String(periodSeconds));
    // Only the purchase's cost limit (in its batch, D1) has a row for this account; Check Now's counter is the binding's.
    expect((await env.DB.prepare("SELECT key FROM rate_limits WHERE key LIKE ?").bind(`%${user.id}%`).all()).results).toEqual([{ key: `cost:smsBuy:${user.id}` }]);
  });
});
