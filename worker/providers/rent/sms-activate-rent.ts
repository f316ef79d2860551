import { z } from "zod";
import { RENT_UNIT_MS } from "../../../schema/rentals";
import { SMS_ACTIVATE_PROFILES, type SmsActivateProfile, type SmsActivateRentProfile } from "../sms/sms-activate-profiles";
import type { UpstreamCurrency, UpstreamMoney } from "../sms/types";
import { createUpstreamClient, excerpt, UpstreamFault, type FetchLike, type UpstreamClient } from "../upstream-http";
import { extractCode } from "./sms-man-rent";
import { RentProviderError, type RentChoice, type RentalExtension, type RentalProvider, type RentLimit, type RentProviderErrorKind, type RentSms } from "./types";

/**
 * Rent Number over the SMS-Activate rent protocol (issue 49): HeroSMS today (its profile's `rent`), any host of the
 * protocol that serves rentals tomorrow. GET handler_api.php?api_key=&action=..., JSON replies, errors as
 * {"status":"error","message":"<WORD>"} (or the bare word, as the protocol's activation actions answer):
 *   getRentServicesAndCountries&rent_time=&country= -> {"countries":{...},"operators":{...},"services":{"full":
 *       {"cost":42.93,"quant":20},"wa":{...}},"currency":840}   (the protocol page's example, as its clients transcribe it)
 *   getRentNumber&service=full&rent_time=&country= -> {"status":"success","phone":{"id":1049,"endDate":"2020-01-31T12:01:52",
 *       "number":"79959707564"}}; NO_NUMBERS, NO_BALANCE, WRONG_COUNTRY, CHANNELS_LIMIT, ACCOUNT_INACTIVE, BAD_KEY,
 *       ERROR_SQL, SERVER_ERROR  (https://sms-online.pro/docs/api/en/continue_rent_number.html lists the same words)
 *   getRentStatus&id= -> {"status":"success","quantity":"2","values":{"0":{"phoneFrom","text","service","date"}}};
 *       STATUS_WAIT_CODE (no message yet), STATUS_FINISH, STATUS_CANCEL, INVALID_PHONE   (.../get_rent_status.html)
 *   setRentStatus&id=&status=1 (finish) | 2 (cancel) -> {"status":"success"}; ALREADY_FINISH, ALREADY_CANCEL,
 *       CANT_CANCEL (more than 20 minutes), INCORECT_STATUS, INVALID_PHONE   (.../set_rent_status.html)
 *   getContinueRentPriceNumber&id=&rent_time= -> {"status":"success","price":"100"}   (SMS-Activate's PHP client names
 *       the action; https://sms.online/help/api-docs/getContinueRentPrice shows the reply; RENT_DIE, INVALID_TIME)
 *   continueRentNumber&id=&rent_time= -> {"status":"success","phone":{"id","endDate","number"}}; NO_BALANCE, RENT_DIE
 *   getBalance -> ACCESS_BALANCE:<amount>, in the profile's currency (HeroSMS: dollars).
 * We rent the whole number (service "full": every sender, like sms-man's rentals), for rent_time hours: a choice of
 * days, weeks or months is sent as its hours. Country ids are ours (the spec's numbering), sent in SMS-Activate's, as
 * the activation adapter does (the profile's countries table). Only documented parameters are sent: no operator (any
 * is the default), no webhook url, no page or size on getRentStatus (a page of the protocol's default size is read).
 */
export interface SmsActivateRentOptions {
  baseUrl: string;
  key: string;
  profile?: SmsActivateProfile;
  fetch?: FetchLike;
  timeoutMs?: number;
}

const numeric = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/)]).transform(Number);
const idValue = z.union([z.string().trim().min(1), z.number()]).transform(String);
const errorSchema = z.object({ status: z.literal("error"), message: z.string().optional(), error: z.string().optional() }).passthrough();
const servicesSchema = z.object({ services: z.record(z.string(), z.object({ cost: numeric, quant: numeric.optional(), count: numeric.optional() }).passthrough()) }).passthrough();
const phoneSchema = z.object({ status: z.literal("success"), phone: z.object({ id: idValue, number: idValue, endDate: z.string().optional() }).passthrough() }).passthrough();
const statusSchema = z
  .object({
    status: z.literal("success"),
    values: z
      .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .nullable(),
  })
  .passthrough();
const messageSchema = z.object({ phoneFrom: z.union([z.string(), z.number()]).optional(), text: z.string(), service: z.string().optional(), date: z.string().optional() }).passthrough();
const priceSchema = z.union([z.object({ status: z.literal("success"), price: numeric }).passthrough(), numeric]);
const balanceSchema = /^ACCESS_BALANCE:(\d+(?:\.\d+)?)$/;

