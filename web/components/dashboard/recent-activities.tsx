import { useMemo, useState } from "react";
import { ArrowDownLeft, ArrowUpRight, Clock, Inbox, RotateCcw, X } from "lucide-react";
import { naira } from "../../../schema/money";
import { formatDateTime } from "../../../schema/datetime";
import { cn } from "../../lib/cn";
import { Badge, type BadgeVariant } from "../ui/badge";
import { AppLink } from "../layout/app-link";
import { Button, buttonClasses } from "../ui/button";
import { Card, CardDescription, CardTitle } from "../ui/card";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import {
  applyFilter,
  directionOf,
  movedAmount,
  PAGE_SIZE,
  plainMeaning,
  signOf,
  statusLabel,
  statusStyle,
  type Direction,
  type HistoryFilter,
  type Transaction,
} from "./transactions";
import type { TransactionStatus } from "../../../schema/constants";

const BADGE_BY_STATUS: Record<TransactionStatus, BadgeVariant> = {
  successful: "success",
  refunded: "warning",
  pending: "secondary",
  failed: "destructive",
};

const DIRECTION_STYLE: Record<Direction, { amount: string; icon: string; label: string }> = {
  credit: { amount: "text-emerald-700 dark:text-emerald-400", icon: "bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300", label: "Credit" },
  refund: { amount: "text-orange-700 dark:text-orange-400", icon: "bg-orange-50 text-orange-700 dark:bg-orange-950 dark:text-orange-300", label: "Refunded" },
  debit: { amount: "text-red-600 dark:text-red-400", icon: "bg-red-50 text-red-600 dark:bg-red-950 dark:text-red-300", label: "Debit" },
  none: { amount: "text-slate-700 dark:text-slate-200", icon: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200", label: "No money moved" },
};

// The spec's filter menu: the three history statuses and 'clear' (back to all).
const FILTER_OPTIONS = [
  { value: "successful", label: "Successful" },
  { value: "refunded", label: "Refunded" },
  { value: "failed", label: "Failed" },
  { value: "clear", label: "Clear filter" },
];

function TransactionRow({ tx }: { tx: Transaction }) {
  const direction = directionOf(tx);
  const style = DIRECTION_STYLE[direction];
  const meaning = plainMeaning(tx);
  const failed = statusStyle(tx.status) === "failed";
  const pending = tx.status === "pending";
  const Icon = failed ? X : pending ? Clock : direction === "credit" ? ArrowDownLeft : direction === "refund" ? RotateCcw : ArrowUpRight;
  const attempted = Math.abs(Number(tx.amount) || 0);
  return (
    <li className="flex items-center gap-3 py-3">
      <span className={cn("flex h-9 w-9 shrink-0 items-center justify-center rounded-full", style.icon)}>
        <Icon className="h-4 w-4" aria-label={failed ? "Failed" : pending ? "Pending" : style.label} />
      </span>
      {/* Issue 43: what the row means sits under its description, so the right column holds only the figure and the
          badge and never pushes a 360 px row sideways. */}
      <div className="flex min-w-0 flex-1 flex-col">
        <span className="line-clamp-2 break-words text-sm font-medium">{tx.note || "Transaction"}</span>
        {meaning ? (
          <span className="break-words text-xs font-medium text-slate-700 dark:text-slate-200" data-testid="transaction-meaning">
            {failed && attempted > 0 ? `${meaning} (${naira(attempted)} not charged)` : meaning}
          </span>
        ) : null}
        {tx.detail ? (
          <span className="break-words text-xs text-slate-700 dark:text-slate-200" data-testid="transaction-detail">
            {tx.detail}
          </span>
        ) : null}
        <span className="text-xs text-slate-600 dark:text-slate-300">
          <time dateTime={tx.created_at ?? undefined}>{formatDateTime(tx.created_at)}</time>
        </span>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        {/* Signs follow the money (issue 28): + in, - out, and a failed row shows the ₦0.00 that moved. */}
        <span className={cn("whitespace-nowrap text-sm font-semibold tabular-nums", style.amount)} data-testid="transaction-amount">
          {signOf(direction)}{naira(movedAmount(tx))}
        </span>
        <Badge variant={BADGE_BY_STATUS[statusStyle(tx.status)]}>{statusLabel(tx.status)}</Badge>
      </div>
    </li>
  );
}

/** Recent Activities (spec: dashboard widgets, section 4 rules). `rows` are already the user's history, newest first. */
export function RecentActivities({ rows, loading }: { rows: Transaction[]; loading: boolean }) {
  const [filter, setFilter] = useState<HistoryFilter>("all");
  const [visible, setVisible] = useState(PAGE_SIZE);
  const filtered = useMemo(() => applyFilter(rows, filter), [rows, filter]);
  const left = Math.max(0, filtered.length - visible);

  const changeFilter = (value: string) => {
    setFilter(value === "clear" ? "all" : (value as HistoryFilter));
    setVisible(PAGE_SIZE);
  };

  return (
    <Card data-tour="history" className="flex flex-col">
      <div className="flex flex-wrap items-start justify-between gap-3 p-5 pb-2">
        <div className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <CardTitle>Recent Activities</CardTitle>
            {filter !== "all" ? <Badge variant="secondary">{statusLabel(filter)}</Badge> : null}
          </div>
          <CardDescription>
            {rows.length} {rows.length === 1 ? "transaction" : "transactions"}
          </CardDescription>
        </div>
        <Select
          aria-label="Filter transactions by status"
          className="w-44"
          options={FILTER_OPTIONS}
          value={filter === "all" ? null : filter}
          onValueChange={changeFilter}
          placeholder="All statuses"
        />
      </div>
      <div className="px-5 pb-5">
        {loading ? (
          <div className="flex flex-col gap-3 py-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        ) : filtered.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center">
            <Inbox className="h-10 w-10 text-slate-300 dark:text-slate-600" aria-hidden />
            {rows.length === 0 ? (
              <>
                {/* The spec's empty state, and the next step (issue 18: every empty state says what to do next). */}
                <p className="font-medium">No transactions yet</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">Your transaction history will appear here</p>
                <AppLink to="/payment/1" className={buttonClasses("outline", "sm", "mt-2")}>
                  Fund your wallet
                </AppLink>
              </>
            ) : (
              <>
                <p className="font-medium">No {statusLabel(filter).toLowerCase()} transactions</p>
                <Button variant="outline" size="sm" className="mt-2" onClick={() => changeFilter("clear")}>
                  Show all transactions
                </Button>
              </>
            )}
          </div>
        ) : (
          <>
            <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Transactions">
              {filtered.slice(0, visible).map((tx) => (
                <TransactionRow key={tx.id} tx={tx} />
              ))}
            </ul>
            {left > 0 ? (
              <Button variant="outline" className="mt-3 w-full" onClick={() => setVisible((v) => v + PAGE_SIZE)}>
                Show More ({left} left)
              </Button>
            ) : null}
          </>
        )}
      </div>
    </Card>
  );
}
