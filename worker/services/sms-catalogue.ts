import type { SmsProviderName } from "../../schema/sms";
import type { Env } from "../env";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { smsProviderFor } from "../providers/sms";
import { SmsProviderError, type SmsCountry, type SmsOffer } from "../providers/sms/types";

/**
 * Provider catalogues, cached per isolate (the spec's client caches prices 2 min and countries 5 min; we match it so
 * a page view does not reach the upstream each time). In-flight look-ups are shared, failures are not cached.
 * Keyed by provider mode too: a sandbox account (test API key) reads the simulators' catalogue on a live deployment.
 */
export const PRICE_CACHE_MS = 120_000;
export const COUNTRY_CACHE_MS = 300_000;

const cache = new Map<string, { at: number; value: Promise<unknown> }>();

async function cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value as Promise<T>;
  const value = load();
  cache.set(key, { at: Date.now(), value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

export function clearSmsCatalogueCache(): void {
  cache.clear();
}

export async function smsCountries(env: Env, provider: SmsProviderName): Promise<SmsCountry[]> {
  return cached(`countries:${env.PROVIDERS ?? "live"}:${provider}`, COUNTRY_CACHE_MS, () => upstreamRead(provider, () => smsProviderFor(env, provider).countries()));
}

export async function smsOffers(env: Env, provider: SmsProviderName, countryId: string): Promise<SmsOffer[]> {
  return cached(`offers:${env.PROVIDERS ?? "live"}:${provider}:${countryId}`, PRICE_CACHE_MS, () =>
    upstreamRead(provider, () => smsProviderFor(env, provider).services(countryId)),
  );
}

export interface ResolvedOffer {
  offer: SmsOffer;
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
