import { z } from "zod";
import type { SmsProviderName } from "../../../schema/constants";
import { excerpt, type UpstreamClient } from "../upstream-http";
import {
  describeSmsManError,
  readSmsManNamed,
  smsManBalanceSchema,
  smsManFault,
  smsManId,
  smsManNumeric,
  smsManRequest,
  smsManSuccessSchema,
  statedCurrency,
  type SmsManNamed,
} from "./sms-man-protocol";
import {
  isEmptyChoice,
  smsFault,
  smsUpstreamClient,
  type BuyRequest,
  type AdapterOptions,
  type SmsActivation,
  type SmsCancelResult,
  type SmsCountry,
  type SmsOffer,
  type SmsPollResult,
  type SmsProvider,
  type UpstreamCurrency,
  type UpstreamMoney,
} from "./types";

/**
 * 'Dynamic SMS': sms-man's activation API v2, https://sms-man.com/api (GET https://api.sms-man.com/control/<method>
 * ?token=..., JSON replies; errors {"success":false,"error_code":"...","error_msg": string | {field: string}}).
 *
 * Money: sms-man accounts hold RUB, USD or EUR, and amounts come back in the account's currency. The documents show
 * `currency` (RUB/USD/EUR) only on get-number, and `maxPrice` as an Integer. So prices are read in the currency a reply
 * states, else the account's (SMSMAN_CURRENCY, default RUB: the documents' samples are roubles), never assumed to be
 * dollars; converting them is the catalogue's job (services/sms-catalogue.ts, with the operator's rates). get-number
 * sends currency=<that currency> and maxPrice rounded UP to a whole unit (so an exact quote is never refused).
 */
export interface SmsManOptions extends AdapterOptions {
  /** The account's currency, used when a reply does not state one (SMSMAN_CURRENCY). */
  accountCurrency?: UpstreamCurrency;
}

// One price entry: {cost, count} with, in the flat shapes, application_id and country_id beside them.
const priceEntrySchema = z
  .object({ cost: smsManNumeric, count: smsManNumeric.optional(), application_id: smsManId.optional(), country_id: smsManId.optional(), currency: z.string().optional() })
  .passthrough();
const listOrMap = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

// get-number -> {"request_id":1,"country_id":1,"application_id":1,"number":"79002415539"}; get-sms -> {..., "sms_code"}.
const numberSchema = z.object({ request_id: smsManId, number: z.string().trim().regex(/^\+?\d{5,20}$/) }).passthrough();
const smsSchema = z.object({ request_id: smsManId.optional(), sms_code: z.union([z.string(), z.number()]).nullish() }).passthrough();

export class SmsManProvider implements SmsProvider {
  readonly name: SmsProviderName = "Dynamic";
  private readonly http: UpstreamClient;
  private readonly key: string;
  private readonly accountCurrency: UpstreamCurrency;

  constructor(options: SmsManOptions) {
    // SMSMAN_BASE_URL is the host; the activation API lives under /control.
    const trimmed = options.baseUrl.replace(/\/+$/, "");
    this.http = smsUpstreamClient("sms-man", { ...options, baseUrl: trimmed.endsWith("/control") ? trimmed : `${trimmed}/control` });
    this.key = options.key;
    this.accountCurrency = options.accountCurrency ?? "RUB";
  }

  async countries(): Promise<SmsCountry[]> {
    return named(await this.call("countries", {}), "countries").map((c) => ({ id: c.id, title: c.title ?? c.name ?? "" })).filter((c) => c.title);
  }

  async services(countryId: string): Promise<SmsOffer[]> {
    const [apps, prices] = await Promise.all([this.call("applications", {}), this.call("get-prices", { country_id: countryId })]);
    const names = new Map(named(apps, "applications").map((a) => [a.id, a.name ?? a.title ?? a.code ?? a.id]));
    return parseSmsManPrices(prices, countryId, this.accountCurrency, (applicationId) => names.get(applicationId) ?? applicationId);
  }

  async buy(request: BuyRequest): Promise<SmsActivation> {
    // sms-man's get-number documents country_id, application_id, maxPrice and currency only (https://sms-man.com/api):
    // no carrier, area code or operator, so a choice is refused rather than dropped (routing never sends one here).
    if (!isEmptyChoice(request.choice)) throw smsFault("rejected", "sms-man documents no carrier, area code or operator choice");
    const params: Record<string, string> = { country_id: request.countryId, application_id: request.serviceId };
    if (request.maxCost !== undefined) {
      // Documented: maxPrice Integer, currency RUB/USD/EUR (https://sms-man.com/api, "Request a phone number").
      params.maxPrice = String(Math.ceil(request.maxCost.amount - 1e-9));
      params.currency = request.maxCost.currency;
    }
    const body = await this.call("get-number", params);
    const parsed = numberSchema.safeParse(body);
    if (!parsed.success) throw smsFault("bad_reply", `get-number without a number: ${excerpt(JSON.stringify(body))}`);
    return { upstreamId: parsed.data.request_id, number: parsed.data.number };
  }

