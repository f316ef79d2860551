import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { z } from "zod";
import {
  v1BalanceSchema,
  v1BuySmsSchema,
  v1CountriesQuerySchema,
  v1CountriesSchema,
  v1ErrorSchema,
  v1IdParamSchema,
  v1PricesQuerySchema,
  v1PricesSchema,
  v1RateLimitedErrorSchema,
  v1RentalDetailSchema,
  v1RentalListSchema,
  v1RentalSchema,
  v1RentalsQuerySchema,
  v1RentCountriesSchema,
  v1RentQuoteQuerySchema,
  v1RentQuoteSchema,
  v1RentSchema,
  v1SetWebhookSchema,
  v1SmsOrderListSchema,
  v1SmsOrderSchema,
  v1SmsOrdersQuerySchema,
  v1WebhookDeliveryListSchema,
  v1WebhookDeliverySchema,
  v1WebhookEventIdParamSchema,
  v1WebhookEventSchemas,
  v1WebhookSchema,
  v1CreateSubaccountSchema,
  v1MarkupsSchema,
  v1SetMarkupsSchema,
  v1SubaccountListSchema,
  v1SubaccountSchema,
  v1SubaccountsQuerySchema,
  v1SubaccountTransferListSchema,
  v1SubaccountTransferSchema,
  v1WithdrawalIdParamSchema,
  v1WithdrawalSchema,
  v1WithdrawRequestSchema,
  v1TransferSchema,
} from "../../schema/api-v1";
import { jsonBody } from "./kit";

/**
 * The JSON developer API (/api/v1, docs/developer-api.md): one definition per endpoint, from which the worker validates
 * (worker/routes/api-v1.ts attaches the handlers) and the OpenAPI document is generated (`v1DocumentConfig`, served at
 * /api/v1/openapi.json, written by `npm run openapi`). Paths are relative to /api/v1; each resource's sub-app is mounted
 * at its prefix there, so a definition's path is its place inside that sub-app (`resource`).
 */

/** The statuses the one error body is answered with on /api/v1. */
type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503 | 504;

/** What each error status means here, and one real answer as the server words it (the document's examples). */
const ERRORS: Record<ErrorStatus, { text: string; example: { code: string; message: string; [k: string]: unknown } }> = {
  400: {
    text: "Invalid input (VALIDATION_FAILED, with the field), a body that is not JSON (BAD_JSON), or a POST without Idempotency-Key",
    example: { code: "VALIDATION_FAILED", message: "service is required", field: "service" },
  },
  401: { text: "Missing, unknown or revoked API key (UNAUTHORIZED)", example: { code: "UNAUTHORIZED", message: "This API key is not valid or has been revoked." } },
  402: { text: "Insufficient balance (INSUFFICIENT_BALANCE)", example: { code: "INSUFFICIENT_BALANCE", message: "Insufficient balance. Please fund your wallet." } },
  403: {
    text: "Not allowed for this account (FORBIDDEN): sub-accounts need the reseller role",
    example: { code: "FORBIDDEN", message: "Sub-accounts are for resellers: accept the reseller terms in Settings first." },
  },
  404: { text: "Not found, or not yours (NOT_FOUND)", example: { code: "NOT_FOUND", message: "Order not found." } },
  409: {
    text: "Price changed (PRICE_CHANGED, with price), wrong state (INVALID_STATE with status, CONFLICT), or the same Idempotency-Key still running",
    example: { code: "PRICE_CHANGED", message: "The price is ₦1450.00, above your max_price.", price: 1450 },
  },
  413: { text: "Request body over 32 KB (PAYLOAD_TOO_LARGE)", example: { code: "PAYLOAD_TOO_LARGE", message: "Request body is too large (limit 32 KB)." } },
  415: {
    text: "A body sent as anything but JSON (UNSUPPORTED_MEDIA_TYPE)",
    example: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the request body as JSON (Content-Type: application/json)." },
  },
  422: {
    text: "Idempotency-Key reused with another body, or not supported (UNPROCESSABLE)",
    example: { code: "UNPROCESSABLE", message: "This Idempotency-Key was already used with a different request. Use a new key for a new request." },
  },
  429: {
    text: "Rate limited (RATE_LIMITED, with retry_after and Retry-After)",
    example: { code: "RATE_LIMITED", message: "Too many attempts. Please try again in 1 minute.", retry_after: 42 },
  },
  502: { text: "Upstream unavailable (the money is back already)", example: { code: "UPSTREAM_UNAVAILABLE", message: "This provider is temporarily unavailable." } },
  503: { text: "No numbers in stock (NO_NUMBERS)", example: { code: "NO_NUMBERS", message: "No numbers available right now. Please try another service or country." } },
  504: {
    text: "Upstream timeout (the money is back already)",
    example: { code: "UPSTREAM_TIMEOUT", message: "The provider did not answer in time. Your money is back in your wallet." },
  },
};

