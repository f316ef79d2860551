import { DEFAULT_SMS_COUNTRY, SMS_PROVIDERS, type SmsProviderName } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { SmsServiceEntry } from "../../../schema/sms";
import { getDb, type Db } from "../../db/client";
import type { Env } from "../../config";
import { TtlCache } from "../../lib/cache";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { SmsProviderError, type SmsCountry, type SmsOffer, type UpstreamMoney } from "../../providers/sms/types";
import { type SmsCatalogueDeps, costMinorUnits, getSettings, lastAcceptedCosts, pricingContext, recordAcceptedCosts, refusedUpstreamPrice, smsPriceKobo, starterContext, toUsd, type PricedBuyer } from "../kernel";
import { assertProviderAvailable } from "./upstream-health";
import { assertRouteNotFull, clearRouteFullCache } from "./routing";

/**
 * Provider catalogues, cached per isolate (the spec's client caches prices 2 min and countries 5 min; we match it so
 * a page view does not reach the upstream each time). In-flight look-ups are shared, failures are not cached.
 *
 * Each price list is checked before anything is sold from it: the upstream's cost is converted to dollars with the
 * operator's rates (a currency without a rate is refused), then the customer's price must be under the service's
 * ceiling and the cost may not jump more than max_jump times from the last accepted one (upstream_prices). A refused
 * offer is not sold, is shown as unavailable (count 0, at its last accepted price when there is one) and is logged.
 *
 * Keyed by provider mode too: a sandbox account (test API key) reads the simulators' catalogue on a live deployment;
 * such an account is not hidden by the live upstreams' health, and its (simulated) prices never touch the live
 * prices' jump-guard history.
 */
export const PRICE_CACHE_MS = 120_000;
export const COUNTRY_CACHE_MS = 300_000;

// Pending loads are shared and failed ones dropped at once (lib/cache.ts), so a failed upstream read is retried.
const countryCache = new TtlCache<string, Promise<SmsCountry[]>>(COUNTRY_CACHE_MS);
const offerCache = new TtlCache<string, Promise<PricedOffer[]>>(PRICE_CACHE_MS);

export function clearSmsCatalogueCache(): void {
  countryCache.clear();
  offerCache.clear();
  clearRouteFullCache();
}

/** An offer as the product sells it: the upstream's own figure kept for the purchase's max price, and dollars. */
export interface PricedOffer extends SmsOffer {
  costUsd: number;
  /** Why it is not for sale (ceiling, jump, no rate); such an offer is listed with count 0. */
  refused?: string;
}

/**
 * A provider's catalogue is shown unless the health check hides it: every upstream below its balance floor
 * (upstream-health.ts), or every account of every upstream serving it full (issue 30: hidden only then).
 */
async function assertOnSale(db: Db, env: Env, provider: SmsProviderName): Promise<void> {
  await assertProviderAvailable(db, provider);
  await assertRouteNotFull(db, env, provider);
}

export async function smsCountries(catalogue: SmsCatalogueDeps, provider: SmsProviderName): Promise<SmsCountry[]> {
  const { env, upstreams, providerSet } = catalogue;
  // A sandbox account's catalogue is the simulators': the live one's health and slots say nothing about it.
  if (!providerSet.sandboxAccount) await assertOnSale(getDb(env.DB), env, provider);
  return countryCache.getOrLoad(`${providerSet.mode}:${provider}`, () =>
    upstreamRead(provider, () => upstreams.sms(providerSet.mode, provider).countries()),
  );
}

export async function smsOffers(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string): Promise<PricedOffer[]> {
  const { env, upstreams, providerSet } = catalogue;
  const db = getDb(env.DB);
  const sandboxAccount = providerSet.sandboxAccount;
  if (!sandboxAccount) await assertOnSale(db, env, provider);
  return offerCache.getOrLoad(`${providerSet.mode}:${provider}:${countryId}`, async () => {
    const offers = await upstreamRead(provider, () => upstreams.sms(providerSet.mode, provider).services(countryId));
    return guardOffers(db, provider, countryId, offers, { history: !sandboxAccount });
  });
}

/**
 * GET /api/sms/price: one country's services keyed by service id, each priced for this customer's discount tier (the
 * starter tier without a token), with the spec's upstream cost in minor units: cost/100 × get-rate's rate × (1 +
 * markup) is the starter-tier price (SPEC 3/7).
 */
export async function smsPriceList(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string, buyer: PricedBuyer): Promise<Record<string, SmsServiceEntry>> {
  const offers = await smsOffers(catalogue, provider, countryId);
  const ctx = await pricingContext(getDb(catalogue.env.DB), buyer);
  const entries: Record<string, SmsServiceEntry> = {};
  for (const offer of offers) {
    entries[offer.serviceId] = {
      country_id: offer.countryId,
      application_id: offer.serviceId,
      application: offer.name,
      cost: costMinorUnits(offer.costUsd),
      count: offer.count,
      price: koboToNaira(smsPriceKobo(offer.costUsd, ctx)),
    };
  }
  return entries;
}

