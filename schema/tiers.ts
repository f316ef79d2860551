import type { DiscountTier } from "./settings";

// Kept apart from schema/settings.ts (which builds zod schemas at import time) so the signed-in shell can compute the
// tier badge without shipping zod (about 24 kB gzip) to the dashboard.

/** The tier for a total deposited (naira): the highest whose threshold is at most the total. */
export function tierFor(tiers: DiscountTier[], totalDepositedNaira: number): DiscountTier {
  const sorted = [...tiers].sort((a, b) => a.threshold - b.threshold);
  let current = sorted[0];
  for (const tier of sorted) if (totalDepositedNaira >= tier.threshold) current = tier;
  return current;
}
