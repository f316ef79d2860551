
import { exportRangeSchema } from "../../schema/exports";
import {
  rentAutoRenewRequestSchema,
  rentExtendRequestSchema,
  rentalIdParamSchema,
  rentNumberRequestSchema,
  rentQuoteRequestSchema,
  type RentalDetailResponse,
  type RentalEndResponse,
  type RentalView,
  type RentCountryEntry,
  type RentExtendOptionsResponse,
  type RentExtendResponse,
  type RentNumberResponse,
  type RentQuoteResponse,
} from "../../schema/rentals";
import { answer, csvAnswer, jsonBody, route } from "./kit";

/** Rent Number (docs/api.md "Rent Number") and the history's CSV files, mounted at /api (routes/rentals.ts, exports.ts). */

export const countries = route({ method: "get", path: "/rent/country-list", responses: { 200: answer<RentCountryEntry[]>() } });

/**
 * The quote answers a visitor too, at the starter tier; no stock is an answer (price null), not an error. A longer unit
 * that covers at least the same time for less is named in `cheaper` (issue 43, decision 063).
 */
export const quote = route({
  method: "post",
  path: "/rent/countries",
  request: { body: jsonBody(rentQuoteRequestSchema) },
  responses: { 200: answer<RentQuoteResponse>() },
});

export const rent = route({
  method: "post",
  path: "/rent-number",
  request: { body: jsonBody(rentNumberRequestSchema) },
  responses: { 201: answer<RentNumberResponse>() },
});

export const rental = route({
  method: "get",
  path: "/rentals/{id}",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentalDetailResponse>() },
});

export const end = route({
  method: "post",
  path: "/rentals/{id}/end",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentalEndResponse>() },
});

export const cancel = route({
  method: "post",
  path: "/rentals/{id}/cancel",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentalEndResponse>() },
});

/** Extend (decision 019): the choices with the server's price each; empty where the upstream documents no extension. */
export const extendOptions = route({
  method: "get",
  path: "/rentals/{id}/extend-options",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentExtendOptionsResponse>() },
});

export const extend = route({
  method: "post",
  path: "/rentals/{id}/extend",
  request: { params: rentalIdParamSchema, body: jsonBody(rentExtendRequestSchema) },
  responses: { 200: answer<RentExtendResponse>() },
});

/** Auto-renew (issue 32): on at the price shown for each renewal (409 PRICE_CHANGED with the new one), or off. */
export const autoRenew = route({
  method: "post",
  path: "/rentals/{id}/auto-renew",
  request: { params: rentalIdParamSchema, body: jsonBody(rentAutoRenewRequestSchema) },
  responses: { 200: answer<{ rental: RentalView }>() },
});

// ---- History export (CSV files; the same reads as GET /api/get-transaction and GET /api/orders) ----

export const exportTransactions = route({
  method: "get",
  path: "/export/transactions.csv",
  request: { query: exportRangeSchema },
  responses: { 200: csvAnswer("The wallet history in the range, as CSV") },
});

export const exportOrders = route({
  method: "get",
  path: "/export/orders.csv",
  request: { query: exportRangeSchema },
  responses: { 200: csvAnswer("The orders in the range, as CSV") },
});
