import type { NumberChoiceSupport, SmsFaultKind, UpstreamCurrency } from "./types";

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
  /** Which number a buyer may ask for on getNumber, as documented (issue 49); null: the upstream documents none. */
  numberChoices: NumberChoiceSupport | null;
  /** The protocol's rent actions where the upstream serves them (issue 49: providers/rent/sms-activate-rent.ts). */
  rent: SmsActivateRentProfile | null;
}

/**
 * The SMS-Activate rent protocol as its own client and hosts document it (SMS-Activate's PHP client, offered for
 * download on https://sms-activate.org/en/api2: getRentServicesAndCountries(rent_time, operator), getRentNumber(service,
 * rent_time, country, operator, url), getRentStatus(id), setRentStatus(id, status), continueRentNumber(id, rent_time),
 * getContinueRentPriceNumber(id, rent_time); the replies and error words as the protocol's hosts publish them:
 * https://sms-online.pro/docs/api/en/continue_rent_number.html, .../get_rent_status.html, .../set_rent_status.html,
 * https://sms.online/help/api-docs/getContinueRentPrice). Hours only.
 */
export interface SmsActivateRentProfile {
  /** The service code that rents the whole number (every service): the rent list's "full". */
  wholeNumberService: string;
  /** The fewest hours a rental may last (rent_time's documented default and floor). */
  minHours: number;
  /** The action that prices an extension before it is bought. */
  extensionPriceAction: "getContinueRentPriceNumber";
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

/**
 * The protocol's `operator` on getNumber: "mobile operator numbers, you can specify several numbers separated by
 * commas (available only for: Russia megafon, mts, beeline, tele2, rostelecom, any; Ukraine kyivstar, life, utel, mts,
 * vodafone; Kazakhstan tele2, beeline, activ, altel)" (https://sms-activate.org/en/api2; its own PHP client sends it only
 * for countries 0, 1 and 2). "any" is no choice, so it is not listed. Keyed by our public ids (Russia 1, Ukraine 2,
 * Kazakhstan 3: SMS_ACTIVATE_COUNTRIES). One operator per purchase here: the customer picks one. No surcharge is
 * documented. HeroSMS keeps the protocol's parameters ("compatible with the SMS-Activate API"); its own page was not in
 * our document store, so this is the protocol's document, not HeroSMS's (decision 068).
 */
const SMS_ACTIVATE_OPERATORS: NonNullable<NumberChoiceSupport["operator"]> = {
  param: "operator",
  surchargePercent: 0,
  byCountry: {
    "1": ["megafon", "mts", "beeline", "tele2", "rostelecom"],
    "2": ["kyivstar", "life", "utel", "mts", "vodafone"],
    "3": ["tele2", "beeline", "activ", "altel"],
  },
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
    // "You can specify area codes in the `areas` query string parameter. Such rentals are subject to a 20% price
    // increase. For example, areas=212,718 will only rent numbers with area codes 212 or 718. You can specify carrier in
    // the `carriers` query string parameter. You need to use "tmo" for T-Mobile, "vz" for Verizon, and "att" for AT&T.
    // Such rentals are also subject to a 20% price increase." (https://daisysms.com/docs/api, "Renting a number"). The
    // page sets no limit on how many area codes; ours is 10 (a longer list is a typo more often than a wish).
    // DaisySMS's long-term rentals (ltr=1 on getNumber) are a different model (a number kept per service by a daily fee),
    // not the rent protocol: not used for Rent Number.
    rent: null,
    numberChoices: {
      carriers: { param: "carriers", countries: ["5"], values: { tmo: "T-Mobile", vz: "Verizon", att: "AT&T" }, surchargePercent: 20 },
      areas: { param: "areas", countries: ["5"], surchargePercent: 20, max: 10 },
    },
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
    numberChoices: { operator: SMS_ACTIVATE_OPERATORS },
    // HeroSMS lists the protocol's rent actions among its own (getRentNumber, prolongation); read in the protocol's
    // documents, since HeroSMS's page was not in our store (decision 068).
    rent: { wholeNumberService: "full", minHours: 4, extensionPriceAction: "getContinueRentPriceNumber" },
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
    // Its getNumber documents service, country and maxPrice only (https://grizzlysms.com/docs): no operator; no rent.
    numberChoices: null,
    rent: null,
  },
};
