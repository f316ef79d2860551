import { and, eq, lt } from "drizzle-orm";
import type { z } from "zod";
import {
  V1_WEBHOOK_EVENT_TYPES,
  type v1BuySmsSchema,
  type v1CountriesSchema,
  type v1PricesQuerySchema,
  type v1PricesSchema,
  type v1RentalListSchema,
  type v1RentalsQuerySchema,
  type v1RentCountriesSchema,
  type v1RentQuoteQuerySchema,
  type v1RentQuoteSchema,
  type v1RentSchema,
  type v1SmsOrderListSchema,
  type v1SmsOrderSchema,
  type v1SmsOrdersQuerySchema,
  type v1WebhookDeliveryListSchema,
  type v1WebhookDeliverySchema,
  type v1WebhookSchema,
} from "../../../schema/api-v1";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import type { SmsProviderName } from "../../../schema/constants";
import { NO_RENT_STOCK_MESSAGE } from "../../../schema/constants";
import { NO_EXTENDABLE_RENT_MESSAGE, RENT_PRICE_REFUSED_MESSAGE, type RentalView } from "../../../schema/rentals";
import type { Db } from "../../db/client";
import { idempotencyKeys } from "./tables";
import type { Env } from "../../config";
import { AppError, isUniqueViolation } from "../../lib/errors";
import type { ApiCaller, SignedInUser } from "../accounts";
import { catalogueFor, isSubaccountWallet, marginKobo, pricingContext, type RentalDeps, type SmsCatalogueDeps, type SmsDeps, smsPriceKobo } from "../kernel";
import { cancelRental, endRental, lastMessageTimes, quoteRental, rentalsPage, rentalView, rentCountries, rentNumber } from "../rent";
import { smsNumberChoiceSchema } from "../../../schema/sms";
import { buySmsNumber, cancelSmsOrder, choiceSurchargeFor, NO_RECORD, numberChoiceOf, offerKey, offerRecords, orderNumberChoice, recordView, smsNumberChoices, canRequestAnotherCode, chainStateFor, codesByOrder, findSmsOffer, orderCodes, ownSmsOrder, type PageAfter, requestAnotherCode, smsCountries, smsOffers, type SmsOrderRow, smsOrdersPage } from "../sms";
import { resendWebhookEvent, setWebhookUrl, webhookLog } from "./webhook-settings";
import { developerRefFor } from "./ref-share";

/**
 * The JSON developer API's answers (routes/api-v1.ts): the caller is the API key's account (a sk_test_ key's is its
 * sandbox account, whose upstreams are the simulators), and every answer is the v1 contract's shape (schema/api-v1.ts).
 */

type SmsOrderV1 = z.infer<typeof v1SmsOrderSchema>;

/** Why a max_price refused the current price (409, with the price so a client can decide). */
function aboveMaxPrice(priceKobo: number): AppError {
  return new AppError("PRICE_CHANGED", `The price is ₦${koboToNaira(priceKobo).toFixed(2)}, above your max_price.`, { price: koboToNaira(priceKobo) });
}

export async function countriesV1(catalogue: SmsCatalogueDeps, userId: string, provider: SmsProviderName): Promise<z.infer<typeof v1CountriesSchema>> {
  const list = await smsCountries(catalogueFor(catalogue, userId), provider);
  return { data: list.map((x) => ({ id: x.id, title: x.title })) };
}

/** The caller's prices (their tier) and stock for one country. */
export async function pricesV1(deps: SmsDeps, user: SignedInUser, query: z.infer<typeof v1PricesQuerySchema>): Promise<z.infer<typeof v1PricesSchema>> {
  const catalogue = catalogueFor(deps, user.id);
  const offers = await smsOffers(catalogue, query.provider, query.country);
  const ctx = await pricingContext(deps.db, user);
  // Issue 49: each offer's own record (the status page's figures for it: one read for the whole list) and what number
  // may be chosen in this country.
  const country = (await smsCountries(catalogue, query.provider)).find((c) => c.id === query.country)?.title ?? "";
  const [records, choices] = await Promise.all([offerRecords(deps.db, deps.clock.now(), { provider: query.provider, country }), smsNumberChoices(deps, user.id, query.provider, query.country)]);
  return {
    data: offers.map((o) => {
      const record = recordView(records.get(offerKey(query.provider, country, o.name)) ?? NO_RECORD);
      // A sub-account's caller sees its reseller's marked-up price (issue 46): what its purchase will charge.
      const base = smsPriceKobo(o.costUsd, ctx);
      return { service: o.serviceId, name: o.name, price: koboToNaira(base + marginKobo(base, user.resellerMarkup, o.serviceId)), count: o.count, success_rate: record.success_rate, median_seconds_to_code: record.median_seconds_to_code, sample: record.sample };
    }),
    choices,
  };
}

