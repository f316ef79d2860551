import type { SmsOffer } from "./types";

// Reading upstream price lists. Both protocols answer {service id: {cost, count, ...}} for one country; entries whose
// cost or stock is not a number are skipped (an upstream lists a service it cannot price), never turned into ₦0.

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The offers in one country's {serviceId: {cost, count}} map; `nameOf` names a service from its id and raw entry. */
export function offersFromPriceMap(
  byService: Record<string, unknown>,
  countryId: string,
  nameOf: (serviceId: string, raw: Record<string, unknown>) => string,
): SmsOffer[] {
  const offers: SmsOffer[] = [];
  for (const [serviceId, raw] of Object.entries(byService)) {
    if (!isRecord(raw)) continue;
    const costUsd = Number(raw.cost);
    const count = Number(raw.count);
    if (!Number.isFinite(costUsd) || costUsd <= 0 || !Number.isFinite(count)) continue;
    offers.push({ countryId, serviceId, name: nameOf(serviceId, raw), costUsd, count: Math.max(0, Math.trunc(count)) });
  }
  return offers;
}
