import { z } from "zod";
import { createUpstreamClient, UpstreamFault, type UpstreamClient } from "../upstream-http";
import { isUpstreamCurrency, type UpstreamCurrency, type UpstreamMoney } from "../sms/types";
import type { RentChoice, RentLimit, RentalProvider, RentSms } from "./types";
import { RentProviderError } from "./types";

/**
 * The sms-man rent API, https://sms-man.com/api/rent (GET https://api.sms-man.com/rent-api/<method>?token=..., JSON):
 *   get-balance                         -> {"balance":"799.70"}
 *   limits?country_id=&type=&time=      -> {"type":"hour","time":"4","limits":[{"country_id":"1","count":"127","cost":"151.68"}]}
 *   get-number?country_id=&type=&time=  -> {"request_id":1,"country_id":1,"number":"79002415539"}
 *   get-all-sms?request_id=             -> the rental's messages (shape not in the documents: parsed leniently, see parseSmsList)
 *   set-status?request_id=&status=cancel|close -> {"request_id":1,"success":true}
 *   errors: {"success":false,"error_code":"...","error_msg": string | object}
 * Country names come from the activation API's documented countries list (/control/countries), same token.
 *
 * Currency: the rent API documents no currency parameter and its sample cost (151.68 for 4 hours) is plainly roubles,
 * so costs are read in the currency a reply states, else the account's (SMSMAN_CURRENCY, default RUB), and converted
 * by the rentals service with the operator's rates (docs/decisions/005-rent-cost-in-usd.md). Nothing is sent as a
 * currency parameter: an undocumented one that were ignored would make us misread the reply.
 */
export interface SmsManRentOptions {
  /** Host only, e.g. https://api.sms-man.com (the adapter adds /rent-api/ and /control/). */
  baseUrl: string;
  token: string;
  /** Injected so sandbox mode and tests can bind it to a protocol simulator or a fake. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per-call limit; a slow upstream must not hold a customer's request (or a Durable Object alarm) for long. */
  timeoutMs?: number;
  /** The account's currency, used when a reply does not state one (SMSMAN_CURRENCY). */
  accountCurrency?: UpstreamCurrency;
}

const idSchema = z.union([z.string().trim().min(1), z.number()]).transform(String);
const numeric = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/)]).transform(Number);
const limitsSchema = z.object({
  currency: z.string().optional(),
  limits: z.array(z.object({ country_id: idSchema, count: numeric, cost: numeric, currency: z.string().optional() }).passthrough()),
});
const numberSchema = z.object({ request_id: idSchema, number: idSchema }).passthrough();
const successSchema = z.object({ success: z.literal(true) }).passthrough();
const balanceSchema = z.object({ balance: numeric, currency: z.string().optional() }).passthrough();
const countrySchema = z.object({ id: idSchema, title: z.string() }).passthrough();
const errorSchema = z.object({ error_code: z.string().optional(), success: z.literal(false).optional(), error_msg: z.unknown().optional() }).passthrough();

export class SmsManRentProvider implements RentalProvider {
  private readonly http: UpstreamClient;
  private readonly accountCurrency: UpstreamCurrency;

