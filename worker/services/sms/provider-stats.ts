import { REFUNDED_SMS_STATUSES } from "../../../schema/constants";

/**
 * Per provider and service outcomes of Receive-SMS orders, from plain order rows: the service (providerStats) and the
 * operator CLI (`npm run admin -- health`, over `wrangler d1 execute`) share this one reading.
 */
export interface ProviderServiceStats {
  provider: string;
  serviceId: string;
  serviceName: string;
  /** Orders that got a number. */
  purchases: number;
  /** Orders whose code arrived (status used). */
  codes: number;
  /** Orders refunded after a number was given (timeout, error, cancelled). */
  refunds: number;
  /** Median seconds from the purchase to the code; null when no code came. */
  medianSecondsToCode: number | null;
}

export interface ProviderOrderRow {
  provider: string;
  serviceId: string;
  serviceName: string;
  status: string;
  createdAt: number;
  updatedAt: number;
}

/** Orders that got a number, in these statuses, count as purchases (pending/failed never reached the upstream's number). */
export const STATS_STATUSES = ["used", "waiting", ...REFUNDED_SMS_STATUSES] as const;

export function summariseProviderOrders(rows: ProviderOrderRow[]): ProviderServiceStats[] {
  const groups = new Map<string, ProviderServiceStats & { durations: number[] }>();
  for (const row of rows) {
    const key = `${row.provider}\u0000${row.serviceId}`;
    let group = groups.get(key);
    if (!group) {
      group = { provider: row.provider, serviceId: row.serviceId, serviceName: row.serviceName, purchases: 0, codes: 0, refunds: 0, medianSecondsToCode: null, durations: [] };
      groups.set(key, group);
    }
    group.purchases += 1;
    if (row.status === "used") {
      group.codes += 1;
      // A code's time is the row's updated_at when it became 'used' (nothing updates a used order afterwards).
      group.durations.push(Math.max(0, row.updatedAt - row.createdAt));
    } else if ((REFUNDED_SMS_STATUSES as readonly string[]).includes(row.status)) group.refunds += 1;
  }
  return [...groups.values()]
    .map(({ durations, ...stats }) => ({ ...stats, medianSecondsToCode: median(durations) }))
    .sort((a, b) => a.provider.localeCompare(b.provider) || b.purchases - a.purchases);
}

function median(ms: number[]): number | null {
  if (ms.length === 0) return null;
  const sorted = [...ms].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Math.round(value / 100) / 10;
}
