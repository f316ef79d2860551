import { z } from "zod";
import { type SmsProviderName } from "../../../schema/constants";
import { SMS_ACTIVATE_PROFILES, type SmsActivateProfile } from "./sms-activate-profiles";
import { excerpt, type UpstreamClient } from "../upstream-http";
import {
  choiceSurchargePercent,
  isEmptyChoice,
  smsFault,
  smsRequest,
  type BuyRequest,
  type NumberChoiceSupport,
  smsUpstreamClient,
  type ActiveActivation,
  type AdapterOptions,
  type SmsActivation,
  type SmsCancelResult,
  type SmsCountry,
  type SmsFaultKind,
  type SmsOffer,
  type SmsPollResult,
  type SmsProvider,
  type UpstreamCurrency,
  type UpstreamMoney,
} from "./types";

/**
 * The SMS-Activate protocol family's one adapter, configured per upstream by a profile (sms-activate-profiles.ts:
 * DaisySMS, HeroSMS, Grizzly SMS). Without a profile it is 'Swift SMS' as it has always been:
 * the SMS-Activate-compatible protocol as DaisySMS speaks it (GET handler_api.php?api_key=&action=...,
 * plain-text replies, JSON for prices). USA numbers only, shown to customers as country 5 (the spec's default id);
 * the upstream's own USA id is sent where the protocol wants a country.
 *
 * Source: https://daisysms.com/docs/api ("We maintain an sms-activate compatible API"): balances and max_price are in
 * dollars, max_price is inclusive, a rental's effective price comes back in the X-Price header, at most 20 active
 * rentals at a time. Every reply word that page and SMS-Activate's protocol document is in REPLY_WORDS below.
 */
export interface SmsActivateOptions extends AdapterOptions {
  /** The upstream's id for USA (SMS-Activate numbering: 187). */
  upstreamCountryId?: string;
  /** Which upstream of the family, with its documented differences (default DaisySMS). */
  profile?: SmsActivateProfile;
  /** The account's currency where the operator knows better than the profile (GRIZZLY_CURRENCY). */
  currency?: UpstreamCurrency;
  /** The customer-facing provider this adapter serves orders of (Swift unless said). */
  provider?: SmsProviderName;
}


// getPrices does not name services on every SMS-Activate-compatible host; these short codes are the common ones.
const SERVICE_NAMES: Record<string, string> = {
  wa: "WhatsApp", tg: "Telegram", go: "Google", fb: "Facebook", ig: "Instagram", tw: "Twitter", ds: "Discord",
  am: "Amazon", mm: "Microsoft", wx: "Apple", lf: "TikTok", oi: "Tinder", ub: "Uber", ts: "PayPal", nf: "Netflix",
  vi: "Viber", wb: "WeChat", me: "Line", sn: "Snapchat", li: "LinkedIn", yh: "Yahoo", dr: "OpenAI",
};

/**
 * Every error word the protocol documents, and what it means for us. getNumber (https://daisysms.com/docs/api):
 * MAX_PRICE_EXCEEDED, NO_NUMBERS, TOO_MANY_ACTIVE_RENTALS, NO_MONEY, BAD_SERVICE, BAD_KEY; SMS-Activate's own
 * documentation adds NO_BALANCE, BAD_ACTION, BAD_COUNTRY, ERROR_SQL, BANNED:<time>, WRONG_MAX_PRICE:<min>, BAD_STATUS,
 * NO_ACTIVATION, WRONG_ACTIVATION_ID, EARLY_CANCEL_DENIED, ACCOUNT_INACTIVE, CHANNELS_LIMIT, WRONG_EXCEPTION_PHONE,
 * NO_BALANCE_FORWARD.
 */
export const REPLY_WORDS: Record<string, SmsFaultKind> = {
  NO_NUMBERS: "no_numbers",
  NO_BALANCE: "no_balance",
  NO_MONEY: "no_balance",
  TOO_MANY_ACTIVE_RENTALS: "too_many_active",
  CHANNELS_LIMIT: "too_many_active",
  BAD_KEY: "bad_key",
  ACCOUNT_INACTIVE: "bad_key",
  BANNED: "bad_key",
  BAD_SERVICE: "bad_service",
  BAD_COUNTRY: "bad_service",
  MAX_PRICE_EXCEEDED: "price_exceeded",
  // The price we quoted is below the upstream's minimum: the same as a price that went up.
  WRONG_MAX_PRICE: "price_exceeded",
  NO_ACTIVATION: "not_found",
  WRONG_ACTIVATION_ID: "not_found",
  BAD_ACTION: "rejected",
  BAD_STATUS: "rejected",
  // Documented on getNumber / setStatus by SMS-Activate-protocol hosts (https://sms-online.pro/docs/api/en/number.html,
  // .../change_status.html): refusals of a request, never an unreadable reply. cancel() reads EARLY_CANCEL_DENIED itself.
  EARLY_CANCEL_DENIED: "rejected",
  WRONG_EXCEPTION_PHONE: "rejected",
  NO_BALANCE_FORWARD: "rejected",
  ERROR_SQL: "unavailable",
};

