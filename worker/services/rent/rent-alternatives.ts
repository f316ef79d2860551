import { RENT_PERIOD_MAX, RENT_UNITS, type RentUnit } from "../../../schema/constants";
import { RENT_UNIT_MS } from "../../../schema/rentals";
import type { RentChoice } from "../../providers/rent/types";
import { log } from "../../lib/log";
import type { PricedBuyer, RentalDeps } from "../kernel";
import { quoteRental, type RentQuoteRequest } from "./rentals";

/**
 * "Rent prices that punish the customer silently" (issue 43): the upstream prices each unit on its own, so 24 hours can
 * cost three times one day. A quote therefore also prices, for each longer unit, the fewest periods that cover at least
 * the same time (24 hours -> 1 day, 5 days -> 1 week, 3 weeks -> 1 month), and names the cheapest that costs less than
 * the choice, so the form can say so and offer it. Each is an ordinary quote (the same upstream, guard and tier); one
 * that fails or is sold out is simply not offered. Decision 063.
 */
export interface CheaperRentChoice {
  unit: RentUnit;
  period: number;
  priceKobo: number;
}

/** The longer units' covering choices for `choice`: each the fewest periods of that unit that last at least as long. */
export function coveringChoices(choice: RentChoice): RentChoice[] {
  const length = RENT_UNIT_MS[choice.unit] * choice.period;
  return RENT_UNITS.slice(RENT_UNITS.indexOf(choice.unit) + 1).flatMap((unit) => {
    const period = Math.ceil(length / RENT_UNIT_MS[unit]);
    return period <= RENT_PERIOD_MAX[unit] ? [{ countryId: choice.countryId, unit, period }] : [];
  });
}

export async function cheaperRentChoice(
  deps: RentalDeps,
  user: { id: string } & PricedBuyer | null,
  choice: RentQuoteRequest,
  priceKobo: number,
): Promise<CheaperRentChoice | null> {
  const quotes = await Promise.all(
    coveringChoices(choice).map(async (c) => {
      try {
        // An extendable number asked for is compared with extendable numbers only (issue 49).
        const quote = await quoteRental(deps, user, { ...c, extendable: choice.extendable });
        return quote.priceKobo === null ? null : { unit: c.unit, period: c.period, priceKobo: quote.priceKobo };
      } catch (err) {
        // The customer's own choice was quoted; a longer unit the upstream could not price is simply not offered.
        log("info", "rental alternative not quoted", { unit: c.unit, period: c.period, error: err instanceof Error ? err.message : String(err) });
        return null;
      }
    }),
  );
  const cheaper = quotes.filter((q): q is CheaperRentChoice => q !== null && q.priceKobo < priceKobo);
  return cheaper.sort((a, b) => a.priceKobo - b.priceKobo)[0] ?? null;
}
