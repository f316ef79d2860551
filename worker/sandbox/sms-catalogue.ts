/**
 * The sandbox's SMS market: what both protocol simulators sell. Ids follow the spec (USA is 5); costs are US dollars.
 * Stock and per-country prices are derived deterministically so screens and tests see the same figures every run.
 */

export interface SandboxCountry {
  id: string;
  title: string;
  dial: string;
  /** Multiplier on the base USD cost: numbers from some countries cost more upstream. */
  costFactor: number;
}

export interface SandboxService {
  /** sms-man application_id. */
  appId: string;
  /** SMS-Activate short code. */
  code: string;
  name: string;
  costUsd: number;
}

export const SANDBOX_NO_SMS = "Sandbox No-SMS";
export const SANDBOX_ERROR = "Sandbox Error";

export const SANDBOX_COUNTRIES: SandboxCountry[] = [
  { id: "5", title: "USA", dial: "1", costFactor: 1 },
  { id: "1", title: "Russia", dial: "7", costFactor: 0.6 },
  { id: "2", title: "Ukraine", dial: "380", costFactor: 0.7 },
  { id: "3", title: "Kazakhstan", dial: "7", costFactor: 0.6 },
  { id: "4", title: "China", dial: "86", costFactor: 1.2 },
  { id: "6", title: "Philippines", dial: "63", costFactor: 0.5 },
  { id: "7", title: "Indonesia", dial: "62", costFactor: 0.4 },
  { id: "8", title: "Malaysia", dial: "60", costFactor: 0.8 },
  { id: "9", title: "Kenya", dial: "254", costFactor: 0.5 },
  { id: "10", title: "Vietnam", dial: "84", costFactor: 0.4 },
  { id: "11", title: "United Kingdom", dial: "44", costFactor: 1.4 },
  { id: "12", title: "Nigeria", dial: "234", costFactor: 0.6 },
  { id: "13", title: "India", dial: "91", costFactor: 0.3 },
  { id: "14", title: "Canada", dial: "1", costFactor: 1.1 },
  { id: "15", title: "Germany", dial: "49", costFactor: 1.5 },
  { id: "16", title: "France", dial: "33", costFactor: 1.3 },
  { id: "17", title: "Brazil", dial: "55", costFactor: 0.7 },
  { id: "18", title: "Ghana", dial: "233", costFactor: 0.6 },
  { id: "19", title: "South Africa", dial: "27", costFactor: 0.7 },
  { id: "20", title: "Netherlands", dial: "31", costFactor: 1.4 },
  { id: "21", title: "Spain", dial: "34", costFactor: 1.2 },
  { id: "22", title: "Italy", dial: "39", costFactor: 1.2 },
  { id: "23", title: "Poland", dial: "48", costFactor: 0.9 },
  { id: "24", title: "Mexico", dial: "52", costFactor: 0.8 },
  { id: "25", title: "Turkey", dial: "90", costFactor: 0.8 },
  { id: "26", title: "Egypt", dial: "20", costFactor: 0.5 },
];

