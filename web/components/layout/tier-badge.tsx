import { lazy, Suspense, useState } from "react";
import type { DiscountTier } from "../../../schema/settings";
import { tierFor } from "../../../schema/tiers";
import { useLevel, useTiers } from "../../api/content";
import { loadChunk } from "../../lib/screen-loading";
import { Skeleton } from "../ui/skeleton";
import { TierIcon } from "./tier-icon";

// The tier list opens on a tap, so it and the dialog load then (a lazy chunk, 1.9 kB gzip off every signed-in screen's
// first load: decision 065); pointing at or focusing the badge starts the load, so the tap rarely waits for it.
const loadTierDialog = () => loadChunk(() => import("./tier-dialog"));
const TierDialog = lazy(() => loadTierDialog().then((m) => ({ default: m.TierDialog })));

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
  const rankOf = (tier: DiscountTier) => tiers.data.indexOf(tier);
  const prefetch = () => void loadTierDialog().catch(() => undefined);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        aria-haspopup="dialog"
        aria-label={`Discount tier: ${current.text}. Show all tiers`}
        className="inline-flex h-8 items-center gap-1.5 rounded-full border border-amber-300 bg-amber-50 px-3 max-[399px]:px-2 text-sm font-semibold text-amber-900 transition-colors hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200 dark:hover:bg-amber-900/60 cursor-pointer"
      >
        <TierIcon rank={rankOf(current)} className="h-4 w-4" />
        {/* Under 400 px the medal alone (its name is in the label): the header holds the whole balance (issue 43). */}
        <span className="max-[399px]:sr-only">{current.text}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <TierDialog onClose={() => setOpen(false)} tiers={tiers.data} current={current} total={total} />
        </Suspense>
      ) : null}
    </>
  );
}
