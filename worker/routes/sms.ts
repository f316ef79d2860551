import * as sms from "../contract/sms";
import { getDb } from "../db/client";
import { edgeCached } from "../lib/edge-cache";
import { optionalAuth, requireAuth } from "../middleware/auth";
import { RETAIL_BUYER } from "../services/kernel";
import { buySmsNumber, buySmsNumbers, cancelSmsOrder, checkSmsOrderNow, compareRoutes, finishSmsOrder, listFavourites, providerSellingCountry, publicPriceList, requestAnotherCode, setFavourite, smsCountries, smsCountriesOfAll, smsHoldTime, smsOffer, smsOrderStatus, smsPriceList, smsRefundState, useAgainQuote, useNumberAgain } from "../services/sms";
import { nowOf, smsDepsOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/** How long the public price page's answer is kept at the edge and in the browser. */
export const PUBLIC_PRICES_CACHE_SECONDS = 60;

export const smsRoutes: RouteApp = routeApp()
  .openapi(sms.countries, async (c) => {
    const { provider } = c.req.valid("query");
    const countries = provider ? await smsCountries(c.var.services, provider) : await smsCountriesOfAll(c.var.services);
    return c.json(countries.map((country) => ({ id: country.id, title: country.title })));
  })

  /**
   * Prices are the customer's own (discount tier), so a signed-in call is priced for its user; without a token the
   * list shows the starter tier's prices. A token that is sent must be valid.
   */
  .openapi(guarded(sms.prices, optionalAuth), async (c) => {
    const { id: countryId, provider } = c.req.valid("query");
    const seller = provider ?? (await providerSellingCountry(c.var.services, countryId));
    return c.json(await smsPriceList(c.var.services, seller, countryId, c.var.viewer ?? RETAIL_BUYER));
  })

  /**
   * The public price page (issue 28): the starter tier's prices and stock for one provider and country, the same for
   * every visitor (a token is ignored), cached at the edge for a minute (lib/edge-cache.ts).
   */
  .openapi(guarded(sms.publicPrices, edgeCached(PUBLIC_PRICES_CACHE_SECONDS)), async (c) => {
    const { provider, country } = c.req.valid("query");
    return c.json(await publicPriceList(c.var.services, provider, country, Date.now()));
  })

  // Issue 49: the offer beside the Buy button (price with the choice, what may be chosen, its record, a better route).
  .openapi(guarded(sms.offer, requireAuth), async (c) => c.json(await smsOffer(smsDepsOf(c), c.var.user, c.req.valid("query"))))

  .openapi(guarded(sms.buyNumber, requireAuth), async (c) => {
    return c.json(await buySmsNumber(smsDepsOf(c), c.var.user, c.req.valid("json"), { serviceByName: true }));
  })

  // Several numbers (1-5) for one service, each its own order: docs/api.md "Several numbers at once".
  .openapi(guarded(sms.buyNumbers, requireAuth), async (c) => {
    return c.json(await buySmsNumbers(smsDepsOf(c), c.var.user, c.req.valid("json"), { serviceByName: true }));
  })

  // Favourites: starred services, per customer, on the server so every device shows the same.
  .openapi(guarded(sms.favourites, requireAuth), async (c) => c.json(await listFavourites(getDb(c.env.DB), c.var.user.id)))

  .openapi(guarded(sms.setFavourite, requireAuth), async (c) => {
    const { provider, service_id, starred } = c.req.valid("json");
    return c.json(await setFavourite(getDb(c.env.DB), c.var.user.id, provider, service_id, starred, nowOf(c)));
  })

  // Every provider and country selling one service, with our own last-7-days outcomes above a minimum sample.
  .openapi(guarded(sms.compare, requireAuth), async (c) => {
    const { provider, service } = c.req.valid("query");
    return c.json(await compareRoutes(c.var.services, c.var.user, provider, service, nowOf(c)));
  })

  // Public, like the prices: how long a number waits for its code before the refund, said before purchase (issue 28).
  .openapi(sms.holdTime, async (c) => c.json(await smsHoldTime(getDb(c.env.DB))))

  .openapi(guarded(sms.status, requireAuth), async (c) => {
    return c.json(await smsOrderStatus(smsDepsOf(c), c.var.user.id, c.req.valid("param").request_id));
  })

  // "Check Now" (the spec's original client; not in SPEC 7): the caller's own order, asked of the upstream now.
  .openapi(guarded(sms.checkNow, requireAuth), async (c) => {
    return c.json(await checkSmsOrderNow(smsDepsOf(c), c.var.user.id, c.req.valid("param").request_id));
  })

  .openapi(guarded(sms.cancel, requireAuth), async (c) => {
    return c.json(await cancelSmsOrder(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // "Request another code" on a number whose first code arrived (the web's dialog; the developer API has its own).
  .openapi(guarded(sms.anotherCode, requireAuth), async (c) => {
    return c.json(await requestAnotherCode(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // Issue 43: "Stop waiting" for another code: the number is closed now (free, as the other code was); its codes stay.
  .openapi(guarded(sms.finish, requireAuth), async (c) => {
    return c.json(await finishSmsOrder(smsDepsOf(c), c.var.user.id, c.req.valid("json").request_id));
  })

  // "Use this number again" (issue 32): the confirm step's price and wait, then the new order (a purchase like any other).
  .openapi(guarded(sms.useAgainQuote, requireAuth), async (c) => {
    return c.json(await useAgainQuote(smsDepsOf(c), c.var.user, c.req.valid("param").request_id));
  })

  .openapi(guarded(sms.useAgain, requireAuth), async (c) => {
    return c.json(await useNumberAgain(smsDepsOf(c), c.var.user, c.req.valid("json")));
  })

  .openapi(guarded(sms.refundState, requireAuth), async (c) => {
    return c.json(await smsRefundState(getDb(c.env.DB), c.var.user.id, c.req.valid("json").request_id));
  });
