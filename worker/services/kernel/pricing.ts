import { koboToNaira, nairaToKobo } from "../../../schema/money";
import type { DiscountTier, SettingValue } from "../../../schema/settings";
import { tierFor } from "../../../schema/tiers";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { getSettings } from "./settings";

/**
 * Every price the customer pays is computed here, in kobo, from the upstream cost as the API publishes it
 * (`costMinorUnits`: US cents, the spec's "minor units, divided by 100"), with the spec's formulas (SPEC 4 "Pricing"):
 *   SMS:  cost/100 × rate × (1 + low_cost if that base is at most ₦1000, else 1 + high_cost), less the tier discount
 *   Rent: cost/100 × rate × (1 + rent_cost), less the tier discount
 * evaluated in that order and rounded to the nearest kobo (the spec's client shows two decimals). So a client that
 * applies the formula to /api/sms/price's `cost`, /api/get-rate's `rate` and /api/costs' markups shows exactly what the
 * server charges a starter-tier customer (issue 19, docs/decisions/018).
 */

export interface PricingContext {
  rate: number;
  costs: SettingValue<"costs">;
  tier: DiscountTier;
}

/** Loads what pricing needs for one customer (settings are cached, so this is usually free). */
export async function pricingContext(db: Db, totalDepositedKobo: number): Promise<PricingContext> {
  const s = await getSettings(db, ["exchange_rate", "costs", "tiers"]);
  return { rate: s.exchange_rate.rate, costs: s.costs, tier: tierFor(s.tiers, koboToNaira(totalDepositedKobo)) };
}

/**
 * The upstream cost as answers publish it (`cost` of /api/sms/price and of /api/rent/countries' limits): US cents with
 * at most four decimals. Prices are computed from this figure, not from the raw dollars, so the published number is
 * the whole input a client needs.
 */
export function costMinorUnits(costUsd: number): number {
  return Math.round(costUsd * 1_000_000) / 10_000;
}

/** SPEC 4: the SMS price in naira before any discount, evaluated as the spec's client writes it. */
export function smsListNaira(costMinor: number, rate: number, costs: SettingValue<"costs">): number {
  const base = (costMinor / 100) * rate;
  return base * (1 + (base <= 1000 ? costs.low_cost : costs.high_cost));
}

/** SPEC 4: the rental price in naira before any discount. */
export function rentListNaira(costMinor: number, rate: number, costs: SettingValue<"costs">): number {
  return (costMinor / 100) * rate * (1 + costs.rent_cost);
}

// To the nearest kobo, as the client's two-decimal display rounds. A value within float noise of half a kobo goes
// DOWN: the server may charge a kobo less than a client shows, never a kobo more (a higher price is refused with 409).
const EPSILON = 1e-6;
function nearestKobo(naira: number): number {
  return Math.round(naira * 100 - EPSILON);
}

function discounted(naira: number, tier: DiscountTier): number {
  return tier.percentage > 0 ? naira * (1 - tier.percentage / 100) : naira;
}

export function smsPriceKobo(costUsd: number, ctx: PricingContext): number {
  return Math.max(1, nearestKobo(discounted(smsListNaira(costMinorUnits(costUsd), ctx.rate, ctx.costs), ctx.tier)));
}

export function rentPriceKobo(costUsd: number, ctx: PricingContext): number {
  return Math.max(1, nearestKobo(discounted(rentListNaira(costMinorUnits(costUsd), ctx.rate, ctx.costs), ctx.tier)));
}

/**
 * The server decides the price; the price a client showed only limits it (issue 19, docs/decisions/018). Refused with
 * 409 PRICE_CHANGED (and the new price) only when the server would charge MORE than was shown; a lower server price (a
 * discount tier, a fall in cost) is charged as it is. No shown price: the server's price is charged.
 */
export function assertNotAboveShown(priceKobo: number, shownNaira: number | undefined | null): void {
  if (shownNaira === undefined || shownNaira === null) return;
  if (priceKobo > nairaToKobo(shownNaira)) {
    throw new AppError("PRICE_CHANGED", `The price has changed to ₦${koboToNaira(priceKobo).toFixed(2)}. Please confirm the new price.`, {
      price: koboToNaira(priceKobo),
    });
  }
}

/** What a purchase answer adds when the server charged less than the client showed: `shown_price` and a sentence. */
export function chargedBelowShown(priceKobo: number, shownNaira: number | undefined | null): { shown_price: number; message: string } | Record<string, never> {
  if (shownNaira === undefined || shownNaira === null || nairaToKobo(shownNaira) <= priceKobo) return {};
  const shown = nairaToKobo(shownNaira);
  return {
    shown_price: koboToNaira(shown),
    message: `You were charged ₦${koboToNaira(priceKobo).toFixed(2)}, less than the ₦${koboToNaira(shown).toFixed(2)} shown.`,
  };
}

/**
 * A reseller's markup on what one of its sub-accounts buys (issue 46, docs/decisions/072): the flat rate and the
 * per-service ones that override it, in basis points of the reseller's own price (1500 = 15%). Set on the request's
 * caller by the X-Subaccount middleware; absent for everyone else.
 */
export interface ResellerMarkup {
  /** Who earns the margin: the sub-account's parent (a test key's sandbox account for its sandbox sub-accounts). */
  resellerId: string;
  basisPoints: number;
  services: Readonly<Record<string, number>>;
}

/** The margin on `baseKobo` (the reseller's price) for `serviceId`, in whole kobo (rounded down: never over the shown rate). */
export function marginKobo(baseKobo: number, markup: ResellerMarkup | null | undefined, serviceId: string | null): number {
  return marginAtKobo(baseKobo, markupRateFor(markup, serviceId));
}

/**
 * The rate (basis points) a markup charges on `serviceId`: its per-service one, else the flat one; `null` (a rental,
 * which sells no one service: decision 076) the flat one. 0 without a markup.
 */
export function markupRateFor(markup: ResellerMarkup | null | undefined, serviceId: string | null): number {
  if (!markup) return 0;
  return serviceId === null ? markup.basisPoints : (markup.services[serviceId] ?? markup.basisPoints);
}

/** The margin at a rate already chosen (a chain's further numbers carry its first number's: decision 076). */
export function marginAtKobo(baseKobo: number, basisPoints: number): number {
  return Math.floor((baseKobo * basisPoints) / 10_000);
}

/**
 * A developer's `ref` on an API purchase (issue 46, docs/decisions/075): who earns the share and how much, in basis
 * points of our price (the setting `developer_ref.percent` when the purchase was made). Set on the request's caller by
 * the developer room (developer/ref-share.ts) after refusing self-dealing; absent for everyone else.
 */
export interface DeveloperRef {
  /** The wallet the share goes to: the developer's, or its sandbox wallet for a test key's purchase. */
  walletId: string;
  basisPoints: number;
}

/** The developer's share of `baseKobo` (our price, before any reseller's markup), in whole kobo, rounded down. */
export function refShareKobo(baseKobo: number, ref: DeveloperRef | null | undefined): number {
  if (!ref) return 0;
  return Math.floor((baseKobo * ref.basisPoints) / 10_000);
}
