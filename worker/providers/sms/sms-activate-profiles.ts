import type { SmsFaultKind, UpstreamCurrency } from "./types";

/**
 * The SMS-Activate protocol family (GET <base>/stubs/handler_api.php?api_key=&action=getNumber|getStatus|setStatus|
 * getPrices|getBalance, plain-word replies) is spoken by several upstreams. One adapter (sms-activate.ts) speaks it;
 * each upstream is a profile here: its address, the currency it prices and holds our balance in, and every place its
 * own documents differ from the protocol, as a setting. A new compatible upstream is a new profile, never a fork.
 *
 * Facts per upstream come from its own documents (cited per profile). Where only third-party clients say something,
 * the comment says "(unverified)": check it against the upstream's page before relying on it live.
 */
export interface SmsActivateProfile {
  /** Our key for the upstream (orders record it: sms_orders.upstream). */
  upstream: SmsActivateUpstream;
  /** How operators and logs name it. */
  label: string;
  /** The documented handler address (the base URL variable overrides it). */
  defaultBaseUrl: string;
  /** What getPrices' cost, getBalance and max price are in. */
  currency: UpstreamCurrency;
  /** The name of the max-price parameter of getNumber (DaisySMS: max_price; others: maxPrice); null: none documented. */
  maxPriceParam: "max_price" | "maxPrice" | null;
  /** A reply header carrying the price actually charged (DaisySMS: X-Price), if documented. */
  priceHeader: string | null;
  /**
   * Our public country id (the spec's numbering, USA is 5) -> the upstream's own id. Only these countries are sold
   * through the upstream; a country not listed is refused before any request.
   */
  countries: Record<string, { id: string; title: string }>;
  /**
   * A documented call answering every active activation of the account at once (SMS-Activate's getActiveActivations),
   * so one call can serve the polls of many orders; null when the upstream documents none.
   */
  batchStatus: "getActiveActivations" | null;
  /** How long after getNumber a cancel is refused (EARLY_CANCEL_DENIED), when documented; 0: no such rule. */
  earlyCancelMs: number;
  /** Activations one account may hold at once, as documented; null: no documented limit. */
  slotLimit: number | null;
  /** Reply words this upstream documents beyond the protocol's (REPLY_WORDS in sms-activate.ts). */
  extraWords: Record<string, SmsFaultKind>;
  /**
   * The documented request that gives a past number a new activation ("use this number again"), for the rent/sms
   * services to build on: DaisySMS and SMS-Activate call it getExtraActivation, HeroSMS reactivate. null: none.
   */
  reactivateAction: "getExtraActivation" | "reactivate" | null;
}

export const SMS_ACTIVATE_UPSTREAMS = ["daisysms", "herosms", "grizzly"] as const;
export type SmsActivateUpstream = (typeof SMS_ACTIVATE_UPSTREAMS)[number];

/**
 * SMS-Activate's own country numbering ("country number see table", https://sms-activate.org/en/api2), which HeroSMS
 * and Grizzly SMS keep ("Our API is compatible with the sms-activate API", https://grizzlysms.com/docs), keyed by our
 * public ids (the spec's; worker/sandbox/sms-catalogue.ts lists the same countries).
 */
const SMS_ACTIVATE_COUNTRIES: Record<string, { id: string; title: string }> = {
  "5": { id: "187", title: "USA" },
  "1": { id: "0", title: "Russia" },
  "2": { id: "1", title: "Ukraine" },
  "3": { id: "2", title: "Kazakhstan" },
  "4": { id: "3", title: "China" },
  "6": { id: "4", title: "Philippines" },
  "7": { id: "6", title: "Indonesia" },
  "8": { id: "7", title: "Malaysia" },
  "9": { id: "8", title: "Kenya" },
  "10": { id: "10", title: "Vietnam" },
  "11": { id: "16", title: "United Kingdom" },
  "12": { id: "19", title: "Nigeria" },
  "13": { id: "22", title: "India" },
  "14": { id: "36", title: "Canada" },
  "15": { id: "43", title: "Germany" },
  "16": { id: "78", title: "France" },
  "17": { id: "73", title: "Brazil" },
  "18": { id: "38", title: "Ghana" },
  "19": { id: "31", title: "South Africa" },
  "20": { id: "48", title: "Netherlands" },
  "21": { id: "56", title: "Spain" },
  "22": { id: "86", title: "Italy" },
  "23": { id: "15", title: "Poland" },
  "24": { id: "54", title: "Mexico" },
  "25": { id: "62", title: "Turkey" },
  "26": { id: "21", title: "Egypt" },
};

