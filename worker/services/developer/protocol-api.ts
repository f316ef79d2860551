import { eq } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import type { Db } from "../../db/client";
import { apiActivations } from "./tables";
import { AppError } from "../../lib/errors";
import type { SignedInUser } from "../accounts";
import { catalogueFor, pricingContext, RETAIL_BUYER, type SmsCatalogueDeps, type SmsDeps, smsPriceKobo } from "../kernel";
import {
  PROTOCOL_COUNTRIES,
  PROTOCOL_SERVICES,
  PROTOCOL_USA,
  protocolCodeOf,
  protocolCountry,
  protocolOffers,
  protocolServiceName,
  resolveProtocolCountry,
} from "./protocol-codes";
import { smsNumberChoiceSchema } from "../../../schema/sms";
import { activeOrdersOf, buySmsNumber, cancelSmsOrder, canRequestAnotherCode, choiceSurchargeFor, codesByOrder, completeSmsOrder, findSmsOrder, lastCodeOf, numberChoiceOf, orderCodes, orderMessages, requestAnotherCode, smsNumberChoices, type SmsOrderRow } from "../sms";

/**
 * The SMS-Activate protocol (GET|POST /stubs/handler_api.php?api_key=&action=...), as SMS-Activate documents it
 * (https://sms-activate.org/en/api2) and DaisySMS serves it (https://daisysms.com/docs/api): plain-text words for
 * most actions, JSON for the lists. Everything runs on the web's services: the same orders, ledger, pollers and refunds.
 * Money is naira (our wallets are naira): ACCESS_BALANCE, cost and max_price are naira.
 */

export type ProtocolReply = { text: string } | { json: unknown };
const word = (text: string): ProtocolReply => ({ text });

type SmsOrder = SmsOrderRow;

export interface ProtocolParams {
  get(name: string): string;
}

