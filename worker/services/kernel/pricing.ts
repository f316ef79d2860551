import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import type { SettingValue } from "../../../schema/settings";
import { tierFor } from "../../../schema/tiers";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { getSettings } from "./settings";
import { users } from "./tables";

/**
 * Every price the customer pays is computed here, in kobo, from the upstream cost as the API publishes it
 * (`costMinorUnits`: US cents, the spec's "minor units, divided by 100"), with the spec's formulas (SPEC 4 "Pricing"):
 *   SMS:  cost/100 × rate × (1 + low_cost if that base is at most ₦1000, else 1 + high_cost), less the tier discount
 *   Rent: cost/100 × rate × (1 + rent_cost), less the tier discount
 * (the tier discount: the deposit tier's, or a reseller's wholesale tier's when better: decision 074)
 * evaluated in that order and rounded to the nearest kobo (the spec's client shows two decimals). So a client that
 * applies the formula to /api/sms/price's `cost`, /api/get-rate's `rate` and /api/costs' markups shows exactly what the
 * server charges a starter-tier customer (issue 19, docs/decisions/018).
 */

export interface PricingContext {
  rate: number;
  costs: SettingValue<"costs">;
  /** Percent off the list price: the buyer's discount tier, or its wholesale tier when that is better. */
  discountPercent: number;
}

/**
 * Who a price is for: the total it deposited (its discount tier) and, for an active reseller, its stored last-30-day
 * volume (its wholesale tier, decision 074; null for everyone else). A reseller's sub-account acting user carries its
 * reseller's figures (middleware/subaccount.ts), so it is priced at the reseller's price plus the markup.
 */
export interface PricedBuyer {
  totalDepositedKobo: number;
  /** Absent or null: not an active reseller (the signed-in user always carries it: SignedInUser). */
  wholesaleVolumeKobo?: number | null;
}

/** A buyer with no tier: the public price lists (starter tier), and the protocol's retail comparison. */
export const RETAIL_BUYER: PricedBuyer = { totalDepositedKobo: 0, wholesaleVolumeKobo: null };

/**
 * The buyer behind a wallet, for a price made outside a signed-in request (a chain's next route, a renewal): its own
 * figures, or for a reseller's sub-account its reseller's (as middleware/subaccount.ts prices it in a request). A
 * wallet that no longer exists is a retail buyer.
 */
export async function buyerOf(db: Db, userId: string): Promise<PricedBuyer> {
  const parent = alias(users, "parent");
  const [row] = await db
    .select({
      totalDepositedKobo: sql<number>`COALESCE(${parent.totalDepositedKobo}, ${users.totalDepositedKobo})`,
      wholesaleVolumeKobo: sql<number | null>`CASE WHEN ${parent.id} IS NULL THEN ${users.wholesaleVolumeKobo} ELSE ${parent.wholesaleVolumeKobo} END`,
    })
    .from(users)
    .leftJoin(parent, eq(parent.id, users.parentUserId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? { totalDepositedKobo: Number(row.totalDepositedKobo), wholesaleVolumeKobo: row.wholesaleVolumeKobo === null ? null : Number(row.wholesaleVolumeKobo) } : RETAIL_BUYER;
}

/**
 * Loads what pricing needs for one buyer (settings are cached, so this is usually free). The discount is the better of
 * the deposit tier and the wholesale tier, never the two compounded (decision 074): a reseller's wholesale price is its
 * volume price, and a large depositor who becomes a reseller never pays more than before.
 */
export async function pricingContext(db: Db, buyer: PricedBuyer): Promise<PricingContext> {
  const s = await getSettings(db, ["exchange_rate", "costs", "tiers", "wholesale_tiers"]);
  const deposit = tierFor(s.tiers, koboToNaira(buyer.totalDepositedKobo)).percentage;
  const wholesale = buyer.wholesaleVolumeKobo == null ? 0 : tierFor(s.wholesale_tiers, koboToNaira(buyer.wholesaleVolumeKobo)).percentage;
  return { rate: s.exchange_rate.rate, costs: s.costs, discountPercent: Math.max(deposit, wholesale) };
}

/** The starter-tier context (no discount): the plausibility guards compare an upstream price at it. */
export function starterContext(rate: number, costs: SettingValue<"costs">): PricingContext {
  return { rate, costs, discountPercent: 0 };
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

function discounted(naira: number, percent: number): number {
  return percent > 0 ? naira * (1 - percent / 100) : naira;
}

export function smsPriceKobo(costUsd: number, ctx: PricingContext): number {
  return Math.max(1, nearestKobo(discounted(smsListNaira(costMinorUnits(costUsd), ctx.rate, ctx.costs), ctx.discountPercent)));
}

export function rentPriceKobo(costUsd: number, ctx: PricingContext): number {
  return Math.max(1, nearestKobo(discounted(rentListNaira(costMinorUnits(costUsd), ctx.rate, ctx.costs), ctx.discountPercent)));
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
