import type { SmsProviderName } from "../../../schema/sms";
import { DEFAULT_UPSTREAM_TIMEOUT_MS, excerpt, upstreamGet } from "./http";
import { isRecord, offersFromPriceMap } from "./offers";
import {
  smsFault,
  type AdapterOptions,
  type FetchLike,
  type SmsActivation,
  type SmsCancelResult,
  type SmsCountry,
  type SmsFaultKind,
  type SmsOffer,
  type SmsPollResult,
  type SmsProvider,
} from "./types";

/**
 * 'Dynamic SMS': sms-man's activation API v2 (GET <base>/control/<method>?token=..., JSON replies).
 * Prices are pinned to USD with currency=USD so the exchange rate applies to the unit it is meant for.
 */
export class SmsManProvider implements SmsProvider {
  readonly name: SmsProviderName = "Dynamic";
  private readonly base: string;
  private readonly key: string;
  private readonly fetcher: FetchLike;
  private readonly timeoutMs: number;

  constructor(options: AdapterOptions) {
    const trimmed = options.baseUrl.replace(/\/+$/, "");
    this.base = trimmed.endsWith("/control") ? `${trimmed}/` : `${trimmed}/control/`;
    this.key = options.key;
    this.fetcher = options.fetch ?? ((req) => fetch(req));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  }

  async countries(): Promise<SmsCountry[]> {
    const body = await this.call("countries", {});
    return entries(body)
      .map((c) => ({ id: str(c.id), title: str(c.title ?? c.name) }))
      .filter((c) => c.id && c.title);
  }

  async services(countryId: string): Promise<SmsOffer[]> {
    const [apps, prices] = await Promise.all([
      this.call("applications", {}),
      this.call("get-prices", { country_id: countryId, currency: "USD" }),
    ]);
    const names = new Map(entries(apps).map((a) => [str(a.id), str(a.name ?? a.title ?? a.code)]));
    // Documented as {country_id: {application_id: {cost, count}}}; some answers drop the country level.
    const nested = isRecord(prices) && isRecord(prices[countryId]) ? prices[countryId] : prices;
    if (!isRecord(nested)) throw smsFault("bad_reply", "get-prices is not an object");
    return offersFromPriceMap(nested, countryId, (applicationId) => names.get(applicationId) ?? applicationId);
  }

  async buy(request: { countryId: string; serviceId: string; maxCostUsd?: number }): Promise<SmsActivation> {
    const params: Record<string, string> = { country_id: request.countryId, application_id: request.serviceId, currency: "USD" };
    if (request.maxCostUsd !== undefined) params.maxPrice = request.maxCostUsd.toFixed(4);
    const body = await this.call("get-number", params);
    if (!isRecord(body)) throw smsFault("bad_reply", "get-number is not an object");
    const upstreamId = str(body.request_id);
    const number = str(body.number);
    if (!upstreamId || !/^\+?\d{5,20}$/.test(number)) throw smsFault("bad_reply", `get-number without a number: ${excerpt(JSON.stringify(body))}`);
    return { upstreamId, number };
  }

  async poll(upstreamId: string): Promise<SmsPollResult> {
    let body: unknown;
    try {
      body = await this.call("get-sms", { request_id: upstreamId });
    } catch (err) {
      if (err instanceof WaitSignal) return { state: "waiting" };
      throw err;
    }
    if (!isRecord(body)) throw smsFault("bad_reply", "get-sms is not an object");
    const code = str(body.sms_code);
    if (code) return { state: "code", code };
    return { state: "waiting" };
  }

  async cancel(upstreamId: string): Promise<SmsCancelResult> {
    try {
      const body = await this.call("set-status", { request_id: upstreamId, status: "reject" });
      if (isRecord(body) && body.success === true) return { outcome: "released" };
      throw smsFault("bad_reply", "set-status without success");
    } catch (err) {
      // wrong_status: the number is past rejecting (a code came, or it was closed).
      if (err instanceof RefusedSignal) return { outcome: "refused", reason: err.message };
      throw err;
    }
  }

  async finish(upstreamId: string): Promise<void> {
    await this.call("set-status", { request_id: upstreamId, status: "close" }).catch(() => undefined);
  }

  private async call(method: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(method, this.base);
    url.searchParams.set("token", this.key);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const { status, text } = await upstreamGet(this.fetcher, url, this.timeoutMs);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw smsFault("bad_reply", `${method}: HTTP ${status}, not JSON: ${excerpt(text)}`);
    }
    if (isRecord(body) && (body.success === false || typeof body.error_code === "string")) {
      const code = str(body.error_code);
      if (code === "wait_sms") throw new WaitSignal();
      if (method === "set-status" && code === "wrong_status") throw new RefusedSignal(describeError(body));
      throw smsFault(faultFor(code), `${method}: ${code} ${describeError(body)}`);
    }
    if (status >= 400) throw smsFault("bad_reply", `${method}: HTTP ${status}`);
    return body;
  }
}

class WaitSignal extends Error {}
class RefusedSignal extends Error {}

function faultFor(code: string): SmsFaultKind {
  switch (code) {
    case "wrong_token":
      return "bad_key";
    case "balance":
    case "no_balance":
    case "not_enough_balance":
      return "no_balance";
    case "no_numbers":
    case "no_number":
      return "no_numbers";
    case "wrong_country":
    case "wrong_application":
    case "wrong_application_id":
      return "bad_service";
    case "wrong_request_id":
    case "request_not_found":
      return "not_found";
    case "max_price":
    case "price_exceeded":
      return "price_exceeded";
    default:
      return "rejected";
  }
}

// error_msg may be a string or an object of strings.
function describeError(body: Record<string, unknown>): string {
  const msg = body.error_msg;
  if (typeof msg === "string") return excerpt(msg);
  if (isRecord(msg)) return excerpt(Object.values(msg).map(String).join("; "));
  return "";
}


/** Object keyed by id or a plain array: both come back as a list of records. */
function entries(body: unknown): Record<string, unknown>[] {
  if (Array.isArray(body)) return body.filter(isRecord);
  if (isRecord(body)) return Object.values(body).filter(isRecord);
  throw smsFault("bad_reply", "expected a list");
}

function str(v: unknown): string {
  return typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
}
