import { useMemo } from "react";
import { naira } from "../../../schema/money";
import { Card, CardDescription, CardTitle } from "../ui/card";
import { spendingPicture } from "./spending";
import type { Transaction } from "./transactions";

const WIDTH = 300;
const HEIGHT = 80;

/**
 * Deposits (green) and spend (red) per day over the last 30 days, as a small inline SVG: enough to see where money
 * went without a chart library in the bundle. Screen readers get the totals as the figure's label.
 */
export function SpendingChart({ rows }: { rows: Transaction[] }) {
  const picture = useMemo(() => spendingPicture(rows), [rows]);
  const max = Math.max(1, ...picture.days.map((d) => Math.max(d.deposited, d.spent)));
  const slot = WIDTH / picture.days.length;
  const bar = Math.max(1, slot / 2 - 1);
  const height = (v: number) => (v <= 0 ? 0 : Math.max(2, (v / max) * (HEIGHT - 4)));
  const label = `Last 30 days: deposited ${naira(picture.deposited)}, spent ${naira(picture.spent)}.`;
  return (
    <Card className="flex flex-col gap-3 p-5">
      <div className="flex flex-col gap-1">
        <CardTitle>Last 30 days</CardTitle>
        <CardDescription>Where your money went</CardDescription>
      </div>
      <dl className="grid grid-cols-2 gap-3">
        <div>
          <dt className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden /> Deposited
          </dt>
          <dd className="text-lg font-semibold tabular-nums">{naira(picture.deposited)}</dd>
        </div>
        <div>
          <dt className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <span className="h-2 w-2 rounded-full bg-red-500" aria-hidden /> Spent
          </dt>
          <dd className="text-lg font-semibold tabular-nums">{naira(picture.spent)}</dd>
        </div>
      </dl>
      {picture.deposited === 0 && picture.spent === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No deposits or spending in the last 30 days yet.</p>
      ) : null}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-24 w-full" role="img" aria-label={label} preserveAspectRatio="none">
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-slate-200 dark:stroke-slate-700" strokeWidth="1" />
        {picture.days.map((d, i) => (
          <g key={d.day}>
            <title>{`${d.day}: deposited ${naira(d.deposited)}, spent ${naira(d.spent)}`}</title>
            <rect x={i * slot + 0.5} y={HEIGHT - height(d.deposited)} width={bar} height={height(d.deposited)} rx="1" className="fill-emerald-500" />
            <rect x={i * slot + 0.5 + bar + 1} y={HEIGHT - height(d.spent)} width={bar} height={height(d.spent)} rx="1" className="fill-red-500" />
          </g>
        ))}
      </svg>
      <div className="-mt-2 flex justify-between text-xs text-slate-600 dark:text-slate-400" aria-hidden>
        <span>30 days ago</span>
        <span>Today</span>
      </div>
    </Card>
  );
}