/** The one error body for a status: its schema (429 with retry_after), its meaning, its example, Retry-After on 429. */
function errorAnswer(status: ErrorStatus) {
  const { text, example } = ERRORS[status];
  return {
    description: text,
    ...(status === 429 ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {}),
    content: { "application/json": { schema: status === 429 ? v1RateLimitedErrorSchema : v1ErrorSchema, example: { ...example, error: example.message } } },
  };
}
type ErrorAnswer = ReturnType<typeof errorAnswer>;

type Method = "get" | "post" | "put" | "delete";
type Request = NonNullable<RouteConfig["request"]>;

/** What a v1 definition says itself; its operationId and its error answers follow from it (`v1Route`). */
interface V1Definition<M extends Method, P extends string, Q extends Request, A extends z.ZodType, S extends 200 | 201> {
  method: M;
  path: P;
  summary: string;
  description?: string;
  request?: Q;
  answer: A;
  status?: S;
  /** Errors particular to this route; 401 and 429 (every route), 400 (a route that validates or a POST), 413 (any but
   * GET), 415 (a route with a body), 409 and 422 (every POST: its Idempotency-Key) are added. */
  errors?: ErrorStatus[];
}

/** The sub-app's mount point under /api/v1 (worker/routes/api-v1.ts), for the operationId of the whole path. */
type Resource = "" | "/sms/orders" | "/rentals" | "/webhook" | "/subaccounts" | "/withdrawals" | "/markups";

/**
 * A v1 definition: `createRoute` with the operationId generated clients name their methods by (get/post + the path in
 * words: postSmsOrdersIdCancel), the success answer (with Idempotent-Replayed on every POST) and the error answers,
 * each with the one error body's schema and an example.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Q's default: no request, nothing to validate
function v1Route<const M extends Method, const P extends string, A extends z.ZodType, const Q extends Request = {}, const S extends 200 | 201 = 200>(
  resource: Resource,
  definition: V1Definition<M, P, Q, A, S>,
) {
  const { method, path, summary, description, answer, errors = [] } = definition;
  // No request: nothing to validate ({} is Q's default).
  const request = (definition.request ?? {}) as Q;
  const status = (definition.status ?? 200) as S;
  const hasBody = request.body !== undefined;
  const validates = method === "post" || method === "put" || Object.keys(request).length > 0;
  const statuses = new Set<ErrorStatus>([401, 429, ...(validates ? [400 as const] : []), ...(hasBody ? [415 as const] : []), ...errors]);
  // A body over 32 KB is refused on any method that may carry one (app.ts bodyLimit); every POST's Idempotency-Key can
  // be reused with another body (422) or still be running (409: middleware/idempotency.ts).
  if (method !== "get") statuses.add(413);
  if (method === "post") for (const status of [409, 422] as const) statuses.add(status);
  const errorAnswers = Object.fromEntries([...statuses].sort((a, b) => a - b).map((s) => [s, errorAnswer(s)])) as Partial<Record<ErrorStatus, ErrorAnswer>>;
  const fullPath = `${resource}${path === "/" ? "" : path}` || "/";
  return createRoute({
    method,
    path,
    operationId: `${method}${fullPath.replace(/[{}]/g, "").replace(/(^|[/_-])(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}`,
    summary,
    ...(description ? { description } : {}),
    ...(method === "post" ? { parameters: [IDEMPOTENCY_KEY] } : {}),
    request,
    responses: {
      [status]: {
        description: "OK",
        ...(method === "post" ? { headers: { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } } } : {}),
        content: { "application/json": { schema: answer } },
      },
      ...errorAnswers,
    } as { [K in S]: { description: string; content: { "application/json": { schema: A } } } } & Partial<Record<ErrorStatus, ErrorAnswer>>,
  });
}

/** Every POST's Idempotency-Key (middleware/idempotency.ts reads it). */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: true,
  description: "Same key + same body: the first answer again (never a second charge); same key + another body: 422.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255, examples: ["5f0c6f7e-3b1a-4c2d-9e8f-1a2b3c4d5e6f"] },
};

