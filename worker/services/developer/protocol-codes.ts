import type { SmsProviderName } from "../../../schema/constants";
import type { SmsCatalogueDeps } from "../kernel";
import type { SmsOffer } from "../../providers/sms/types";
import { type PricedOffer, smsCountries, smsOffers } from "../sms";

/**
 * The SMS-Activate protocol's country and service codes, mapped onto our providers (docs/developer-api.md "Codes").
 * Countries: SMS-Activate numbers them (0 Russia, 187 USA...; https://sms-activate.org/en/api2 "country table");
 * USA (187) is sold by our USA upstream ("Swift"), every other code by "Dynamic", matched by the country's English name.
 * Services: the protocol's short codes (wa WhatsApp, tg Telegram...). "Swift" already uses these codes as its service
 * ids; a "Dynamic" offer gets the code whose names include the offer's name. An offer with no code is not listed.
 */
export interface ProtocolCountry {
  code: string;
  /** English names our providers may use for it (the first is shown). */
  names: string[];
}

export const PROTOCOL_COUNTRIES: ProtocolCountry[] = [
  { code: "0", names: ["Russia"] },
  { code: "1", names: ["Ukraine"] },
  { code: "2", names: ["Kazakhstan"] },
  { code: "3", names: ["China"] },
  { code: "4", names: ["Philippines"] },
  { code: "6", names: ["Indonesia"] },
  { code: "7", names: ["Malaysia"] },
  { code: "8", names: ["Kenya"] },
  { code: "10", names: ["Vietnam", "Viet Nam"] },
  { code: "15", names: ["Poland"] },
  { code: "16", names: ["United Kingdom", "UK", "England", "Great Britain"] },
  { code: "19", names: ["Nigeria"] },
  { code: "21", names: ["Egypt"] },
  { code: "22", names: ["India"] },
  { code: "31", names: ["South Africa"] },
  { code: "36", names: ["Canada"] },
  { code: "38", names: ["Ghana"] },
  { code: "43", names: ["Germany"] },
  { code: "48", names: ["Netherlands"] },
  { code: "54", names: ["Mexico"] },
  { code: "56", names: ["Spain"] },
  { code: "62", names: ["Turkey", "Türkiye"] },
  { code: "73", names: ["Brazil"] },
  { code: "78", names: ["France"] },
  { code: "86", names: ["Italy"] },
  { code: "187", names: ["USA", "United States"] },
];

/** The protocol's USA code; a request without a country means it, as on DaisySMS (a USA-only host of the protocol). */
export const PROTOCOL_USA = "187";

export const PROTOCOL_SERVICES: { code: string; names: string[] }[] = [
  { code: "wa", names: ["WhatsApp"] },
  { code: "tg", names: ["Telegram"] },
  { code: "go", names: ["Google", "Gmail", "YouTube", "Google, YouTube, Gmail"] },
  { code: "fb", names: ["Facebook"] },
  { code: "ig", names: ["Instagram", "Instagram + Threads"] },
  { code: "tw", names: ["Twitter", "X", "X (Twitter)"] },
  { code: "ds", names: ["Discord"] },
  { code: "am", names: ["Amazon"] },
  { code: "mm", names: ["Microsoft"] },
  { code: "wx", names: ["Apple"] },
  { code: "lf", names: ["TikTok", "TikTok/Douyin"] },
  { code: "oi", names: ["Tinder"] },
  { code: "ub", names: ["Uber"] },
  { code: "ts", names: ["PayPal"] },
  { code: "nf", names: ["Netflix"] },
  { code: "vi", names: ["Viber"] },
  { code: "wb", names: ["WeChat"] },
  { code: "me", names: ["Line", "LINE"] },
  { code: "fu", names: ["Snapchat"] },
  { code: "tn", names: ["LinkedIn"] },
  { code: "mb", names: ["Yahoo"] },
  { code: "dr", names: ["OpenAI", "ChatGPT"] },
  { code: "bw", names: ["Signal"] },
  { code: "re", names: ["Coinbase"] },
  { code: "aon", names: ["Binance"] },
];

const norm = (s: string) => s.trim().toLowerCase();
const SERVICE_BY_NAME = new Map(PROTOCOL_SERVICES.flatMap((s) => s.names.map((n) => [norm(n), s.code] as const)));
const SERVICE_NAME = new Map(PROTOCOL_SERVICES.map((s) => [s.code, s.names[0]]));

export function protocolServiceName(code: string): string | undefined {
  return SERVICE_NAME.get(code);
}

export function protocolCountry(code: string): ProtocolCountry | undefined {
  return PROTOCOL_COUNTRIES.find((c) => c.code === code);
}

/** Where a protocol country is sold: our provider and its country id, or null when no provider offers it. */
export async function resolveProtocolCountry(catalogue: SmsCatalogueDeps, code: string): Promise<{ provider: SmsProviderName; countryId: string; name: string } | null> {
  const country = protocolCountry(code);
  if (!country) return null;
  const provider: SmsProviderName = code === PROTOCOL_USA ? "Swift" : "Dynamic";
  const names = new Set(country.names.map(norm));
  const found = (await smsCountries(catalogue, provider)).find((c) => names.has(norm(c.title)));
  return found ? { provider, countryId: found.id, name: country.names[0] } : null;
}

/** The protocol code of one of our offers (Swift's service ids are protocol codes already). */
export function protocolCodeOf(provider: SmsProviderName, offer: Pick<SmsOffer, "serviceId" | "name">): string | undefined {
  if (provider === "Swift") return offer.serviceId;
  return SERVICE_BY_NAME.get(norm(offer.name));
}

/** The provider's offers keyed by protocol service code (offers without one are left out). */
export async function protocolOffers(catalogue: SmsCatalogueDeps, provider: SmsProviderName, countryId: string): Promise<Map<string, PricedOffer>> {
  const out = new Map<string, PricedOffer>();
  for (const offer of await smsOffers(catalogue, provider, countryId)) {
    const code = protocolCodeOf(provider, offer);
    if (code && !out.has(code)) out.set(code, offer);
  }
  return out;
}