/** getExtraActivation's words for "this number cannot be taken again" (DaisySMS BAD_ID; SMS-Activate's three). */
const REACTIVATION_REFUSALS = new Set(["BAD_ID", "RENEW_ACTIVATION_NOT_AVAILABLE", "NEW_ACTIVATION_IMPOSSIBLE", "SIM_OFFLINE"]);

// getPrices: {"<country>": {"<service>": {cost, count, name?}}}; cost and count come as strings or numbers.
const numeric = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/)]).transform(Number);
const priceEntrySchema = z.object({ cost: numeric, count: numeric, name: z.string().optional() }).passthrough();
const pricesSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
const balanceSchema = z.string().regex(/^ACCESS_BALANCE:(\d+(\.\d+)?)$/);
const numberSchema = z.string().regex(/^ACCESS_NUMBER:(\d+):(\+?\d{5,20})$/);
// getActiveActivations (SMS-Activate protocol; HeroSMS keeps it): smsCode may be a string, a list or null.
const activeActivationsSchema = z
  .object({
    status: z.string(),
    error: z.string().optional(),
    message: z.string().optional(),
    activeActivations: z
      .array(
        z
          .object({
            activationId: z.union([z.string(), z.number()]),
            smsCode: z.union([z.string(), z.number(), z.array(z.string()), z.null()]).optional(),
            activationStatus: z.union([z.string(), z.number()]).optional(),
          })
          .passthrough(),
      )
      .optional(),
  })
  .passthrough();

export class SmsActivateProvider implements SmsProvider {
  readonly name: SmsProviderName;
  readonly upstream: string;
  readonly profile: SmsActivateProfile;
  private readonly http: UpstreamClient;
  private readonly key: string;
  private readonly currency: UpstreamCurrency;
  private readonly countryMap: Record<string, { id: string; title: string }>;
  /**
   * "Use this number again", only where the profile documents getExtraActivation (DaisySMS): absent otherwise, so the
   * product offers no button (Grizzly documents none; HeroSMS's `reactivate` is not confirmed from its own documents).
   */
  readonly reactivate?: (previousUpstreamId: string, request: { maxCost?: UpstreamMoney }) => Promise<SmsActivation & { readyAt?: number }>;
  readonly numberChoices?: NumberChoiceSupport;

  constructor(options: SmsActivateOptions) {
    this.profile = options.profile ?? SMS_ACTIVATE_PROFILES.daisysms;
    this.name = options.provider ?? "Swift";
    this.upstream = this.profile.upstream;
    // The base may be the host or the full handler_api.php address (SWIFT_BASE_URL).
    const trimmed = options.baseUrl.replace(/\/+$/, "");
    this.http = smsUpstreamClient(this.profile.label, { ...options, baseUrl: trimmed.endsWith(".php") ? trimmed : `${trimmed}/stubs/handler_api.php` });
    this.key = options.key;
    this.currency = options.currency ?? this.profile.currency;
    this.countryMap = { ...this.profile.countries };
    if (options.upstreamCountryId && this.countryMap["5"]) this.countryMap["5"] = { ...this.countryMap["5"], id: options.upstreamCountryId };
    if (this.profile.reactivateAction === "getExtraActivation") this.reactivate = (id, request) => this.getExtraActivation(id, request);
    if (this.profile.numberChoices) this.numberChoices = this.profile.numberChoices;
  }

  async countries(): Promise<SmsCountry[]> {
    return Object.entries(this.countryMap).map(([id, c]) => ({ id, title: c.title }));
  }

  async services(countryId: string): Promise<SmsOffer[]> {
    const upstreamCountry = this.countryMap[countryId];
    if (!upstreamCountry) return [];
    const { text } = await this.call({ action: "getPrices", country: upstreamCountry.id });
    return parseSmsActivatePrices(text, upstreamCountry.id, countryId, this.currency);
  }