  constructor(private readonly opts: SmsManRentOptions) {
    // The one upstream client (deadline, User-Agent): a slow upstream cannot hold a customer's request or an alarm.
    this.http = createUpstreamClient({ provider: "sms-man", baseUrl: opts.baseUrl, fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    this.accountCurrency = opts.accountCurrency ?? "RUB";
  }

  async limits(choice: RentChoice): Promise<RentLimit[]> {
    const body = await this.call(
      "rent-api/limits",
      { country_id: choice.countryId, type: choice.unit, time: String(choice.period) },
      [...NO_STOCK_CODES],
    );
    if (isNoStock(body)) return [];
    const parsed = limitsSchema.safeParse(body);
    if (!parsed.success) throw badReply("limits", body);
    const out: RentLimit[] = [];
    for (const item of parsed.data.limits) {
      // The upstream may list other countries too: only the asked one is the answer.
      if (item.country_id !== choice.countryId) continue;
      out.push({
        countryId: item.country_id,
        count: Math.floor(item.count),
        cost: item.cost,
        currency: stated(item.currency) ?? stated(parsed.data.currency) ?? this.accountCurrency,
      });
    }
    return out;
  }

  async getNumber(choice: RentChoice): Promise<{ upstreamId: string; number: string }> {
    const body = await this.call("rent-api/get-number", { country_id: choice.countryId, type: choice.unit, time: String(choice.period) });
    const parsed = numberSchema.safeParse(body);
    if (!parsed.success) throw badReply("get-number", body);
    return { upstreamId: parsed.data.request_id, number: parsed.data.number };
  }

  async getAllSms(upstreamId: string): Promise<RentSms[]> {
    const body = await this.call("rent-api/get-all-sms", { request_id: upstreamId }, ["wait_sms", "no_sms"]);
    return parseSmsList(body);
  }

  async setStatus(upstreamId: string, status: "cancel" | "close"): Promise<void> {
    const body = await this.call("rent-api/set-status", { request_id: upstreamId, status });
    if (!successSchema.safeParse(body).success) {
      throw new RentProviderError("refused", `The upstream did not confirm ${status}.`);
    }
  }

  async countries(): Promise<{ id: string; title: string }[]> {
    const body = await this.call("control/countries", {});
    const values = Array.isArray(body) ? body : Object.values(body);
    const out = values.flatMap((item) => {
      const parsed = countrySchema.safeParse(item);
      return parsed.success ? [{ id: parsed.data.id, title: parsed.data.title }] : [];
    });
    if (out.length === 0) throw badReply("countries", body);
    return out;
  }

  /** rent-api/get-balance -> {"balance":"799.70"}, in the account's currency unless the reply states one. */
  async balance(): Promise<UpstreamMoney> {
    const body = await this.call("rent-api/get-balance", {});
    const parsed = balanceSchema.safeParse(body);
    if (!parsed.success) throw badReply("get-balance", body);
    return { amount: parsed.data.balance, currency: stated(parsed.data.currency) ?? this.accountCurrency };
  }

  /**
   * One GET with the timeout, JSON parsing and the upstream's error object turned into a RentProviderError.
   * Error codes listed in `emptyCodes` are normal "nothing yet" answers and come back as the body itself.
   */
  private async call(path: string, params: Record<string, string>, emptyCodes: string[] = []): Promise<Record<string, unknown> | unknown[]> {
    let text: string;
    let status: number;
    try {
      ({ text, status } = await this.http.request(path, { query: { token: this.opts.token, ...params } }));
    } catch (err) {
      if (!(err instanceof UpstreamFault)) throw err;
      // The client's one fault type, in the rentals' vocabulary.
      if (err.reason === "timeout") throw new RentProviderError("timeout", `The rental provider did not answer in time (${err.detail}).`);
      throw new RentProviderError("unavailable", "The rental provider could not be reached.");
    }

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RentProviderError(
        status >= 500 || status === 429 ? "unavailable" : "bad_reply",
        `The rental provider sent an unreadable reply (HTTP ${status}).`,
      );
    }
    const shape = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).safeParse(body);
    if (!shape.success) throw badReply(path, body);
    if (!Array.isArray(shape.data)) {
      const error = errorSchema.safeParse(shape.data);
      const code = error.success ? (error.data.error_code ?? null) : null;
      if (code && emptyCodes.includes(code)) return shape.data;
      if (error.success && (code || error.data.success === false)) throw errorFor(code, error.data.error_msg);
    }
    if (status >= 500 || status === 429) throw new RentProviderError("unavailable", `The rental provider failed (HTTP ${status}).`);
    if (status >= 400) throw new RentProviderError("bad_reply", `The rental provider refused the call (HTTP ${status}).`);
    return shape.data;
  }
}

function stated(currency: string | undefined): UpstreamCurrency | null {
  return isUpstreamCurrency(currency) ? (currency.toUpperCase() as UpstreamCurrency) : null;
}

