import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { withoutD1Counting } from "../lib/d1-metrics";
import { readRunMetrics, resetRunMetrics, runMetricsEnabled } from "../lib/run-metrics";
import { INVARIANT_SQL } from "./invariants";
import { slotsNow } from "./upstream-balances";

/**
 * GET /sandbox/metrics — what the local server spent since the last reset (lib/run-metrics.ts: D1 per source, Durable
 * Object requests, alarms, upstream calls) and the upstream slots in use now; POST /sandbox/metrics/reset answers the same and starts a new
 * count; GET /sandbox/metrics/orders counts SMS orders still open and settled; GET /sandbox/metrics/invariants runs the
 * money invariants (./invariants.ts) on the server's own database. For the rate benchmark (bench/rate.ts). Sandbox only, like every /sandbox route (404 in live mode); the
 * counts are taken only when the server runs with D1_METRICS=true (`enabled` says whether they are).
 */
export const metricsSandboxRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ enabled: runMetricsEnabled(), ...readRunMetrics(), slots: await slotsNow(withoutD1Counting(c.env)) }))
  .get("/orders", async (c) => {
    const row = await withoutD1Counting(c.env)
      .DB.prepare("SELECT SUM(status IN ('waiting', 'pending')) AS open, SUM(status NOT IN ('waiting', 'pending')) AS settled FROM sms_orders")
      .first<{ open: number | null; settled: number | null }>();
    if (c.req.query("list") !== "1") return c.json({ open: row?.open ?? 0, settled: row?.settled ?? 0 });
    // Every order with the upstream activation it holds, for calls per delivered order (bench/rate-core.ts).
    // completionDue: a used number still inside its "another code" window, whose completion (setStatus 6) is one
    // call still to come after the run.
    const { results } = await withoutD1Counting(c.env)
      .DB.prepare("SELECT id, provider, upstream, upstream_id AS upstreamId, status, (status = 'used' AND activation_closes_at > ?1) AS completionDue FROM sms_orders")
      .bind(Date.now())
      .all<{ id: string; provider: string; upstream: string | null; upstreamId: string | null; status: string; completionDue: number }>();
    return c.json({ open: row?.open ?? 0, settled: row?.settled ?? 0, orders: results });
  })
  .get("/invariants", async (c) => c.json(await invariantViolations(withoutD1Counting(c.env).DB)))
  // Answers what was counted up to the reset, read and reset in one step, so nothing counted between a read and a
  // reset is lost.
  .post("/reset", async (c) => {
    const counted = readRunMetrics();
    resetRunMetrics();
    return c.json({ enabled: runMetricsEnabled(), reset: true, ...counted, slots: await slotsNow(withoutD1Counting(c.env)) });
  });

/** Rows per invariant (0 everywhere: it holds), read on the server's own database. */
async function invariantViolations(db: D1Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, sql] of Object.entries(INVARIANT_SQL)) out[name] = (await db.prepare(sql).all()).results.length;
  return out;
}
