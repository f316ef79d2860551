import type { SmsCountry, SmsProvider } from "../../api/sms";

/** Spec section 9: the default country id (USA on Swift SMS). */
export const DEFAULT_COUNTRY_ID = "5";
export const DEFAULT_PROVIDER: SmsProvider = "Swift";

/**
 * The country a provider change resets to (spec section 4): 5 for Swift, the first country id for Dynamic
 * (empty until Dynamic's countries have loaded, so nothing is priced against the wrong list).
 */
export function countryAfterProviderChange(provider: SmsProvider, countries: readonly SmsCountry[] | undefined): string {
  if (provider === "Swift") return DEFAULT_COUNTRY_ID;
  const first = countries?.[0];
  return first ? String(first.id) : "";
}