// ---------------------------------------------------------------------------------------------------------------
// The account and the catalogue (mounted at /api/v1)

export const getBalance = v1Route("", { method: "get", path: "/balance", summary: "Your wallet balance (the test wallet for a sk_test_ key)", answer: v1BalanceSchema });

export const getCountries = v1Route("", {
  method: "get",
  path: "/countries",
  summary: "Countries a provider sells numbers from",
  request: { query: v1CountriesQuerySchema },
  answer: v1CountriesSchema,
});

export const getPrices = v1Route("", {
  method: "get",
  path: "/prices",
  summary: "Your prices (naira, your tier) and stock for one country",
  request: { query: v1PricesQuerySchema },
  answer: v1PricesSchema,
});

// ---------------------------------------------------------------------------------------------------------------
// SMS orders (mounted at /api/v1/sms/orders)

export const listSmsOrders = v1Route("/sms/orders", {
  method: "get",
  path: "/",
  summary: "Your orders, newest first, a page at a time (cursor paging; filter by status)",
  description: "Pass next_cursor as cursor for the next (older) page; it is null on the last page. A sk_test_ key sees its sandbox orders only.",
  request: { query: v1SmsOrdersQuerySchema },
  answer: v1SmsOrderListSchema,
});

export const buySms = v1Route("/sms/orders", {
  method: "post",
  path: "/",
  summary: "Buy a number to receive an SMS code",
  description:
    "The price is debited at once and refunded automatically if no code arrives, the upstream fails, or you cancel. With next_route, a number that gets no code is followed by the cheapest other route of the same service within your cap (each its own order; cancelling any of them cancels the chain).",
  request: { body: jsonBody(v1BuySmsSchema) },
  answer: v1SmsOrderSchema,
  status: 201,
  errors: [402, 409, 422, 502, 503, 504],
});

export const getSmsOrder = v1Route("/sms/orders", {
  method: "get",
  path: "/{id}",
  summary: "An order: its status and every code received",
  request: { params: v1IdParamSchema },
  answer: v1SmsOrderSchema,
  errors: [404],
});

export const cancelSmsOrder = v1Route("/sms/orders", {
  method: "post",
  path: "/{id}/cancel",
  summary: "Cancel before the code arrives (refunds the price; on a next_route order, cancels the chain)",
  request: { params: v1IdParamSchema },
  answer: v1SmsOrderSchema,
  errors: [404, 409, 502],
});

export const anotherSmsCode = v1Route("/sms/orders", {
  method: "post",
  path: "/{id}/another-code",
  summary: "Ask for another code on a number that already received one (free; USA numbers, within 10 minutes)",
  request: { params: v1IdParamSchema },
  answer: v1SmsOrderSchema,
  errors: [404, 409, 422, 502],
});

// ---------------------------------------------------------------------------------------------------------------
// Rentals (mounted at /api/v1/rentals)

export const listRentals = v1Route("/rentals", {
  method: "get",
  path: "/",
  summary: "Your rentals, newest first, a page at a time (cursor paging; filter by status)",
  description: "Pass next_cursor as cursor for the next (older) page; it is null on the last page.",
  request: { query: v1RentalsQuerySchema },
  answer: v1RentalListSchema,
});

