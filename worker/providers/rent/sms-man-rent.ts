import { z } from "zod";
import { createUpstreamClient, type UpstreamClient } from "../upstream-http";
import {
  describeSmsManError,
  readSmsManNamed,
  smsManBalanceSchema,
  smsManFaultKind,
  smsManId,
  smsManNumeric,
  smsManRequest,
  smsManSuccessSchema,
  statedCurrency,
  type SmsManError,
} from "../sms/sms-man-protocol";
import { SmsProviderError, type SmsFaultKind, type UpstreamCurrency, type UpstreamMoney } from "../sms/types";
import type { RentChoice, RentLimit, RentalProvider, RentProviderErrorKind, RentSms } from "./types";
import { RentProviderError } from "./types";

/**
 * The sms-man rent API, https://sms-man.com/api/rent (GET https://api.sms-man.com/rent-api/<method>?token=..., JSON):
 *   get-balance                         -> {"balance":"799.70"}
 *   limits?country_id=&type=&time=      -> {"type":"hour","time":"4","limits":[{"country_id":"1","count":"127","cost":"151.68"}]}
 *   get-number?country_id=&type=&time=  -> {"request_id":1,"country_id":1,"number":"79002415539"}
 *   get-all-sms?request_id=             -> the rental's messages (shape not in the documents: see rentSmsReplySchema)
 *   set-status?request_id=&status=cancel|close -> {"request_id":1,"success":true}
 *   errors: {"success":false,"error_code":"...","error_msg": string | object}
 * Country names come from the activation API's documented countries list (/control/countries), same token.
 * Replies are read the way the activation adapter reads them (sms/sms-man-protocol.ts: one call, one error table);
 * this adapter only says what each fault means for a rental (RENT_KINDS).
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

// limits -> {"type":"hour","time":"4","limits":[{"country_id":"1","count":"127","cost":"151.68"}]} (documented sample).
const limitsSchema = z.object({
  currency: z.string().optional(),
  limits: z.array(z.object({ country_id: smsManId, count: smsManNumeric, cost: smsManNumeric, currency: z.string().optional() }).passthrough()),
});
// get-number -> {"request_id":1,"country_id":1,"number":"79002415539"} (documented sample).
const numberSchema = z.object({ request_id: smsManId, number: smsManId }).passthrough();

/**
 * What each SMS fault means for a rental: no stock is "no_stock", our own key or money is "account" (the operator's
 * problem, never the customer's), transport faults stay what they are, and every other refusal is "refused".
 */
const RENT_KINDS: Record<SmsFaultKind, RentProviderErrorKind> = {
  no_numbers: "no_stock",
  no_balance: "account",
  bad_key: "account",
  too_many_active: "refused",
  bad_service: "refused",
  price_exceeded: "refused",
  not_found: "refused",
  rejected: "refused",
  bad_reply: "bad_reply",
  unavailable: "unavailable",
  timeout: "timeout",
};

/** A transport fault or an unreadable reply from the shared reading, in the rentals' vocabulary. */
function rentFault(err: SmsProviderError): RentProviderError {
  if (err.kind === "timeout") return new RentProviderError("timeout", `The rental provider did not answer in time (${err.detail}).`);
  if (err.kind === "unavailable") return new RentProviderError("unavailable", "The rental provider could not be reached.");
  return new RentProviderError(RENT_KINDS[err.kind], `The rental provider sent an unexpected reply (${err.detail}).`);
}

/** A documented error reply: its word decides the kind (SMS_MAN_ERRORS via smsManFaultKind), and stays for logs. */
function rentRefusal(error: SmsManError): RentProviderError {
  const detail = describeSmsManError(error.error_msg);
  const word = error.error_code || "error";
  return new RentProviderError(RENT_KINDS[smsManFaultKind(error.error_code)], `sms-man: ${word}${detail ? ` (${detail})` : ""}`, error.error_code || undefined);
}

export class SmsManRentProvider implements RentalProvider {
  readonly upstream = "smsman";
  private readonly http: UpstreamClient;
  private readonly accountCurrency: UpstreamCurrency;

