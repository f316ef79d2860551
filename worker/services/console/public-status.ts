import { desc } from "drizzle-orm";
import { SMS_PROVIDERS } from "../../../schema/constants";
import { STATUS_MIN_SAMPLE, type PublicStatus, type StatusIncident, type StatusWindow } from "../../../schema/status";
import type { Db } from "../../db/client";
import { statusIncidents } from "./tables";
import { rowsOf, runBatch } from "../kernel";
import { statusOutcomesQuery, statusRefundWaitsQuery, upstreamHealthQuery } from "../sms";
import { TtlCache } from "../../lib/cache";

/**
 * The public record of what works (issue 32; the console room's, since it owns the incidents: issue 42, the sms room
 * answers with its orders' figures and the upstreams' health): per provider and the busiest services per country, the last 7 and 30
 * days' success rate and median time to code from our own orders (only from STATUS_MIN_SAMPLE orders), whether each
 * provider is up now (the sweep's upstream health), the operator's incidents, and the refund promise with its figures.
 *
 * Counted orders: those that got a number and ended, with a code (used) or without one (timeout, upstream error: each
 * refunded automatically). Cancelled by the customer and refused at purchase are left out (no provider outcome);
 * sandbox accounts' orders are left out (sbx_ ids, services/sandbox-accounts.ts).
 *
 * The figures are cached for STATUS_CACHE_MS per isolate (lib/cache.ts TtlCache): a warm isolate computes them once a
 * minute. The incidents, one small indexed read, are cached for INCIDENTS_CACHE_MS only, and the route lets browsers
 * and the edge keep the answer for STATUS_HTTP_MAX_AGE_S: an incident an operator posts reaches every open status
 * page, which asks again every 20 s (web/api/status.ts), within 15 + 15 + 20 = 50 s, inside the minute the console
 * promises (issue 43: it took about 90 s when the whole answer was cached for a minute at each step).
 */
export const STATUS_CACHE_MS = 60_000;
export const INCIDENTS_CACHE_MS = 15_000;
export const STATUS_HTTP_MAX_AGE_S = 15;
const DAY_MS = 86_400_000;
const TOP_COUNTRIES = 8;
const TOP_SERVICES_PER_COUNTRY = 3;

const NAMES: Record<string, string> = { Swift: "Swift SMS", Dynamic: "Dynamic SMS" };

const cache = new TtlCache<"status", Promise<Omit<PublicStatus, "incidents">>>(STATUS_CACHE_MS);
const incidentsCache = new TtlCache<"incidents", Promise<StatusIncident[]>>(INCIDENTS_CACHE_MS);

export function clearStatusCache(): void {
  cache.clear();
  incidentsCache.clear();
}

export async function publicStatus(db: Db, now: number): Promise<PublicStatus> {
  if (!cache.get("status")) {
    // Cold: one round trip reads both; each is then kept for its own time.
    const both = readStatus(db, now);
    cache.set("status", both.then((b) => b.figures));
    incidentsCache.set("incidents", both.then((b) => b.incidents));
  }
  const [figures, incidents] = await Promise.all([
    cache.getOrLoad("status", () => readStatus(db, now).then((b) => b.figures)),
    incidentsCache.getOrLoad("incidents", async () => incidentViews(await incidentsQuery(db))),
  ]);
  return { ...figures, incidents };
}

const incidentsQuery = (db: Db) => db.select().from(statusIncidents).orderBy(desc(statusIncidents.startedAt)).limit(20);

function incidentViews(rows: (typeof statusIncidents.$inferSelect)[]): StatusIncident[] {
  return rows.map(
    (i): StatusIncident => ({
      id: i.id,
      title: i.title,
      body: i.body,
      provider: i.provider,
      started_at: new Date(i.startedAt).toISOString(),
      resolved_at: i.resolvedAt === null ? null : new Date(i.resolvedAt).toISOString(),
    }),
  );
}