export const getRentCountries = v1Route("/rentals", {
  method: "get",
  path: "/countries",
  summary: "Countries numbers can be rented in",
  answer: v1RentCountriesSchema,
  errors: [502, 504],
});

export const getRentQuote = v1Route("/rentals", {
  method: "get",
  path: "/quote",
  summary: "What renting would cost you now (naira, your tier), before paying",
  description: "The price POST /rentals charges now (with X-Subaccount: your customer's, your price plus your flat markup). No stock, or a price our price check refuses, is answered with price null, in_stock false and the reason.",
  request: { query: v1RentQuoteQuerySchema },
  answer: v1RentQuoteSchema,
  errors: [502, 504],
});

export const rent = v1Route("/rentals", {
  method: "post",
  path: "/",
  summary: "Rent a number for hours, days, weeks or months",
  request: { body: jsonBody(v1RentSchema) },
  answer: v1RentalSchema,
  status: 201,
  errors: [402, 409, 502, 503, 504],
});

export const getRental = v1Route("/rentals", {
  method: "get",
  path: "/{id}",
  summary: "A rental and its inbox (newest first)",
  request: { params: v1IdParamSchema },
  answer: v1RentalDetailSchema,
  errors: [404],
});

export const cancelRental = v1Route("/rentals", {
  method: "post",
  path: "/{id}/cancel",
  summary: "Cancel within 20 minutes if no SMS came (refunds)",
  request: { params: v1IdParamSchema },
  answer: v1RentalSchema,
  errors: [404, 409],
});

export const endRental = v1Route("/rentals", {
  method: "post",
  path: "/{id}/end",
  summary: "End a rental early (no refund)",
  request: { params: v1IdParamSchema },
  answer: v1RentalSchema,
  errors: [404, 409],
});

// ---------------------------------------------------------------------------------------------------------------
// The calling key's own webhook (mounted at /api/v1/webhook)

export const getWebhook = v1Route("/webhook", { method: "get", path: "/", summary: "This key's webhook URL and the events sent there", answer: v1WebhookSchema });

export const setWebhook = v1Route("/webhook", {
  method: "put",
  path: "/",
  summary: "Set this key's webhook URL",
  description: "https:// only (http:// is accepted only by a local deployment whose own address is http). Events are signed with the key's webhook secret, shown when the key was created.",
  request: { body: jsonBody(v1SetWebhookSchema) },
  answer: v1WebhookSchema,
  errors: [409],
});

export const deleteWebhook = v1Route("/webhook", {
  method: "delete",
  path: "/",
  summary: 'Remove this key\'s webhook URL (queued events then fail with "no webhook URL")',
  answer: v1WebhookSchema,
  errors: [409],
});

export const listWebhookDeliveries = v1Route("/webhook", {
  method: "get",
  path: "/deliveries",
  summary: "This key's delivery log: the last 100 events, newest first",
  answer: v1WebhookDeliveryListSchema,
});

export const resendWebhookDelivery = v1Route("/webhook", {
  method: "post",
  path: "/deliveries/{eventId}/resend",
  summary: "Deliver an event again (same id and body) with a fresh 24-hour retry budget",
  request: { params: v1WebhookEventIdParamSchema },
  answer: v1WebhookDeliverySchema,
  errors: [404, 409],
});

// ---------------------------------------------------------------------------------------------------------------
// Sub-accounts (mounted at /api/v1/subaccounts): a reseller's wallets for its own customers (issue 46)

const SUBACCOUNT_ID = { params: v1IdParamSchema };

export const listSubaccounts = v1Route("/subaccounts", {
  method: "get",
  path: "/",
  summary: "Your sub-accounts, newest first, with their balances (filter by external_id)",
  request: { query: v1SubaccountsQuerySchema },
  answer: v1SubaccountListSchema,
});

