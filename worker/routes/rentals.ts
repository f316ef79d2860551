import { koboToNaira } from "../../schema/money";
import {
  RENT_PRICE_REFUSED_MESSAGE,
  type RentalEndResponse,
  type RentExtendOptionsResponse,
  type RentExtendResponse,
  type RentNumberResponse,
  type RentQuoteResponse,
} from "../../schema/rentals";
import { NO_RENT_STOCK_MESSAGE } from "../../schema/constants";
import * as rent from "../contract/rentals";
import { optionalAuth, requireAuth } from "../middleware/auth";
import { chargedBelowShown } from "../services/kernel";
import { cancelRental, cheaperRentChoice, endRental, extendOptions, extendRental, quoteRental, refundIfEndedKobo, rentalView, rentalWithInbox, rentCountries, rentNumber, setAutoRenew, upstreamFor } from "../services/rent";
import { nowOf, rentalDepsOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * Rent Number (docs/api.md "Rent Number"). Every route but the quote is signed in; the user comes from the token only.
 * The quote answers a visitor too, at the starter tier (the spec's original client asks signed out, like /sms/price).
 */
export const rentalRoutes: RouteApp = routeApp()
  .openapi(guarded(rent.countries, requireAuth), async (c) => c.json(await rentCountries(rentalDepsOf(c))))

  .openapi(guarded(rent.quote, optionalAuth), async (c) => {
    const body = c.req.valid("json");
    const choice = { countryId: body.countryId, unit: body.duration, period: body.period };
    const quote = await quoteRental(rentalDepsOf(c), c.var.viewer, choice);
    // No stock is an answer, not an error: the form shows the spec's red box from `message` (or an empty/zero limit).
    // A price the guard refused is answered the same way, with its own message (renting it would be a 409).
    const data = { limits: quote.limits };
    if (quote.refused) return c.json({ data, price: null, in_stock: false, message: RENT_PRICE_REFUSED_MESSAGE } satisfies RentQuoteResponse);
    if (quote.priceKobo === null) {
      return c.json({ data, price: null, in_stock: false, message: NO_RENT_STOCK_MESSAGE } satisfies RentQuoteResponse);
    }
    // The original client reads `const { data } = body; data.limits[0]` (issue 27; decision 018 had put limits at the
    // body's top level, one level short). Issue 43: a longer unit that costs less for the same time is named beside it.
    const cheaper = await cheaperRentChoice(rentalDepsOf(c), c.var.viewer, choice, quote.priceKobo);
    return c.json({
      data,
      price: koboToNaira(quote.priceKobo),
      in_stock: true,
      ...(cheaper ? { cheaper: { duration: cheaper.unit, period: cheaper.period, price: koboToNaira(cheaper.priceKobo) } } : {}),
    } satisfies RentQuoteResponse);
  })

  .openapi(guarded(rent.rent, requireAuth), async (c) => {
    const body = c.req.valid("json");
    const row = await rentNumber(rentalDepsOf(c), c.var.user, {
      countryId: body.countryId,
      unit: body.duration,
      period: body.period,
      clientPrice: body.price,
    });
    return c.json({ number: row.number, rental: rentalView(row, nowOf(c)), price: koboToNaira(row.priceKobo), ...chargedBelowShown(row.priceKobo, body.price) } satisfies RentNumberResponse, 201);
  })

  .openapi(guarded(rent.rental, requireAuth), async (c) => {
    return c.json(await rentalWithInbox(rentalDepsOf(c), c.var.user.id, c.req.valid("param").id));
  })

  .openapi(guarded(rent.end, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const row = await endRental(rentalDepsOf(c), c.var.user.id, id);
    // Ending refunds nothing (refundIfEndedKobo): said in the answer so a client never has to assume it.
    return c.json({ rental: rentalView(row, nowOf(c)), refunded: false, refund: koboToNaira(refundIfEndedKobo(row)) } satisfies RentalEndResponse);
  })

  .openapi(guarded(rent.cancel, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const { rental, refunded } = await cancelRental(rentalDepsOf(c), c.var.user.id, id);
    return c.json({ rental: rentalView(rental, nowOf(c)), refunded } satisfies RentalEndResponse);
  })

  /** Extend (decision 019): the choices with the server's price each; empty where the upstream documents no extension. */
  .openapi(guarded(rent.extendOptions, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const deps = rentalDepsOf(c);
    const options = await extendOptions(deps, c.var.user, id);
    return c.json({ extendable: Boolean(upstreamFor(deps, c.var.user.id).extension), options } satisfies RentExtendOptionsResponse);
  })

  .openapi(guarded(rent.extend, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const { rental, charged } = await extendRental(rentalDepsOf(c), c.var.user, id, { unit: body.duration, period: body.period, clientPrice: body.price });
    return c.json({ rental: rentalView(rental, nowOf(c)), charged } satisfies RentExtendResponse);
  })

  /** Auto-renew (issue 32): on at the price shown for each renewal, or off. Answers the rental with its auto_renew. */
  .openapi(guarded(rent.autoRenew, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const rental = await setAutoRenew(
      rentalDepsOf(c),
      c.var.user,
      id,
      body.enabled ? { enabled: true, unit: body.duration, period: body.period, price: body.price } : { enabled: false },
    );
    return c.json({ rental: rentalView(rental, nowOf(c)) });
  });
