import { koboToNaira, nairaToKobo } from "../../../schema/money";
import type { SmsProviderName } from "../../../schema/constants";
import { STATUS_MIN_SAMPLE, type StatusWindow } from "../../../schema/status";
import type { SmsNumberChoiceInput, SmsOfferRecord, SmsOfferResponse } from "../../../schema/sms";
import { SMS_PROVIDERS } from "../../../schema/constants";
import { log } from "../../lib/log";
import { catalogueFor, type PricedBuyer, pricingContext, type SmsDeps, smsPriceKobo } from "../kernel";
import { choiceSurcharge, numberChoiceOf, numberChoicesFor } from "./number-choice";
import { NO_RECORD, offerKey, offerRecords, RECORD_WINDOW_DAYS } from "./offer-record";
import { findSmsOffer, smsCountries, smsOffers } from "./sms-catalogue";

/**
 * The purchase card's offer (issue 49, GET /api/sms/offer): the chosen provider × country × service with, before the
 * click, its price with the number choice's documented surcharge, what may be chosen there, its own record, and a
 * better route when there clearly is one.
 *
 * "Clearly better" (decision 068): both records shown (from STATUS_MIN_SAMPLE orders each), and the other route's
 * success rate at least BETTER_RATE_POINTS points higher, or as high with at most half the median wait; for the same
 * service (by name), in stock, at a price within the customer's cap (their max price, else this offer's price: never
 * a dearer number they did not say they would pay for). A choice of carrier, area code or operator belongs to this
 * route, so no other route is suggested while one is made.
 */
export const BETTER_RATE_POINTS = 10;

export function recordView(w: StatusWindow): SmsOfferRecord {
  return { sample: w.orders, success_rate: w.success_rate, median_seconds_to_code: w.median_seconds_to_code };
}

/** Whether `other` is clearly better than `chosen` (both need their figures). */
export function clearlyBetter(chosen: StatusWindow, other: StatusWindow): boolean {
  if (chosen.success_rate === null || other.success_rate === null) return false;
  if (other.success_rate >= chosen.success_rate + BETTER_RATE_POINTS) return true;
  return (
    other.success_rate >= chosen.success_rate &&
    chosen.median_seconds_to_code !== null &&
    other.median_seconds_to_code !== null &&
    other.median_seconds_to_code * 2 <= chosen.median_seconds_to_code
  );
}

export async function smsOffer(
  deps: SmsDeps,
  user: { id: string } & PricedBuyer,
  query: { provider: SmsProviderName; country: string; service: string; cap?: number } & SmsNumberChoiceInput,
): Promise<SmsOfferResponse> {
  const catalogue = catalogueFor(deps, user.id);
  const now = deps.clock.now();
  const { offer, countryName } = await findSmsOffer(catalogue, query.provider, query.country, query.service);
  const ctx = await pricingContext(deps.db, user);
  const choice = numberChoiceOf(query);
  const [choices, surcharge] = await Promise.all([
    numberChoicesFor(deps, user.id, query.provider, query.country),
    choiceSurcharge(deps, user.id, query.provider, query.country, choice),
  ]);
  const baseKobo = smsPriceKobo(offer.costUsd, ctx);
  const priceKobo = smsPriceKobo(offer.costUsd * (1 + surcharge / 100), ctx);
  const records = await offerRecords(deps.db, now, { service: offer.name });
  const record = records.get(offerKey(query.provider, countryName, offer.name)) ?? NO_RECORD;

  let better: SmsOfferResponse["better"] = null;
  if (surcharge === 0 && Object.keys(choice).length === 0) {
    const capKobo = query.cap !== undefined ? nairaToKobo(query.cap) : priceKobo;
    const wanted = offer.name.trim().toLowerCase();
    // Only routes whose record is clearly better are priced (each a catalogue read, usually cached).
    const candidates = [...records.entries()]
      .map(([key, w]) => ({ key: key.split("\u0000"), w }))
      .filter(({ key: [p, c, s], w }) => SMS_PROVIDERS.includes(p as SmsProviderName) && s!.trim().toLowerCase() === wanted && !(p === query.provider && c === countryName) && clearlyBetter(record, w))
      .sort((a, b) => b.w.success_rate! - a.w.success_rate! || (a.w.median_seconds_to_code ?? Infinity) - (b.w.median_seconds_to_code ?? Infinity));
    for (const { key: [p, c], w } of candidates) {
      const provider = p as SmsProviderName;
      try {
        const country = (await smsCountries(catalogue, provider)).find((x) => x.title === c);
        if (!country) continue;
        const other = (await smsOffers(catalogue, provider, country.id)).find((o) => o.name.trim().toLowerCase() === wanted && !o.refused && o.count > 0);
        if (!other) continue;
        const otherKobo = smsPriceKobo(other.costUsd, ctx);
        if (otherKobo > capKobo) continue;
        better = { provider, country_id: country.id, country: country.title, service_id: other.serviceId, service: other.name, price: koboToNaira(otherKobo), record: recordView(w) };
        break;
      } catch (err) {
        // A provider that is down is simply not suggested.
        log("info", "offer: better route unavailable", { provider, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  return {
    provider: query.provider,
    country_id: query.country,
    country: countryName,
    service_id: offer.serviceId,
    service: offer.name,
    price: koboToNaira(priceKobo),
    base_price: koboToNaira(baseKobo),
    surcharge_percent: surcharge,
    choices,
    record: recordView(record),
    min_sample: STATUS_MIN_SAMPLE,
    window_days: RECORD_WINDOW_DAYS,
    better,
  };
}