const NO_STOCK_CODES = new Set(["no_numbers", "no_free_numbers", "numbers_not_found", "no_stock"]);
const ACCOUNT_CODES = new Set(["wrong_token", "balance", "not_enough_balance", "no_balance", "bad_key"]);

function errorFor(code: string | null, rawMessage: unknown): RentProviderError {
  // error_msg may be an object: keep it readable but short, it only goes to logs.
  const detail = typeof rawMessage === "string" ? rawMessage : rawMessage === undefined ? "" : JSON.stringify(rawMessage).slice(0, 200);
  const message = `sms-man: ${code ?? "error"}${detail ? ` (${detail})` : ""}`;
  if (code && NO_STOCK_CODES.has(code)) return new RentProviderError("no_stock", message, code);
  if (code && ACCOUNT_CODES.has(code)) return new RentProviderError("account", message, code);
  return new RentProviderError("refused", message, code ?? undefined);
}

function isNoStock(body: unknown): boolean {
  return isRecord(body) && typeof body.error_code === "string" && NO_STOCK_CODES.has(body.error_code);
}

function badReply(what: string, body: unknown): RentProviderError {
  void body;
  return new RentProviderError("bad_reply", `The rental provider's ${what} reply has an unexpected shape.`);
}

/**
 * get-all-sms's exact shape is not in the public documentation we have, so this accepts the shapes sms-man style APIs
 * use: a list, or an object holding the list under sms / data / messages / list, or one message object; each message
 * with id|sms_id, sender|sms_from|from, text|sms_text|message, code|sms_code, date|created_at|time.
 * A "wait_sms" error code means no message yet.
 */
export function parseSmsList(body: unknown): RentSms[] {
  if (isRecord(body) && typeof body.error_code === "string") return [];
  let items: unknown[];
  if (Array.isArray(body)) items = body;
  else if (isRecord(body)) {
    const inner = body.sms ?? body.data ?? body.messages ?? body.list;
    if (Array.isArray(inner)) items = inner;
    else if (isRecord(inner)) items = [inner];
    else if (textOf(body) !== null) items = [body];
    else if (inner === undefined || inner === null) items = [];
    else throw badReply("get-all-sms", body);
  } else throw badReply("get-all-sms", body);

  const out: RentSms[] = [];
  for (const item of items) {
    if (!isRecord(item)) throw badReply("get-all-sms", body);
    const text = textOf(item);
    if (text === null) continue;
    const sender = firstString(item, ["sender", "sms_from", "from", "phone_from"]) ?? "Unknown";
    const code = firstString(item, ["code", "sms_code"]) ?? extractCode(text);
    const upstreamId = idString(item.id ?? item.sms_id);
    const rawDate = item.date ?? item.created_at ?? item.time ?? item.received_at;
    out.push({
      upstreamId,
      // Without an upstream id, the raw date (not our parse of it, which falls back to now) keeps one SMS one SMS.
      fingerprint: upstreamId ? `id:${upstreamId}` : `msg:${sender}|${text}|${rawDate === undefined ? "" : String(rawDate)}`,
      sender,
      text,
      code,
      receivedAt: parseDate(rawDate),
    });
  }
  return out;
}

function textOf(item: Record<string, unknown>): string | null {
  return firstString(item, ["text", "sms_text", "message", "msg"]);
}

/** A verification code inside a message: the first run of 4-8 digits (possibly split by a dash or space). */
export function extractCode(text: string): string | null {
  const match = /(?<!\d)(\d{3}[- ]\d{3}|\d{4,8})(?!\d)/.exec(text);
  return match ? match[1].replace(/[- ]/g, "") : null;
}

function parseDate(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === "string" && value.trim() !== "") {
    if (/^\d+$/.test(value)) return parseDate(Number(value));
    // "2025-01-02 10:11:12" carries no zone; the upstream's clock is read as UTC.
    const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    const ms = Date.parse(iso);
    if (Number.isFinite(ms)) return ms;
  }
  return Date.now();
}

function firstString(item: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) {
    const value = item[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return null;
}

function idString(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
