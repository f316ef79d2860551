import { $, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { koboToNaira } from "../../schema/money";
import { getDb } from "../db/client";
import * as v1 from "../contract/api-v1";
import { requireApiKey } from "../middleware/api-key";
import { requireIdempotencyKey } from "../middleware/idempotency";
import { anotherCodeV1, buySmsV1, cancelRentalV1, cancelSmsOrderV1, countriesV1, endRentalV1, listRentalsV1, listSmsOrdersV1, pricesV1, rentalV1, rentCountriesV1, rentQuoteV1, rentV1, resendWebhookV1, scopesOf, setWebhookV1, smsOrderV1, webhookDeliveriesV1, webhookV1 } from "../services/developer";
import { rentalWithInbox } from "../services/rent";
import { deliverEvents } from "../services/kernel";
import { closeSubaccount, createSubaccount, getMarkups, getSubaccount, listSubaccounts, listSubaccountTransfers, setMarkups, setSubaccountFrozen, transferSubaccount } from "../services/resellers";
import { actAsSubaccount } from "../middleware/subaccount";
import { nairaToKobo } from "../../schema/money";
import { nowOf, paymentDepsOf, rentalDepsOf, smsDepsOf } from "./flow-deps";
import { requestWithdrawal, toV1Withdrawal, withdrawalView } from "../services/funding";
import { routeApp, type RouteApp } from "./route-app";

/**
 * The JSON developer API (docs/developer-api.md): one chained sub-app per resource, mounted below, each route attached
 * to its definition in worker/contract/api-v1.ts. Every route acts as the API key's account on the web's services;
 * every POST carries an Idempotency-Key. The document at /api/v1/openapi.json is generated from these routes'
 * definitions (`v1Document`), so a route served is a route documented, with the schemas it validates and answers.
 */

const account: RouteApp = routeApp().openapi(v1.getBalance, (c) =>
  c.json({ balance: koboToNaira(c.var.user.balanceKobo), currency: "NGN" as const, mode: c.var.apiCaller.key.mode }, 200),
);

const catalogue: RouteApp = routeApp()
  .openapi(v1.getCountries, async (c) => c.json(await countriesV1(c.var.services, c.var.user.id, c.req.valid("query").provider), 200))
  .openapi(v1.getPrices, async (c) => c.json(await pricesV1(smsDepsOf(c), c.var.user, c.req.valid("query")), 200));

const smsOrders: RouteApp = routeApp()
  .openapi(v1.listSmsOrders, async (c) => c.json(await listSmsOrdersV1(smsDepsOf(c), c.var.user.id, c.req.valid("query")), 200))
  .openapi(v1.buySms, async (c) => c.json(await buySmsV1(smsDepsOf(c), { key: c.var.apiCaller.key, user: c.var.user }, c.req.valid("json")), 201))
  .openapi(v1.getSmsOrder, async (c) => c.json(await smsOrderV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id), 200))
  .openapi(v1.cancelSmsOrder, async (c) => c.json(await cancelSmsOrderV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id), 200))
  .openapi(v1.anotherSmsCode, async (c) => c.json(await anotherCodeV1(smsDepsOf(c), c.var.user.id, c.req.valid("param").id), 200));

const rentals: RouteApp = routeApp()
  .openapi(v1.listRentals, async (c) => c.json(await listRentalsV1(rentalDepsOf(c), c.var.user.id, c.req.valid("query")), 200))
  .openapi(v1.getRentCountries, async (c) => c.json(await rentCountriesV1(rentalDepsOf(c), c.var.user.id), 200))
  .openapi(v1.getRentQuote, async (c) => c.json(await rentQuoteV1(rentalDepsOf(c), c.var.user, c.req.valid("query")), 200))
  .openapi(v1.rent, async (c) => c.json(await rentV1(rentalDepsOf(c), { key: c.var.apiCaller.key, user: c.var.user }, c.req.valid("json")), 201))
  .openapi(v1.getRental, async (c) => {
    const detail = await rentalWithInbox(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id);
    return c.json({ ...detail, rental: rentalV1(detail.rental, c.var.user.id) }, 200);
  })
  .openapi(v1.cancelRental, async (c) => c.json(await cancelRentalV1(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id), 200))
  .openapi(v1.endRental, async (c) => c.json(await endRentalV1(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id), 200));

/**
 * A reseller's sub-accounts (issue 46): always of the acting account (the key's, or a test key's sandbox account), so
 * another reseller's are 404. A transfer is made once per Idempotency-Key (the request's own).
 */
/** The reseller's markups: the key's owner's (a test key's too), never a sub-account's. */
const markups: RouteApp = routeApp()
  .openapi(v1.getMarkups, async (c) => c.json(await getMarkups(getDb(c.env.DB), c.var.apiCaller.key.userId), 200))
  .openapi(v1.setMarkups, async (c) => c.json(await setMarkups(getDb(c.env.DB), c.var.apiCaller.key.userId, c.req.valid("json")), 200));