interface OrderOutcome {
  provider: string;
  country: string;
  service: string;
  status: string;
  created_at: number;
  code_at: number | null;
}

async function readStatus(db: Db, now: number): Promise<{ figures: Omit<PublicStatus, "incidents">; incidents: StatusIncident[] }> {
  const since30 = now - 30 * DAY_MS;
  // One round trip: the outcomes, the automatic refunds, upstream health and the incidents.
  // The sms room's figures (its own queries, asked through its index) and our incidents, still one round trip.
  const { orders, refunds, health, incidents } = await runBatch(db, {
    orders: rowsOf(statusOutcomesQuery(db, since30, now)),
    refunds: rowsOf(statusRefundWaitsQuery(db, since30, now)),
    health: rowsOf(upstreamHealthQuery(db)),
    incidents: rowsOf(incidentsQuery(db)),
  });

  const since7 = now - 7 * DAY_MS;
  const windows = (rows: OrderOutcome[]) => ({ last_7_days: windowOf(rows.filter((r) => r.created_at >= since7)), last_30_days: windowOf(rows) });

  const providers = SMS_PROVIDERS.map((provider) => {
    const h = health.find((r) => r.provider === provider);
    return {
      provider,
      name: NAMES[provider] ?? provider,
      up: h ? h.status === "ok" : null,
      checked_at: h ? new Date(h.checkedAt).toISOString() : null,
      ...windows(orders.filter((o) => o.provider === provider)),
    };
  });

  const byCountry = new Map<string, OrderOutcome[]>();
  for (const o of orders) byCountry.set(o.country, [...(byCountry.get(o.country) ?? []), o]);
  const topServices = [...byCountry.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, TOP_COUNTRIES)
    .flatMap(([country, rows]) => {
      const byService = new Map<string, OrderOutcome[]>();
      for (const o of rows) byService.set(`${o.provider}\u0000${o.service}`, [...(byService.get(`${o.provider}\u0000${o.service}`) ?? []), o]);
      return [...byService.entries()]
        .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
        .slice(0, TOP_SERVICES_PER_COUNTRY)
        .map(([key, group]) => ({ provider: key.split("\u0000")[0], country, service: group[0].service, ...windows(group) }));
    });

  const refundWaits = refunds.map((r) => r.waited);
  const medianRefund = median(refundWaits);
  const figures = {
    generated_at: new Date(now).toISOString(),
    min_sample: STATUS_MIN_SAMPLE,
    providers,
    top_services: topServices,
    refunds: {
      promise: refundPromise(refundWaits.length, medianRefund),
      refunded_automatically: refundWaits.length,
      median_seconds_to_refund: medianRefund === null ? null : Math.round(medianRefund / 1000),
    },
  };
  return { figures, incidents: incidentViews(incidents) };
}

function windowOf(rows: OrderOutcome[]): StatusWindow {
  if (rows.length < STATUS_MIN_SAMPLE) return { orders: rows.length, success_rate: null, median_seconds_to_code: null };
  const codes = rows.filter((r) => r.status === "used");
  const waits = codes.filter((r) => r.code_at !== null).map((r) => r.code_at! - r.created_at);
  const mid = median(waits);
  return {
    orders: rows.length,
    success_rate: Math.round((codes.length / rows.length) * 1000) / 10,
    median_seconds_to_code: mid === null ? null : Math.round(mid / 1000),
  };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/** The promise in one sentence, with the figures that back it. */
export function refundPromise(count: number, medianMs: number | null): string {
  if (count === 0 || medianMs === null) return "If no code arrives, your money goes back to your wallet automatically, without you asking.";
  const minutes = Math.max(1, Math.round(medianMs / 60_000));
  return `If no code arrives, your money goes back to your wallet automatically, as it did for ${count.toLocaleString("en-NG")} ${count === 1 ? "order" : "orders"} in the last 30 days, typically ${minutes} ${minutes === 1 ? "minute" : "minutes"} after purchase.`;
}