  async buy(request: BuyRequest): Promise<SmsActivation> {
    const upstreamCountry = this.countryMap[request.countryId];
    if (!upstreamCountry) throw smsFault("bad_service", `country ${request.countryId} is not sold by ${this.profile.label}`);
    const params: Record<string, string> = { action: "getNumber", service: request.serviceId, country: upstreamCountry.id, ...this.choiceParams(request) };
    if (request.maxCost !== undefined && this.profile.maxPriceParam) {
      // The max price is in the upstream's own currency (DaisySMS: dollars, inclusive, https://daisysms.com/docs/api):
      // a quote in another currency cannot be a ceiling here, so it is refused rather than sent as if it were its own.
      if (request.maxCost.currency !== this.currency) throw smsFault("price_exceeded", `max price quoted in ${request.maxCost.currency}`);
      params[this.profile.maxPriceParam] = request.maxCost.amount.toFixed(4);
    }
    const { text, headers } = await this.call(params);
    const match = numberSchema.safeParse(text);
    if (!match.success) throw this.textFault("getNumber", text);
    const [, upstreamId, number] = /^ACCESS_NUMBER:(\d+):(\+?\d{5,20})$/.exec(match.data)!;
    const price = this.profile.priceHeader ? Number(headers.get(this.profile.priceHeader)) : NaN;
    return { upstreamId, number, ...(Number.isFinite(price) && price > 0 ? { cost: { amount: price, currency: this.currency } } : {}) };
  }

  /**
   * The choice in the upstream's own parameters (the profile's numberChoices: DaisySMS carriers=tmo,vz and
   * areas=212,718; the protocol's operator=mts). A choice this upstream cannot honour in this country is refused here,
   * before any request: routing never sends one, and a number that ignored it would be sold as what it is not.
   */
  private choiceParams(request: BuyRequest): Record<string, string> {
    const choice = request.choice;
    if (isEmptyChoice(choice)) return {};
    const support = this.numberChoices;
    if (choiceSurchargePercent(support, request.countryId, choice) === null) throw smsFault("rejected", `${this.profile.label} documents no such choice in country ${request.countryId}`);
    const params: Record<string, string> = {};
    if (choice!.carriers?.length) params[support!.carriers!.param] = choice!.carriers.join(",");
    if (choice!.areas?.length) params[support!.areas!.param] = choice!.areas.join(",");
    if (choice!.operator) params[support!.operator!.param] = choice!.operator;
    return params;
  }

  /**
   * The account's active activations in one call (the profile's batchStatus: SMS-Activate's getActiveActivations,
   * JSON {status: "success", activeActivations: [{activationId, smsCode, activationStatus, ...}]}; an account with none
   * answers NO_ACTIVATIONS or an empty list). Absent (null) where the upstream documents no such call.
   */
  async activeActivations(): Promise<ActiveActivation[] | null> {
    if (!this.profile.batchStatus) return null;
    const { text } = await this.call({ action: this.profile.batchStatus });
    if (text === "NO_ACTIVATIONS") return [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw this.textFault(this.profile.batchStatus, text);
    }
    const parsed = activeActivationsSchema.safeParse(body);
    if (!parsed.success) throw smsFault("bad_reply", `${this.profile.batchStatus}: ${excerpt(text)}`);
    if (parsed.data.status !== "success") {
      const word = String(parsed.data.error ?? parsed.data.message ?? "");
      if (word === "NO_ACTIVATIONS") return [];
      throw this.textFault(this.profile.batchStatus, word || "error");
    }
    return (parsed.data.activeActivations ?? []).map((a) => {
      const code = a.smsCode === null || a.smsCode === undefined ? "" : (Array.isArray(a.smsCode) ? a.smsCode.at(-1) ?? "" : String(a.smsCode)).trim();
      // activationStatus 8 is a cancelled activation (setStatus 8); anything else without a code is still waiting.
      const result: SmsPollResult = code ? { state: "code", code } : String(a.activationStatus) === "8" ? { state: "cancelled" } : { state: "waiting" };
      return { upstreamId: String(a.activationId), result };
    });
  }