/** What each documented word means for a rental (the words the protocol's hosts list; anything else: a bad reply). */
const RENT_WORDS: Record<string, RentProviderErrorKind> = {
  NO_NUMBERS: "no_stock",
  WRONG_COUNTRY: "no_stock",
  NO_BALANCE: "account",
  BAD_KEY: "account",
  NO_KEY: "account",
  ACCOUNT_INACTIVE: "account",
  BANNED: "account",
  CHANNELS_LIMIT: "unavailable",
  ERROR_SQL: "unavailable",
  SERVER_ERROR: "unavailable",
  BAD_ACTION: "refused",
  BAD_SERVICE: "refused",
  INVALID_PHONE: "refused",
  INVALID_TIME: "refused",
  RENT_DIE: "refused",
  CANT_CANCEL: "refused",
  ALREADY_CANCEL: "refused",
  ALREADY_FINISH: "refused",
  INCORECT_STATUS: "refused",
  STATUS_FINISH: "refused",
  STATUS_CANCEL: "refused",
  // getRentStatus before the first message: read as "no message yet" by getAllSms.
  STATUS_WAIT_CODE: "refused",
};

type Reply = { ok: true; json: unknown; text: string } | { ok: false; word: string; error: RentProviderError };

export class SmsActivateRentProvider implements RentalProvider {
  readonly upstream: string;
  private readonly http: UpstreamClient;
  private readonly rent: SmsActivateRentProfile;
  private readonly profile: SmsActivateProfile;
  private readonly currency: UpstreamCurrency;
  readonly extension: RentalExtension;

