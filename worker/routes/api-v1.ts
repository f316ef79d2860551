import { Hono } from "hono";
import {
  v1BalanceSchema,
  v1BuySmsSchema,
  v1CountriesQuerySchema,
  v1CountriesSchema,
  v1ErrorSchema,
  v1IdParamSchema,
  v1PricesQuerySchema,
  v1PricesSchema,
  v1RentalDetailSchema,
  v1RentalSchema,
  v1RentSchema,
  v1SmsOrderSchema,
} from "../../schema/api-v1";
import { koboToNaira, nairaToKobo } from "../../schema/money";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { RENT_PRICE_REFUSED_MESSAGE } from "../../schema/rentals";
import { AppError } from "../lib/errors";
import { OpenApiRegistry } from "../lib/openapi";
import { validate } from "../lib/validate";
import { requireApiKey } from "../middleware/api-key";
import { requireIdempotencyKey } from "../middleware/idempotency";
import { smsOrderV1, smsQuoteKobo } from "../services/api-v1";
import { checkRentalNow } from "../services/rental-inbox";
import { rentalDeps, type RentalDeps } from "../services/deps";
import { ownedRental, rentalMessagesOf, rentalView } from "../services/rental-views";
import { cancelRental, endRental, quoteRental, rentNumber } from "../services/rentals";
import { isSandboxUser, providerModeFor, envForUser } from "../services/sandbox-accounts";
import { smsCountries, smsOffers } from "../services/sms-catalogue";
import { pricingContext, smsPriceKobo } from "../services/pricing";
import { buySmsNumber, cancelSmsOrder, requestAnotherCode } from "../services/sms-orders";
import { smsDeps } from "./sms";

/**
 * The JSON developer API (docs/developer-api.md). Every route acts as the API key's account on the web's services;
 * every POST carries an Idempotency-Key. Each route is declared next to its OpenAPI entry (`openapi.add`), and the
 * document at /api/v1/openapi.json is generated from the same zod schemas the route validates with.
 */
export const apiV1Routes = new Hono<AppEnv>();
export const openapi = new OpenApiRegistry(v1ErrorSchema);

apiV1Routes.get("/openapi.json", (c) =>
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
);

apiV1Routes.use("*", async (c, next) => (new URL(c.req.url).pathname.endsWith("/openapi.json") ? next() : requireApiKey(c, next)));
apiV1Routes.use("*", async (c, next) => (c.req.method === "POST" ? requireIdempotencyKey(c, next) : next()));

const rentDeps = (c: { env: AppEnv["Bindings"]; var: AppEnv["Variables"] }): RentalDeps =>
  rentalDeps(c.env, { providers: providerModeFor(c.var.config.providers, c.var.user.id) });

openapi.add({ method: "get", path: "/balance", summary: "Your wallet balance (the test wallet for a sk_test_ key)", response: v1BalanceSchema });
apiV1Routes.get("/balance", (c) =>
  c.json({ balance: koboToNaira(c.var.user.balanceKobo), currency: "NGN" as const, mode: c.var.apiCaller.key.mode }),
);

openapi.add({ method: "get", path: "/countries", summary: "Countries a provider sells numbers from", query: v1CountriesQuerySchema, response: v1CountriesSchema });
apiV1Routes.get("/countries", validate("query", v1CountriesQuerySchema), async (c) => {
  const list = await smsCountries(envForUser(c.env, c.var.user.id), c.req.valid("query").provider);
  return c.json({ data: list.map((x) => ({ id: x.id, title: x.title })) });
});

openapi.add({ method: "get", path: "/prices", summary: "Your prices (naira, your tier) and stock for one country", query: v1PricesQuerySchema, response: v1PricesSchema, errors: [400] });
apiV1Routes.get("/prices", validate("query", v1PricesQuerySchema), async (c) => {
  const { provider, country } = c.req.valid("query");
  const offers = await smsOffers(envForUser(c.env, c.var.user.id), provider, country);
  const ctx = await pricingContext(getDb(c.env.DB), c.var.user.totalDepositedKobo);
  return c.json({ data: offers.map((o) => ({ service: o.serviceId, name: o.name, price: koboToNaira(smsPriceKobo(o.costUsd, ctx)), count: o.count })) });
});

openapi.add({
  method: "post",
  path: "/sms/orders",
  summary: "Buy a number to receive an SMS code",
  description:
    "The price is debited at once and refunded automatically if no code arrives, the upstream fails, or you cancel. With next_route, a number that gets no code is followed by the cheapest other route of the same service within your cap (each its own order; cancelling any of them cancels the chain).",
  body: v1BuySmsSchema,
  response: v1SmsOrderSchema,
  status: 201,
  errors: [400, 402, 409, 422, 502, 503, 504],
});
apiV1Routes.post("/sms/orders", validate("json", v1BuySmsSchema), async (c) => {
  const body = c.req.valid("json");
  const deps = smsDeps(c);
  const quote = await smsQuoteKobo(deps, c.var.user, body.provider, body.country, body.service);
  if (body.max_price !== undefined && quote > nairaToKobo(body.max_price)) {
    throw new AppError("PRICE_CHANGED", `The price is ₦${koboToNaira(quote).toFixed(2)}, above your max_price.`, { price: koboToNaira(quote) });
  }
  const bought = await buySmsNumber(deps, c.var.user, {
    provider: body.provider,
    country: body.country,
    service: body.service,
    price: koboToNaira(quote),
    ...(body.next_route ? { next_route: body.next_route } : {}),
  });
  return c.json(await smsOrderV1(deps, c.var.user.id, bought.phone.request_id), 201);
});

