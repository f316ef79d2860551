import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runRate } from "../../bench/rate-core";
import worker from "../index";

/**
 * The rate benchmark's own smoke run (issue 30): bench/rate-core.ts, the code `npm run bench:rate` runs, driven for a
 * few seconds against the worker here (two short steps, three customers, the whole mix, polling every 200 ms). It
 * asserts only that every figure is produced and that the money invariants hold over every row: never a time
 * (speed lives in bench/, decision 030).
 */
describe("npm run bench:rate, smoke run", () => {
  it("produces every figure and the invariants hold", { timeout: 60_000 }, async () => {
    // DaisySMS's webhook set (decision 051): its polls are the fallback; the bench's push orders are pushed.
    const metered = { ...env, D1_METRICS: "true", SWIFT_WEBHOOK: "on" };
    const lines: string[] = [];
    const report = await runRate({
      base: "http://127.0.0.1:8787",
      fetch: async (url, init) => {
        const ctx = createExecutionContext();
        const res = await worker.fetch(new Request(url, init) as Request<unknown, IncomingRequestCfProperties>, metered, ctx);
        await waitOnExecutionContext(ctx);
        return res;
      },
      steps: [4, 8],
      stepSeconds: 1.5,
      customers: 3,
      fundNaira: 20_000,
      maxInFlight: 16,
      squadSecret: env.SQUAD_SECRET_KEY ?? null,
      log: (line) => lines.push(line),
      drainSeconds: 20,
      raiseSlotLimits: true,
      poll: { interval_ms: 200, max_attempts: 3 },
      codeDelayMs: 0,
      slotSampleMs: 500,
    });

    expect(report.steps).toHaveLength(2);
    for (const step of report.steps) {
      expect(step.purchases.ok).toBeGreaterThan(0);
      expect(step.achieved).toBeGreaterThan(0);
      expect(step.latency.purchase.n).toBeGreaterThan(0);
      expect(step.latency.read.n).toBeGreaterThan(0);
      expect(step.nonClientErrors).toBe(0);
      expect(step.perPurchase!.roundTrips).toBeGreaterThan(0);
      expect(step.perPurchase!.rowsWritten).toBeGreaterThan(0);
      expect(step.perPurchaseEquivalent!.statements).toBeGreaterThan(0);
      expect(Object.keys(step.slots)).toEqual(["swift", "smsman", "herosms"]);
      // Where the D1 went (decision 057): the purchase request is a kind of its own, and its statements are listed.
      const purchase = step.d1ByKind.find((d) => d.kind === "POST /api/sms/get-number");
      expect(purchase?.statements).toBeGreaterThan(0);
      expect(step.d1ByStatement.some((d) => d.kind === "POST /api/sms/get-number" && d.sql?.startsWith("insert into \"sms_orders\""))).toBe(true);
    }
    expect(report.slotLimits.swift).toEqual({ limit: null, documented: 20 });
    expect(report.life.orders).toBeGreaterThan(0);
    expect(report.life.settled).toBe(report.life.orders);
    expect(report.life.alarmsSetPerOrder).toBeGreaterThan(0);
    expect(report.life.doRequestsPerOrder).toBeGreaterThan(0);
    expect(report.life.upstreamCallsPerOrder.swift).toBeGreaterThan(0);
    expect(report.life.upstreamCallsPerOrder.smsman).toBeGreaterThan(0);
    expect(report.life.upstreamCallsPerOrder.herosms).toBeGreaterThan(0);
    // Calls per delivered order, per upstream, as medians (decision 051); DaisySMS also split by push.
    // HeroSMS (a share of the mix routed to it) reads its codes by its batch status call.
    for (const upstream of ["daisysms", "smsman", "herosms", "daisysms, code pushed"]) {
      expect(report.callsPerDeliveredOrder[upstream]?.delivered, upstream).toBeGreaterThan(0);
      expect(report.callsPerDeliveredOrder[upstream].median, upstream).toBeGreaterThanOrEqual(2); // its purchase and its code
    }
    expect(report.ceiling.fromModel).toBeGreaterThan(0);
    expect(report.ceiling.statementsPerEquivalent).toBeGreaterThan(0);
    expect(Object.values(report.invariants)).toEqual([0, 0, 0, 0]);
    expect(report.ok).toBe(true);
    // every figure is printed
    for (const figure of ["achieved", "latency ms", "by status", "per purchase request", "per purchase-equivalent", "slots in use", "per order over its life", "ceiling of one D1", "upstream-bound rate, swift", "slots over time", "upstream calls per delivered order, daisysms", "upstream calls per delivered order, smsman", "upstream calls per delivered order, herosms", "D1 per purchase by request kind", "D1 per purchase by statement", "invariant holds"]) {
      expect(lines.some((l) => l.includes(figure)), figure).toBe(true);
    }
  });
});
