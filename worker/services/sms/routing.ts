import { and, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { SmsProviderName } from "../../../schema/constants";
import type { Env, ProviderMode } from "../../config";
import type { Db } from "../../db/client";
import { slotLimit as sandboxSlotLimit } from "../../sandbox/sms-activations";
import { smsOrders } from "./tables";
import { TtlCache } from "../../lib/cache";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { choiceSurchargePercent, SMS_FAULT_MESSAGES, SmsProviderError, type NumberChoice, type SmsOffer, type SmsProvider, type UpstreamMoney } from "../../providers/sms/types";
import { documentedSlotLimit, isSmsUpstream, PRIMARY_UPSTREAM, SMS_UPSTREAMS, upstreamAccountKeys, type SmsUpstream } from "../../providers/sms/upstreams";
import { getSettings, providerSetFor, pricingContext, refusedUpstreamPrice, smsPriceKobo, starterContext, toUsd, type PricedBuyer, type SmsDeps, buyerOf } from "../kernel";
import { healthStatuses, upstreamHealthKey } from "./upstream-health";

/**
 * Issue 32 (and issue 30's key pools): which upstream account serves a purchase. A provider customers see (Swift SMS,
 * Dynamic SMS) is mapped by the operator to an ordered list of upstreams, per country where needed (setting
 * sms_routes). For one purchase the candidates are, in order:
 *  1. the upstream our own recent orders say works best for this service and country (success rate, then median time
 *     to code, from at least LEARNED_MIN_SAMPLE orders), when it is not the configured first already;
 *  2. the configured list.
 * Each is passed over when its key is not configured, its balance is below its floor (upstream_health "low"), or every
 * one of its accounts is full (waiting orders >= the account's slot limit); its accounts are tried most free slots
 * first. The provider's primary sells what the customer was shown (its catalogue priced the order); any other upstream
 * sells the same service (matched by name or code) in the same country only at a price that, priced for this customer,
 * is at most what the order charged: never higher without asking (the 409 price-changed path).
 */

/** Faults after which the same purchase goes to the next candidate: the upstream is down, sold out, short or full. */
export const FAILOVER_FAULTS: ReadonlySet<string> = new Set(["no_numbers", "no_balance", "too_many_active", "bad_key", "unavailable", "timeout", "price_exceeded", "bad_service", "bad_reply"]);

/** Orders of one upstream, service and country before routing trusts their outcome. */
export const LEARNED_MIN_SAMPLE = 30;
/** How far back "recent" looks. */
export const LEARNED_WINDOW_MS = 7 * 24 * 60 * 60_000;

export interface UpstreamChoice {
  upstream: SmsUpstream;
  account: number;
  adapter: SmsProvider;
  /** The upstream's own id of the service. */
  serviceId: string;
  /** The ceiling sent with getNumber, in the upstream's currency (the choice's documented surcharge included). */
  maxCost: UpstreamMoney;
  /** The customer's number choice, sent in this upstream's own parameters (issue 49). */
  choice?: NumberChoice;
  /** The customer's price of this candidate, kobo (the order's own for the primary). */
  priceKobo: number;
}

/** The order a purchase routes (the fields routing reads). */
export interface RoutedOrder {
  userId: string;
  provider: string;
  countryId: string;
  serviceId: string;
  serviceName: string;
  priceKobo: number;
  /** Upstreams to try last ("code or next route": the ones earlier routes of the chain used and got no code from). */
  avoid?: string[];
  /**
   * The buyer as the purchase priced the order (its session row, or a sub-account's reseller's figures): another
   * upstream's offer is priced at the same tier without reading them again (issue 30, decisions 057, 074). Absent (a
   * chain's move-on): read here.
   */
  buyer?: PricedBuyer;
  /**
   * Which number the customer asked for (issue 49): only upstreams documenting it in this country are candidates, each
   * sent its own surcharge within the order's price. A chain's next routes keep it.
   */
  choice?: NumberChoice;
}

const healthKey = upstreamHealthKey;

function providerName(value: string): SmsProviderName {
  return value === "Dynamic" ? "Dynamic" : "Swift";
}

/** The operator's ordered upstreams for a provider and country (the provider's primary when nothing is set). */
export async function configuredUpstreams(db: Db, provider: SmsProviderName, countryId: string): Promise<SmsUpstream[]> {
  const { sms_routes: routes } = await getSettings(db, ["sms_routes"]);
  const route = routes[provider];
  const list = route?.countries?.[countryId] ?? route?.upstreams ?? [PRIMARY_UPSTREAM[provider]];
  return [...new Set(list.filter(isSmsUpstream))];
}

/**
 * The learned ranking is read at most once a minute per provider, country and service in an isolate: it sums a week of
 * orders, and a minute more or less of them changes nothing, while every purchase with a choice of upstream asked.
 */
const LEARNED_CACHE_MS = 60_000;
const learnedCache = new TtlCache<string, ReturnType<typeof learnedRanking>>(LEARNED_CACHE_MS);

/**
 * Per upstream, our recent outcomes for one service in one country: orders that got a number, codes, and the median
 * time to a code. Only upstreams with at least LEARNED_MIN_SAMPLE orders are returned, best first (success rate, then
 * median time to code).
 */
export async function learnedRanking(db: Db, provider: SmsProviderName, countryId: string, serviceName: string, now: number): Promise<{ upstream: SmsUpstream; orders: number; successRate: number; medianMsToCode: number | null }[]> {
  const primary = PRIMARY_UPSTREAM[provider];
  const rows = await db
    .select({ upstream: sql<string>`COALESCE(${smsOrders.upstream}, ${primary})`, status: smsOrders.status, createdAt: smsOrders.createdAt, updatedAt: smsOrders.updatedAt })
    .from(smsOrders)
    .where(
      and(
        eq(smsOrders.provider, provider),
        eq(smsOrders.countryId, countryId),
        eq(smsOrders.serviceName, serviceName),
        gte(smsOrders.createdAt, now - LEARNED_WINDOW_MS),
        isNotNull(smsOrders.number),
        // Finished outcomes only: a number still waiting says nothing yet.
        inArray(smsOrders.status, ["used", "timeout", "error", "cancelled"]),
      ),
    );
  const groups = new Map<string, { orders: number; codes: number; times: number[] }>();
  for (const row of rows) {
    const g = groups.get(row.upstream) ?? { orders: 0, codes: 0, times: [] };
    g.orders += 1;
    if (row.status === "used") {
      g.codes += 1;
      g.times.push(Math.max(0, row.updatedAt - row.createdAt));
    }
    groups.set(row.upstream, g);
  }
  return [...groups.entries()]
    .filter(([upstream, g]) => isSmsUpstream(upstream) && g.orders >= LEARNED_MIN_SAMPLE)
    .map(([upstream, g]) => {
      const sorted = g.times.sort((a, b) => a - b);
      return { upstream: upstream as SmsUpstream, orders: g.orders, successRate: g.codes / g.orders, medianMsToCode: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null };
    })
    .sort((a, b) => b.successRate - a.successRate || (a.medianMsToCode ?? Infinity) - (b.medianMsToCode ?? Infinity));
}

/**
 * Whether an upstream can serve `provider` with these keys: one of its own, or (the provider's primary) the one account
 * every install has. The default routes list every upstream (schema/settings.ts, decision 064); one without a key
 * is passed over here, before anything is read for it.
 */
export function hasAccount(env: Env, provider: SmsProviderName, upstream: SmsUpstream, mode?: ProviderMode): boolean {
  return upstream === PRIMARY_UPSTREAM[provider] || upstreamAccountKeys(env, upstream, mode).length > 0;
}

/**
 * The configured list, keyed upstreams only, with the learned best moved to the front (when it is in the list at all).
 * With one keyed upstream there is nothing to rank, and nothing is read for it: listing an upstream whose key is not
 * set costs a purchase nothing. `mode`: the customer's provider set's (a sandbox account's keys are the simulators').
 */
export async function orderedUpstreams(db: Db, env: Env, order: RoutedOrder, now: number, mode?: ProviderMode): Promise<SmsUpstream[]> {
  const provider = providerName(order.provider);
  const configured = (await configuredUpstreams(db, provider, order.countryId)).filter((upstream) => hasAccount(env, provider, upstream, mode));
  if (configured.length < 2) return configured;
  const ranking = learnedCache.getOrLoad(`${provider}:${order.countryId}:${order.serviceName}`, () => learnedRanking(db, provider, order.countryId, order.serviceName, now));
  const [best] = (await ranking).filter((r) => configured.includes(r.upstream));
  const ranked = best ? [best.upstream, ...configured.filter((u) => u !== best.upstream)] : configured;
  const avoid = new Set(order.avoid ?? []);
  return [...ranked.filter((u) => !avoid.has(u)), ...ranked.filter((u) => avoid.has(u))];
}

/** Slots in use (waiting orders) per account of an upstream. */
export async function slotsInUse(db: Db, upstream: SmsUpstream): Promise<Map<number, number>> {
  const rows = await db
    .select({ account: smsOrders.upstreamAccount, count: sql<number>`COUNT(*)` })
    .from(smsOrders)
    .where(and(eq(smsOrders.upstream, upstream), eq(smsOrders.status, "waiting")))
    .groupBy(smsOrders.upstreamAccount);
  return new Map(rows.map((r) => [r.account, Number(r.count)]));
}

/**
 * The account slot limit in force: the operator's (upstream_slot_limits), else the documented one. In sandbox mode the
 * simulated account's own limit (a run may raise it, POST /sandbox/upstreams/slots, as support would for a real one).
 */
export async function slotLimitOf(db: Db, upstream: SmsUpstream, env?: Env, mode: ProviderMode = env && (env.PROVIDERS ?? "live") === "sandbox" ? "sandbox" : "live"): Promise<number | null> {
  const { upstream_slot_limits: limits } = await getSettings(db, ["upstream_slot_limits"]);
  if (upstream in limits) return limits[upstream] ?? null;
  if (env && mode === "sandbox") return sandboxSlotLimit(env, upstream === "daisysms" ? "swift" : upstream);
  return documentedSlotLimit(upstream);
}

// Read on every price list: the answer is kept a few seconds per isolate, so a catalogue view costs no D1 round trip
// (a purchase still counts slots itself, precisely).
const FULL_CACHE_MS = 10_000;
const fullCache = new TtlCache<string, Promise<boolean>>(FULL_CACHE_MS);

/** Forgets routing's per-isolate answers (every account full; the learned rankings). */
export function clearRouteFullCache(): void {
  fullCache.clear();
  learnedCache.clear();
}

/**
 * Issue 30: whether every account of every upstream that serves `provider` (its routes, setting sms_routes, over all
 * countries; its primary when none is set) holds as many waiting orders as its slot limit. Only then is the provider's
 * catalogue hidden; while one account has a free slot purchases pass to it (purchaseCandidates). An upstream without
 * a limit (sms-man documents none) is never full.
 */
export async function everyAccountFull(db: Db, env: Env, provider: SmsProviderName): Promise<boolean> {
  return fullCache.getOrLoad(`${env.PROVIDERS ?? "live"}:${provider}`, async () => {
    const { sms_routes: routes } = await getSettings(db, ["sms_routes"]);
    const route = routes[provider];
    const named = [...(route?.upstreams ?? [PRIMARY_UPSTREAM[provider]]), ...Object.values(route?.countries ?? {}).flat()];
    let sawAccount = false;
    for (const upstream of new Set(named.filter(isSmsUpstream))) {
      const accountCount = Math.max(upstreamAccountKeys(env, upstream).length, upstream === PRIMARY_UPSTREAM[provider] ? 1 : 0);
      if (accountCount === 0) continue;
      const limit = await slotLimitOf(db, upstream, env);
      if (limit === null) return false;
      sawAccount = true;
      const used = await slotsInUse(db, upstream);
      for (let account = 0; account < accountCount; account += 1) if ((used.get(account) ?? 0) < limit) return false;
    }
    return sawAccount;
  });
}

/** The catalogue's refusal when every account is full: the customer's "busy, try again" (never a broken purchase). */
export async function assertRouteNotFull(db: Db, env: Env, provider: SmsProviderName): Promise<void> {
  if (await everyAccountFull(db, env, provider)) {
    throw new AppError("UPSTREAM_UNAVAILABLE", SMS_FAULT_MESSAGES.too_many_active, { provider, temporarily_unavailable: true, busy: true });
  }
}

/** Accounts with a free slot and a balance above the floor, most free slots first (ties: the lower account). */
async function usableAccounts(db: Db, env: Env, mode: ProviderMode, upstream: SmsUpstream, accountCount: number, health: Map<string, string>): Promise<number[]> {
  const limit = await slotLimitOf(db, upstream, env, mode);
  const used = await slotsInUse(db, upstream);
  const accounts: { account: number; free: number }[] = [];
  for (let account = 0; account < accountCount; account += 1) {
    if (health.get(healthKey(upstream, account)) === "low") continue;
    const inUse = used.get(account) ?? 0;
    const free = limit === null ? Number.MAX_SAFE_INTEGER - inUse : limit - inUse;
    if (free > 0) accounts.push({ account, free });
  }
  return accounts.sort((a, b) => b.free - a.free || a.account - b.account).map((a) => a.account);
}

/** Why candidates were passed over, for the customer's answer when nothing could be bought. */
export interface RoutingNotes {
  /** The lowest customer price (kobo) among upstreams passed over for costing more than the order. */
  cheapestAboveKobo: number | null;
  /** Every upstream account was full. */
  allFull: boolean;
}

/**
 * The purchase's candidates, lazily (a fallback's price list is read only when the ones before it failed). `primary`
 * is the offer the customer was shown, in its upstream's own figures.
 */
export async function* purchaseCandidates(deps: SmsDeps, order: RoutedOrder, primary: Pick<SmsOffer, "cost" | "currency">, notes: RoutingNotes): AsyncGenerator<UpstreamChoice> {
  const db = deps.db;
  const provider = providerName(order.provider);
  // The customer's provider set (a sandbox account's: the simulators and their keys and slots).
  const { mode } = providerSetFor(deps.providerSet, order.userId);
  const upstreams = await orderedUpstreams(db, deps.env, order, deps.clock.now(), mode);
  const health: Map<string, string> = await healthStatuses(db);
  let sawAccount = false;
  let anyFree = false;
  for (const upstream of upstreams) {
    const keys = upstreamAccountKeys(deps.env, upstream, mode);
    const accountCount = Math.max(keys.length, upstream === PRIMARY_UPSTREAM[provider] ? 1 : 0);
    if (accountCount === 0) continue;
    sawAccount = true;
    // The first upstream tried, when it has one account: it is asked without counting its slots (a full account says
    // so itself, TOO_MANY_ACTIVE_RENTALS, and the purchase passes to the next candidate), so the default purchase keeps
    // its 3 D1 round trips whatever the routes list (decision 064). Counting pays where it chooses: between accounts of
    // one upstream, and for the fallbacks, passed over unasked when full.
    const accounts =
      upstream === upstreams[0] && accountCount === 1 ? (health.get(healthKey(upstream, 0)) === "low" ? [] : [0]) : await usableAccounts(db, deps.env, mode, upstream, accountCount, health);
    if (accounts.length === 0) continue;
    anyFree = true;
    const adapterOf = (account: number) => deps.provider(provider, order.userId, { upstream, account });
    // Issue 49: an upstream that cannot honour the customer's choice here is passed over (never sold without it).
    const surcharge = choiceSurchargePercent(adapterOf(accounts[0]!).numberChoices, order.countryId, order.choice);
    if (surcharge === null) continue;
    const raised = (amount: number) => Math.round(amount * (1 + surcharge / 100) * 10_000) / 10_000;
    let serviceId = order.serviceId;
    let maxCost: UpstreamMoney = { amount: raised(primary.cost), currency: primary.currency };
    let priceKobo = order.priceKobo;
    if (upstream !== PRIMARY_UPSTREAM[provider]) {
      const same = await sameOffer(deps, adapterOf(accounts[0]!), order, upstream, surcharge);
      if (!same) continue;
      if (same.priceKobo > order.priceKobo) {
        notes.cheapestAboveKobo = Math.min(notes.cheapestAboveKobo ?? Infinity, same.priceKobo);
        continue;
      }
      ({ serviceId, maxCost, priceKobo } = same);
    }
    for (const account of accounts) yield { upstream, account, adapter: adapterOf(account), serviceId, maxCost, priceKobo, ...(order.choice ? { choice: order.choice } : {}) };
  }
  notes.allFull = sawAccount && !anyFree;
}

/** The same service in the same country at another upstream, priced for this customer; null when it is not sold there. */
async function sameOffer(deps: SmsDeps, adapter: SmsProvider, order: RoutedOrder, upstream: SmsUpstream, surchargePercent = 0): Promise<{ serviceId: string; maxCost: UpstreamMoney; priceKobo: number } | null> {
  let offers: SmsOffer[];
  try {
    offers = await adapter.services(order.countryId);
  } catch (err) {
    log("warn", "sms route: price list unreadable", { upstream, kind: err instanceof SmsProviderError ? err.kind : "exception" });
    return null;
  }
  const wanted = order.serviceName.trim().toLowerCase();
  const offer = offers.find((o) => o.serviceId === order.serviceId && o.name.trim().toLowerCase() === wanted) ?? offers.find((o) => o.name.trim().toLowerCase() === wanted);
  if (!offer || offer.count <= 0) return null;
  const s = await getSettings(deps.db, ["upstream_rates", "sms_price_guard", "exchange_rate", "costs"]);
  const costUsd = toUsd({ amount: offer.cost, currency: offer.currency }, s.upstream_rates);
  // The same plausibility guard as the catalogue's (a currency without a rate, a price above the ceiling).
  const starter = starterContext(s.exchange_rate.rate, s.costs);
  const refused = refusedUpstreamPrice({
    costUsd,
    currency: offer.currency,
    priceNaira: (usd) => smsPriceKobo(usd, starter) / 100,
    ceilingNaira: s.sms_price_guard.service_ceilings[`${order.provider}:${order.serviceId}`] ?? s.sms_price_guard.ceiling_naira,
    previousUsd: undefined,
    maxJump: s.sms_price_guard.max_jump,
  });
  if (refused || costUsd === null) {
    log("warn", "sms route: implausible price passed over", { upstream, serviceId: offer.serviceId, reason: refused });
    return null;
  }
  const ctx = await pricingContext(deps.db, order.buyer ?? (await buyerOf(deps.db, order.userId)));
  // The choice's documented surcharge is the upstream's: it raises both the ceiling we send and our price of it.
  const factor = 1 + surchargePercent / 100;
  return { serviceId: offer.serviceId, maxCost: { amount: Math.round(offer.cost * factor * 10_000) / 10_000, currency: offer.currency }, priceKobo: smsPriceKobo(costUsd * factor, ctx) };
}

// ---------------------------------------------------------------------------------------------------------------
// What the operator sees

export interface AccountSlots {
  upstream: SmsUpstream;
  account: number;
  inUse: number;
  limit: number | null;
}

/** Slots in use per configured upstream account (the console overview; issue 30). */
export async function upstreamSlots(deps: Pick<SmsDeps, "db" | "env">): Promise<AccountSlots[]> {
  const out: AccountSlots[] = [];
  for (const upstream of SMS_UPSTREAMS) {
    const keys = upstreamAccountKeys(deps.env, upstream);
    if (keys.length === 0) continue;
    const [used, limit] = await Promise.all([slotsInUse(deps.db, upstream), slotLimitOf(deps.db, upstream, deps.env)]);
    keys.forEach((_, account) => out.push({ upstream, account, inUse: used.get(account) ?? 0, limit }));
  }
  return out;
}

/** Slots in use per upstream account that holds any, from our own orders alone (the console overview; issue 30). */
export async function slotsInUseByAccount(db: Db): Promise<{ upstream: string; account: number; inUse: number; limit: number | null }[]> {
  const rows = await db
    .select({ upstream: smsOrders.upstream, account: smsOrders.upstreamAccount, count: sql<number>`COUNT(*)` })
    .from(smsOrders)
    .where(and(isNotNull(smsOrders.upstream), eq(smsOrders.status, "waiting")))
    .groupBy(smsOrders.upstream, smsOrders.upstreamAccount);
  const out = [];
  for (const r of rows) {
    if (!isSmsUpstream(r.upstream)) continue;
    out.push({ upstream: r.upstream, account: r.account, inUse: Number(r.count), limit: await slotLimitOf(db, r.upstream) });
  }
  return out;
}
