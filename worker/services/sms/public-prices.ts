import type { SmsProviderName } from "../../../schema/constants";
import type { SmsPublicPriceList } from "../../../schema/sms";
import { RETAIL_BUYER, type SmsCatalogueDeps } from "../kernel";
import { AppError } from "../../lib/errors";
import { smsCountries, smsPriceList } from "./sms-catalogue";

/**
 * The public price page (issue 28): one provider's services in one country at the starter tier's prices, with stock,
 * whoever asks (a token is ignored), so the answer is the same for every visitor and can be cached at the edge
 * (routes/sms.ts). Prices come from the same catalogue and pricing as a purchase (services/sms-catalogue.ts), so a
 * new customer pays what this page shows; a discount tier pays less. Sorted by name, then cheapest first.
 */
export async function publicPriceList(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string, now: number): Promise<SmsPublicPriceList> {
  const countries = await smsCountries(catalogue, provider);
  const country = countries.find((c) => c.id === countryId);
  if (!country) throw new AppError("NOT_FOUND", "This country is not offered by the selected provider.");
  const entries = await smsPriceList(catalogue, provider, countryId, RETAIL_BUYER);
  const services = Object.values(entries)
    .map((e) => ({ id: e.application_id, name: e.application, price: e.price, count: e.count }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.price - b.price);
  return { provider, country_id: country.id, country: country.title, services, read_at: new Date(now).toISOString() };
}
