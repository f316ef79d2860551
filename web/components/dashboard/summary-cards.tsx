import { useState, type ReactNode } from "react";
import { ArrowRight, Eye, EyeOff, MessageSquareText, PhoneCall, Wallet } from "lucide-react";
import { naira } from "../../../schema/money";
import { buttonClasses } from "../ui/button";
import { Card } from "../ui/card";
import { Skeleton } from "../ui/skeleton";

/** Balance visibility is the spec's persisted "show-balance" flag; hidden unless the customer chose to show it. */
const SHOW_BALANCE_KEY = "show-balance";

function readShowBalance(): boolean {
  return localStorage.getItem(SHOW_BALANCE_KEY) === "true";
}

function SummaryCard({
  title,
  icon,
  tour,
  children,
  action,
}: {
  title: string;
  icon: ReactNode;
  tour: string;
  children: ReactNode;
  action: ReactNode;
}) {
  return (
    <Card data-tour={tour} className="flex flex-col justify-between gap-4 p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-sm font-medium text-slate-600 dark:text-slate-400">{title}</h2>
          <div className="mt-2 flex items-center gap-2">{children}</div>
        </div>
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-blue-50 text-blue-600 dark:bg-blue-950 dark:text-blue-300" aria-hidden>
          {icon}
        </span>
      </div>
      {action}
    </Card>
  );
}

export function BalanceCard({ balance, loading }: { balance: number | undefined; loading: boolean }) {
  const [shown, setShown] = useState(readShowBalance);
  const toggle = () => {
    setShown((prev) => {
      localStorage.setItem(SHOW_BALANCE_KEY, String(!prev));
      return !prev;
    });
  };
  return (
    <SummaryCard
      title="Balance"
      tour="balance"
      icon={<Wallet className="h-5 w-5" />}
      action={
        <a href="#/payment/1" className={buttonClasses("default", "md", "w-full")}>
          Fund Wallet <ArrowRight className="h-4 w-4" aria-hidden />
        </a>
      }
    >
      {loading ? (
        <Skeleton className="h-8 w-32" />
      ) : (
        <p data-testid="balance-amount" className="text-2xl font-bold tabular-nums tracking-tight" aria-live="polite">
          {shown ? `${naira(balance ?? 0)}` : <span aria-label="Balance hidden">₦ ••••••</span>}
        </p>
      )}
      <button
        type="button"
        data-testid="balance-toggle"
        onClick={toggle}
        aria-pressed={shown}
        aria-label={shown ? "Hide balance" : "Show balance"}
        className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100 cursor-pointer"
      >
        {shown ? <EyeOff className="h-5 w-5" aria-hidden /> : <Eye className="h-5 w-5" aria-hidden />}
      </button>
    </SummaryCard>
  );
}

/** What a dashboard count counts, in words. */
export function countUnit(kind: "sms" | "rental", count: number): string {
  if (kind === "sms") return count === 1 ? "number bought" : "numbers bought";
  return count === 1 ? "number rented" : "numbers rented";
}

export function CountCard({
  title,
  count,
  loading,
  tour,
  to,
  actionLabel,
  kind,
}: {
  title: string;
  count: number;
  loading: boolean;
  tour: string;
  /** An app path under the hash history (web/router.tsx builds its routes untyped, so links go by path). */
  to: "/sms/1" | "/number/1";
  actionLabel: string;
  kind: "sms" | "rental";
}) {
  return (
    <SummaryCard
      title={title}
      tour={tour}
      icon={kind === "sms" ? <MessageSquareText className="h-5 w-5" /> : <PhoneCall className="h-5 w-5" />}
      action={
        <a href={`#${to}`} className={buttonClasses("outline", "md", "w-full")}>
          {actionLabel} <ArrowRight className="h-4 w-4" aria-hidden />
        </a>
      }
    >
      {loading ? (
        <Skeleton className="h-8 w-16" />
      ) : (
        // Issue 28: the spec's card title "Purchase Number" above a bare figure read "Purchase Number 9"; the figure says
        // what it counts (the title stays: it is the spec's).
        <p className="flex items-baseline gap-2" data-testid={`${kind}-count`}>
          <span className="text-2xl font-bold tabular-nums">{count}</span>
          <span className="text-sm text-slate-600 dark:text-slate-400">{countUnit(kind, count)}</span>
        </p>
      )}
    </SummaryCard>
  );
}
