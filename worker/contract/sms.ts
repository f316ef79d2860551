
import type { DataOf } from "../../schema/answers";
import {
  smsCompareQuerySchema,
  smsCountriesQuerySchema,
  smsFavouriteSchema,
  smsGetNumberSchema,
  smsGetNumbersSchema,
  smsOrderRefSchema,
  smsPriceQuerySchema,
  smsPublicPricesQuerySchema,
  smsUseAgainSchema,
  type OrderRow,
  type SmsAnotherCodeResponse,
  type SmsCancelResponse,
  type SmsCheckResponse,
  type SmsCompareResponse,
  type SmsCountryEntry,
  type SmsFavouritesResponse,
  type SmsFinishResponse,
  type SmsGetNumberResponse,
  type SmsGetNumbersResponse,
  type SmsHoldTime,
  type SmsPublicPriceList,
  type SmsRefundStateResponse,
  type SmsServiceEntry,
  type SmsStatusResponse,
  type SmsUseAgainQuote,
} from "../../schema/sms";
import { answer, jsonBody, route } from "./kit";

/** Receive SMS (docs/api.md "Receive SMS") and the orders list, mounted at /api (routes/sms.ts, orders.ts). */

export const countries = route({
  method: "get",
  path: "/sms/countries",
  request: { query: smsCountriesQuerySchema },
  responses: { 200: answer<SmsCountryEntry[]>() },
});

/** Keyed by service id (the spec's shape); a signed-in call is priced at the caller's tier. */
export const prices = route({
  method: "get",
  path: "/sms/price",
  request: { query: smsPriceQuerySchema },
  responses: { 200: answer<Record<string, SmsServiceEntry>>() },
});

/** The public price page: the starter tier's prices, whoever asks (issue 28). */
export const publicPrices = route({
  method: "get",
  path: "/sms/public-prices",
  request: { query: smsPublicPricesQuerySchema },
  responses: { 200: answer<SmsPublicPriceList>() },
});

export const buyNumber = route({
  method: "post",
  path: "/sms/get-number",
  request: { body: jsonBody(smsGetNumberSchema) },
  responses: { 200: answer<SmsGetNumberResponse>() },
});

/** Several numbers (1-5) for one service, each its own order: docs/api.md "Several numbers at once". */
export const buyNumbers = route({
  method: "post",
  path: "/sms/get-numbers",
  request: { body: jsonBody(smsGetNumbersSchema) },
  responses: { 200: answer<SmsGetNumbersResponse>() },
});

export const favourites = route({ method: "get", path: "/sms/favourites", responses: { 200: answer<SmsFavouritesResponse>() } });

export const setFavourite = route({
  method: "put",
  path: "/sms/favourites",
  request: { body: jsonBody(smsFavouriteSchema) },
  responses: { 200: answer<SmsFavouritesResponse>() },
});

export const compare = route({
  method: "get",
  path: "/sms/compare",
  request: { query: smsCompareQuerySchema },
  responses: { 200: answer<SmsCompareResponse>() },
});

export const holdTime = route({ method: "get", path: "/sms/hold-time", responses: { 200: answer<SmsHoldTime>() } });

/** The order as the SMS dialog reads it; while another code is awaited, `another_code_until` (issue 43) is when it closes. */
export const status = route({
  method: "get",
  path: "/sms/status/{request_id}",
  request: { params: smsOrderRefSchema },
  responses: { 200: answer<SmsStatusResponse>() },
});

/** "Check Now" (the spec's original client): the caller's own order, asked of the upstream now. */
export const checkNow = route({
  method: "post",
  path: "/sms/check/{request_id}",
  request: { params: smsOrderRefSchema },
  responses: { 200: answer<SmsCheckResponse>() },
});

export const cancel = route({
  method: "post",
  path: "/sms/cancel",
  request: { body: jsonBody(smsOrderRefSchema) },
  responses: { 200: answer<SmsCancelResponse>() },
});

export const anotherCode = route({
  method: "post",
  path: "/sms/another-code",
  request: { body: jsonBody(smsOrderRefSchema) },
  responses: { 200: answer<SmsAnotherCodeResponse>() },
});

/**
 * "Stop waiting" for another code (issue 43): the used number is closed upstream now (free, as the other code was);
 * the codes it received stay its own.
 */
export const finish = route({
  method: "post",
  path: "/sms/finish",
  request: { body: jsonBody(smsOrderRefSchema) },
  responses: { 200: answer<SmsFinishResponse>() },
});

/** "Use this number again" (issue 32, decision 047): the confirm step's price and wait, then the new order. */
export const useAgainQuote = route({
  method: "get",
  path: "/sms/use-again/{request_id}",
  request: { params: smsOrderRefSchema },
  responses: { 200: answer<SmsUseAgainQuote>() },
});

export const useAgain = route({
  method: "post",
  path: "/sms/use-again",
  request: { body: jsonBody(smsUseAgainSchema) },
  responses: { 200: answer<SmsGetNumberResponse>() },
});

export const refundState = route({
  method: "post",
  path: "/refund-user",
  request: { body: jsonBody(smsOrderRefSchema) },
  responses: { 200: answer<SmsRefundStateResponse>() },
});

/** The orders table (spec section 7): SMS orders and rentals in one list, newest first. */
export const orders = route({ method: "get", path: "/orders", responses: { 200: answer<DataOf<OrderRow[]>>() } });
