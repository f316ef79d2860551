import { Hono } from "hono";
import { smsCompareQuerySchema, smsCountriesQuerySchema, smsFavouriteSchema, smsGetNumberSchema, smsGetNumbersSchema, smsOrderRefSchema, smsPriceQuerySchema, smsPublicPricesQuerySchema, smsUseAgainSchema } from "../../schema/sms";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { edgeCached } from "../lib/edge-cache";
import { validate } from "../lib/validate";
import { optionalAuth, requireAuth } from "../middleware/auth";
import { buySmsNumber, buySmsNumbers, cancelSmsOrder, checkSmsOrderNow, compareRoutes, finishSmsOrder, listFavourites, providerSellingCountry, publicPriceList, requestAnotherCode, setFavourite, smsCountries, smsCountriesOfAll, smsHoldTime, smsOrderStatus, smsPriceList, smsRefundState, useAgainQuote, useNumberAgain } from "../services/sms";
import { nowOf, smsDepsOf } from "./flow-deps";

/** How long the public price page's answer is kept at the edge and in the browser. */
export const PUBLIC_PRICES_CACHE_SECONDS = 60;

export const smsRoutes = new Hono<AppEnv>()
  .get("/sms/countries", validate("query", smsCountriesQuerySchema), async (c) => {
    const { provider } = c.req.valid("query");
    const countries = provider ? await smsCountries(c.var.services, provider) : await smsCountriesOfAll(c.var.services);
    return c.json(countries.map((country) => ({ id: country.id, title: country.title })));
  })

  /**
   * Prices are the customer's own (discount tier), so a signed-in call is priced for its user; without a token the
   * list shows the starter tier's prices. A token that is sent must be valid.
   */
  .get("/sms/price", optionalAuth, validate("query", smsPriceQuerySchema), async (c) => {
    const { id: countryId, provider } = c.req.valid("query");
    const seller = provider ?? (await providerSellingCountry(c.var.services, countryId));
    return c.json(await smsPriceList(c.var.services, seller, countryId, c.var.viewer?.totalDepositedKobo ?? 0));
  })

  /**
   * The public price page (issue 28): the starter tier's prices and stock for one provider and country, the same for
   * every visitor (a token is ignored), cached at the edge for a minute (lib/edge-cache.ts).
   */
  .get("/sms/public-prices", validate("query", smsPublicPricesQuerySchema), edgeCached(PUBLIC_PRICES_CACHE_SECONDS), async (c) => {
    const { provider, country } = c.req.valid("query");
    return c.json(await publicPriceList(c.var.services, provider, country, Date.now()));
  })

  .post("/sms/get-number", requireAuth, validate("json", smsGetNumberSchema), async (c) => {
    return c.json(await buySmsNumber(smsDepsOf(c), c.var.user, c.req.valid("json"), { serviceByName: true }));
  })

  // Several numbers (1-5) for one service, each its own order: docs/api.md "Several numbers at once".
  .post("/sms/get-numbers", requireAuth, validate("json", smsGetNumbersSchema), async (c) => {
    return c.json(await buySmsNumbers(smsDepsOf(c), c.var.user, c.req.valid("json"), { serviceByName: true }));
  })

  // Favourites: starred services, per customer, on the server so every device shows the same.
  .get("/sms/favourites", requireAuth, async (c) => c.json(await listFavourites(getDb(c.env.DB), c.var.user.id)))

  .put("/sms/favourites", requireAuth, validate("json", smsFavouriteSchema), async (c) => {
    const { provider, service_id, starred } = c.req.valid("json");
    return c.json(await setFavourite(getDb(c.env.DB), c.var.user.id, provider, service_id, starred, nowOf(c)));
  })

  // Every provider and country selling one service, with our own last-7-days outcomes above a minimum sample.
  .get("/sms/compare", requireAuth, validate("query", smsCompareQuerySchema), async (c) => {
    const { provider, service } = c.req.valid("query");
    return c.json(await compareRoutes(c.var.services, c.var.user, provider, service, nowOf(c)));
  })

  // Public, like the prices: how long a number waits for its code before the refund, said before purchase (issue 28).
  .get("/sms/hold-time", async (c) => c.json(await smsHoldTime(getDb(c.env.DB))))

  .get("/sms/status/:request_id", requireAuth, validate("param", smsOrderRefSchema), async (c) => {
    return c.json(await smsOrderStatus(smsDepsOf(c), c.var.user.id, c.req.valid("param").request_id));
  })

  // "Check Now" (the spec's original client; not in SPEC 7): the caller's own order, asked of the upstream now.
  .post("/sms/check/:request_id", requireAuth, validate("param", smsOrderRefSchema), async (c) => {
    return c.json(await checkSmsOrderNow(smsDepsOf(c), c.var.user.id, c.req.valid("param").request_id));
  })

  .post("/sms/cancel", requireAuth, validate("json", smsOrderRefSchema), async (c) => {
    return c.json(await cancelSmsOrder(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // "Request another code" on a number whose first code arrived (the web's dialog; the developer API has its own).
  .post("/sms/another-code", requireAuth, validate("json", smsOrderRefSchema), async (c) => {
    return c.json(await requestAnotherCode(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // Issue 43: "Stop waiting" for another code: the number is closed now (free, as the other code was); its codes stay.
  .post("/sms/finish", requireAuth, validate("json", smsOrderRefSchema), async (c) => {
    return c.json(await finishSmsOrder(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // "Use this number again" (issue 32): the confirm step's price and wait, then the new order (a purchase like any other).
  .get("/sms/use-again/:request_id", requireAuth, validate("param", smsOrderRefSchema), async (c) => {
    return c.json(await useAgainQuote(smsDepsOf(c), c.var.user, c.req.valid("param").request_id));
  })

  .post("/sms/use-again", requireAuth, validate("json", smsUseAgainSchema), async (c) => {
    return c.json(await useNumberAgain(smsDepsOf(c), c.var.user, c.req.valid("json")));
  })

  .post("/refund-user", requireAuth, validate("json", smsOrderRefSchema), async (c) => {
    return c.json(await smsRefundState(getDb(c.env.DB), c.var.user.id, c.req.valid("json").request_id));
  });
