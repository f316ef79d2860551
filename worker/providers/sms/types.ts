import type { SmsProviderName } from "../../../schema/constants";
import { createUpstreamClient, UpstreamFault, type UpstreamClient, type UpstreamReply, type UpstreamRequest } from "../upstream-http";

/** One upstream that sells single-use numbers for receiving a verification SMS. */
export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Countries with our public ids (the spec's: USA is 5). */
  countries(): Promise<SmsCountry[]>;
  /** What a country offers: the upstream cost in the currency the upstream priced it in, and stock. */
  services(countryId: string): Promise<SmsOffer[]>;
  /**
   * Takes a number. maxCost (in the offer's own currency) stops the upstream from charging more than we quoted; it
   * already holds the choice's documented surcharge. `choice` is sent only in the parameters the upstream documents
   * (`numberChoices`); an adapter refuses a choice it cannot send ("rejected") rather than dropping it silently.
   */
  buy(request: BuyRequest): Promise<SmsActivation>;
  /**
   * Which number a buyer may ask for here, as the upstream documents it (DaisySMS: carriers and area codes; the
   * SMS-Activate protocol: an operator). Absent where the upstream documents no such choice (sms-man, Grizzly SMS).
   */
  readonly numberChoices?: NumberChoiceSupport;
  /** One status check. Throws SmsProviderError when the upstream fails. */
  poll(upstreamId: string): Promise<SmsPollResult>;
  /** Releases an unused number (the upstream refunds us). */
  cancel(upstreamId: string): Promise<SmsCancelResult>;
  /** Tells the upstream the code was used. Best effort: the order is already settled. */
  finish(upstreamId: string): Promise<void>;
  /**
   * Asks the upstream for another code on a number that already received one (SMS-Activate setStatus 3). Absent where
   * the upstream documents no such request (sms-man): the service answers "not supported" then. Throws SmsProviderError.
   */
  requestAnotherCode?(upstreamId: string): Promise<void>;
  /**
   * Takes the number of a past activation again for a new code ("use this number again": DaisySMS's and SMS-Activate's
   * getExtraActivation). Absent where the upstream documents no such call (sms-man): the product then offers no button.
   * The answer is a new activation (its own id) on the same number; `readyAt` (epoch ms) when the upstream says the
   * number is still asleep and will take SMS only from then. Throws SmsProviderError ("not_found": this number cannot
   * be taken again).
   */
  reactivate?(previousUpstreamId: string, request: { maxCost?: UpstreamMoney }): Promise<SmsActivation & { readyAt?: number }>;
  /** Our own balance at the upstream (read-only: providers:check and the sweep's health floor use it). */
  balance(): Promise<UpstreamMoney>;
  /** Which upstream answers (daisysms, herosms, grizzly, smsman): orders record it. Absent on test fakes. */
  readonly upstream?: string;
  /**
   * Every active activation of this account in one call, where the upstream documents such a call (SMS-Activate's
   * getActiveActivations); null or absent where it does not. One call then serves the polls of many orders.
   */
  activeActivations?(): Promise<ActiveActivation[] | null>;
  // "Use this number again" (getExtraActivation, HeroSMS reactivate) is left to an optional `reactivate` the rent/sms
  // services add; the profile names the documented action (sms-activate-profiles.ts reactivateAction).
}

/** One purchase as an adapter receives it. */
export interface BuyRequest {
  countryId: string;
  serviceId: string;
  maxCost?: UpstreamMoney;
  choice?: NumberChoice;
}

/**
 * The number a customer asked for, in the upstream's own terms (issue 49). Every field optional; an empty choice is
 * no choice. carriers and areas are DaisySMS's getNumber parameters (https://daisysms.com/docs/api: `carriers=tmo,vz`,
 * `areas=212,718`); operator is the SMS-Activate protocol's (https://sms-activate.org/en/api2: `operator=mts`).
 */
export interface NumberChoice {
  carriers?: string[];
  areas?: string[];
  operator?: string;
}

export function isEmptyChoice(choice: NumberChoice | undefined | null): boolean {
  return !choice || ((choice.carriers?.length ?? 0) === 0 && (choice.areas?.length ?? 0) === 0 && !choice.operator);
}

