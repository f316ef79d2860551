import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../index";
import { COST_LIMITS } from "../services/kernel";
import { useTestUpstreams } from "../test/services";
import { createUser } from "../test/helpers";

// A card checkout counts its per-account cost limit in the pending row's own write (docs/decisions/031): the session,
// that batch and the checkout URL's update; past the limit nothing is written and Squad is never asked.

afterEach(() => useTestUpstreams({ payments: null }));

async function countedCheckout(token: string, amount = 5000) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request("http://127.0.0.1:8787/api/initialize-transaction", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ amount }),
    }),
    { ...env, D1_METRICS: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = (await res.json()) as any;
  return { status: res.status, body, headers: res.headers, roundTrips: Number(res.headers.get("x-d1-round-trips")) };
}

const rows = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;

describe("a card checkout's D1 round trips and cost limit", () => {
  it("costs at most 3 once the settings are cached, the cost limit included", async () => {
    const user = await createUser();
    expect((await countedCheckout(user.token)).status).toBe(200); // the isolate's first may read the settings
    const second = await countedCheckout(user.token);
    expect(second.status).toBe(200);
    expect(second.roundTrips).toBeLessThanOrEqual(3);
    expect(await rows("SELECT count AS n FROM rate_limits WHERE key = ?", `cost:payment:${user.id}`)).toBe(2);
  });

  it("past the limit: the one 429 with retry_after, no payment row, Squad never asked", async () => {
    const user = await createUser();
    const { limit, windowMs } = COST_LIMITS.payment;
    await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)").bind(`cost:payment:${user.id}`, limit, Date.now() + windowMs).run();
    const calls: string[] = [];
    useTestUpstreams({
      payments: async (provider, request, simulator) => {
        calls.push(`${provider} ${new URL(request.url).pathname}`);
        return simulator(request);
      },
    });
    const refused = await countedCheckout(user.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", retry_after: expect.any(Number) });
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
    expect(calls).toEqual([]);
    expect(await rows("SELECT count(*) AS n FROM payments WHERE user_id = ?", user.id)).toBe(0);
  });
});
