import { naira } from "../../../schema/money";
import type { DiscountTier } from "../../../schema/settings";
import { nextTier } from "../../../schema/tiers";
import { cn } from "../../lib/cn";
import { Badge } from "../ui/badge";
import { Dialog } from "../ui/dialog";
import { TierIcon } from "./tier-icon";

/** What the next tier needs, in naira still to deposit; null at the top tier. */
export const nextTierNeed: (tiers: DiscountTier[], totalDeposited: number) => { tier: DiscountTier; remaining: number } | null = nextTier;

/**
 * "Discount Tiers" (spec sections 2 and 4), opened from the header's badge (tier-badge.tsx): every tier with its
 * threshold and discount, the customer's marked, and what the next one needs. A lazy chunk: it loads on the tap.
 */
export function TierDialog({ onClose, tiers, current, total }: { onClose: () => void; tiers: DiscountTier[]; current: DiscountTier; total: number }) {
  const next = nextTierNeed(tiers, total);
  const rankOf = (tier: DiscountTier) => tiers.indexOf(tier);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Discount Tiers" description="Discount applies to all services">
      <p className="mb-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
        You have deposited <strong className="text-slate-900 dark:text-white">{naira(total)}</strong> in total.{" "}
        {next ? (
          <>
            Deposit <strong className="text-slate-900 dark:text-white">{naira(next.remaining)}</strong> more to reach{" "}
            {next.tier.text} ({next.tier.percentage}% off).
          </>
        ) : (
          <>You are on the highest tier.</>
        )}
      </p>
      <ul className="flex flex-col gap-2">
        {tiers.map((tier) => {
          const isCurrent = tier.text === current.text;
          return (
            <li
              key={tier.text}
              aria-current={isCurrent ? "true" : undefined}
              className={cn(
                "flex items-center gap-3 rounded-xl border p-3",
                isCurrent
                  ? "border-blue-500 bg-blue-50 ring-1 ring-blue-500 dark:border-blue-400 dark:bg-blue-950/40 dark:ring-blue-400"
                  : "border-slate-200 dark:border-slate-800",
              )}
            >
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 dark:bg-slate-800">
                <TierIcon rank={rankOf(tier)} className="h-5 w-5" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-2 font-semibold">
                  {tier.text}
                  {isCurrent ? <Badge>Current</Badge> : null}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {tier.indicator} · from {naira(tier.threshold)} deposited
                </p>
              </div>
              <span className="text-lg font-bold text-emerald-700 dark:text-emerald-400">{tier.percentage}%</span>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
