import { and, gte, inArray, isNotNull, type SQL } from "drizzle-orm";
import type { SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { smsOrders, upstreamHealth } from "./tables";
import { TtlCache } from "../../lib/cache";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { UpstreamMoney } from "../../providers/sms/types";
import { PRIMARY_UPSTREAM, SMS_UPSTREAMS, upstreamAccountKeys, type SmsUpstream } from "../../providers/sms/upstreams";
import { STATS_STATUSES, summariseProviderOrders, type ProviderServiceStats } from "./provider-stats";
import { getSettings, notSandboxUser, type Services, toUsd } from "../kernel";

/**
 * Upstream health while the product runs. The cron sweep reads our balance at each upstream (checkUpstreamHealth);
 * below the operator's floor (setting upstream_floors, in dollars) that provider's offers are hidden from customers
 * with a clear "temporarily unavailable" (assertProviderAvailable) instead of purchases that fail upstream with
 * NO_MONEY, and the operator is told (an error log line, and `npm run admin -- health`).
 */

/** The health rows' provider keys: the two SMS upstreams and sms-man's rent API (its own get-balance). */
export const RENT_HEALTH_KEY = "Dynamic-rent";
export type HealthKey = SmsProviderName | typeof RENT_HEALTH_KEY;

const LABELS: Record<HealthKey, string> = { Swift: "Swift SMS", Dynamic: "Dynamic SMS", [RENT_HEALTH_KEY]: "Number rental" };

export type HealthStatus = "ok" | "low" | "unreachable";
export type HealthRow = typeof upstreamHealth.$inferSelect;

// Read on every price list and purchase: a short per-isolate cache keeps that at zero D1 round trips (like settings).
const CACHE_MS = 10_000;
const cache = new TtlCache<"rows", Promise<Map<string, HealthRow>>>(CACHE_MS);

export function clearUpstreamHealthCache(): void {
  cache.clear();
}

function healthRows(db: Db): Promise<Map<string, HealthRow>> {
  return cache.getOrLoad("rows", async () => new Map((await db.select().from(upstreamHealth)).map((r) => [r.provider, r])));
}

/** Each health row's status by its key (cached: zero D1 round trips on a purchase). */
export async function healthStatuses(db: Db): Promise<Map<string, HealthStatus>> {
  return new Map([...(await healthRows(db)).entries()].map(([key, row]) => [key, row.status]));
}

/** The health row of an upstream account: the primaries keep their provider names (Swift, Dynamic) as before. */
export function upstreamHealthKey(upstream: SmsUpstream, account = 0): string {
  const base = upstream === "daisysms" ? "Swift" : upstream === "smsman" ? "Dynamic" : upstream;
  return account === 0 ? base : `${base}#${account + 1}`;
}

export function unavailableMessage(key: HealthKey): string {
  return `${LABELS[key]} is temporarily unavailable. Please try another provider or try again later.`;
}

/**
 * Throws the customer's "temporarily unavailable" when the sweep last found this upstream below its floor, unless the
 * provider's routes (setting sms_routes, issue 32) list another upstream the sweep last found healthy: purchases then
 * pass to it (services/sms/routing.ts), so the provider stays on sale.
 */
export async function assertProviderAvailable(db: Db, key: HealthKey): Promise<void> {
  const rows = await healthRows(db);
  const row = rows.get(key);
  if (row?.status !== "low") return;
  if (key !== RENT_HEALTH_KEY) {
    const { sms_routes: routes } = await getSettings(db, ["sms_routes"]);
    const route = routes[key];
    const fallbacks = new Set([...(route?.upstreams ?? []), ...Object.values(route?.countries ?? {}).flat()].filter((u) => u !== PRIMARY_UPSTREAM[key]));
    for (const upstream of fallbacks) if (rows.get(upstream)?.status === "ok") return;
  }
  throw new AppError("UPSTREAM_UNAVAILABLE", unavailableMessage(key), { provider: key, temporarily_unavailable: true });
}

/** Reads every upstream's balance and records it against its floor. Returns the rows written. */
export async function checkUpstreamHealth(services: Pick<Services, "env" | "config" | "db" | "upstreams">, now: number): Promise<HealthRow[]> {
  const { env, db, upstreams } = services;
  const { upstream_floors: floors, upstream_rates: rates } = await getSettings(db, ["upstream_floors", "upstream_rates"]);
  const previous = await healthRows(db);
  const readers: [string, () => Promise<UpstreamMoney>][] = [
    ["Swift", () => upstreams.sms(services.config.providers, "Swift").balance()],
    ["Dynamic", () => upstreams.sms(services.config.providers, "Dynamic").balance()],
    [RENT_HEALTH_KEY, () => upstreams.rent(services.config.providers).balance()],
  ];
  // Issue 32/30: every other configured upstream account has its own row and floor (HeroSMS, Grizzly SMS, a second
  // DaisySMS key: "Swift#2"), so a short account is passed over while the others keep selling.
  for (const upstream of SMS_UPSTREAMS) {
    const provider = upstream === "smsman" ? "Dynamic" : "Swift";
    upstreamAccountKeys(env, upstream).forEach((_, account) => {
      const isPrimary = upstream === PRIMARY_UPSTREAM[provider] && account === 0;
      if (!isPrimary) readers.push([upstreamHealthKey(upstream, account), () => upstreams.smsAccount(services.config.providers, upstream, account, provider).balance()]);
    });
  }
  const rows: HealthRow[] = [];
  for (const [provider, read] of readers) {
    const floorUsd = floors[provider] ?? floors[provider.split("#")[0]!] ?? 0;
    let row: HealthRow;
    try {
      const money = await read();
      const balanceUsd = toUsd(money, rates);
      // Without a rate the balance cannot be compared: say so, but do not hide a provider for our own missing setting.
      const status: HealthStatus = balanceUsd !== null && balanceUsd < floorUsd ? "low" : "ok";
      const detail = balanceUsd === null ? `no upstream_rates entry for ${money.currency}` : null;
      row = { provider, status, balance: money.amount, currency: money.currency, balanceUsd, floorUsd, detail, checkedAt: now };
    } catch (err) {
      // An unreachable upstream is not hidden (a blip must not take a provider away); purchases report their own fault.
      row = { provider, status: "unreachable", balance: null, currency: null, balanceUsd: null, floorUsd, detail: describe(err), checkedAt: now };
    }
    rows.push(row);
    if (row.status === "low") {
      log("error", "upstream balance below its floor: offers hidden", { provider, balance: row.balance, currency: row.currency, floorUsd });
    } else if (row.status === "unreachable") {
      log("warn", "upstream balance unreadable", { provider, detail: row.detail });
    } else if (previous.get(provider)?.status === "low") {
      log("info", "upstream balance back above its floor: offers shown again", { provider, balanceUsd: row.balanceUsd });
    }
  }
  await db.batch(
    rows.map((row) =>
      db.insert(upstreamHealth).values(row).onConflictDoUpdate({
        target: upstreamHealth.provider,
        set: {
          status: row.status,
          balance: row.balance,
          currency: row.currency,
          balanceUsd: row.balanceUsd,
          floorUsd: row.floorUsd,
          detail: row.detail,
          checkedAt: row.checkedAt,
        },
      }),
    ) as [never, ...never[]],
  );
  clearUpstreamHealthCache();
  return rows;
}

function describe(err: unknown): string {
  if (err && typeof err === "object" && "detail" in err && typeof err.detail === "string" && err.detail) return err.detail.slice(0, 200);
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 200);
}

// ---------------------------------------------------------------------------------------------------------------
// Per provider and service outcomes (the operator console and the customer's "success rate" build on these)

/**
 * Purchases, codes received, refunds and the median time to a code per provider and service, over the orders created
 * since `since` (epoch ms). Derived from sms_orders: no second record to keep in step.
 */
export async function providerStats(db: Db, { since, where, includeTest = true }: { since: number; where?: SQL; includeTest?: boolean }): Promise<ProviderServiceStats[]> {
  const rows = await db
    .select({
      provider: smsOrders.provider,
      serviceId: smsOrders.serviceId,
      serviceName: smsOrders.serviceName,
      status: smsOrders.status,
      createdAt: smsOrders.createdAt,
      updatedAt: smsOrders.updatedAt,
    })
    .from(smsOrders)
    .where(and(gte(smsOrders.createdAt, since), isNotNull(smsOrders.number), inArray(smsOrders.status, [...STATS_STATUSES]), where, includeTest ? undefined : notSandboxUser(smsOrders.userId)));
  return summariseProviderOrders(rows);
}