export async function protocolAction(deps: SmsDeps, user: SignedInUser, action: string, p: ProtocolParams): Promise<ProtocolReply> {
  const { db } = deps;
  switch (action) {
    // getBalanceAndCashBack, "balance request with cashback account" (https://sms-activate.org/en/api2): the balance
    // including cashback. We keep no cashback account, so it is the balance itself.
    case "getBalance":
    case "getBalanceAndCashBack":
      return word(`ACCESS_BALANCE:${koboToNaira(user.balanceKobo).toFixed(2)}`);
    case "getNumber":
    case "getNumberV2":
      return getNumber(deps, user, p, action === "getNumberV2");
    case "getStatus": {
      const order = await activationOrder(db, user.id, p.get("id"));
      if ("text" in order) return order;
      return word(statusWord(order.row, await orderCodes(db, order.row.id)));
    }
    case "getStatusV2": {
      const order = await activationOrder(db, user.id, p.get("id"));
      if ("text" in order) return order;
      return statusV2(db, order.row);
    }
    case "getFullSms": {
      const order = await activationOrder(db, user.id, p.get("id"));
      if ("text" in order) return order;
      return word(fullSmsWord(order.row, await orderMessages(db, order.row.id)));
    }
    case "setStatus":
      return setStatus(deps, user, p);
    case "getNumbersStatus":
      return getNumbersStatus(deps, user, p);
    case "getTopCountriesByService":
      return getTopCountriesByService(deps, db, user, p);
    case "getOperators":
      return getOperators(deps, user, p);
    case "getPrices":
      return getPrices(deps, db, user, p);
    case "getCountries":
      return getCountries(deps);
    case "getServicesList":
      return getServicesList(deps, p);
    case "getActiveActivations":
      return getActiveActivations(deps, user);
    default:
      return word("BAD_ACTION");
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function getNumber(deps: SmsDeps, user: SignedInUser, p: ProtocolParams, v2: boolean): Promise<ProtocolReply> {
  const db = deps.db;
  const catalogue = catalogueFor(deps, user.id);
  const service = p.get("service");
  const countryCode = p.get("country") || PROTOCOL_USA;
  if (!service) return word("BAD_SERVICE");
  if (!protocolCountry(countryCode)) return word("BAD_COUNTRY");
  const where = await resolveProtocolCountry(catalogue, countryCode).catch(() => null);
  if (!where) return word("NO_NUMBERS");
  const offers = await protocolOffers(catalogue, where.provider, where.countryId).catch(() => null);
  if (!offers) return word("NO_NUMBERS");
  const offer = offers.get(service);
  if (!offer) return word(protocolServiceName(service) || offers.size > 0 ? "BAD_SERVICE" : "NO_NUMBERS");
  if (offer.count <= 0) return word("NO_NUMBERS");
  // Issue 49: which number, in the upstreams' own parameters: DaisySMS's carriers and areas (https://daisysms.com/docs/
  // api), the protocol's operator (https://sms-activate.org/en/api2). A choice no upstream of the route can honour, or a
  // value none documents, has no number: NO_NUMBERS (the word DaisySMS answers when nothing matches), before any debit.
  const parsedChoice = smsNumberChoiceSchema.safeParse({ carriers: p.get("carriers") || undefined, areas: p.get("areas") || undefined, operator: p.get("operator") || undefined });
  if (!parsedChoice.success) return word("NO_NUMBERS");
  let surcharge: number;
  try {
    surcharge = await choiceSurchargeFor(deps, user.id, where.provider, where.countryId, numberChoiceOf(parsedChoice.data));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return word("NO_NUMBERS");
    throw err;
  }
  const priceKobo = smsPriceKobo(offer.costUsd * (1 + surcharge / 100), await pricingContext(db, user));
  const maxPrice = Number(p.get("max_price") || p.get("maxPrice"));
  if (Number.isFinite(maxPrice) && maxPrice > 0 && priceKobo > nairaToKobo(maxPrice)) return word("MAX_PRICE_EXCEEDED");
  if (priceKobo > user.balanceKobo) return word("NO_BALANCE");

  let bought;
  try {
    bought = await buySmsNumber(deps, user, { provider: where.provider, country: where.countryId, service: offer.serviceId, price: koboToNaira(priceKobo), ...parsedChoice.data });
  } catch (err) {
    // The cost limit (issue 12) has no protocol word: it is the one 429 body with Retry-After, as on /api/v1.
    if (!(err instanceof AppError) || err.code === "RATE_LIMITED") throw err;
    return word(buyErrorWord(err));
  }
  const orderId = bought.phone.request_id;
  const activationId = await activationIdFor(db, orderId);
  const number = bought.phone.number.replace(/^\+/, "");
  if (!v2) return word(`ACCESS_NUMBER:${activationId}:${number}`);
  // getNumberV2's JSON (https://sms-activate.org/en/api2 "getNumberV2").
  return {
    json: {
      activationId,
      phoneNumber: number,
      activationCost: bought.price,
      currency: "NGN",
      countryCode,
      canGetAnotherSms: where.provider === "Swift",
      activationTime: protocolTime(deps.clock.now()),
      activationOperator: parsedChoice.data.operator ?? "any",
    },
  };
}

function buyErrorWord(err: AppError): string {
  switch (err.code) {
    case "INSUFFICIENT_BALANCE":
      return "NO_BALANCE";
    case "NO_NUMBERS":
    case "PRICE_CHANGED":
      return "NO_NUMBERS";
    case "VALIDATION_FAILED":
    case "UNPROCESSABLE":
      return "BAD_SERVICE";
    default:
      return "ERROR_SQL"; // the protocol's word for "our side failed" (the order was refunded at once)
  }
}

/** The protocol's numeric activation id for an order (allocated on first need: web orders get one when listed). */
export async function activationIdFor(db: Db, orderId: string): Promise<number> {
  await db.insert(apiActivations).values({ orderId }).onConflictDoNothing({ target: apiActivations.orderId });
  const [row] = await db.select({ id: apiActivations.id }).from(apiActivations).where(eq(apiActivations.orderId, orderId)).limit(1);
  return row!.id;
}

/** The caller's order behind an activation id; another customer's id is NO_ACTIVATION, like one that never existed. */
async function activationOrder(db: Db, userId: string, id: string): Promise<{ row: SmsOrder } | { text: string }> {
  if (!/^\d{1,15}$/.test(id)) return { text: "WRONG_ACTIVATION_ID" };
  // The activation id is ours; the order behind it, the sms room's (asked through its index).
  const [activation] = await db.select({ orderId: apiActivations.orderId }).from(apiActivations).where(eq(apiActivations.id, Number(id))).limit(1);
  const order = activation ? await findSmsOrder(db, activation.orderId) : undefined;
  return order && order.userId === userId ? { row: order } : { text: "NO_ACTIVATION" };
}

/** getStatus's words (https://sms-activate.org/en/api2 "getStatus"). */
function statusWord(order: SmsOrder, codes: string[]): string {
  const last = order.code ?? codes.at(-1) ?? "";
  if (order.status === "pending" || order.status === "waiting") return "STATUS_WAIT_CODE";
  if (order.status === "used") return order.anotherCodeRequestedAt !== null ? `STATUS_WAIT_RETRY:${last}` : `STATUS_OK:${last}`;
  return "STATUS_CANCEL";
}

/**
 * getStatusV2 (https://sms-activate.org/en/api2 "getStatusV2"): JSON `{ verificationType, sms: { dateTime, code, text },
 * call }`. verificationType 0 is SMS, the only kind we sell; `call` is always null. Before a code, sms is null (the
 * shape clients already read: `data.sms?.code`); a cancelled, timed-out or failed activation answers STATUS_CANCEL as
 * getStatus does. `text` is the whole message where the upstream gave it (issue 28), else the code.
 */
async function statusV2(db: Db, order: SmsOrder): Promise<ProtocolReply> {
  if (!["pending", "waiting", "used"].includes(order.status)) return word("STATUS_CANCEL");
  const last = await lastCodeOf(db, order.id);
  const code = last?.code ?? order.code;
  const sms = code ? { dateTime: protocolTime(last?.receivedAt ?? order.updatedAt), code, text: last?.text ?? code } : null;
  return { json: { verificationType: 0, sms, call: null } };
}

/**
 * getFullSms (https://sms-activate.org/en/api2 "getFullSms"; the words as hosts of the protocol document them, e.g.
 * https://smsverified.com/api): FULL_SMS:<text> once a message came, STATUS_WAIT_CODE before, STATUS_CANCEL when it
 * ended without one. The text is the whole SMS where the upstream gave it (issue 28), else the code we hold.
 */
function fullSmsWord(order: SmsOrder, messages: { code: string; text: string | null }[]): string {
  const latest = messages.at(-1);
  const last = latest?.text ?? order.code ?? latest?.code ?? "";
  if (order.status === "used" && last) return `FULL_SMS:${last}`;
  if (order.status === "pending" || order.status === "waiting") return "STATUS_WAIT_CODE";
  return "STATUS_CANCEL";
}

/**
 * getNumbersStatus (https://sms-activate.org/en/api2 "getNumbersStatus"): `{ "<service>_<forward>": count }` for one
 * country (without one, the USA, as getNumber defaults; we never forward, so every key ends in _0). `operator` is
 * accepted and ignored: our upstreams do not let a buyer pick an operator.
 */
async function getNumbersStatus(deps: SmsCatalogueDeps, user: SignedInUser, p: ProtocolParams): Promise<ProtocolReply> {
  const catalogue = catalogueFor(deps, user.id);
  const countryCode = p.get("country") || PROTOCOL_USA;
  if (!protocolCountry(countryCode)) return word("BAD_COUNTRY");
  const where = await resolveProtocolCountry(catalogue, countryCode).catch(() => null);
  const offers = where ? await protocolOffers(catalogue, where.provider, where.countryId).catch(() => null) : null;
  const out: Record<string, number> = {};
  for (const [code, offer] of offers ?? []) out[`${code}_0`] = offer.count;
  return { json: out };
}

/**
 * getTopCountriesByService (https://sms-activate.org/en/api2 "getTopCountriesByService"): `{ "0": { country, count,
 * price, retail_price }, ... }`, the countries selling the service, most numbers first. price is the caller's naira
 * price (their tier), retail_price the price before any tier discount. Without a service, each country's numbers across
 * every service and its cheapest price. freePrice is accepted; we have no Free Price, so no freePriceMap.
 */
async function getTopCountriesByService(deps: SmsCatalogueDeps, db: Db, user: SignedInUser, p: ProtocolParams): Promise<ProtocolReply> {
  const catalogue = catalogueFor(deps, user.id);
  const service = p.get("service");
  const [ctx, retail] = await Promise.all([pricingContext(db, user), pricingContext(db, RETAIL_BUYER)]);
  const rows: { country: number; count: number; price: number; retail_price: number }[] = [];
  for (const c of PROTOCOL_COUNTRIES) {
    const where = await resolveProtocolCountry(catalogue, c.code).catch(() => null);
    if (!where) continue;
    const offers = await protocolOffers(catalogue, where.provider, where.countryId).catch(() => null);
    if (!offers) continue;
    const selling = [...offers.entries()].filter(([code, offer]) => (!service || code === service) && offer.count > 0).map(([, offer]) => offer);
    if (selling.length === 0) continue;
    const cheapest = selling.reduce((a, b) => (b.costUsd < a.costUsd ? b : a));
    rows.push({
      country: Number(c.code),
      count: selling.reduce((n, o) => n + o.count, 0),
      price: koboToNaira(smsPriceKobo(cheapest.costUsd, ctx)),
      retail_price: koboToNaira(smsPriceKobo(cheapest.costUsd, retail)),
    });
  }
  rows.sort((a, b) => b.count - a.count || a.price - b.price);
  return { json: Object.fromEntries(rows.map((r, i) => [String(i), r])) };
}

/**
 * getOperators (https://sms-activate.org/en/api2 "getOperators"): `{ status: "success", countryOperators: { "<country>":
 * [operators] } }`, or `{ status: "error", error: "OPERATORS_NOT_FOUND" }` when there are none. Our upstreams sell
 * numbers without naming or choosing an operator, so we know none: the documented empty answer, for any known country.
 */
/**
 * getOperators (https://sms-activate.org/en/api2 "getOperators"): `{"status":"success","countryOperators":{"<country>":
 * ["any", ...]}}` for the countries where an upstream of our route documents the protocol's operator (issue 49: Russia,
 * Ukraine and Kazakhstan where HeroSMS serves them), OPERATORS_NOT_FOUND where none does. Without a country, every
 * protocol country that has some.
 */
async function getOperators(deps: SmsDeps, user: SignedInUser, p: ProtocolParams): Promise<ProtocolReply> {
  const countryCode = p.get("country");
  if (countryCode && !protocolCountry(countryCode)) return word("BAD_COUNTRY");
  const catalogue = catalogueFor(deps, user.id);
  const out: Record<string, string[]> = {};
  for (const country of countryCode ? [protocolCountry(countryCode)!] : PROTOCOL_COUNTRIES) {
    const where = await resolveProtocolCountry(catalogue, country.code).catch(() => null);
    if (!where) continue;
    const operators = (await smsNumberChoices(deps, user.id, where.provider, where.countryId)).operator?.options.map((o) => o.value);
    if (operators?.length) out[country.code] = ["any", ...operators];
  }
  if (Object.keys(out).length === 0) return { json: { status: "error", error: "OPERATORS_NOT_FOUND" } };
  return { json: { status: "success", countryOperators: out } };
}

async function setStatus(deps: SmsDeps, user: SignedInUser, p: ProtocolParams): Promise<ProtocolReply> {
  const found = await activationOrder(deps.db, user.id, p.get("id"));
  if ("text" in found) return found;
  const order = found.row;
  switch (p.get("status")) {
    case "1": // the number was entered on the site: nothing to do upstream for us
      return word(order.status === "waiting" || order.status === "used" ? "ACCESS_READY" : "BAD_STATUS");
    case "3":
      try {
        await requestAnotherCode(deps, user.id, order.id);
        return word("ACCESS_RETRY_GET");
      } catch (err) {
        if (err instanceof AppError && err.code === "RATE_LIMITED") throw err;
        if (err instanceof AppError && err.status < 500) return word("BAD_STATUS");
        if (err instanceof AppError) return word("ERROR_SQL");
        throw err;
      }
    case "6":
      if (order.status !== "used") return word("BAD_STATUS");
      await completeSmsOrder(deps, user.id, order.id);
      return word("ACCESS_ACTIVATION");
    case "8":
      if (["cancelled", "timeout", "error", "failed"].includes(order.status)) return word("ACCESS_CANCEL_ALREADY");
      if (order.status === "used") return word("BAD_STATUS");
      if (order.status === "pending") return word("EARLY_CANCEL_DENIED");
      try {
        await cancelSmsOrder(deps, user.id, order.id);
        return word("ACCESS_CANCEL");
      } catch (err) {
        if (!(err instanceof AppError) || err.code === "RATE_LIMITED") throw err;
        if (err.code === "INVALID_STATE" && err.extra.status === "used") return word("BAD_STATUS");
        if (err.code === "INVALID_STATE") return word("EARLY_CANCEL_DENIED");
        return word("ERROR_SQL");
      }
    default:
      return word("BAD_STATUS");
  }
}

async function getPrices(deps: SmsCatalogueDeps, db: Db, user: SignedInUser, p: ProtocolParams): Promise<ProtocolReply> {
  const catalogue = catalogueFor(deps, user.id);
  const countryCode = p.get("country");
  const service = p.get("service");
  if (countryCode && !protocolCountry(countryCode)) return word("BAD_COUNTRY");
  const codes = countryCode ? [countryCode] : PROTOCOL_COUNTRIES.map((c) => c.code);
  const ctx = await pricingContext(db, user);
  const out: Record<string, Record<string, { cost: number; count: number }>> = {};
  for (const code of codes) {
    const where = await resolveProtocolCountry(catalogue, code).catch(() => null);
    if (!where) continue;
    const offers = await protocolOffers(catalogue, where.provider, where.countryId).catch(() => null);
    if (!offers) continue;
    const byService: Record<string, { cost: number; count: number }> = {};
    for (const [svc, offer] of offers) {
      if (service && svc !== service) continue;
      byService[svc] = { cost: koboToNaira(smsPriceKobo(offer.costUsd, ctx)), count: offer.count };
    }
    if (Object.keys(byService).length > 0) out[code] = byService;
  }
  return { json: out };
}

/** getCountries's JSON: keyed by code, with the protocol's name fields (we have English names only). */
async function getCountries(catalogue: SmsCatalogueDeps): Promise<ProtocolReply> {
  const out: Record<string, unknown> = {};
  for (const c of PROTOCOL_COUNTRIES) {
    const where = await resolveProtocolCountry(catalogue, c.code).catch(() => null);
    const name = c.names[0];
    out[c.code] = {
      id: Number(c.code),
      rus: name,
      eng: name,
      chn: name,
      visible: where ? 1 : 0,
      retry: where?.provider === "Swift" ? 1 : 0,
      rent: 0,
      multiService: 0,
    };
  }
  return { json: out };
}

async function getServicesList(catalogue: SmsCatalogueDeps, p: ProtocolParams): Promise<ProtocolReply> {
  const countryCode = p.get("country");
  if (!countryCode) return { json: { status: "success", services: PROTOCOL_SERVICES.map((s) => ({ code: s.code, name: s.names[0] })) } };
  if (!protocolCountry(countryCode)) return word("BAD_COUNTRY");
  const where = await resolveProtocolCountry(catalogue, countryCode).catch(() => null);
  const offers = where ? await protocolOffers(catalogue, where.provider, where.countryId).catch(() => new Map()) : new Map();
  const services = [...offers.entries()].map(([code, offer]) => ({ code, name: protocolServiceName(code) ?? offer.name }));
  return { json: { status: "success", services } };
}

/** Orders still running (waiting for a code, or used and still open for another code), newest first. */
async function getActiveActivations(deps: SmsDeps, user: SignedInUser): Promise<ProtocolReply> {
  const db = deps.db;
  const now = deps.clock.now();
  const rows = await activeOrdersOf(db, user.id, now);
  if (rows.length === 0) return { json: { status: "error", error: "NO_ACTIVATIONS" } };
  const codes = await codesByOrder(db, rows.map((r) => r.id));
  const activeActivations = [];
  for (const o of rows) {
    const list = codes.get(o.id) ?? (o.code ? [o.code] : []);
    activeActivations.push({
      activationId: String(await activationIdFor(db, o.id)),
      serviceCode: serviceCodeOf(o),
      phoneNumber: (o.number ?? "").replace(/^\+/, ""),
      activationCost: koboToNaira(o.priceKobo),
      currency: "NGN",
      // 1 waiting for a code, 3 waiting for another code, 6 code received (our mapping; docs/developer-api.md)
      activationStatus: o.status !== "used" ? "1" : o.anotherCodeRequestedAt !== null ? "3" : "6",
      smsCode: list.length > 0 ? list : null,
      smsText: null,
      activationTime: protocolTime(o.createdAt),
      countryCode: countryCodeOf(o),
      countryName: o.countryName,
      canGetAnotherSms: canRequestAnotherCode(o, now),
    });
  }
  return { json: { status: "success", activeActivations } };
}

function serviceCodeOf(o: SmsOrder): string {
  const provider = o.provider === "Dynamic" ? "Dynamic" : "Swift";
  return protocolCodeOf(provider, { serviceId: o.serviceId, name: o.serviceName }) ?? o.serviceId;
}

function countryCodeOf(o: SmsOrder): string {
  if (o.provider !== "Dynamic") return PROTOCOL_USA;
  const name = o.countryName.trim().toLowerCase();
  return PROTOCOL_COUNTRIES.find((c) => c.names.some((n) => n.toLowerCase() === name))?.code ?? "";
}

/** "2026-11-22 14:05:09" (UTC), the protocol's time format. */
function protocolTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}