export const createSubaccount = v1Route("/subaccounts", {
  method: "post",
  path: "/",
  summary: "Open a sub-account: a wallet of its own for one of your customers",
  description: "Needs the reseller role (accept the reseller terms in Settings). A sk_test_ key opens sub-accounts of its sandbox wallet.",
  request: { body: jsonBody(v1CreateSubaccountSchema) },
  answer: v1SubaccountSchema,
  status: 201,
  errors: [403],
});

export const getSubaccount = v1Route("/subaccounts", { method: "get", path: "/{id}", summary: "A sub-account and its balance", request: SUBACCOUNT_ID, answer: v1SubaccountSchema, errors: [404] });

export const freezeSubaccount = v1Route("/subaccounts", {
  method: "post",
  path: "/{id}/freeze",
  summary: "Freeze: it buys and rents nothing until unfrozen (money can still move in and out)",
  request: SUBACCOUNT_ID,
  answer: v1SubaccountSchema,
  errors: [404],
});

export const unfreezeSubaccount = v1Route("/subaccounts", { method: "post", path: "/{id}/unfreeze", summary: "Unfreeze", request: SUBACCOUNT_ID, answer: v1SubaccountSchema, errors: [404] });

export const closeSubaccount = v1Route("/subaccounts", {
  method: "post",
  path: "/{id}/close",
  summary: "Close for good: its whole balance comes back to your wallet",
  description: "Refused (409 INVALID_STATE) while it has a number waiting for a code or a rental running.",
  request: SUBACCOUNT_ID,
  answer: v1SubaccountSchema,
  errors: [404],
});

export const transferToSubaccount = v1Route("/subaccounts", {
  method: "post",
  path: "/{id}/transfer-in",
  summary: "Move money from your wallet into the sub-account",
  description: "Exactly once per Idempotency-Key. Refused with nothing moved when your wallet holds less (402) or the sub-account is closed (409).",
  request: { ...SUBACCOUNT_ID, body: jsonBody(v1TransferSchema) },
  answer: v1SubaccountTransferSchema,
  status: 201,
  errors: [402, 404],
});

export const transferFromSubaccount = v1Route("/subaccounts", {
  method: "post",
  path: "/{id}/transfer-out",
  summary: "Move money from the sub-account back to your wallet",
  description: "Exactly once per Idempotency-Key. Refused with nothing moved when the sub-account holds less (402) or is closed (409).",
  request: { ...SUBACCOUNT_ID, body: jsonBody(v1TransferSchema) },
  answer: v1SubaccountTransferSchema,
  status: 201,
  errors: [402, 404],
});

export const listSubaccountTransfers = v1Route("/subaccounts", {
  method: "get",
  path: "/{id}/transfers",
  summary: "The sub-account's transfers, newest first",
  request: SUBACCOUNT_ID,
  answer: v1SubaccountTransferListSchema,
  errors: [404],
});

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals (mounted at /api/v1/withdrawals): cash out to your own bank account (issue 45, decision 071)

export const withdraw = v1Route("/withdrawals", {
  method: "post",
  path: "/",
  summary: "Withdraw to your payout account (the key needs the withdraw scope)",
  description:
    "Sends naira from your wallet to the bank account you added in Settings → Cash out (name-matched, after its 24-hour cooling period). The money is held at once; the answer is the withdrawal as it stands (usually paid; sending while the bank is slow; approval above the operator's threshold). Needs a live key its owner allowed to withdraw (Settings → API, with a passkey or two-factor code): 403 otherwise. Refused with nothing moved below the minimum, above the per-transaction or daily cap, above what may be withdrawn (422), during the cooling period or without a payout account (409). Exactly once per Idempotency-Key.",
  request: { body: jsonBody(v1WithdrawRequestSchema) },
  answer: v1WithdrawalSchema,
  status: 201,
  errors: [403, 409, 422],
});

export const getWithdrawal = v1Route("/withdrawals", {
  method: "get",
  path: "/{id}",
  summary: "A withdrawal and where it stands (one still sending is re-queried at the bank first)",
  request: { params: v1WithdrawalIdParamSchema },
  answer: v1WithdrawalSchema,
  errors: [404],
});