/** Converts, checks and records one price list (see the module comment). */
export async function guardOffers(
  db: Db,
  provider: SmsProviderName,
  countryId: string,
  offers: SmsOffer[],
  { history = true }: { history?: boolean } = {},
): Promise<PricedOffer[]> {
  const s = await getSettings(db, ["upstream_rates", "sms_price_guard", "exchange_rate", "costs"]);
  const guard = s.sms_price_guard;
  const last = history ? await lastAcceptedCosts(db, provider, countryId) : new Map<string, number>();
  // The ceiling applies to the price before any discount tier: the highest any customer could be charged.
  const starter = starterContext(s.exchange_rate.rate, s.costs);

  const out: PricedOffer[] = [];
  const accepted: { key: string; costUsd: number }[] = [];
  for (const offer of offers) {
    const money: UpstreamMoney = { amount: offer.cost, currency: offer.currency };
    const costUsd = toUsd(money, s.upstream_rates);
    const previous = last.get(offer.serviceId);
    const refused = refusedUpstreamPrice({
      costUsd,
      currency: offer.currency,
      priceNaira: (usd) => smsPriceKobo(usd, starter) / 100,
      ceilingNaira: guard.service_ceilings[`${provider}:${offer.serviceId}`] ?? guard.ceiling_naira,
      previousUsd: previous,
      maxJump: guard.max_jump,
    });
    if (refused) {
      log("warn", "sms offer refused: implausible price", { provider, countryId, serviceId: offer.serviceId, cost: offer.cost, currency: offer.currency, reason: refused });
      // Shown as unavailable at the last price it was sold for; with no such price it cannot be shown at all.
      if (previous !== undefined) out.push({ ...offer, count: 0, costUsd: previous, refused });
      continue;
    }
    out.push({ ...offer, costUsd: costUsd! });
    if (previous === undefined || Math.abs(previous - costUsd!) > 1e-9) accepted.push({ key: offer.serviceId, costUsd: costUsd! });
  }
  if (history && accepted.length > 0) await recordAcceptedCosts(db, provider, countryId, accepted);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Reads that name no provider: the spec's original client never sends one (issue 27, decision 032)

/**
 * GET /api/sms/countries without `provider`: both providers' countries, Swift's first, each id once (the sandbox and
 * DaisySMS share SPEC's ids: USA is 5). A provider that is down (below its health floor, unreachable) is left out;
 * only when every one is down is its refusal the answer.
 */
export async function smsCountriesOfAll(catalogue: SmsCatalogueDeps): Promise<SmsCountry[]> {
  const lists = await Promise.allSettled(SMS_PROVIDERS.map((provider) => smsCountries(catalogue, provider)));
  const seen = new Set<string>();
  const out: SmsCountry[] = [];
  for (const list of lists) {
    if (list.status !== "fulfilled") continue;
    for (const country of list.value) {
      if (seen.has(country.id)) continue;
      seen.add(country.id);
      out.push(country);
    }
  }
  const failed = lists.find((l): l is PromiseRejectedResult => l.status === "rejected");
  if (out.length === 0 && failed) throw failed.reason;
  return out;
}

/**
 * GET /api/sms/price without `provider`: the provider whose list answers for this country, the first (Swift, then
 * Dynamic) that sells it and is up. A Dynamic purchase from a Swift-listed id is resolved by name (resolveServiceId).
 */
export async function providerSellingCountry(catalogue: SmsCatalogueDeps, countryId: string): Promise<SmsProviderName> {
  for (const provider of SMS_PROVIDERS) {
    const countries = await smsCountries(catalogue, provider).catch(() => [] as SmsCountry[]);
    if (countries.some((c) => c.id === countryId)) return provider;
  }
  return SMS_PROVIDERS[0];
}

/**
 * The service id to buy at `provider`: `serviceId` itself when that provider sells it in the country; otherwise, for
 * Dynamic, the service of the same name (case-insensitive) as `serviceId` on Swift's list (that country's, else USA's),
 * since the original client shows Swift's list whatever provider is chosen. The price is then Dynamic's own server
 * price, compared with the shown one as every purchase is (409 PRICE_CHANGED with the price when it is higher).
 * Unresolvable ids are returned unchanged, so the purchase refuses them with its usual message.
 */
export async function resolveServiceId(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string, serviceId: string): Promise<string> {
  if (provider !== "Dynamic") return serviceId;
  const offers = await smsOffers(catalogue, provider, countryId).catch(() => [] as PricedOffer[]);
  if (offers.some((o) => o.serviceId === serviceId)) return serviceId;
  const swiftCountries = await smsCountries(catalogue, "Swift").catch(() => [] as SmsCountry[]);
  const swiftCountry = swiftCountries.some((c) => c.id === countryId) ? countryId : DEFAULT_SMS_COUNTRY;
  const swiftOffers = await smsOffers(catalogue, "Swift", swiftCountry).catch(() => [] as PricedOffer[]);
  const name = swiftOffers.find((o) => o.serviceId === serviceId)?.name.trim().toLowerCase();
  if (!name) return serviceId;
  return offers.find((o) => o.name.trim().toLowerCase() === name)?.serviceId ?? serviceId;
}

export interface ResolvedOffer {
  offer: PricedOffer;
  countryName: string;
}

/** The offer a purchase is priced from, or the customer's reason why there is none. */
export async function findSmsOffer(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string, serviceId: string): Promise<ResolvedOffer> {
  const countries = await smsCountries(catalogue, provider);
  const country = countries.find((c) => c.id === countryId);
  if (!country) throw new AppError("VALIDATION_FAILED", "This country is not offered by the selected provider.");
  const offers = await smsOffers(catalogue, provider, countryId);
  const offer = offers.find((o) => o.serviceId === serviceId);
  if (!offer) throw new AppError("VALIDATION_FAILED", "This service is not available for the selected country.");
  if (offer.refused) {
    throw new AppError("UPSTREAM_UNAVAILABLE", "This service is temporarily unavailable. Please try another service or try again later.");
  }
  if (offer.count <= 0) {
    throw new AppError("NO_NUMBERS", "No numbers available for this service right now. Please try another country or service.");
  }
  return { offer, countryName: country.title };
}

async function upstreamRead<T>(provider: SmsProviderName, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof SmsProviderError) {
      log("warn", "sms catalogue unavailable", { provider, kind: err.kind, detail: err.detail });
      throw new AppError(err.kind === "timeout" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_UNAVAILABLE", err.message);
    }
    throw err;
  }
}