  constructor(private readonly opts: SmsManRentOptions) {
    // The one upstream client (deadline, User-Agent): a slow upstream cannot hold a customer's request or an alarm.
    this.http = createUpstreamClient({ provider: "sms-man", baseUrl: opts.baseUrl, fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    this.accountCurrency = opts.accountCurrency ?? "RUB";
  }

  async limits(choice: RentChoice): Promise<RentLimit[]> {
    const reply = await this.call("rent-api/limits", { country_id: choice.countryId, type: choice.unit, time: String(choice.period) });
    // No stock is an answer here (an empty list), not a failure.
    if (!reply.ok) {
      if (smsManFaultKind(reply.code) === "no_numbers") return [];
      throw reply.fault;
    }
    const parsed = this.parse(limitsSchema, reply.body, "limits");
    const out: RentLimit[] = [];
    for (const item of parsed.limits) {
      // The upstream may list other countries too: only the asked one is the answer.
      if (item.country_id !== choice.countryId) continue;
      out.push({
        countryId: item.country_id,
        count: Math.floor(item.count),
        cost: item.cost,
        currency: statedCurrency(item.currency) ?? statedCurrency(parsed.currency) ?? this.accountCurrency,
      });
    }
    return out;
  }

  async getNumber(choice: RentChoice): Promise<{ upstreamId: string; number: string }> {
    const body = await this.answer("rent-api/get-number", { country_id: choice.countryId, type: choice.unit, time: String(choice.period) });
    const parsed = this.parse(numberSchema, body, "get-number");
    return { upstreamId: parsed.request_id, number: parsed.number };
  }

  async getAllSms(upstreamId: string): Promise<RentSms[]> {
    const reply = await this.call("rent-api/get-all-sms", { request_id: upstreamId });
    // wait_sms / no_sms: no message yet.
    if (!reply.ok) {
      if (reply.code === "wait_sms" || reply.code === "no_sms") return [];
      throw reply.fault;
    }
    return parseSmsList(reply.body);
  }

  async setStatus(upstreamId: string, status: "cancel" | "close"): Promise<void> {
    const body = await this.answer("rent-api/set-status", { request_id: upstreamId, status });
    if (!smsManSuccessSchema.safeParse(body).success) {
      throw new RentProviderError("refused", `The upstream did not confirm ${status}.`);
    }
  }

  async countries(): Promise<{ id: string; title: string }[]> {
    const body = await this.answer("control/countries", {});
    const out = (readSmsManNamed(body) ?? []).flatMap((c) => (c.title === undefined ? [] : [{ id: c.id, title: c.title }]));
    if (out.length === 0) throw badReply("countries");
    return out;
  }

  /** rent-api/get-balance -> {"balance":"799.70"}, in the account's currency unless the reply states one. */
  async balance(): Promise<UpstreamMoney> {
    const parsed = this.parse(smsManBalanceSchema, await this.answer("rent-api/get-balance", {}), "get-balance");
    return { amount: parsed.balance, currency: statedCurrency(parsed.currency) ?? this.accountCurrency };
  }

  /**
   * One GET through the shared sms-man reading: the answer, or the documented error (its word and its fault, for the
   * caller to judge: some words are ordinary answers here). Transport faults and unreadable replies throw.
   */
  private async call(path: string, params: Record<string, string>): Promise<{ ok: true; body: unknown } | { ok: false; code: string; fault: RentProviderError }> {
    try {
      const reply = await smsManRequest(this.http, path, { query: { token: this.opts.token, ...params } });
      if (reply.ok) return reply;
      return { ok: false, code: reply.error.error_code, fault: rentRefusal(reply.error) };
    } catch (err) {
      throw err instanceof SmsProviderError ? rentFault(err) : err;
    }
  }

  /** call() where every documented error is a failure. */
  private async answer(path: string, params: Record<string, string>): Promise<unknown> {
    const reply = await this.call(path, params);
    if (!reply.ok) throw reply.fault;
    return reply.body;
  }

  private parse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw badReply(what);
    return parsed.data;
  }
}

function badReply(what: string): RentProviderError {
  return new RentProviderError("bad_reply", `The rental provider's ${what} reply has an unexpected shape.`);
}

/**
 * get-all-sms's exact shape is not in the public documentation (https://sms-man.com/api/rent lists the method with
 * no sample), so rentSmsReplySchema accepts the shapes sms-man style APIs use: a list, or an object holding the list
 * under sms / data / messages / list, or one message object; each message with id|sms_id, sender|sms_from|from|
 * phone_from, text|sms_text|message|msg, code|sms_code, date|created_at|time|received_at. A message without text is
 * skipped; anything else (a string, a list of non-objects) is a bad reply, never "no messages".
 */
// A usable value for a field, or null (a missing, empty or odd value falls through to the next alias).
const loose = z.union([z.string().refine((s) => s.trim() !== ""), z.number().finite().transform(String)]).nullish().catch(null);
const rentSmsSchema = z
  .object({
    id: loose, sms_id: loose,
    sender: loose, sms_from: loose, from: loose, phone_from: loose,
    text: loose, sms_text: loose, message: loose, msg: loose,
    code: loose, sms_code: loose,
    date: z.unknown().optional(), created_at: z.unknown().optional(), time: z.unknown().optional(), received_at: z.unknown().optional(),
  })
  .transform((m) => ({
    upstreamId: (m.id ?? m.sms_id)?.trim() || null,
    sender: m.sender ?? m.sms_from ?? m.from ?? m.phone_from ?? "Unknown",
    text: m.text ?? m.sms_text ?? m.message ?? m.msg ?? null,
    code: m.code ?? m.sms_code ?? null,
    rawDate: m.date ?? m.created_at ?? m.time ?? m.received_at,
  }));
const rentSmsListSchema = z.array(z.record(z.string(), z.unknown()));
const rentSmsReplySchema = z.union([
  rentSmsListSchema,
  // A message list under one of the wrappers, or none yet (null / absent).
  z
    .object({ sms: z.unknown().optional(), data: z.unknown().optional(), messages: z.unknown().optional(), list: z.unknown().optional() })
    .passthrough()
    .transform((body, ctx) => {
      const inner = body.sms ?? body.data ?? body.messages ?? body.list;
      if (Array.isArray(inner)) return inner;
      if (inner !== null && typeof inner === "object") return [inner];
      if (rentSmsSchema.safeParse(body).data?.text) return [body];
      if (inner === undefined || inner === null) return [];
      ctx.addIssue({ code: "custom", message: "messages are neither a list nor an object" });
      return z.NEVER;
    })
    .pipe(rentSmsListSchema),
]);

export function parseSmsList(body: unknown): RentSms[] {
  const list = rentSmsReplySchema.safeParse(body);
  if (!list.success) throw badReply("get-all-sms");
  const out: RentSms[] = [];
  for (const item of list.data) {
    const m = rentSmsSchema.parse(item);
    if (m.text === null) continue;
    out.push({
      upstreamId: m.upstreamId,
      // Without an upstream id, the raw date (not our parse of it, which falls back to now) keeps one SMS one SMS.
      fingerprint: m.upstreamId ? `id:${m.upstreamId}` : `msg:${m.sender}|${m.text}|${m.rawDate === undefined ? "" : String(m.rawDate)}`,
      sender: m.sender,
      text: m.text,
      code: m.code ?? extractCode(m.text),
      receivedAt: parseDate(m.rawDate),
    });
  }
  return out;
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
