import { useQuery } from "@tanstack/react-query";
import { useLayoutEffect } from "react";
import type { PublicStatus, StatusIncident, StatusProvider, StatusWindow } from "../../schema/status";
import { publicStatusQueryOptions } from "../api/status";
import { useDocumentTitle } from "../components/layout/logo";
import { StatusLoading, StatusShell } from "../components/status/status-shell";
import { Badge } from "../components/ui/badge";
import { LoadError } from "../components/ui/load-error";
import { formatDateTime, formatSeconds } from "../lib/format";
import { useSessionUser } from "../lib/use-session";

/** One window's figures as the page writes them: a rate and a median only from the minimum sample, always the sample. */
export function windowFigures(w: StatusWindow, minSample: number): { rate: string; median: string; sample: string } {
  const sample = `${w.orders.toLocaleString("en-NG")} ${w.orders === 1 ? "order" : "orders"}`;
  if (w.success_rate === null) {
    return { rate: "Not enough orders yet", median: "—", sample: `${sample} (figures from ${minSample})` };
  }
  return {
    rate: `${w.success_rate.toFixed(1)}% got a code`,
    median: w.median_seconds_to_code === null ? "—" : `code in ${formatSeconds(w.median_seconds_to_code)} (median)`,
    sample: `from ${sample}`,
  };
}

/** Up now, down, or not checked yet: the last upstream health check's answer. */
export function upNow(p: Pick<StatusProvider, "up">): { label: string; variant: "success" | "destructive" | "secondary" } {
  if (p.up === null) return { label: "Not checked yet", variant: "secondary" };
  return p.up ? { label: "Up now", variant: "success" } : { label: "Down now", variant: "destructive" };
}

/**
 * The public status page (#/status, issue 32): no sign-in, its own lazy chunk, over GET /api/status (cached at the
 * edge: every visitor shares one answer). Index.html carries this page's frame prerendered (StatusShell); once this
 * chunk renders the same frame with the figures, the prerendered copy is dropped.
 */
export default function StatusPage() {
  useDocumentTitle("Service status");
  const user = useSessionUser();
  const status = useQuery(publicStatusQueryOptions());
  // The same frame now renders here: the prerendered copy goes before the browser paints both.
  useLayoutEffect(() => document.getElementById("status-shell")?.remove(), []);
  return (
    <StatusShell signedIn={Boolean(user)}>
      {status.isPending ? (
        <StatusLoading />
      ) : status.isError ? (
        <LoadError what="the status figures" error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <StatusFigures status={status.data} />
      )}
    </StatusShell>
  );
}

const section = "flex flex-col gap-3";
const h2 = "text-xl font-semibold";

