import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { STATUS_MIN_SAMPLE, type StatusWindow } from "../../../schema/status";
import type { Db } from "../../db/client";
import { smsOrders } from "./tables";
import { notSandboxUser } from "../kernel";

/**
 * An offer's own record (issue 49): for one provider × country × service, our own orders' success rate and median time
 * to code, the one reading the public status page (public-status.ts), the purchase card's record beside the price and
 * v1's price list all share, so the figures beside the Buy button are the status page's for the same offer.
 *
 * Counted orders: those that got a number and ended, with a code (used) or without one (timeout, upstream error: each
 * refunded automatically); cancelled by the customer and refused at purchase are left out (no provider outcome), and
 * so are sandbox accounts' orders. An offer is keyed as the status page keys it: provider, the order's country name
 * and service name. A rate and a median are shown only from STATUS_MIN_SAMPLE orders; the sample is always given.
 */
export const COUNTED_STATUSES = ["used", "timeout", "error"] as const;
export const RECORD_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface OrderOutcome {
  provider: string;
  country: string;
  service: string;
  status: string;
  created_at: number;
  /** When its first code arrived (sms_order_codes), null without one. */
  code_at: number | null;
}

/** The counted orders created in [since, now), narrowed by `where` (a provider, a country, a service). */
export function offerOutcomesQuery(db: Db, since: number, now: number, where?: SQL) {
  return db
    .select({
      provider: smsOrders.provider,
      country: smsOrders.countryName,
      service: smsOrders.serviceName,
      status: smsOrders.status,
      created_at: smsOrders.createdAt,
      // Spelled out: drizzle would name both tables' columns unqualified here, and sms_order_codes has its own "id".
      code_at: sql<number | null>`(SELECT MIN(c.received_at) FROM sms_order_codes c WHERE c.order_id = "sms_orders"."id")`,
    })
    .from(smsOrders)
    .where(and(gte(smsOrders.createdAt, since), lt(smsOrders.createdAt, now), notSandboxUser(smsOrders.userId), inArray(smsOrders.status, [...COUNTED_STATUSES]), where));
}

/** The figures of a set of counted orders (the status page's window, a price list's record). */
export function recordOf(rows: OrderOutcome[]): StatusWindow {
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

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/** The key of one offer: provider, country name and service name, as the status page groups them. */
export const offerKey = (provider: string, country: string, service: string) => `${provider}\u0000${country}\u0000${service}`;

/**
 * The last RECORD_WINDOW_DAYS' record of every offer matching the filter, keyed by offerKey: one read. A whole price
 * list asks with its provider and country; the purchase card's suggestion asks for one service everywhere.
 */
export async function offerRecords(db: Db, now: number, filter: { provider?: string; country?: string; service?: string }): Promise<Map<string, StatusWindow>> {
  const where = and(
    filter.provider === undefined ? undefined : eq(smsOrders.provider, filter.provider),
    filter.country === undefined ? undefined : eq(smsOrders.countryName, filter.country),
    // A service is matched by its name in any case and spacing (each provider names its own), and grouped as stored.
    filter.service === undefined ? undefined : sql`lower(trim(${smsOrders.serviceName})) = ${filter.service.trim().toLowerCase()}`,
  );
  const rows = await offerOutcomesQuery(db, now - RECORD_WINDOW_DAYS * DAY_MS, now, where);
  const groups = new Map<string, OrderOutcome[]>();
  for (const row of rows) {
    const key = offerKey(row.provider, row.country, row.service);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return new Map([...groups.entries()].map(([key, group]) => [key, recordOf(group)]));
}

/** An offer without a counted order in the window. */
export const NO_RECORD: StatusWindow = { orders: 0, success_rate: null, median_seconds_to_code: null };