// ---------------------------------------------------------------------------------------------------------------
// Markups (mounted at /api/v1/markups): what a reseller's sub-accounts pay on top of its price (issue 46)

export const getMarkups = v1Route("/markups", {
  method: "get",
  path: "/",
  summary: "Your markups on your sub-accounts' purchases",
  description:
    "Needs the reseller role. GET /prices and POST /sms/orders with X-Subaccount answer and charge your price plus this markup (a next_route chain's further numbers the rate its first carried); the difference is your margin, credited when the order's code comes. GET /rentals/quote and POST /rentals with X-Subaccount carry the flat markup; a rental's margin is credited when it ends or expires, never for one cancelled for a refund.",
  answer: v1MarkupsSchema,
  errors: [403],
});

export const setMarkups = v1Route("/markups", {
  method: "put",
  path: "/",
  summary: "Set your markups (the flat one and every per-service one)",
  description: "Replaces every markup. Each is 0% or more and at most max_percent (an operator's setting): above it is 400, nothing changed.",
  request: { body: jsonBody(v1SetMarkupsSchema) },
  answer: v1MarkupsSchema,
  errors: [403],
});

// ---------------------------------------------------------------------------------------------------------------
// The document around the routes: its header, the two ways to send the key, the shared headers, the events

/** The document's fixed part; paths and their schemas come from the routes' registry (routes/api-v1.ts v1Document). */
export function v1DocumentConfig(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "VirtualNum developer API",
      version: "1.0.0",
      description:
        "Buy virtual numbers and receive SMS codes, priced in naira. sk_test_ keys run against the sandbox with a free test wallet; sk_live_ keys spend your wallet. The SMS-Activate protocol is also served at /stubs/handler_api.php.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
    // Either header carries the key (middleware/api-key.ts): Authorization: Bearer sk_... or X-API-Key: sk_...
    security: [{ bearerKey: [] }, { headerKey: [] }] as Record<string, string[]>[],
  };
}

/** Components the routes refer to by name (registered with the registry: routes/api-v1.ts). */
export const V1_COMPONENTS = {
  securitySchemes: {
    bearerKey: { type: "http" as const, scheme: "bearer", description: "Authorization: Bearer sk_live_... or sk_test_..." },
    headerKey: { type: "apiKey" as const, in: "header", name: "X-API-Key", description: "The same key in an X-API-Key header" },
  },
  headers: {
    RetryAfter: { description: "Seconds to wait before trying again (the body's retry_after)", schema: { type: "integer" as const, minimum: 0, examples: [42] } },
    IdempotentReplayed: {
      description: "true when this is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again)",
      schema: { type: "string" as const, enum: ["true"], examples: ["true"] },
    },
  },
};

/** The OpenAPI 3.1 `webhooks` section: one entry per event, its body the event's schema (docs/developer-api.md). */
export const V1_WEBHOOKS = Object.entries(v1WebhookEventSchemas).map(([type, schema]) => ({
  method: "post" as const,
  path: type,
  operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}`,
  summary: `The ${type} event`,
  description:
    "POSTed to the key's webhook URL, signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>); retried for 24 hours until a 2xx.",
  security: [],
  parameters: [
    { name: "webhook-id", in: "header" as const, required: true, description: "The event id (dedupe by it)", schema: { type: "string" as const, examples: ["evt_0f8fad5bd9cb469fa16570867728950e"] } },
    { name: "webhook-timestamp", in: "header" as const, required: true, description: "Unix seconds", schema: { type: "string" as const, examples: ["1795356339"] } },
    {
      name: "webhook-signature",
      in: "header" as const,
      required: true,
      description: "v1,<base64 HMAC-SHA256>",
      schema: { type: "string" as const, examples: ["v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="] },
    },
  ],
  request: { body: jsonBody(schema) },
  responses: {
    "2XX": { description: "Delivered: any 2xx within 10 seconds" },
    "4XX": { description: "Not delivered: retried (after 1, 5, 15, 30 minutes, then 1, 2, 4, 8, 8 hours)" },
  },
}));