export const SMS_ACTIVATE_PROFILES: Record<SmsActivateUpstream, SmsActivateProfile> = {
  /**
   * DaisySMS, https://daisysms.com/docs/api: "We maintain an sms-activate compatible API"; USA only; balances and
   * max_price in dollars (max_price inclusive); the price charged in the X-Price header; "You may have 20 active
   * rentals at a time"; TOO_MANY_ACTIVE_RENTALS and NO_MONEY on getNumber; no batch status call (it pushes codes to a
   * webhook instead); getExtraActivation documented for a past number.
   */
  daisysms: {
    upstream: "daisysms",
    label: "DaisySMS",
    defaultBaseUrl: "https://daisysms.com/stubs/handler_api.php",
    currency: "USD",
    maxPriceParam: "max_price",
    priceHeader: "x-price",
    countries: { "5": { id: "187", title: "USA" } },
    batchStatus: null,
    earlyCancelMs: 0,
    slotLimit: 20,
    extraWords: {},
    reactivateAction: "getExtraActivation",
  },
  /**
   * HeroSMS (https://hero-sms.com/api; its SMS-Activate-compatible handler https://hero-sms.com/stubs/handler_api.php):
   * prices and balance in US dollars; getNumber takes maxPrice; a cancel within the first 2 minutes answers
   * EARLY_CANCEL_DENIED; getActiveActivations lists the account's active activations with their codes (one call for
   * many orders); reactivate gives a past number a new activation; WRONG_COUNTRY and NO_KEY are its own words.
   * (Its page was not in our document store; these facts are from public clients of its API: unverified.)
   */
  herosms: {
    upstream: "herosms",
    label: "HeroSMS",
    defaultBaseUrl: "https://hero-sms.com/stubs/handler_api.php",
    currency: "USD",
    maxPriceParam: "maxPrice",
    priceHeader: null,
    countries: SMS_ACTIVATE_COUNTRIES,
    batchStatus: "getActiveActivations",
    earlyCancelMs: 2 * 60_000,
    slotLimit: null,
    extraWords: { WRONG_COUNTRY: "bad_service", NO_KEY: "bad_key" },
    reactivateAction: "reactivate",
  },
  /**
   * Grizzly SMS, https://grizzlysms.com/docs: "Our API is compatible with the sms-activate API"; handler
   * https://api.grizzlysms.com/stubs/handler_api.php; getNumber takes maxPrice ("the maximum price for which you are
   * ready to buy a number") and answers BAD_KEY, NO_NUMBERS, or SERVICE_UNAVAILABLE_REGION ("access from your region is
   * restricted"); setStatus 8 (or -1) cancels, 6 completes, 3 asks for another code; a country left out means Russia,
   * so ours is always sent. It documents no active-activation limit and no batch status call.
   * Currency: the page does not name it; dollars are the safe reading (GRIZZLY_CURRENCY overrides): a rouble price read
   * as dollars is refused by the price ceiling, whereas dollars read as roubles would sell below cost.
   */
  grizzly: {
    upstream: "grizzly",
    label: "Grizzly SMS",
    defaultBaseUrl: "https://api.grizzlysms.com/stubs/handler_api.php",
    currency: "USD",
    maxPriceParam: "maxPrice",
    priceHeader: null,
    countries: SMS_ACTIVATE_COUNTRIES,
    batchStatus: null,
    earlyCancelMs: 0,
    slotLimit: null,
    // Our account cannot buy from where the worker runs: an operator problem, like a refused key.
    extraWords: { SERVICE_UNAVAILABLE_REGION: "bad_key" },
    reactivateAction: null,
  },
};