  /**
   * getStatus with text=1: DaisySMS then sends the whole SMS in the X-Text header beside STATUS_OK:<code>
   * (https://daisysms.com/docs/api, "Get status"; not re-read through this session's tools, see PROVIDERS.md). Hosts
   * of the protocol that do not know the parameter ignore it and send no header: the code alone is kept then.
   */
  async poll(upstreamId: string): Promise<SmsPollResult> {
    const { text, headers } = await this.call({ action: "getStatus", id: upstreamId, text: "1" });
    const result = parseSmsActivateStatus(text, (reply) => this.textFault("getStatus", reply));
    const full = fullTextHeader(headers.get("x-text"));
    return result.state === "code" && full ? { ...result, text: full } : result;
  }

  async cancel(upstreamId: string): Promise<SmsCancelResult> {
    const { text } = await this.call({ action: "setStatus", id: upstreamId, status: "8" });
    switch (text) {
      case "ACCESS_CANCEL":
      case "ACCESS_CANCEL_ALREADY":
        return { outcome: "released" };
      // DaisySMS answers ACCESS_READY to a cancel of an activation that already has its code or no longer exists
      // (PROVIDERS.md, audit of https://daisysms.com/docs/api): the number was NOT given back. What happened is read
      // with getStatus by the caller (services/sms-poll.ts endWithoutCode decides the money from that).
      case "ACCESS_READY":
      case "ACCESS_ACTIVATION":
        return { outcome: "refused", reason: text, final: true };
      // SMS-Activate refuses a cancel in the first two minutes; it is allowed later.
      case "EARLY_CANCEL_DENIED":
        return { outcome: "refused", reason: text, final: false };
      case "BAD_STATUS":
        return { outcome: "refused", reason: text, final: false };
      default:
        throw this.textFault("setStatus", text);
    }
  }

  /**
   * setStatus 3: "request another code"; the upstream answers ACCESS_RETRY_GET and getStatus then says
   * STATUS_WAIT_RETRY:<last code> until the new SMS, then STATUS_OK:<new code>.
   * https://sms-activate.org/en/api2 (setStatus, getStatus); https://sms-online.pro/docs/api/en/change_status.html
   */
  async requestAnotherCode(upstreamId: string): Promise<void> {
    const { text } = await this.call({ action: "setStatus", id: upstreamId, status: "3" });
    if (text !== "ACCESS_RETRY_GET") throw this.textFault("setStatus", text);
  }

  /**
   * getExtraActivation&activationId=<the past activation>: the same number again for a new code, charged like a new
   * number (the effective price in X-Price, max_price honoured like getNumber). Replies, as DaisySMS's API page
   * (https://daisysms.com/docs/api, "getExtraActivation") and SMS-Activate's (https://sms-activate.org/en/api2) give
   * them: ACCESS_NUMBER:<new id>:<phone> (ready now), ASLEEP:<new id>:<phone>:<unix seconds> (DaisySMS: the number
   * takes SMS from then on; the time may come earlier), BAD_ID (unknown, or it cannot be taken again); SMS-Activate's
   * words RENEW_ACTIVATION_NOT_AVAILABLE, NEW_ACTIVATION_IMPOSSIBLE and SIM_OFFLINE mean the same for us. DaisySMS
   * warns that an extra activation that never receives a message may cost a penalty: callers offer it only for a
   * number that received a code before.
   */
  private async getExtraActivation(previousUpstreamId: string, request: { maxCost?: UpstreamMoney }): Promise<SmsActivation & { readyAt?: number }> {
    const params: Record<string, string> = { action: "getExtraActivation", activationId: previousUpstreamId };
    if (request.maxCost !== undefined) {
      if (request.maxCost.currency !== "USD") throw smsFault("price_exceeded", `max price quoted in ${request.maxCost.currency}`);
      params.max_price = request.maxCost.amount.toFixed(4);
    }
    const { text, headers } = await this.call(params);
    const ready = /^ACCESS_NUMBER:(\d+):(\+?\d{5,20})$/.exec(text);
    const asleep = /^ASLEEP:(\d+):(\+?\d{5,20}):(\d{9,11})$/.exec(text);
    const match = ready ?? asleep;
    if (!match) {
      const word = text.split(":")[0];
      if (REACTIVATION_REFUSALS.has(word)) throw smsFault("not_found", `getExtraActivation: ${excerpt(text)}`);
      throw this.textFault("getExtraActivation", text);
    }
    const price = Number(headers.get("x-price"));
    return {
      upstreamId: match[1],
      number: match[2],
      ...(asleep ? { readyAt: Number(asleep[3]) * 1000 } : {}),
      ...(Number.isFinite(price) && price > 0 ? { cost: { amount: price, currency: "USD" as const } } : {}),
    };
  }

