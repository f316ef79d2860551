import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../index";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { COST_LIMITS, putSetting } from "../services/kernel";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { useTestUpstreams } from "../test/services";
import { balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// The purchase's D1 cost (README Performance: "purchase <= 3 round trips", bench/api.ts roundTrips) and the per-account
// cost limit folded into its order + debit batch (docs/decisions/031): the session, that batch, the number's update.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const BUY = { provider: "Swift", country: "5", service: "wa" };

/** POST /api/sms/get-number with the bench's D1 instrumentation on; the status, body and round trips counted. */
async function countedBuy(token: string, json: unknown = BUY) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request("http://127.0.0.1:8787/api/sms/get-number", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    }),
    { ...env, D1_METRICS: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = (await res.json()) as any;
  return { status: res.status, body, headers: res.headers, roundTrips: Number(res.headers.get("x-d1-round-trips")) };
}

async function atLimit(userId: string): Promise<void> {
  const { limit, windowMs } = COST_LIMITS.smsBuy;
  await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at")
    .bind(`cost:smsBuy:${userId}`, limit, Date.now() + windowMs)
    .run();
}

const rows = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;

describe("a purchase's D1 round trips", () => {
  it("costs at most 3 once the settings are cached, the cost limit included", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const first = await countedBuy(user.token); // the isolate's first purchase may read the poll setting
    expect(first.status).toBe(200);
    const second = await countedBuy(user.token);
    expect(second.status).toBe(200);
    expect(second.roundTrips).toBeLessThanOrEqual(3);
    // ...and the limit was counted for both: the folded upsert is the same counter enforceCostLimit keeps.
    expect(await rows("SELECT count AS n FROM rate_limits WHERE key = ?", `cost:smsBuy:${user.id}`)).toBe(2);
    for (const r of [first, second]) await pollerOf(r.body.phone.request_id).stop();
  });

  it("with the default routes and every upstream keyed (the sandbox simulates them all): still at most 3", async () => {
    // The first upstream tried is asked without counting its slots, the learned ranking is read once a minute
    // (services/sms/routing.ts, decision 064): listing the fallbacks costs the purchase nothing while the first serves.
    await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
    const user = await createUser({ balanceKobo: 1_000_000 });
    const first = await countedBuy(user.token);
    expect(first.status).toBe(200);
    const second = await countedBuy(user.token);
    expect(second.status).toBe(200);
    expect(second.roundTrips).toBeLessThanOrEqual(3);
    for (const r of [first, second]) await pollerOf(r.body.phone.request_id).stop();
  });

  it("past the limit: the one 429 with retry_after, no order, no ledger row, no upstream call", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const fake = new ScriptedSmsProvider();
    useTestUpstreams({ sms: () => fake });
    await atLimit(user.id);
    const refused = await countedBuy(user.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", retry_after: expect.any(Number) });
    expect(refused.body.retry_after).toBeGreaterThan(0);
    expect(refused.body.retry_after).toBeLessThanOrEqual(60);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
    expect(fake.calls).not.toContain("buy");
    expect(await rows("SELECT count(*) AS n FROM sms_orders WHERE user_id = ?", user.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM ledger WHERE user_id = ? AND kind = 'buy'", user.id)).toBe(0);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  it("past the limit with 'try another number': no chain row either", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    await atLimit(user.id);
    const refused = await countedBuy(user.token, { ...BUY, next_route: { cap: 5000 } });
    expect(refused.status).toBe(429);
    expect(await rows("SELECT count(*) AS n FROM sms_chains WHERE user_id = ?", user.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM sms_orders WHERE user_id = ?", user.id)).toBe(0);
  });

  it("a wallet too low still counts against the limit, and writes nothing", async () => {
    const user = await createUser({ balanceKobo: 100 });
    const refused = await countedBuy(user.token, { ...BUY, next_route: { cap: 5000 } });
    expect(refused).toMatchObject({ status: 402, body: { message: "Insufficient balance" } });
    expect(await rows("SELECT count AS n FROM rate_limits WHERE key = ?", `cost:smsBuy:${user.id}`)).toBe(1);
    expect(await rows("SELECT count(*) AS n FROM sms_orders WHERE user_id = ?", user.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM sms_chains WHERE user_id = ?", user.id)).toBe(0);
    expect(await balanceOf(user.id)).toBe(100);
    await expectLedgerBalanced();
  });
});