  async poll(upstreamId: string): Promise<SmsPollResult> {
    let body: unknown;
    try {
      body = await this.call("get-sms", { request_id: upstreamId });
    } catch (err) {
      if (err instanceof WaitSignal) return { state: "waiting" };
      // wrong_status on get-sms: the request is past receiving (rejected or closed without a code): it is over.
      if (err instanceof RefusedSignal) return { state: "cancelled" };
      throw err;
    }
    const parsed = smsSchema.safeParse(body);
    if (!parsed.success) throw smsFault("bad_reply", "get-sms is not an object");
    const code = parsed.data.sms_code === null || parsed.data.sms_code === undefined ? "" : String(parsed.data.sms_code).trim();
    return code ? { state: "code", code } : { state: "waiting" };
  }

  async cancel(upstreamId: string): Promise<SmsCancelResult> {
    try {
      const body = await this.call("set-status", { request_id: upstreamId, status: "reject" });
      if (smsManSuccessSchema.safeParse(body).success) return { outcome: "released" };
      throw smsFault("bad_reply", "set-status without success");
    } catch (err) {
      // wrong_status: the number is past rejecting (a code came, or it was closed): read it with get-sms.
      if (err instanceof RefusedSignal) return { outcome: "refused", reason: err.message, final: true };
      throw err;
    }
  }

  async finish(upstreamId: string): Promise<void> {
    await this.call("set-status", { request_id: upstreamId, status: "close" }).catch(() => undefined);
  }

  /** get-balance -> {"balance":"799.70"}: in the account's currency unless the reply says otherwise. */
  async balance(): Promise<UpstreamMoney> {
    const parsed = smsManBalanceSchema.safeParse(await this.call("get-balance", {}));
    if (!parsed.success) throw smsFault("bad_reply", "get-balance without a balance");
    return { amount: parsed.data.balance, currency: statedCurrency(parsed.data.currency) ?? this.accountCurrency };
  }

  /** One method through the shared sms-man reading (sms-man-protocol.ts); wait_sms and a refused status are signals. */
  private async call(method: string, params: Record<string, string>): Promise<unknown> {
    const reply = await smsManRequest(this.http, method, { query: { token: this.key, ...params } });
    if (reply.ok) return reply.body;
    const code = reply.error.error_code;
    if (code === "wait_sms") throw new WaitSignal();
    if ((method === "set-status" || method === "get-sms") && code === "wrong_status") throw new RefusedSignal(describeSmsManError(reply.error.error_msg));
    throw smsManFault(method, reply.error);
  }
}

class WaitSignal extends Error {}
class RefusedSignal extends Error {}

/**
 * get-prices?country_id=N in every shape seen from sms-man (PROVIDERS.md, public clients):
 *   nested  {"<country_id>": {"<application_id>": {cost, count}}}
 *   flat    {"<application_id>": {application_id, country_id, cost, count}}   (a map keyed by application ids)
 *   list    [{application_id, country_id, cost, count}]
 * The shape is told by the entries, never by looking the country id up as a key: in the flat map "5" is application 5,
 * and reading it as country 5 would price every service from one entry. Entries for another country are dropped.
 */
export function parseSmsManPrices(
  body: unknown,
  countryId: string,
  accountCurrency: UpstreamCurrency,
  nameOf: (applicationId: string) => string,
): SmsOffer[] {
  const top = listOrMap.safeParse(body);
  if (!top.success) throw smsFault("bad_reply", "get-prices is neither a list nor an object");
  const topCurrency = !Array.isArray(top.data) ? statedCurrency(top.data.currency) : null;
  let rows: { key: string | null; raw: unknown }[];
  if (Array.isArray(top.data)) rows = top.data.map((raw) => ({ key: null, raw }));
  else {
    const values = Object.entries(top.data).filter(([k]) => k !== "currency");
    const isEntry = (v: unknown) => priceEntrySchema.safeParse(v).success;
    if (values.some(([, v]) => isEntry(v))) rows = values.map(([key, raw]) => ({ key, raw }));
    else {
      // Nested: only the asked country's map (a country map is a map of entries, never an entry itself).
      const inner = top.data[countryId];
      const map = z.record(z.string(), z.unknown()).safeParse(inner);
      if (!map.success) return [];
      rows = Object.entries(map.data).map(([key, raw]) => ({ key, raw: { country_id: countryId, ...(raw as object) } }));
    }
  }
  const offers: SmsOffer[] = [];
  for (const { key, raw } of rows) {
    const entry = priceEntrySchema.safeParse(raw);
    if (!entry.success) continue;
    const applicationId = entry.data.application_id ?? key;
    if (!applicationId) continue;
    if (entry.data.country_id !== undefined && entry.data.country_id !== countryId) continue;
    // A listed service without a usable price or stock is not for sale (never ₦0).
    if (!(entry.data.cost > 0) || entry.data.count === undefined) continue;
    offers.push({
      countryId,
      serviceId: applicationId,
      name: nameOf(applicationId),
      cost: entry.data.cost,
      currency: statedCurrency(entry.data.currency) ?? topCurrency ?? accountCurrency,
      count: Math.max(0, Math.trunc(entry.data.count)),
    });
  }
  return offers;
}

/** An object keyed by id or a plain array: both come back as a list of {id, title?, name?, code?}. */
function named(body: unknown, what: string): SmsManNamed[] {
  const items = readSmsManNamed(body);
  if (items === null) throw smsFault("bad_reply", `${what}: expected a list`);
  return items;
}
