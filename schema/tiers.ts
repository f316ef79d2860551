// Kept apart from schema/settings.ts (which builds zod schemas at import time) so the signed-in shell can compute the
// tier badge without shipping zod (about 24 kB gzip) to the dashboard. One shape serves both kinds of tier: the
// discount tiers (earned by total deposited) and resellers' wholesale tiers (earned by 30-day spend, decision 074).

/** The tier for an amount (naira): the highest whose threshold is at most the amount. */
export function tierFor<T extends { threshold: number }>(tiers: T[], amountNaira: number): T {
  const sorted = [...tiers].sort((a, b) => a.threshold - b.threshold);
  let current = sorted[0];
  for (const tier of sorted) if (amountNaira >= tier.threshold) current = tier;
  return current;
}

/** The next tier above an amount (naira) and what is still needed to reach it; null on the top tier. */
export function nextTier<T extends { threshold: number }>(tiers: T[], amountNaira: number): { tier: T; remaining: number } | null {
  const next = [...tiers].sort((a, b) => a.threshold - b.threshold).find((t) => t.threshold > amountNaira);
  return next ? { tier: next, remaining: Math.round((next.threshold - amountNaira) * 100) / 100 } : null;
}
