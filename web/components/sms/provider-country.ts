import { DEFAULT_SMS_COUNTRY, type SmsProviderName } from "../../../schema/constants";
import type { SmsCountryEntry } from "../../../schema/sms";

/**
 * The country a provider change resets to (spec section 4): 5 for Swift, the first country id for Dynamic
 * (empty until Dynamic's countries have loaded, so nothing is priced against the wrong list).
 */
export function countryAfterProviderChange(provider: SmsProviderName, countries: readonly SmsCountryEntry[] | undefined): string {
  if (provider === "Swift") return DEFAULT_SMS_COUNTRY;
  const first = countries?.[0];
  return first ? String(first.id) : "";
}