  async finish(upstreamId: string): Promise<void> {
    await this.call({ action: "setStatus", id: upstreamId, status: "6" }).catch(() => undefined);
  }

  /** getBalance -> ACCESS_BALANCE:50.30, in the account's currency (DaisySMS: dollars, https://daisysms.com/docs/api). */
  async balance(): Promise<UpstreamMoney> {
    const { text } = await this.call({ action: "getBalance" });
    const parsed = balanceSchema.safeParse(text);
    if (!parsed.success) throw this.textFault("getBalance", text);
    return { amount: Number(parsed.data.slice("ACCESS_BALANCE:".length)), currency: this.currency };
  }

  /** Replies are plain words (JSON for prices), whatever the HTTP status below 500: the word decides. */
  private async call(params: Record<string, string>): Promise<{ text: string; headers: Headers }> {
    const { text, headers } = await smsRequest(this.http, "", { query: { api_key: this.key, ...params }, accept: "text/plain, application/json" });
    return { text: text.trim(), headers };
  }

  /** Maps a documented reply word to its fault; anything else (HTML, garbage) is a bad reply. */
  private textFault(action: string, text: string) {
    const word = text.split(":")[0];
    const kind = this.profile.extraWords[word] ?? REPLY_WORDS[word];
    return kind ? smsFault(kind, `${action}: ${excerpt(text)}`) : smsFault("bad_reply", `${action}: ${excerpt(text)}`);
  }
}

/** getPrices' JSON for one upstream country, as offers under our country id. Unpriceable entries are skipped. */
export function parseSmsActivatePrices(text: string, upstreamCountryId: string, countryId: string, currency: UpstreamCurrency = "USD"): SmsOffer[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const word = text.trim().split(":")[0];
    throw smsFault(REPLY_WORDS[word] ?? "bad_reply", `getPrices: ${excerpt(text)}`);
  }
  const parsed = pricesSchema.safeParse(body);
  if (!parsed.success) throw smsFault("bad_reply", "getPrices is not a map");
  // SMS-Activate's getPrices is {country: {service: entry}}; the verification list some hosts answer instead is
  // {service: {country: entry}}. Both are read; the country is never looked up among service codes.
  let byService: Record<string, unknown> | undefined = parsed.data[upstreamCountryId];
  if (!byService) {
    const flipped: Record<string, unknown> = {};
    for (const [service, byCountry] of Object.entries(parsed.data)) {
      if (byCountry[upstreamCountryId] !== undefined && priceEntrySchema.safeParse(byCountry[upstreamCountryId]).success) {
        flipped[service] = byCountry[upstreamCountryId];
      }
    }
    if (Object.keys(flipped).length > 0) byService = flipped;
  }
  if (!byService) throw smsFault("bad_reply", "getPrices without the country");
  const offers: SmsOffer[] = [];
  for (const [serviceId, raw] of Object.entries(byService)) {
    const entry = priceEntrySchema.safeParse(raw);
    // A listed service without a usable price is not for sale (never ₦0).
    if (!entry.success || !(entry.data.cost > 0)) continue;
    const name = entry.data.name?.trim() || SERVICE_NAMES[serviceId] || serviceId;
    offers.push({ countryId, serviceId, name, cost: entry.data.cost, currency, count: Math.max(0, Math.trunc(entry.data.count)) });
  }
  return offers;
}

/** The X-Text header as the message it carries: percent-encoded text decoded (a header is not UTF-8 by itself). */
export function fullTextHeader(value: string | null): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  if (!/%[0-9a-f]{2}/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/**
 * getStatus words: STATUS_WAIT_CODE, STATUS_WAIT_RESEND (waiting), STATUS_WAIT_RETRY:<code> (a code came and another is
 * awaited: the customer has one, so it counts), STATUS_OK:<code>, STATUS_CANCEL; errors as REPLY_WORDS.
 */
export function parseSmsActivateStatus(text: string, fault: (text: string) => Error): SmsPollResult {
  if (text === "STATUS_WAIT_CODE" || text === "STATUS_WAIT_RESEND") return { state: "waiting" };
  if (text === "STATUS_CANCEL") return { state: "cancelled" };
  const code = /^STATUS_(?:OK|WAIT_RETRY):(.+)$/.exec(text)?.[1]?.trim();
  if (code) return { state: "code", code };
  throw fault(text);
}
