import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { withoutD1Counting } from "../lib/d1-metrics";
import { readRunMetrics, resetRunMetrics, runMetricsEnabled } from "../lib/run-metrics";
import { slotsNow } from "./upstream-balances";

/**
 * GET /sandbox/metrics — what the local server spent since the last reset (lib/run-metrics.ts: D1 per source, Durable
 * Object requests, alarms, upstream calls) and the upstream slots in use now; POST /sandbox/metrics/reset starts a new
 * count. For the rate benchmark (bench/rate.ts). Sandbox only, like every /sandbox route (404 in live mode); the
 * counts are taken only when the server runs with D1_METRICS=true (`enabled` says whether they are).
 */
export const metricsSandboxRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ enabled: runMetricsEnabled(), ...readRunMetrics(), slots: await slotsNow(withoutD1Counting(c.env)) }))
  .post("/reset", (c) => {
    resetRunMetrics();
    return c.json({ enabled: runMetricsEnabled(), reset: true });
  });