/**
 * Buys at the server's price now (refused above max_price), as the web's buy does, and answers the order. A `ref`
 * (issue 46, decision 075) names the developer who earns a share: checked before anything is written (400 `ref`).
 */
export async function buySmsV1(deps: SmsDeps, caller: Pick<ApiCaller, "key" | "user">, body: z.infer<typeof v1BuySmsSchema>): Promise<SmsOrderV1> {
  const user: SignedInUser = body.ref === undefined ? caller.user : { ...caller.user, developerRef: await developerRefFor(deps.db, caller, body.ref) };
  // Issue 49: the number choice in the upstreams' own names, read as the web's purchase reads it (refused with 400 when
  // malformed, 422 when no upstream can honour it: both before any debit), priced with its documented surcharge.
  const parsed = smsNumberChoiceSchema.safeParse({ carriers: body.carriers, areas: body.areas, operator: body.operator });
  if (!parsed.success) throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "The number choice is not valid.", { field: String(parsed.error.issues[0]?.path[0] ?? "carriers") });
  const surcharge = await choiceSurchargeFor(deps, user.id, body.provider, body.country, numberChoiceOf(parsed.data));
  const quote = await smsQuoteKobo(deps, user, body.provider, body.country, body.service, surcharge);
  if (body.max_price !== undefined && quote > nairaToKobo(body.max_price)) throw aboveMaxPrice(quote);
  const bought = await buySmsNumber(deps, user, {
    provider: body.provider,
    country: body.country,
    service: body.service,
    price: koboToNaira(quote),
    ...(body.next_route ? { next_route: body.next_route } : {}),
    ...parsed.data,
  });
  return smsOrderV1(deps, user.id, bought.phone.request_id);
}

export async function cancelSmsOrderV1(deps: SmsDeps, userId: string, orderId: string): Promise<SmsOrderV1> {
  await cancelSmsOrder(deps, userId, orderId);
  return smsOrderV1(deps, userId, orderId);
}

export async function anotherCodeV1(deps: SmsDeps, userId: string, orderId: string): Promise<SmsOrderV1> {
  await requestAnotherCode(deps, userId, orderId);
  return smsOrderV1(deps, userId, orderId);
}

/** A rental as the v1 API answers it: with the sub-account it was rented as (issue 46), null for the key's own wallet. */
export function rentalV1<R extends object>(view: R, userId: string): R & { subaccount_id: string | null } {
  return { ...view, subaccount_id: isSubaccountWallet(userId) ? userId : null };
}

/**
 * Rents at the server's price now: a guarded-refused price is 409, no stock 503, above max_price 409 with the price.
 * A `ref` (decision 075) is checked before anything is written (400 `ref`), as the SMS order's is.
 */
export async function rentV1(deps: RentalDeps, caller: Pick<ApiCaller, "key" | "user">, body: z.infer<typeof v1RentSchema>): Promise<RentalView> {
  const user: SignedInUser = body.ref === undefined ? caller.user : { ...caller.user, developerRef: await developerRefFor(deps.db, caller, body.ref) };
  const choice = { countryId: body.country, unit: body.duration, period: body.period, extendable: body.extendable };
  const quote = await quoteRental(deps, user, choice);
  if (quote.refused) throw new AppError("CONFLICT", RENT_PRICE_REFUSED_MESSAGE);
  if (quote.priceKobo === null) throw new AppError("NO_NUMBERS", body.extendable ? NO_EXTENDABLE_RENT_MESSAGE : "No stock available for the selected duration");
  if (body.max_price !== undefined && quote.priceKobo > nairaToKobo(body.max_price)) throw aboveMaxPrice(quote.priceKobo);
  return rentalV1(rentalView(await rentNumber(deps, user, { ...choice, clientPrice: koboToNaira(quote.priceKobo) }), deps.clock.now()), user.id);
}

export async function cancelRentalV1(deps: RentalDeps, userId: string, rentalId: string): Promise<RentalView> {
  return rentalV1(rentalView((await cancelRental(deps, userId, rentalId)).rental, deps.clock.now()), userId);
}

export async function endRentalV1(deps: RentalDeps, userId: string, rentalId: string): Promise<RentalView> {
  return rentalV1(rentalView(await endRental(deps, userId, rentalId), deps.clock.now()), userId);
}

const REFUNDED = new Set(["timeout", "error", "cancelled", "failed"]);

/** What the caller would pay for one number now (the price buySmsNumber charges), in kobo. */
export async function smsQuoteKobo(deps: SmsDeps, user: SignedInUser, provider: SmsProviderName, country: string, service: string, surchargePercent = 0): Promise<number> {
  const { offer } = await findSmsOffer(catalogueFor(deps, user.id), provider, country, service);
  const base = smsPriceKobo(offer.costUsd * (1 + surchargePercent / 100), await pricingContext(deps.db, user));
  return base + marginKobo(base, user.resellerMarkup, offer.serviceId);
}