const subaccounts: RouteApp = routeApp()
  .openapi(v1.listSubaccounts, async (c) => c.json(await listSubaccounts(getDb(c.env.DB), c.var.user.id, c.req.valid("query")), 200))
  .openapi(v1.createSubaccount, async (c) => c.json(await told(c, await createSubaccount(getDb(c.env.DB), c.var.apiCaller.key.userId, c.var.user.id, c.req.valid("json"), nowOf(c))), 201))
  .openapi(v1.getSubaccount, async (c) => c.json(await getSubaccount(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id), 200))
  .openapi(v1.freezeSubaccount, async (c) => c.json(await told(c, await setSubaccountFrozen(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, true, nowOf(c))), 200))
  .openapi(v1.unfreezeSubaccount, async (c) => c.json(await told(c, await setSubaccountFrozen(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, false, nowOf(c))), 200))
  .openapi(v1.closeSubaccount, async (c) => c.json(await told(c, await closeSubaccount(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, nowOf(c))), 200))
  .openapi(v1.transferToSubaccount, async (c) => c.json(await transferOf(c, "in", c.req.valid("param").id, c.req.valid("json").amount), 201))
  .openapi(v1.transferFromSubaccount, async (c) => c.json(await transferOf(c, "out", c.req.valid("param").id, c.req.valid("json").amount), 201))
  .openapi(v1.listSubaccountTransfers, async (c) => c.json({ data: await listSubaccountTransfers(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id) }, 200));

/**
 * Delivers the events the change just wrote (the reseller's `subaccount.*`, each wallet's `balance.changed`) before
 * answering, as every flow does right after its batch; never throws (what is left, the outbox sweep delivers).
 */
async function told<T extends { id: string } | { subaccount_id: string }>(c: Context<AppEnv>, answer: T): Promise<T> {
  await deliverEvents(c.var.services.events, c.var.user.id);
  await deliverEvents(c.var.services.events, "subaccount_id" in answer ? answer.subaccount_id : answer.id);
  return answer;
}

/** A transfer under the request's Idempotency-Key (requireIdempotencyKey has checked it is there). */
async function transferOf(c: Context<AppEnv>, direction: "in" | "out", id: string, amount: number) {
  const idempotencyKey = c.req.header("idempotency-key")?.trim() ?? "";
  return told(c, await transferSubaccount(getDb(c.env.DB), c.var.user.id, id, { direction, amountKobo: nairaToKobo(amount), idempotencyKey }, nowOf(c)));
}

/**
 * Cash out (issue 45): the key's scope "withdraw" stands in for the web's step-up; the acting account's own wallet
 * only (a sub-account's is 403), another account's withdrawal is 404. Once per Idempotency-Key (the middleware).
 */
const withdrawals: RouteApp = routeApp()
  .openapi(v1.withdraw, async (c) => {
    const key = c.var.apiCaller.key;
    const caller = { apiKey: { userId: c.var.user.id, actingUserId: key.actingUserId, scopes: scopesOf(key.scopes) } };
    return c.json(toV1Withdrawal(await requestWithdrawal(paymentDepsOf(c), caller, c.req.valid("json").amount)), 201);
  })
  .openapi(v1.getWithdrawal, async (c) => c.json(toV1Withdrawal(await withdrawalView(paymentDepsOf(c), c.var.user.id, c.req.valid("param").id)), 200));

/** The calling key's own webhook: its URL (the console's rules), its delivery log, and resend. */
const webhook: RouteApp = routeApp()
  .openapi(v1.getWebhook, (c) => c.json(webhookV1(c.var.apiCaller), 200))
  .openapi(v1.setWebhook, async (c) => c.json(await setWebhookV1(c.env, c.var.apiCaller, c.req.valid("json").url, nowOf(c)), 200))
  .openapi(v1.deleteWebhook, async (c) => c.json(await setWebhookV1(c.env, c.var.apiCaller, null, nowOf(c)), 200))
  .openapi(v1.listWebhookDeliveries, async (c) => c.json(await webhookDeliveriesV1(getDb(c.env.DB), c.var.apiCaller), 200))
  .openapi(v1.resendWebhookDelivery, async (c) => c.json(await resendWebhookV1(c.env, c.var.apiCaller, c.req.valid("param").eventId, nowOf(c)), 200));

export const apiV1Routes: RouteApp = $(
  routeApp()
    .get("/openapi.json", (c) => c.json(v1Document(c.var.config.publicUrl)))
    .use("*", async (c, next) => (new URL(c.req.url).pathname.endsWith("/openapi.json") ? next() : requireApiKey(c, next)))
    .use("*", async (c, next) => (c.req.method === "POST" ? requireIdempotencyKey(c, next) : next()))
    .use("*", async (c, next) => (new URL(c.req.url).pathname.endsWith("/openapi.json") ? next() : actAsSubaccount(c, next))),
)
  .route("/", account)
  .route("/", catalogue)
  .route("/sms/orders", smsOrders)
  .route("/rentals", rentals)
  .route("/webhook", webhook)
  .route("/subaccounts", subaccounts)
  .route("/withdrawals", withdrawals)
  .route("/markups", markups);

for (const [name, scheme] of Object.entries(v1.V1_COMPONENTS.securitySchemes)) apiV1Routes.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
for (const [name, header] of Object.entries(v1.V1_COMPONENTS.headers)) apiV1Routes.openAPIRegistry.registerComponent("headers", name, header);
for (const webhookDefinition of v1.V1_WEBHOOKS) apiV1Routes.openAPIRegistry.registerWebhook(webhookDefinition);

/** The OpenAPI 3.1 document of every route above (generated when asked, from the routes themselves), served at serverUrl. */
export function v1Document(serverUrl: string): ReturnType<OpenAPIHono["getOpenAPI31Document"]> {
  return apiV1Routes.getOpenAPI31Document(v1.v1DocumentConfig(serverUrl));
}
