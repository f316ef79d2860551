import { Hono } from "hono";
import {
  v1BalanceSchema,
  v1BuySmsSchema,
  v1ConflictErrorSchema,
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
} from "../../schema/api-v1";
import { koboToNaira } from "../../schema/money";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { describeRoute, OpenApiRegistry } from "../lib/openapi";
import { validate } from "../lib/validate";
import { requireApiKey } from "../middleware/api-key";
import { requireIdempotencyKey } from "../middleware/idempotency";
import { anotherCodeV1, buySmsV1, cancelRentalV1, cancelSmsOrderV1, countriesV1, endRentalV1, listRentalsV1, listSmsOrdersV1, pricesV1, rentCountriesV1, rentQuoteV1, rentV1, resendWebhookV1, setWebhookV1, smsOrderV1, webhookDeliveriesV1, webhookV1 } from "../services/developer";
import { rentalWithInbox } from "../services/rent";
import { nowOf, rentalDepsOf, smsDepsOf } from "./flow-deps";

/**
 * The JSON developer API (docs/developer-api.md): one chained sub-app per resource, mounted below. Every route acts as
 * the API key's account on the web's services; every POST carries an Idempotency-Key. Each route describes itself
 * (`describeRoute`), and the document at /api/v1/openapi.json is read from these routes: method and path from the
 * route, query, path and body from its `validate()` schemas (lib/openapi.ts, docs/decisions/029).
 */


const account = new Hono<AppEnv>().get(
  "/balance",
  describeRoute({ summary: "Your wallet balance (the test wallet for a sk_test_ key)", response: v1BalanceSchema }),
  (c) => c.json({ balance: koboToNaira(c.var.user.balanceKobo), currency: "NGN" as const, mode: c.var.apiCaller.key.mode }),
);

const catalogue = new Hono<AppEnv>()
  .get(
    "/countries",
    describeRoute({ summary: "Countries a provider sells numbers from", response: v1CountriesSchema }),
    validate("query", v1CountriesQuerySchema),
    async (c) => c.json(await countriesV1(c.var.services, c.var.user.id, c.req.valid("query").provider)),
  )
  .get(
    "/prices",
    describeRoute({ summary: "Your prices (naira, your tier) and stock for one country", response: v1PricesSchema, errors: [400] }),
    validate("query", v1PricesQuerySchema),
    async (c) => c.json(await pricesV1(smsDepsOf(c), c.var.user, c.req.valid("query"))),
  );