openapi.add({ method: "get", path: "/sms/orders/{id}", summary: "An order: its status and every code received", params: v1IdParamSchema, response: v1SmsOrderSchema, errors: [404] });
apiV1Routes.get("/sms/orders/:id", validate("param", v1IdParamSchema), async (c) => {
  return c.json(await smsOrderV1(smsDeps(c), c.var.user.id, c.req.valid("param").id));
});

openapi.add({ method: "post", path: "/sms/orders/{id}/cancel", summary: "Cancel before the code arrives (refunds the price; on a next_route order, cancels the chain)", params: v1IdParamSchema, response: v1SmsOrderSchema, errors: [404, 409, 502] });
apiV1Routes.post("/sms/orders/:id/cancel", validate("param", v1IdParamSchema), async (c) => {
  const { id } = c.req.valid("param");
  const deps = smsDeps(c);
  await cancelSmsOrder(deps, c.var.user.id, id);
  return c.json(await smsOrderV1(deps, c.var.user.id, id));
});

openapi.add({
  method: "post",
  path: "/sms/orders/{id}/another-code",
  summary: "Ask for another code on a number that already received one (free; USA numbers, within 10 minutes)",
  params: v1IdParamSchema,
  response: v1SmsOrderSchema,
  errors: [404, 409, 422, 502],
});
apiV1Routes.post("/sms/orders/:id/another-code", validate("param", v1IdParamSchema), async (c) => {
  const { id } = c.req.valid("param");
  const deps = smsDeps(c);
  await requestAnotherCode(deps, c.var.user.id, id);
  return c.json(await smsOrderV1(deps, c.var.user.id, id));
});

openapi.add({
  method: "post",
  path: "/rentals",
  summary: "Rent a number for hours, days, weeks or months",
  body: v1RentSchema,
  response: v1RentalSchema,
  status: 201,
  errors: [400, 402, 409, 502, 503, 504],
});
apiV1Routes.post("/rentals", validate("json", v1RentSchema), async (c) => {
  const body = c.req.valid("json");
  const deps = rentDeps(c);
  const choice = { countryId: body.country, unit: body.duration, period: body.period };
  const quote = await quoteRental(deps, c.var.user.totalDepositedKobo, choice, { history: !isSandboxUser(c.var.user.id) });
  if (quote.refused) throw new AppError("CONFLICT", RENT_PRICE_REFUSED_MESSAGE);
  if (quote.priceKobo === null) throw new AppError("NO_NUMBERS", "No stock available for the selected duration");
  if (body.max_price !== undefined && quote.priceKobo > nairaToKobo(body.max_price)) {
    throw new AppError("PRICE_CHANGED", `The price is ₦${koboToNaira(quote.priceKobo).toFixed(2)}, above your max_price.`, {
      price: koboToNaira(quote.priceKobo),
    });
  }
  const row = await rentNumber(deps, c.var.user, { ...choice, clientPrice: koboToNaira(quote.priceKobo) });
  return c.json(rentalView(row), 201);
});

openapi.add({ method: "get", path: "/rentals/{id}", summary: "A rental and its inbox (newest first)", params: v1IdParamSchema, response: v1RentalDetailSchema, errors: [404] });
apiV1Routes.get("/rentals/:id", validate("param", v1IdParamSchema), async (c) => {
  const { id } = c.req.valid("param");
  const deps = rentDeps(c);
  const before = await ownedRental(deps.db, c.var.user.id, id);
  if (before.status === "active") await checkRentalNow(c.env, id);
  const row = before.status === "active" ? await ownedRental(deps.db, c.var.user.id, id) : before;
  return c.json({ rental: rentalView(row), messages: await rentalMessagesOf(deps.db, id) });
});

openapi.add({ method: "post", path: "/rentals/{id}/cancel", summary: "Cancel within 20 minutes if no SMS came (refunds)", params: v1IdParamSchema, response: v1RentalSchema, errors: [404, 409] });
apiV1Routes.post("/rentals/:id/cancel", validate("param", v1IdParamSchema), async (c) => {
  const { rental } = await cancelRental(rentDeps(c), c.var.user.id, c.req.valid("param").id);
  return c.json(rentalView(rental));
});

openapi.add({ method: "post", path: "/rentals/{id}/end", summary: "End a rental early (no refund)", params: v1IdParamSchema, response: v1RentalSchema, errors: [404, 409] });
apiV1Routes.post("/rentals/:id/end", validate("param", v1IdParamSchema), async (c) => {
  return c.json(rentalView(await endRental(rentDeps(c), c.var.user.id, c.req.valid("param").id)));
});