/**
 * What an upstream documents for choosing a number, per kind: the public country ids it applies to (the spec's
 * numbering, USA is 5), the documented values, and the documented surcharge in percent of the number's price.
 */
export interface NumberChoiceSupport {
  carriers?: { countries: readonly string[]; values: Readonly<Record<string, string>>; surchargePercent: number; param: string };
  areas?: { countries: readonly string[]; surchargePercent: number; param: string; max: number };
  /** Operators per public country id (only the countries listed); surcharge none where the document names none. */
  operator?: { byCountry: Readonly<Record<string, readonly string[]>>; surchargePercent: number; param: string };
}

/**
 * The documented surcharge of a choice at this upstream, in percent (each kind asked for adds its own: DaisySMS says
 * area codes are "subject to a 20% price increase" and carriers "also"), or null when the upstream cannot honour the
 * choice in this country (a kind it does not document, a value it does not list).
 */
export function choiceSurchargePercent(support: NumberChoiceSupport | undefined, countryId: string, choice: NumberChoice | undefined): number | null {
  if (isEmptyChoice(choice)) return 0;
  if (!support) return null;
  let percent = 0;
  if (choice!.carriers?.length) {
    const c = support.carriers;
    if (!c || !c.countries.includes(countryId) || !choice!.carriers.every((v) => v in c.values)) return null;
    percent += c.surchargePercent;
  }
  if (choice!.areas?.length) {
    const a = support.areas;
    if (!a || !a.countries.includes(countryId) || choice!.areas.length > a.max) return null;
    percent += a.surchargePercent;
  }
  if (choice!.operator) {
    const listed = support.operator?.byCountry[countryId];
    if (!listed || !listed.includes(choice!.operator)) return null;
    percent += support.operator!.surchargePercent;
  }
  return percent;
}

/** One active activation as a batch status call answers it. */
export interface ActiveActivation {
  upstreamId: string;
  result: SmsPollResult;
}

/** Currencies the upstreams price in (sms-man: RUB, USD or EUR per account; DaisySMS: dollars). */
export const UPSTREAM_CURRENCIES = ["USD", "RUB", "EUR"] as const;
export type UpstreamCurrency = (typeof UPSTREAM_CURRENCIES)[number];

/** An amount as the upstream states it: decimal units of `currency` (never assumed to be dollars). */
export interface UpstreamMoney {
  amount: number;
  currency: UpstreamCurrency;
}

export function isUpstreamCurrency(value: unknown): value is UpstreamCurrency {
  return typeof value === "string" && (UPSTREAM_CURRENCIES as readonly string[]).includes(value.toUpperCase());
}

export interface SmsCountry {
  id: string;
  title: string;
}

/** One service in one country as the upstream lists it. The catalogue converts `cost` to dollars (or refuses it). */
export interface SmsOffer {
  countryId: string;
  serviceId: string;
  name: string;
  /** Decimal units of `currency`. */
  cost: number;
  currency: UpstreamCurrency;
  count: number;
}

export interface SmsActivation {
  upstreamId: string;
  number: string;
  /** What the upstream says it charged, when it says (DaisySMS's X-Price header, in dollars). */
  cost?: UpstreamMoney;
}

/**
 * One status check's answer. `text` is the whole SMS where the upstream gives it (DaisySMS's X-Text header); absent
 * where it documents only the code (sms-man's get-sms: sms_code), and then the customer is shown the code alone.
 */
export type SmsPollResult = { state: "waiting" } | { state: "code"; code: string; text?: string } | { state: "cancelled" };

/**
 * released: the number went back (the upstream refunds us).
 * refused: the upstream kept it. `final` says the upstream considers the activation finished (a code came, or it no
 * longer exists: DaisySMS's ACCESS_READY), so asking again is pointless and the outcome must be read with poll();
 * otherwise it is only "not yet" (EARLY_CANCEL_DENIED).
 */
export type SmsCancelResult = { outcome: "released" } | { outcome: "refused"; reason: string; final: boolean };

