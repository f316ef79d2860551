import { koboToNaira } from "../../schema/money";
import { tierFor, type DiscountTier, type SettingValue } from "../../schema/settings";
import type { Db } from "../db/client";
import { getSettings } from "./settings";

/**
 * Every price the customer pays is computed here, in kobo, from the upstream cost in US dollars.
 *   SMS:  cost × rate × (1 + low_cost if that base is at most ₦1000, else 1 + high_cost), less the tier discount
 *   Rent: cost × rate × (1 + rent_cost), less the tier discount
 * rounded up to the kobo. The client only ever displays these figures.
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

// Floating-point products like 0.1 × 1600 × 1.5 land a hair above the true value; without this guard,
// rounding up would add a kobo that the formula does not ask for.
const EPSILON = 1e-6;
function ceilKobo(naira: number): number {
  return Math.ceil(naira * 100 - EPSILON);
}

function discounted(naira: number, tier: DiscountTier): number {
  return naira * (1 - tier.percentage / 100);
}

export function smsPriceKobo(costUsd: number, ctx: PricingContext): number {
  const base = costUsd * ctx.rate;
  const markup = base <= 1000 ? ctx.costs.low_cost : ctx.costs.high_cost;
  return Math.max(1, ceilKobo(discounted(base * (1 + markup), ctx.tier)));
}

export function rentPriceKobo(costUsd: number, ctx: PricingContext): number {
  const base = costUsd * ctx.rate;
  return Math.max(1, ceilKobo(discounted(base * (1 + ctx.costs.rent_cost), ctx.tier)));
}