export async function smsOrderV1(deps: SmsDeps, userId: string, orderId: string): Promise<SmsOrderV1> {
  const db = deps.db;
  const o = await ownSmsOrder(db, userId, orderId);
  return toSmsOrderV1(o, await orderCodes(db, o.id), await chainStateFor(db, o), deps.clock.now());
}

function toSmsOrderV1(o: SmsOrderRow, codes: string[], chain: Awaited<ReturnType<typeof chainStateFor>>, now: number): SmsOrderV1 {
  return {
    id: o.id,
    status: o.status,
    provider: o.provider,
    country_id: o.countryId,
    country: o.countryName,
    service_id: o.serviceId,
    service: o.serviceName,
    number: o.number,
    price: koboToNaira(o.priceKobo),
    code: o.code,
    codes: codes.length > 0 || !o.code ? codes : [o.code],
    // An order refunded after its code came (an operator's refund, issue 46) stays `used`, refunded.
    refunded: REFUNDED.has(o.status) || o.keptRefundedAt !== null,
    waiting_for_another_code: o.anotherCodeRequestedAt !== null,
    can_request_another_code: canRequestAnotherCode(o, now),
    // The web's status names the next order `next_request_id` (the spec's word); the v1 API calls orders `id`.
    chain: chain ? { id: chain.id, step: chain.step, max_routes: chain.max_routes, cap: chain.cap, status: chain.status, next_order_id: chain.next_request_id, moving_on: chain.moving_on } : null,
    number_choice: orderNumberChoice(o) ?? null,
    subaccount_id: isSubaccountWallet(o.userId) ? o.userId : null,
    created_at: new Date(o.createdAt).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Lists: cursor paging, newest first (docs/decisions/033). The cursor is the last row's (created_at, id), opaque to the
// caller; a page never shifts when new orders arrive, unlike page/offset.

function encodeCursor(row: { createdAt: number; id: string }): string {
  return btoa(`${row.createdAt}:${row.id}`).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");
}

function decodeCursor(cursor: string | undefined): PageAfter | undefined {
  if (cursor === undefined) return undefined;
  let text = "";
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    // falls through to the refusal below
  }
  const match = /^(\d{1,15}):([\w-]{1,64})$/.exec(text);
  if (!match) throw new AppError("VALIDATION_FAILED", "cursor is not one this API gave: pass next_cursor from the previous page.", { field: "cursor" });
  return { createdAt: Number(match[1]), id: match[2] };
}

/** GET /sms/orders: the caller's orders, newest first, a page at a time. Chains are read only for orders in one. */
export async function listSmsOrdersV1(deps: SmsDeps, userId: string, query: z.infer<typeof v1SmsOrdersQuerySchema>): Promise<z.infer<typeof v1SmsOrderListSchema>> {
  const db = deps.db;
  const { rows, more } = await smsOrdersPage(db, userId, { status: query.status, limit: query.limit, after: decodeCursor(query.cursor) });
  const codes = await codesByOrder(db, rows.map((r) => r.id));
  const now = deps.clock.now();
  const data = await Promise.all(rows.map(async (o) => toSmsOrderV1(o, codes.get(o.id) ?? [], o.chainId ? await chainStateFor(db, o) : null, now)));
  return { data, next_cursor: more ? encodeCursor(rows[rows.length - 1]) : null };
}

/** GET /rentals: the caller's rentals, newest first, a page at a time. */
export async function listRentalsV1(deps: RentalDeps, userId: string, query: z.infer<typeof v1RentalsQuerySchema>): Promise<z.infer<typeof v1RentalListSchema>> {
  const { rows, more } = await rentalsPage(deps.db, userId, { status: query.status, limit: query.limit, after: decodeCursor(query.cursor) });
  const now = deps.clock.now();
  const lastMessages = await lastMessageTimes(deps.db, rows.map((r) => r.id));
  return { data: rows.map((r) => rentalV1({ ...rentalView(r, now), last_message_at: lastMessages.get(r.id) ?? null }, userId)), next_cursor: more ? encodeCursor(rows[rows.length - 1]) : null };
}

// ---------------------------------------------------------------------------------------------------------------
// The rental catalogue and its price before paying

export async function rentCountriesV1(deps: RentalDeps, userId: string): Promise<z.infer<typeof v1RentCountriesSchema>> {
  return { data: (await rentCountries(deps, userId)).map((c) => ({ id: c.id, title: c.title })) };
}

/**
 * GET /rentals/quote: what POST /rentals would charge now (the same quoteRental, the caller's tier). No stock, or a
 * price the guard refused, is an answer (price null, with the reason), as on the web's form.
 */
export async function rentQuoteV1(deps: RentalDeps, user: SignedInUser, query: z.infer<typeof v1RentQuoteQuerySchema>): Promise<z.infer<typeof v1RentQuoteSchema>> {
  const quote = await quoteRental(deps, user, { countryId: query.country, unit: query.duration, period: query.period, extendable: query.extendable });
  const count = quote.limits.find((l) => l.country_id === query.country)?.count ?? 0;
  const base = { country: query.country, duration: query.duration, period: query.period, extendable: false, extendable_price: null };
  if (quote.refused) return { ...base, price: null, in_stock: false, count: 0, message: RENT_PRICE_REFUSED_MESSAGE };
  if (quote.priceKobo === null) return { ...base, price: null, in_stock: false, count, message: query.extendable ? NO_EXTENDABLE_RENT_MESSAGE : NO_RENT_STOCK_MESSAGE };
  // Issue 49: whether this number can be extended, and what an extendable one costs when it cannot.
  const extendablePrice = quote.extendableOffer ? koboToNaira(quote.extendableOffer.priceKobo) : null;
  return { ...base, price: koboToNaira(quote.priceKobo), in_stock: true, count, message: null, extendable: quote.extendable, extendable_price: extendablePrice };
}

// ---------------------------------------------------------------------------------------------------------------
// The calling key's own webhook (the same services and rules as Settings → API: services/webhooks.ts)

type WebhookV1 = z.infer<typeof v1WebhookSchema>;

export function webhookV1(caller: ApiCaller): WebhookV1 {
  return { url: caller.key.webhookUrl, events: [...V1_WEBHOOK_EVENT_TYPES] };
}

/** Sets (or, with null, removes) the calling key's URL: https only, except on a deployment whose PUBLIC_URL is http. */
export async function setWebhookV1(env: Env, caller: ApiCaller, url: string | null, now: number): Promise<WebhookV1> {
  await setWebhookUrl(env, caller.key.userId, caller.key.id, url, now);
  return { url, events: [...V1_WEBHOOK_EVENT_TYPES] };
}

type DeliveryV1 = z.infer<typeof v1WebhookDeliverySchema>;

export async function webhookDeliveriesV1(db: Db, caller: ApiCaller): Promise<z.infer<typeof v1WebhookDeliveryListSchema>> {
  return { data: (await webhookLog(db, caller.key.userId, caller.key.id)) as DeliveryV1[] };
}

/** Delivers one of the key's events again (same id and body): another key's event is 404. */
export async function resendWebhookV1(env: Env, caller: ApiCaller, eventId: string, now: number): Promise<DeliveryV1> {
  return (await resendWebhookEvent(env, caller.key.userId, caller.key.id, eventId, now)) as DeliveryV1;
}

// ---------------------------------------------------------------------------------------------------------------
// Idempotency-Key (POST /api/v1/*)

export type IdempotencyClaim =
  | { kind: "first" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "mismatch" }
  | { kind: "in_flight"; abandoned: boolean };

/**
 * An answer not stored after this long means its request died mid-way (the isolate was evicted, the upstream hung past
 * every timeout): whether it charged is unknown, so the key can never safely run again. A repeat is told so at once
 * instead of "still running" until the key is forgotten a day later.
 */
export const IDEMPOTENCY_IN_FLIGHT_MS = 60_000;
/** Keys are remembered this long (the sweep forgets older ones). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Claims (apiKeyId, key) for this request. The unique index decides a race: exactly one of any number of concurrent
 * identical requests is "first" and runs; the others see its row.
 */
export async function claimIdempotencyKey(db: Db, apiKeyId: string, key: string, requestHash: string, now: number): Promise<IdempotencyClaim> {
  try {
    await db.insert(idempotencyKeys).values({ apiKeyId, key, requestHash, createdAt: now });
    return { kind: "first" };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  return readIdempotencyKey(db, apiKeyId, key, requestHash, now);
}

export async function readIdempotencyKey(db: Db, apiKeyId: string, key: string, requestHash: string, now: number): Promise<IdempotencyClaim> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!row) return { kind: "in_flight", abandoned: false };
  if (row.requestHash !== requestHash) return { kind: "mismatch" };
  if (row.responseStatus === null || row.responseBody === null) {
    return { kind: "in_flight", abandoned: now - row.createdAt > IDEMPOTENCY_IN_FLIGHT_MS };
  }
  return { kind: "replay", status: row.responseStatus, body: row.responseBody };
}

export async function storeIdempotentAnswer(db: Db, apiKeyId: string, key: string, status: number, body: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
}

export async function purgeIdempotencyKeys(db: Db, now: number): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS));
}