export const SANDBOX_SERVICES: SandboxService[] = [
  { appId: "1", code: "wa", name: "WhatsApp", costUsd: 0.5 },
  { appId: "2", code: "tg", name: "Telegram", costUsd: 0.45 },
  { appId: "3", code: "go", name: "Google", costUsd: 0.3 },
  { appId: "4", code: "fb", name: "Facebook", costUsd: 0.2 },
  { appId: "5", code: "ig", name: "Instagram", costUsd: 0.15 },
  { appId: "6", code: "tw", name: "Twitter", costUsd: 0.12 },
  { appId: "7", code: "ds", name: "Discord", costUsd: 0.18 },
  { appId: "8", code: "am", name: "Amazon", costUsd: 0.25 },
  { appId: "9", code: "mm", name: "Microsoft", costUsd: 0.2 },
  { appId: "10", code: "wx", name: "Apple", costUsd: 0.35 },
  { appId: "11", code: "lf", name: "TikTok", costUsd: 0.15 },
  { appId: "12", code: "oi", name: "Tinder", costUsd: 0.4 },
  { appId: "13", code: "ub", name: "Uber", costUsd: 0.15 },
  { appId: "14", code: "ts", name: "PayPal", costUsd: 0.3 },
  { appId: "15", code: "nf", name: "Netflix", costUsd: 0.2 },
  { appId: "16", code: "vi", name: "Viber", costUsd: 0.12 },
  { appId: "17", code: "wb", name: "WeChat", costUsd: 0.6 },
  { appId: "18", code: "me", name: "Line", costUsd: 0.25 },
  { appId: "19", code: "fu", name: "Snapchat", costUsd: 0.12 },
  { appId: "20", code: "tn", name: "LinkedIn", costUsd: 0.2 },
  { appId: "21", code: "mb", name: "Yahoo", costUsd: 0.1 },
  { appId: "22", code: "dr", name: "OpenAI", costUsd: 0.35 },
  { appId: "23", code: "bw", name: "Signal", costUsd: 0.3 },
  { appId: "24", code: "re", name: "Coinbase", costUsd: 0.45 },
  { appId: "25", code: "aon", name: "Binance", costUsd: 0.45 },
  { appId: "26", code: "uk", name: "Airbnb", costUsd: 0.2 },
  { appId: "27", code: "mt", name: "Steam", costUsd: 0.15 },
  { appId: "28", code: "alj", name: "Spotify", costUsd: 0.1 },
  { appId: "29", code: "ka", name: "Shopee", costUsd: 0.1 },
  { appId: "30", code: "tx", name: "Bolt", costUsd: 0.12 },
  { appId: "31", code: "ij", name: "Revolut", costUsd: 0.4 },
  { appId: "32", code: "yw", name: "Grindr", costUsd: 0.2 },
  { appId: "90", code: "sbxnosms", name: SANDBOX_NO_SMS, costUsd: 0.05 },
  { appId: "91", code: "sbxerror", name: SANDBOX_ERROR, costUsd: 0.05 },
];

export function sandboxCountry(id: string): SandboxCountry | undefined {
  return SANDBOX_COUNTRIES.find((c) => c.id === id);
}

export function serviceByAppId(appId: string): SandboxService | undefined {
  return SANDBOX_SERVICES.find((s) => s.appId === appId);
}

export function serviceByCode(code: string): SandboxService | undefined {
  return SANDBOX_SERVICES.find((s) => s.code === code);
}

/** Upstream cost in USD, rounded to the cent like a real price list. */
export function sandboxCostUsd(country: SandboxCountry, service: SandboxService): number {
  return Math.max(0.01, Math.round(service.costUsd * country.costFactor * 100) / 100);
}

/** Stock: mostly hundreds to thousands; a few pairs outside the USA are sold out, like a real market. */
export function sandboxStock(country: SandboxCountry, service: SandboxService): number {
  const h = hash(`${country.id}:${service.appId}`);
  if (country.id !== "5" && !service.name.startsWith("Sandbox") && h % 23 === 0) return 0;
  return 150 + (h % 4000);
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/**
 * The sandbox market in SMS-Activate's own country numbering (https://sms-activate.org/en/api2 "country number see
 * table"), which the protocol's other hosts keep: what the HeroSMS and Grizzly SMS simulators answer to.
 */
export const SMS_ACTIVATE_COUNTRY_NUMBERS: Record<string, string> = {
  "187": "5", "0": "1", "1": "2", "2": "3", "3": "4", "4": "6", "6": "7", "7": "8", "8": "9", "10": "10", "16": "11",
  "19": "12", "22": "13", "36": "14", "43": "15", "78": "16", "73": "17", "38": "18", "31": "19", "48": "20", "56": "21",
  "86": "22", "15": "23", "54": "24", "62": "25", "21": "26",
};

/** A sandbox country by its SMS-Activate number. */
export function countryBySmsActivateNumber(number: string): SandboxCountry | undefined {
  const ours = SMS_ACTIVATE_COUNTRY_NUMBERS[number];
  return ours === undefined ? undefined : sandboxCountry(ours);
}