export function StatusFigures({ status }: { status: PublicStatus }) {
  const names = new Map(status.providers.map((p) => [p.provider, p.name]));
  const open = status.incidents.filter((i) => i.resolved_at === null);
  const past = status.incidents.filter((i) => i.resolved_at !== null);
  return (
    <>
      {open.length > 0 ? (
        <section aria-labelledby="status-open" className={section} data-testid="status-open-incidents">
          <h2 id="status-open" className={h2}>Happening now</h2>
          <ul className="flex flex-col gap-2">{open.map((i) => <Incident key={i.id} incident={i} provider={i.provider ? names.get(i.provider) ?? i.provider : null} />)}</ul>
        </section>
      ) : null}

      <section aria-labelledby="status-providers" className={section}>
        <h2 id="status-providers" className={h2}>Providers</h2>
        <ul className="grid gap-4 md:grid-cols-2" data-testid="status-providers">
          {status.providers.map((p) => {
            const up = upNow(p);
            return (
              <li key={p.provider} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800" data-provider={p.provider}>
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-lg font-semibold">{p.name}</h3>
                  <Badge variant={up.variant} title={p.checked_at ? `Checked ${formatDateTime(p.checked_at)}` : undefined}>{up.label}</Badge>
                </div>
                <dl className="grid grid-cols-2 gap-3 text-sm">
                  {(["last_7_days", "last_30_days"] as const).map((key) => {
                    const f = windowFigures(p[key], status.min_sample);
                    return (
                      <div key={key} className="flex flex-col gap-0.5" data-testid={`status-${p.provider}-${key}`}>
                        <dt className="font-medium text-slate-600 dark:text-slate-300">{key === "last_7_days" ? "Last 7 days" : "Last 30 days"}</dt>
                        <dd className="font-semibold">{f.rate}</dd>
                        <dd>{f.median}</dd>
                        <dd className="text-slate-600 dark:text-slate-300">{f.sample}</dd>
                      </div>
                    );
                  })}
                </dl>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="status-services" className={section}>
        <h2 id="status-services" className={h2}>Busiest services per country</h2>
        {status.top_services.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">No orders in the last 30 days yet.</p>
        ) : (
          <div tabIndex={0} role="region" aria-label="Busiest services per country" className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
            <table className="w-full text-left text-sm" data-testid="status-services">
              <thead className="bg-slate-50 text-xs uppercase text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-3 py-2">Country</th>
                  <th scope="col" className="px-3 py-2">Service</th>
                  <th scope="col" className="px-3 py-2">Provider</th>
                  <th scope="col" className="px-3 py-2">Last 7 days</th>
                  <th scope="col" className="px-3 py-2">Last 30 days</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {status.top_services.map((s) => (
                  <tr key={`${s.provider}:${s.country}:${s.service}`}>
                    <td className="px-3 py-2">{s.country}</td>
                    <td className="px-3 py-2">{s.service}</td>
                    <td className="px-3 py-2">{names.get(s.provider) ?? s.provider}</td>
                    {[s.last_7_days, s.last_30_days].map((w, i) => {
                      const f = windowFigures(w, status.min_sample);
                      return (
                        <td key={i} className="px-3 py-2">
                          {f.rate}
                          {f.median === "—" ? "" : `, ${f.median}`} <span className="text-slate-600 dark:text-slate-300">({f.sample})</span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="status-refunds" className={section} data-testid="status-refunds">
        <h2 id="status-refunds" className={h2}>Refunds</h2>
        <p>{status.refunds.promise}</p>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-600 dark:text-slate-300">Refunded automatically, last 30 days</dt>
            <dd className="text-lg font-semibold">{status.refunds.refunded_automatically.toLocaleString("en-NG")} orders</dd>
          </div>
          <div>
            <dt className="text-slate-600 dark:text-slate-300">Median time from purchase to refund</dt>
            <dd className="text-lg font-semibold">{status.refunds.median_seconds_to_refund === null ? "—" : formatSeconds(status.refunds.median_seconds_to_refund)}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="status-past" className={section}>
        <h2 id="status-past" className={h2}>Past incidents</h2>
        {past.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">None recorded.</p>
        ) : (
          <ul className="flex flex-col gap-2">{past.map((i) => <Incident key={i.id} incident={i} provider={i.provider ? names.get(i.provider) ?? i.provider : null} />)}</ul>
        )}
      </section>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Figures from orders that ended with or without a code (cancelled ones left out), shown from {status.min_sample} orders. Updated{" "}
        {formatDateTime(status.generated_at)}.
      </p>
    </>
  );
}

function Incident({ incident, provider }: { incident: StatusIncident; provider: string | null }) {
  const ongoing = incident.resolved_at === null;
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="status-incident">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={ongoing ? "warning" : "secondary"}>{ongoing ? "Ongoing" : "Resolved"}</Badge>
        <h3 className="font-semibold">{incident.title}</h3>
        {provider ? <span className="text-sm text-slate-600 dark:text-slate-300">· {provider}</span> : null}
      </div>
      <p className="mt-1 text-sm whitespace-pre-line">{incident.body}</p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Since {formatDateTime(incident.started_at)}{incident.resolved_at ? `, resolved ${formatDateTime(incident.resolved_at)}` : ""}
      </p>
    </li>
  );
}
