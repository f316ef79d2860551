import { and, eq, inArray, sql } from "drizzle-orm";
import type { SettingValue } from "../../../schema/settings";
import type { Db } from "../../db/client";
import { upstreamPrices } from "./tables";
import type { UpstreamMoney } from "../../providers/sms/types";

/**
 * Upstream amounts in US dollars, with the operator's rates (setting upstream_rates: units per dollar). Prices and
 * pricing.ts work in dollars; an amount in a currency without a rate is null, and the caller refuses it: a rouble
 * price is converted or refused, never read as dollars.
 */
export function toUsd(money: UpstreamMoney, rates: SettingValue<"upstream_rates">): number | null {
  if (!Number.isFinite(money.amount) || money.amount < 0) return null;
  if (money.currency === "USD") return money.amount;
  const perUsd = rates[money.currency];
  return perUsd && perUsd > 0 ? money.amount / perUsd : null;
}

/**
 * The price guard every upstream offer passes before it is sold (SMS offers in sms-catalogue.ts, rentals in
 * rentals.ts): the cost must convert to dollars, the customer's naira price before any discount must be at most the
 * ceiling, and the cost may not move more than max_jump times (up or down) from the last accepted cost of the same
 * offer (upstream_prices). Returns why the offer is refused, or null when it may be sold.
 */
export function refusedUpstreamPrice(input: {
  costUsd: number | null;
  currency: string;
  /** The customer's price before any discount tier, in naira, for this cost. */
  priceNaira: (costUsd: number) => number;
  ceilingNaira: number;
  previousUsd: number | undefined;
  maxJump: number;
}): string | null {
  const { costUsd, previousUsd, maxJump } = input;
  if (costUsd === null || !(costUsd > 0)) return `no rate for ${input.currency}`;
  const priceNaira = input.priceNaira(costUsd);
  if (priceNaira > input.ceilingNaira) return `price ₦${priceNaira.toFixed(2)} above the ceiling ₦${input.ceilingNaira}`;
  if (previousUsd !== undefined && previousUsd > 0 && Math.max(costUsd / previousUsd, previousUsd / costUsd) > maxJump) {
    return `cost $${costUsd.toFixed(4)} jumped from $${previousUsd.toFixed(4)} (more than ${maxJump}x)`;
  }
  return null;
}

/** The last accepted dollar cost of each offer of one provider and country (optionally only the keys asked for). */
export async function lastAcceptedCosts(db: Db, provider: string, countryId: string, keys?: string[]): Promise<Map<string, number>> {
  const where = and(eq(upstreamPrices.provider, provider), eq(upstreamPrices.countryId, countryId), keys ? inArray(upstreamPrices.serviceId, keys) : undefined);
  const rows = await db.select({ key: upstreamPrices.serviceId, costUsd: upstreamPrices.costUsd }).from(upstreamPrices).where(where);
  return new Map(rows.map((r) => [r.key, r.costUsd]));
}

/** Records accepted costs as the new reference for the jump guard (a refused cost is never recorded). */
export async function recordAcceptedCosts(db: Db, provider: string, countryId: string, accepted: { key: string; costUsd: number }[]): Promise<void> {
  // D1 caps bound parameters per statement: write in slices. updated_at is the table's own time (it decides nothing).
  for (let i = 0; i < accepted.length; i += 15) {
    await db
      .insert(upstreamPrices)
      .values(accepted.slice(i, i + 15).map((a) => ({ provider, countryId, serviceId: a.key, costUsd: a.costUsd })))
      .onConflictDoUpdate({
        target: [upstreamPrices.provider, upstreamPrices.countryId, upstreamPrices.serviceId],
        set: { costUsd: sql.raw("excluded.cost_usd"), updatedAt: sql.raw("excluded.updated_at") },
      });
  }
}