const smsOrders = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      summary: "Your orders, newest first, a page at a time (cursor paging; filter by status)",
      description: "Pass next_cursor as cursor for the next (older) page; it is null on the last page. A sk_test_ key sees its sandbox orders only.",
      response: v1SmsOrderListSchema,
    }),
    validate("query", v1SmsOrdersQuerySchema),
    async (c) => c.json(await listSmsOrdersV1(smsDepsOf(c), c.var.user.id, c.req.valid("query"))),
  )
  .post(
    "/",
    describeRoute({
      summary: "Buy a number to receive an SMS code",
      description:
        "The price is debited at once and refunded automatically if no code arrives, the upstream fails, or you cancel. With next_route, a number that gets no code is followed by the cheapest other route of the same service within your cap (each its own order; cancelling any of them cancels the chain).",
      response: v1SmsOrderSchema,
      status: 201,
      errors: [400, 402, 409, 422, 502, 503, 504],
    }),
    validate("json", v1BuySmsSchema),
    async (c) => c.json(await buySmsV1(smsDepsOf(c), c.var.user, c.req.valid("json")), 201),
  )
  .get(
    "/:id",
    describeRoute({ summary: "An order: its status and every code received", response: v1SmsOrderSchema, errors: [404] }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await smsOrderV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  )
  .post(
    "/:id/cancel",
    describeRoute({
      summary: "Cancel before the code arrives (refunds the price; on a next_route order, cancels the chain)",
      response: v1SmsOrderSchema,
      errors: [404, 409, 502],
    }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await cancelSmsOrderV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  )
  .post(
    "/:id/another-code",
    describeRoute({
      summary: "Ask for another code on a number that already received one (free; USA numbers, within 10 minutes)",
      response: v1SmsOrderSchema,
      errors: [404, 409, 422, 502],
    }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await anotherCodeV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  );

const rentals = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      summary: "Your rentals, newest first, a page at a time (cursor paging; filter by status)",
      description: "Pass next_cursor as cursor for the next (older) page; it is null on the last page.",
      response: v1RentalListSchema,
    }),
    validate("query", v1RentalsQuerySchema),
    async (c) => c.json(await listRentalsV1(rentalDepsOf(c), c.var.user.id, c.req.valid("query"))),
  )
  .get(
    "/countries",
    describeRoute({ summary: "Countries numbers can be rented in", response: v1RentCountriesSchema, errors: [502, 504] }),
    async (c) => c.json(await rentCountriesV1(rentalDepsOf(c), c.var.user.id)),
  )
  .get(
    "/quote",
    describeRoute({
      summary: "What renting would cost you now (naira, your tier), before paying",
      description: "The price POST /rentals charges now. No stock, or a price our price check refuses, is answered with price null, in_stock false and the reason.",
      response: v1RentQuoteSchema,
      errors: [502, 504],
    }),
    validate("query", v1RentQuoteQuerySchema),
    async (c) => c.json(await rentQuoteV1(rentalDepsOf(c), c.var.user, c.req.valid("query"))),
  )
  .post(
    "/",
    describeRoute({
      summary: "Rent a number for hours, days, weeks or months",
      response: v1RentalSchema,
      status: 201,
      errors: [400, 402, 409, 502, 503, 504],
    }),
    validate("json", v1RentSchema),
    async (c) => c.json(await rentV1(rentalDepsOf(c), c.var.user, c.req.valid("json")), 201),
  )
  .get(
    "/:id",
    describeRoute({ summary: "A rental and its inbox (newest first)", response: v1RentalDetailSchema, errors: [404] }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await rentalWithInbox(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  )
  .post(
    "/:id/cancel",
    describeRoute({ summary: "Cancel within 20 minutes if no SMS came (refunds)", response: v1RentalSchema, errors: [404, 409] }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await cancelRentalV1(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  )
  .post(
    "/:id/end",
    describeRoute({ summary: "End a rental early (no refund)", response: v1RentalSchema, errors: [404, 409] }),
    validate("param", v1IdParamSchema),
    async (c) => c.json(await endRentalV1(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id)),
  );

/** The calling key's own webhook: its URL (the console's rules), its delivery log, and resend. */
const webhook = new Hono<AppEnv>()
  .get("/", describeRoute({ summary: "This key's webhook URL and the events sent there", response: v1WebhookSchema }), (c) => c.json(webhookV1(c.var.apiCaller)))
  .put(
    "/",
    describeRoute({
      summary: "Set this key's webhook URL",
      description: "https:// only (http:// is accepted only by a local deployment whose own address is http). Events are signed with the key's webhook secret, shown when the key was created.",
      response: v1WebhookSchema,
      errors: [409],
    }),
    validate("json", v1SetWebhookSchema),
    async (c) => c.json(await setWebhookV1(c.env, c.var.apiCaller, c.req.valid("json").url, nowOf(c))),
  )
  .delete(
    "/",
    describeRoute({ summary: "Remove this key's webhook URL (queued events then fail with \"no webhook URL\")", response: v1WebhookSchema, errors: [409] }),
    async (c) => c.json(await setWebhookV1(c.env, c.var.apiCaller, null, nowOf(c))),
  )
  .get(
    "/deliveries",
    describeRoute({ summary: "This key's delivery log: the last 100 events, newest first", response: v1WebhookDeliveryListSchema }),
    async (c) => c.json(await webhookDeliveriesV1(getDb(c.env.DB), c.var.apiCaller)),
  )
  .post(
    "/deliveries/:eventId/resend",
    describeRoute({
      summary: "Deliver an event again (same id and body) with a fresh 24-hour retry budget",
      response: v1WebhookDeliverySchema,
      errors: [404, 409],
    }),
    validate("param", v1WebhookEventIdParamSchema),
    async (c) => c.json(await resendWebhookV1(c.env, c.var.apiCaller, c.req.valid("param").eventId, Date.now())),
  );

export const apiV1Routes = new Hono<AppEnv>()
  .get("/openapi.json", (c) =>
    c.json(
      openapi.document(
        {
          title: "VirtualNum developer API",
          version: "1.0.0",
          description:
            "Buy virtual numbers and receive SMS codes, priced in naira. sk_test_ keys run against the sandbox with a free test wallet; sk_live_ keys spend your wallet. The SMS-Activate protocol is also served at /stubs/handler_api.php.",
        },
        `${c.var.config.publicUrl}/api/v1`,
      ),
    ),
  )
  .use("*", async (c, next) => (new URL(c.req.url).pathname.endsWith("/openapi.json") ? next() : requireApiKey(c, next)))
  .use("*", async (c, next) => (c.req.method === "POST" ? requireIdempotencyKey(c, next) : next()))
  .route("/", account)
  .route("/", catalogue)
  .route("/sms/orders", smsOrders)
  .route("/rentals", rentals)
  .route("/webhook", webhook);

/** The document of every described route above, in their order (read when asked, so it is never a copy). */
export const openapi: OpenApiRegistry = new OpenApiRegistry(
  { error: v1ErrorSchema, conflict: v1ConflictErrorSchema, rateLimited: v1RateLimitedErrorSchema },
  () => apiV1Routes.routes,
  v1WebhookEventSchemas,
);