export type SmsFaultKind =
  | "no_numbers"
  /** Our own money at the upstream ran out (NO_BALANCE, NO_MONEY, sms-man "balance"): an operator problem. */
  | "no_balance"
  /** Too many numbers out at once on our account (DaisySMS: 20 active rentals): try again shortly. */
  | "too_many_active"
  | "bad_key"
  | "bad_service"
  | "price_exceeded"
  | "not_found"
  | "rejected"
  | "bad_reply"
  | "unavailable"
  | "timeout";

/** Faults worth trying again on the next tick; the others are the upstream's final word. */
export const TRANSIENT_SMS_FAULTS: ReadonlySet<SmsFaultKind> = new Set(["unavailable", "timeout"]);

/**
 * An upstream failure. `message` is safe to show a customer (never a key, never the raw reply); `detail` is for logs.
 */
export class SmsProviderError extends Error {
  override name = "SmsProviderError";
  constructor(
    readonly kind: SmsFaultKind,
    message: string,
    readonly detail = "",
  ) {
    super(message);
  }
  get transient(): boolean {
    return TRANSIENT_SMS_FAULTS.has(this.kind);
  }
}

/** Customer-facing wording for each fault (our own account's problems are never blamed on the customer). */
export const SMS_FAULT_MESSAGES: Record<SmsFaultKind, string> = {
  no_numbers: "No numbers available for this service right now. Please try another country or service.",
  no_balance: "This provider is temporarily unavailable. Please try another provider or try again later.",
  too_many_active: "This provider is busy right now. Please try again in a few minutes or try another provider.",
  bad_key: "This provider is temporarily unavailable. Please try another provider or try again later.",
  bad_service: "This service is not available for the selected country.",
  price_exceeded: "The provider's price just went up. Please refresh the prices and try again.",
  not_found: "The provider no longer knows this number.",
  rejected: "The provider refused the request. Please try again.",
  bad_reply: "The provider sent an unexpected reply. Please try again shortly.",
  unavailable: "The provider could not be reached. Please try again shortly.",
  timeout: "The provider took too long to answer. Please try again shortly.",
};

export function smsFault(kind: SmsFaultKind, detail = ""): SmsProviderError {
  return new SmsProviderError(kind, SMS_FAULT_MESSAGES[kind], detail);
}

export type { FetchLike } from "../upstream-http";
import type { FetchLike } from "../upstream-http";

/** The one upstream HTTP client for an SMS adapter (deadline, User-Agent, parsing: worker/providers/upstream-http.ts). */
export function smsUpstreamClient(provider: string, options: AdapterOptions & { baseUrl: string }): UpstreamClient {
  return createUpstreamClient({ provider, baseUrl: options.baseUrl, fetch: options.fetch, timeoutMs: options.timeoutMs });
}

/**
 * One call through the client, with the client's transport faults read as SMS faults (one mapping): a timeout stays a
 * timeout, a network failure or a 5xx/429 is "unavailable" (transient), a body of the wrong kind is a bad reply.
 * The body comes back as text with any status below 500, so each adapter reads its own documented words first.
 */
export async function smsRequest(http: UpstreamClient, path: string, init: UpstreamRequest = {}): Promise<UpstreamReply> {
  let reply: UpstreamReply;
  try {
    reply = await http.request(path, init);
  } catch (err) {
    throw err instanceof UpstreamFault ? smsFaultFrom(err) : err;
  }
  if (reply.status >= 500 || reply.status === 429) throw smsFault("unavailable", `HTTP ${reply.status}`);
  return reply;
}

/** The client's one fault type, in the SMS vocabulary the order's life is written in. */
export function smsFaultFrom(fault: UpstreamFault): SmsProviderError {
  switch (fault.reason) {
    case "timeout":
      return smsFault("timeout", fault.detail);
    case "network":
    case "http":
      return smsFault("unavailable", fault.detail);
    case "rejected":
      return smsFault("rejected", fault.detail);
    default:
      return smsFault("bad_reply", fault.detail);
  }
}

export interface AdapterOptions {
  baseUrl: string;
  key: string;
  fetch?: FetchLike;
  /** Per-request time limit (tests pass a short one). */
  timeoutMs?: number;
}
