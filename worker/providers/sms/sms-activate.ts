import { DEFAULT_SMS_COUNTRY, type SmsProviderName } from "../../../schema/sms";
import { DEFAULT_UPSTREAM_TIMEOUT_MS, excerpt, upstreamGet } from "./http";
import { isRecord, offersFromPriceMap } from "./offers";
import {
  smsFault,
  type AdapterOptions,
  type FetchLike,
  type SmsActivation,
  type SmsCancelResult,
  type SmsCountry,
  type SmsOffer,
  type SmsPollResult,
  type SmsProvider,
} from "./types";

/**
 * 'Swift SMS': the SMS-Activate-compatible protocol as DaisySMS speaks it (GET handler_api.php?api_key=&action=...,
 * plain-text replies, JSON for prices). USA numbers only, shown to customers as country 5 (the spec's default id);
 * the upstream's own USA id is sent where the protocol wants a country.
 */
export interface SmsActivateOptions extends AdapterOptions {
  /** The upstream's id for USA (SMS-Activate numbering: 187). */
  upstreamCountryId?: string;
}

const USA: SmsCountry = { id: DEFAULT_SMS_COUNTRY, title: "USA" };

// getPrices does not name services on every SMS-Activate-compatible host; these short codes are the common ones.
const SERVICE_NAMES: Record<string, string> = {
  wa: "WhatsApp", tg: "Telegram", go: "Google", fb: "Facebook", ig: "Instagram", tw: "Twitter", ds: "Discord",
  am: "Amazon", mm: "Microsoft", wx: "Apple", lf: "TikTok", oi: "Tinder", ub: "Uber", ts: "PayPal", nf: "Netflix",
  vi: "Viber", wb: "WeChat", me: "Line", sn: "Snapchat", li: "LinkedIn", yh: "Yahoo", dr: "OpenAI",
};

export class SmsActivateProvider implements SmsProvider {
  readonly name: SmsProviderName = "Swift";
  private readonly url: string;
  private readonly key: string;
  private readonly fetcher: FetchLike;
  private readonly timeoutMs: number;
  private readonly upstreamCountryId: string;

  constructor(options: SmsActivateOptions) {
    // The base may be the host or the full handler_api.php address.
    const trimmed = options.baseUrl.replace(/\/+$/, "");
    this.url = trimmed.endsWith(".php") ? trimmed : `${trimmed}/stubs/handler_api.php`;
    this.key = options.key;
    this.fetcher = options.fetch ?? ((req) => fetch(req));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    this.upstreamCountryId = options.upstreamCountryId ?? "187";
  }

  async countries(): Promise<SmsCountry[]> {
    return [USA];
  }

  async services(countryId: string): Promise<SmsOffer[]> {
    if (countryId !== USA.id) return [];
    const { text } = await this.call({ action: "getPrices", country: this.upstreamCountryId });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw this.textFault("getPrices", text);
    }
    // {"<country>": {"<service>": {cost, count, name?}}}
    const byService = isRecord(body) && isRecord(body[this.upstreamCountryId]) ? body[this.upstreamCountryId] : null;
    if (!isRecord(byService)) throw smsFault("bad_reply", "getPrices without the country");
    return offersFromPriceMap(byService, USA.id, (serviceId, raw) =>
      typeof raw.name === "string" && raw.name.trim() ? raw.name.trim() : (SERVICE_NAMES[serviceId] ?? serviceId),
    );
  }

  async buy(request: { countryId: string; serviceId: string; maxCostUsd?: number }): Promise<SmsActivation> {
    if (request.countryId !== USA.id) throw smsFault("bad_service", `country ${request.countryId} on a USA-only upstream`);
    const params: Record<string, string> = { action: "getNumber", service: request.serviceId, country: this.upstreamCountryId };
    if (request.maxCostUsd !== undefined) params.max_price = request.maxCostUsd.toFixed(4);
    const { text, headers } = await this.call(params);
    const match = /^ACCESS_NUMBER:([^:\s]+):(\+?\d{5,20})$/.exec(text);
    if (!match) throw this.textFault("getNumber", text);
    const price = Number(headers.get("x-price"));
    return { upstreamId: match[1], number: match[2], ...(Number.isFinite(price) && price > 0 ? { costUsd: price } : {}) };
  }

  async poll(upstreamId: string): Promise<SmsPollResult> {
    const { text } = await this.call({ action: "getStatus", id: upstreamId });
    if (text === "STATUS_WAIT_CODE" || text === "STATUS_WAIT_RESEND") return { state: "waiting" };
    if (text === "STATUS_CANCEL") return { state: "cancelled" };
    // WAIT_RETRY carries the code already received: the customer has it, so it counts.
    const code = /^STATUS_(?:OK|WAIT_RETRY):(.+)$/.exec(text)?.[1]?.trim();
    if (code) return { state: "code", code };
    throw this.textFault("getStatus", text);
  }

  async cancel(upstreamId: string): Promise<SmsCancelResult> {
    const { text } = await this.call({ action: "setStatus", id: upstreamId, status: "8" });
    if (text === "ACCESS_CANCEL" || text === "ACCESS_CANCEL_ALREADY") return { outcome: "released" };
    if (text === "EARLY_CANCEL_DENIED" || text === "BAD_STATUS" || text === "ACCESS_ACTIVATION") {
      return { outcome: "refused", reason: text };
    }
    throw this.textFault("setStatus", text);
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

  async finish(upstreamId: string): Promise<void> {
    await this.call({ action: "setStatus", id: upstreamId, status: "6" }).catch(() => undefined);
  }

  private async call(params: Record<string, string>): Promise<{ text: string; headers: Headers }> {
    const url = new URL(this.url);
    url.searchParams.set("api_key", this.key);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const { text, headers } = await upstreamGet(this.fetcher, url, this.timeoutMs);
    return { text: text.trim(), headers };
  }

  /** Maps a documented error word to its fault; anything else (HTML, garbage) is a bad reply. */
  private textFault(action: string, text: string) {
    const word = text.split(":")[0];
    switch (word) {
      case "NO_NUMBERS":
        return smsFault("no_numbers", action);
      case "NO_BALANCE":
        return smsFault("no_balance", action);
      case "BAD_KEY":
        return smsFault("bad_key", action);
      case "BAD_SERVICE":
      case "BAD_COUNTRY":
        return smsFault("bad_service", action);
      case "MAX_PRICE_EXCEEDED":
        return smsFault("price_exceeded", action);
      case "NO_ACTIVATION":
        return smsFault("not_found", action);
      case "ERROR_SQL":
      case "BANNED":
      case "BAD_ACTION":
      case "BAD_STATUS":
        return smsFault("rejected", `${action}: ${word}`);
      default:
        return smsFault("bad_reply", `${action}: ${excerpt(text)}`);
    }
  }
}

