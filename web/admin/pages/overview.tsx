import { useState } from "react";
import { Button } from "../../components/ui/button";
import type { AdminPeriod } from "../../../schema/admin";
import { naira, useOverview } from "../api";
import { Loading, Panel, Stat, Table } from "../ui";

const PERIODS: { value: AdminPeriod; label: string }[] = [
  { value: "today", label: "Today" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
];

/** Overview: money held and moved, margin, outcomes, upstreams and what needs an operator. Live over the socket. */
export default function OverviewPage() {
  const [period, setPeriod] = useState<AdminPeriod>("today");
  const q = useOverview(period);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Overview</h1>
        <div role="group" aria-label="Period" className="flex gap-1">
          {PERIODS.map((p) => (
            <Button key={p.value} size="sm" variant={period === p.value ? "default" : "outline"} aria-pressed={period === p.value} onClick={() => setPeriod(p.value)}>
              {p.label}
            </Button>
          ))}
        </div>
      </div>
      {!q.data ? (
        <Loading error={q.error} />
      ) : (
        <>
          <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="overview-scope">
            {q.data.includesTest
              ? "Including test activity (sandbox wallets of test API keys)."
              : "Business only: test API keys' sandbox wallets, orders and credits are left out."}
          </p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <Stat label="Customers' money held" value={naira(q.data.moneyHeld)} testId="money-held" />
            {q.data.owedToCustomers ? (
              <Stat
                label={`Owed to customers (${naira(q.data.owedToCustomers.heldForWithdrawals)} held for withdrawals)`}
                value={naira(q.data.owedToCustomers.total)}
                testId="owed-to-customers"
              />
            ) : null}
            <Stat label="Customers" value={q.data.customers} />
            <Stat label="Spend" value={naira(q.data.spend)} />
            <Stat label="Refunds" value={naira(q.data.refunds)} />
            {q.data.deposits.map((d) => (
              <Stat key={d.channel} label={`Deposits: ${d.channel} (${d.count})`} value={naira(d.amount)} />
            ))}
            <Stat label="Manual credits − debits" value={naira(q.data.manualCredits)} />
            <Stat label="Active rentals" value={q.data.activeRentals} />
          </div>
          <Panel title="Needs attention">
            <p className="mb-2 text-sm">
              <a className="text-blue-700 underline dark:text-blue-400" href="#/admin/deposits">
                Deposits in review
              </a>
              : <strong data-testid="reviews-waiting">{q.data.attention.reviews}</strong> · Stuck items: <strong>{q.data.attention.stuck.length}</strong>
            </p>
            <Table
              head={["Kind", "Id", "Status", "Since", ""]}
              rows={q.data.attention.stuck.slice(0, 20).map((s) => [
                s.kind,
                <code key="id" className="text-xs">{s.id.slice(0, 12)}</code>,
                s.status,
                s.created,
                <a key="go" className="text-blue-700 underline" href={s.kind === "payment" ? "#/admin/deposits" : "#/admin/orders"}>
                  Open
                </a>,
              ])}
              empty="Nothing stuck."
            />
          </Panel>
          <Panel title="Gross margin by provider and service">
            <Table
              head={["Provider", "Service", "Delivered", "Paid", "Upstream cost (est.)", "Margin"]}
              rows={q.data.margin.map((m) => [m.provider, m.service, m.orders, naira(m.paid), m.upstreamCost === null ? "no price on record" : naira(m.upstreamCost), m.margin === null ? "—" : naira(m.margin)])}
              empty="No delivered orders in this period."
            />
          </Panel>
          <Panel title="Orders by outcome">
            <div className="flex flex-wrap gap-2">
              {q.data.ordersByOutcome.length === 0 && <p className="text-sm text-slate-500">No orders in this period.</p>}
              {q.data.ordersByOutcome.map((o) => (
                <span key={o.status} className="rounded-full bg-slate-100 px-3 py-1 text-sm dark:bg-slate-800">
                  {o.status}: <strong>{o.count}</strong>
                </span>
              ))}
            </div>
          </Panel>
          <Panel title="Success rate and median time to code">
            <Table
              head={["Provider", "Service", "Numbers", "Codes", "Refunds", "Success", "Median to code"]}
              rows={q.data.performance.map((p) => [p.provider, p.service, p.orders, p.codes, p.refunds, `${p.successRate}%`, p.medianSecondsToCode === null ? "—" : `${p.medianSecondsToCode} s`])}
              empty="No orders in this period."
            />
          </Panel>
          <Panel title="Upstream balances">
            <Table
              head={["Provider", "Status", "Balance (US$)", "Floor (US$)"]}
              rows={q.data.upstreams.map((u) => [u.provider, u.status, u.balanceUsd ?? "—", u.floorUsd ?? "—"])}
              empty="No upstream health reading yet (the sweep records one every run)."
            />
          </Panel>
          <Panel title="Upstream slots in use">
            <Table
              head={["Upstream", "Account", "In use", "Limit"]}
              rows={(q.data.slots ?? []).map((s) => [s.upstream, `#${s.account + 1}`, s.inUse, s.limit ?? "none"])}
              empty="No number is waiting for a code."
            />
          </Panel>
        </>
      )}
    </>
  );
}