  constructor(private readonly opts: SmsActivateRentOptions) {
    this.profile = opts.profile ?? SMS_ACTIVATE_PROFILES.herosms;
    if (!this.profile.rent) throw new Error(`${this.profile.label} documents no rentals`);
    this.rent = this.profile.rent;
    this.upstream = this.profile.upstream;
    this.currency = this.profile.currency;
    const trimmed = opts.baseUrl.replace(/\/+$/, "");
    this.http = createUpstreamClient({ provider: this.profile.label, baseUrl: trimmed.endsWith(".php") ? trimmed : `${trimmed}/stubs/handler_api.php`, fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    this.extension = {
      price: (upstreamId, hours) => this.extensionPrice(upstreamId, hours),
      extend: (upstreamId, hours) => this.extend(upstreamId, hours),
    };
  }

  /** Rent time in hours, or null when the protocol cannot rent for that long (below its floor, or not whole hours). */
  hoursOf(choice: Pick<RentChoice, "unit" | "period">): number | null {
    const hours = (RENT_UNIT_MS[choice.unit] * choice.period) / 3_600_000;
    return Number.isInteger(hours) && hours >= this.rent.minHours ? hours : null;
  }

  async countries(): Promise<{ id: string; title: string }[]> {
    return Object.entries(this.profile.countries).map(([id, c]) => ({ id, title: c.title }));
  }

  async limits(choice: RentChoice): Promise<RentLimit[]> {
    const country = this.profile.countries[choice.countryId];
    const hours = this.hoursOf(choice);
    if (!country || hours === null) return [];
    const reply = await this.call({ action: "getRentServicesAndCountries", rent_time: String(hours), country: country.id });
    if (!reply.ok) {
      if (reply.error.kind === "no_stock") return [];
      throw reply.error;
    }
    const parsed = servicesSchema.safeParse(reply.json);
    if (!parsed.success) throw badReply("getRentServicesAndCountries", reply.text);
    const whole = parsed.data.services[this.rent.wholeNumberService];
    const count = Math.max(0, Math.trunc(whole?.quant ?? whole?.count ?? 0));
    if (!whole || !(whole.cost > 0) || count === 0) return [];
    return [{ countryId: choice.countryId, count, cost: whole.cost, currency: this.currency }];
  }

  async getNumber(choice: RentChoice): Promise<{ upstreamId: string; number: string }> {
    const country = this.profile.countries[choice.countryId];
    const hours = this.hoursOf(choice);
    if (!country || hours === null) throw new RentProviderError("no_stock", `${this.profile.label} does not rent this country for this long.`);
    const json = await this.answer({ action: "getRentNumber", service: this.rent.wholeNumberService, rent_time: String(hours), country: country.id });
    const parsed = phoneSchema.safeParse(json);
    if (!parsed.success) throw badReply("getRentNumber", JSON.stringify(json));
    return { upstreamId: parsed.data.phone.id, number: parsed.data.phone.number };
  }

  async getAllSms(upstreamId: string): Promise<RentSms[]> {
    const reply = await this.call({ action: "getRentStatus", id: upstreamId });
    if (!reply.ok) {
      // No message yet, or the rental is over upstream (finished, cancelled): nothing (more) to read.
      if (reply.word === "STATUS_WAIT_CODE" || reply.word === "STATUS_FINISH" || reply.word === "STATUS_CANCEL") return [];
      throw reply.error;
    }
    const parsed = statusSchema.safeParse(reply.json);
    if (!parsed.success) throw badReply("getRentStatus", reply.text);
    const values = parsed.data.values ?? {};
    const out: RentSms[] = [];
    for (const raw of Array.isArray(values) ? values : Object.values(values)) {
      const m = messageSchema.safeParse(raw);
      if (!m.success) throw badReply("getRentStatus", reply.text);
      const sender = String(m.data.phoneFrom ?? "Unknown");
      const date = m.data.date ?? "";
      out.push({
        upstreamId: null,
        // No message id in the reply: sender, text and the upstream's own date keep one message one message.
        fingerprint: `msg:${sender}|${m.data.text}|${date}`,
        sender,
        text: m.data.text,
        code: extractCode(m.data.text),
        receivedAt: parseProtocolDate(date),
      });
    }
    return out;
  }

  async setStatus(upstreamId: string, status: "cancel" | "close"): Promise<void> {
    const reply = await this.call({ action: "setRentStatus", id: upstreamId, status: status === "cancel" ? "2" : "1" });
    if (reply.ok) {
      if (!z.object({ status: z.literal("success") }).passthrough().safeParse(reply.json).success) throw badReply("setRentStatus", reply.text);
      return;
    }
    // Finishing a rental the upstream already finished is done, not a failure.
    if (status === "close" && (reply.word === "ALREADY_FINISH" || reply.word === "STATUS_FINISH")) return;
    throw reply.error;
  }

  async balance(): Promise<UpstreamMoney> {
    const reply = await this.call({ action: "getBalance" });
    const match = reply.ok ? balanceSchema.exec(reply.text) : null;
    if (!match) throw reply.ok ? badReply("getBalance", reply.text) : reply.error;
    return { amount: Number(match[1]), currency: this.currency };
  }

  private async extensionPrice(upstreamId: string, hours: number): Promise<UpstreamMoney> {
    const reply = await this.call({ action: this.rent.extensionPriceAction, id: upstreamId, rent_time: String(hours) });
    if (!reply.ok) throw reply.error;
    const parsed = priceSchema.safeParse(reply.json ?? reply.text);
    const amount = parsed.success ? (typeof parsed.data === "number" ? parsed.data : parsed.data.price) : NaN;
    if (!(amount > 0)) throw badReply(this.rent.extensionPriceAction, reply.text);
    return { amount, currency: this.currency };
  }

  private async extend(upstreamId: string, hours: number): Promise<void> {
    const json = await this.answer({ action: "continueRentNumber", id: upstreamId, rent_time: String(hours) });
    if (!phoneSchema.safeParse(json).success) throw badReply("continueRentNumber", JSON.stringify(json));
  }

  /** One GET: the JSON (or plain text) answer, or the documented error word with what it means for a rental. */
  private async call(params: Record<string, string>): Promise<Reply> {
    let text: string;
    let status: number;
    try {
      ({ text, status } = await this.http.request("", { query: { api_key: this.opts.key, ...params }, accept: "application/json, text/plain" }));
    } catch (err) {
      if (err instanceof UpstreamFault) {
        throw new RentProviderError(err.reason === "timeout" ? "timeout" : "unavailable", `${this.profile.label} could not be reached (${err.reason}).`);
      }
      throw err;
    }
    if (status >= 500 || status === 429) throw new RentProviderError("unavailable", `${this.profile.label} answered HTTP ${status}.`);
    text = text.trim();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // A plain word (BAD_KEY, ACCESS_BALANCE:...) is read below.
    }
    const error = errorSchema.safeParse(json);
    const word = error.success ? String(error.data.message ?? error.data.error ?? "") : json === null ? text.split(":")[0] : "";
    const kind = RENT_WORDS[word];
    if (kind) return { ok: false, word, error: new RentProviderError(kind, `${this.profile.label}: ${word}`, word) };
    if (error.success) throw badReply(params.action, text);
    return { ok: true, json, text };
  }

  /** call() where every documented error is a failure. */
  private async answer(params: Record<string, string>): Promise<unknown> {
    const reply = await this.call(params);
    if (!reply.ok) throw reply.error;
    if (reply.json === null) throw badReply(params.action, reply.text);
    return reply.json;
  }
}

function badReply(what: string, text: string): RentProviderError {
  return new RentProviderError("bad_reply", `The rental provider's ${what} reply has an unexpected shape (${excerpt(text)}).`);
}

/** "2020-01-30 14:31:58" (no zone: read as UTC, as sms-man's are) or ISO 8601; now when unreadable. */
function parseProtocolDate(value: string): number {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : Date.now();
}
