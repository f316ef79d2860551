import { Award, Crown, Gem, Medal, type LucideIcon } from "lucide-react";
import { useState } from "react";
import { naira } from "../../../schema/money";
import type { DiscountTier } from "../../../schema/settings";
import { tierFor } from "../../../schema/tiers";
import { useLevel, useTiers } from "../../api/content";
import { cn } from "../../lib/cn";
import { Badge } from "../ui/badge";
import { Dialog } from "../ui/dialog";
import { Skeleton } from "../ui/skeleton";

// The operator's tier icons are emoji, which many systems (Linux, older Windows) draw as empty boxes. The badge shows a
// drawn medal coloured by rank instead, so it looks the same everywhere; the emoji stays in the data for other clients.
const RANK_ICONS: { icon: LucideIcon; color: string }[] = [
  { icon: Medal, color: "text-amber-700 dark:text-amber-500" },
  { icon: Medal, color: "text-slate-400 dark:text-slate-300" },
  { icon: Medal, color: "text-yellow-500 dark:text-yellow-400" },
  { icon: Award, color: "text-cyan-600 dark:text-cyan-400" },
  { icon: Gem, color: "text-sky-500 dark:text-sky-400" },
  { icon: Crown, color: "text-violet-600 dark:text-violet-400" },
];

function TierIcon({ rank, className }: { rank: number; className?: string }) {
  const { icon: Icon, color } = RANK_ICONS[Math.min(Math.max(rank, 0), RANK_ICONS.length - 1)];
  return <Icon className={cn(color, className)} aria-hidden />;
}

/** What the next tier needs, in naira still to deposit; null at the top tier. */
export function nextTierNeed(tiers: DiscountTier[], totalDeposited: number): { tier: DiscountTier; remaining: number } | null {
  const next = [...tiers].sort((a, b) => a.threshold - b.threshold).find((t) => t.threshold > totalDeposited);
  return next ? { tier: next, remaining: next.threshold - totalDeposited } : null;
}

/**
 * The header's discount-tier badge (spec sections 2 and 4): the highest tier whose threshold is at most the user's
 * total deposited. A failed level or tiers fetch is swallowed (the badge simply does not show, as the spec says).
 */
export function TierBadge() {
  const tiers = useTiers();
  const level = useLevel();
  const [open, setOpen] = useState(false);

  if (tiers.isPending) return <Skeleton className="h-8 w-24 rounded-full" />;
  if (!tiers.data?.length) return null;

  const total = level.data?.total_deposited ?? 0;
  const current = tierFor(tiers.data, total);
  const next = nextTierNeed(tiers.data, total);
  const rankOf = (tier: DiscountTier) => tiers.data.indexOf(tier);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={`Discount tier: ${current.text}. Show all tiers`}
        className="inline-flex h-8 items-center gap-1.5 rounded-full border border-amber-300 bg-amber-50 px-3 max-[399px]:px-2 text-sm font-semibold text-amber-900 transition-colors hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200 dark:hover:bg-amber-900/60 cursor-pointer"
      >
        <TierIcon rank={rankOf(current)} className="h-4 w-4" />
        {/* Under 400 px the medal alone (its name is in the label): the header holds the whole balance (issue 43). */}
        <span className="max-[399px]:sr-only">{current.text}</span>
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Discount Tiers" description="Discount applies to all services">
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
          {tiers.data.map((tier) => {
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
    </>
  );
}
