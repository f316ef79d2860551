import { Award, Crown, Gem, Medal, type LucideIcon } from "lucide-react";
import { cn } from "../../lib/cn";

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

export function TierIcon({ rank, className }: { rank: number; className?: string }) {
  const { icon: Icon, color } = RANK_ICONS[Math.min(Math.max(rank, 0), RANK_ICONS.length - 1)];
  return <Icon className={cn(color, className)} aria-hidden />;
}
