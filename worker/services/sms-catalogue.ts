import type { SmsProviderName } from "../../schema/constants";
import { koboToNaira } from "../../schema/money";
import type { SmsServiceEntry } from "../../schema/sms";
import { getDb, type Db } from "../db/client";
import type { Env } from "../config";
import { TtlCache } from "../lib/cache";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { smsProviderFor } from "../providers/sms";
import { SmsProviderError, type SmsCountry, type SmsOffer, type UpstreamMoney } from "../providers/sms/types";
import { costMinorUnits, pricingContext, smsPriceKobo } from "./pricing";
import { getSettings } from "./settings";
import { isSandboxAccountEnv } from "./sandbox-accounts";
import { assertProviderAvailable } from "./upstream-health";
import { lastAcceptedCosts, recordAcceptedCosts, refusedUpstreamPrice, toUsd } from "./upstream-money";

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
}

/** An offer as the product sells it: the upstream's own figure kept for the purchase's max price, and dollars. */
export interface PricedOffer extends SmsOffer {
  costUsd: number;
  /** Why it is not for sale (ceiling, jump, no rate); such an offer is listed with count 0. */
  refused?: string;
}

export async function smsCountries(env: Env, provider: SmsProviderName): Promise<SmsCountry[]> {
  if (!isSandboxAccountEnv(env)) await assertProviderAvailable(getDb(env.DB), provider);
  return countryCache.getOrLoad(`${env.PROVIDERS ?? "live"}:${provider}`, () =>
    upstreamRead(provider, () => smsProviderFor(env, provider).countries()),
  );
}

export async function smsOffers(env: Env, provider: SmsProviderName, countryId: string): Promise<PricedOffer[]> {
  const db = getDb(env.DB);
  const sandboxAccount = isSandboxAccountEnv(env);
  if (!sandboxAccount) await assertProviderAvailable(db, provider);
  return offerCache.getOrLoad(`${env.PROVIDERS ?? "live"}:${provider}:${countryId}`, async () => {
    const offers = await upstreamRead(provider, () => smsProviderFor(env, provider).services(countryId));
    return guardOffers(db, provider, countryId, offers, { history: !sandboxAccount });
  });
}

/**
 * GET /api/sms/price: one country's services keyed by service id, each priced for this customer's discount tier (the
 * starter tier without a token), with the spec's upstream cost in minor units: cost/100 × get-rate's rate × (1 +
 * markup) is the starter-tier price (SPEC 3/7).
 */
export async function smsPriceList(env: Env, provider: SmsProviderName, countryId: string, totalDepositedKobo: number): Promise<Record<string, SmsServiceEntry>> {
  const offers = await smsOffers(env, provider, countryId);
  const ctx = await pricingContext(getDb(env.DB), totalDepositedKobo);
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
  const starter = { rate: s.exchange_rate.rate, costs: s.costs, tier: { icon: "", text: "", indicator: "", percentage: 0, threshold: 0 } };

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

export interface ResolvedOffer {
  offer: PricedOffer;
  countryName: string;
}

/** The offer a purchase is priced from, or the customer's reason why there is none. */
export async function findSmsOffer(env: Env, provider: SmsProviderName, countryId: string, serviceId: string): Promise<ResolvedOffer> {
  const countries = await smsCountries(env, provider);
  const country = countries.find((c) => c.id === countryId);
  if (!country) throw new AppError("VALIDATION_FAILED", "This country is not offered by the selected provider.");
  const offers = await smsOffers(env, provider, countryId);
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
