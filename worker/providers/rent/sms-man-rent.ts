import type { RentChoice, RentLimit, RentalProvider, RentSms } from "./types";
import { RentProviderError } from "./types";

/**
 * The sms-man rent API (../shared/PROVIDERS.md): GET https://api.sms-man.com/rent-api/<method>?token=..., JSON replies.
 *   limits?country_id=&type=&time=      -> {"type","time","limits":[{"country_id","count","cost"}]}
 *   get-number?country_id=&type=&time=  -> {"request_id","country_id","number"}
 *   get-all-sms?request_id=             -> the rental's messages (shape unverified: parsed leniently, see parseSmsList)
 *   set-status?request_id=&status=cancel|close -> {"request_id","success":true}
 *   errors: {"success":false,"error_code":"...","error_msg": string | object}
 * Country names come from the activation API's documented countries list (/control/countries), same token.
 *
 * Currency: prices are requested in USD (currency=USD) so `cost` is decimal US dollars; see
 * docs/decisions/005-rent-cost-in-usd.md. Verify against the live account before going live.
 */
export interface SmsManRentOptions {
  /** Host only, e.g. https://api.sms-man.com (the adapter adds /rent-api/ and /control/). */
  baseUrl: string;
  token: string;
  /** Injected so sandbox mode and tests can bind it to a protocol simulator or a fake. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per-call limit; a slow upstream must not hold a customer's request (or a Durable Object alarm) for long. */
  timeoutMs?: number;
  currency?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export class SmsManRentProvider implements RentalProvider {
  private readonly fetcher: (request: Request) => Promise<Response>;
  private readonly timeoutMs: number;
  private readonly currency: string;

  constructor(private readonly opts: SmsManRentOptions) {
    this.fetcher = opts.fetch ?? ((request) => fetch(request));
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.currency = opts.currency ?? "USD";
  }

  async limits(choice: RentChoice): Promise<RentLimit[]> {
    const body = await this.call("rent-api/limits", {
      country_id: choice.countryId,
      type: choice.unit,
      time: String(choice.period),
      currency: this.currency,
    }, [...NO_STOCK_CODES]);
    if (isNoStock(body)) return [];
    const list = (body as { limits?: unknown }).limits;
    if (!Array.isArray(list)) throw badReply("limits", body);
    const out: RentLimit[] = [];
    for (const item of list) {
      if (!isRecord(item)) throw badReply("limits", body);
      const countryId = idString(item.country_id);
      const count = toNumber(item.count);
      const costUsd = toNumber(item.cost);
      if (countryId === null || count === null || costUsd === null || count < 0 || costUsd < 0) throw badReply("limits", body);
      // The upstream may list other countries too: only the asked one is the answer.
      if (countryId === choice.countryId) out.push({ countryId, count: Math.floor(count), costUsd });
    }
    return out;
  }

  async getNumber(choice: RentChoice): Promise<{ upstreamId: string; number: string }> {
    const body = await this.call("rent-api/get-number", {
      country_id: choice.countryId,
      type: choice.unit,
      time: String(choice.period),
      currency: this.currency,
    });
    const record = body as Record<string, unknown>;
    const upstreamId = idString(record.request_id);
    const number = idString(record.number);
    if (!upstreamId || !number) throw badReply("get-number", body);
    return { upstreamId, number };
  }

  async getAllSms(upstreamId: string): Promise<RentSms[]> {
    const body = await this.call("rent-api/get-all-sms", { request_id: upstreamId }, ["wait_sms", "no_sms"]);
    return parseSmsList(body);
  }

  async setStatus(upstreamId: string, status: "cancel" | "close"): Promise<void> {
    const body = await this.call("rent-api/set-status", { request_id: upstreamId, status });
    if ((body as { success?: unknown }).success !== true) {
      throw new RentProviderError("refused", `The upstream did not confirm ${status}.`);
    }
  }

  async countries(): Promise<{ id: string; title: string }[]> {
    const body = await this.call("control/countries", {});
    const values = Array.isArray(body) ? body : Object.values(body);
    const out: { id: string; title: string }[] = [];
    for (const item of values) {
      if (!isRecord(item)) continue;
      const id = idString(item.id);
      const title = typeof item.title === "string" ? item.title : null;
      if (id && title) out.push({ id, title });
    }
    if (out.length === 0) throw badReply("countries", body);
    return out;
  }

  /**
   * One GET with the timeout, JSON parsing and the upstream's error object turned into a RentProviderError.
   * Error codes listed in `emptyCodes` are normal "nothing yet" answers and come back as the body itself.
   */
  private async call(path: string, params: Record<string, string>, emptyCodes: string[] = []): Promise<Record<string, unknown> | unknown[]> {
    const url = new URL(`${this.opts.baseUrl.replace(/\/+$/, "")}/${path}`);
    url.searchParams.set("token", this.opts.token);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);

    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new RentProviderError("timeout", `The rental provider did not answer within ${this.timeoutMs} ms.`));
      }, this.timeoutMs);
    });
    let text: string;
    let status: number;
    try {
      // Racing the timer (not only the signal) also bounds a fetch that ignores its signal.
      const response = await Promise.race([
        this.fetcher(new Request(url, { method: "GET", headers: { accept: "application/json" }, signal: controller.signal })),
        timeout,
      ]);
      status = response.status;
      text = await Promise.race([response.text(), timeout]);
    } catch (err) {
      if (err instanceof RentProviderError) throw err;
      throw new RentProviderError("unavailable", "The rental provider could not be reached.");
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RentProviderError(
        status >= 500 ? "unavailable" : "bad_reply",
        `The rental provider sent an unreadable reply (HTTP ${status}).`,
      );
    }
    if (!isRecord(body) && !Array.isArray(body)) throw badReply(path, body);
    if (isRecord(body)) {
      const code = typeof body.error_code === "string" ? body.error_code : null;
      if (code && emptyCodes.includes(code)) return body;
      if (code || body.success === false) throw errorFor(code, body.error_msg);
    }
    if (status >= 500) throw new RentProviderError("unavailable", `The rental provider failed (HTTP ${status}).`);
    if (status >= 400) throw new RentProviderError("bad_reply", `The rental provider refused the call (HTTP ${status}).`);
    return body;
  }
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

function toNumber(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
