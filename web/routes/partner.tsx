import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatTime } from "../../schema/datetime";
import { naira } from "../../schema/money";
import type { ResellerView } from "../../schema/resellers";
import { json, signedIn } from "../api/client";
import * as queryKeys from "../api/keys";
import { resellerQueryOptions, resellerSubaccountsQueryOptions, useBecomeReseller } from "../api/resellers";
import { useDocumentTitle } from "../components/layout/logo";

/**
 * The partner dashboard (issue 46, decision 072): become a reseller by accepting the terms, then see the sub-accounts
 * (live wallet) with their balances and statuses. Sub-accounts are opened, funded and bought as through the developer
 * API (docs/developer-api.md "Resellers"); this screen is its own lazy chunk, off the dashboard's budget.
 */
export default function PartnerPage() {
  useDocumentTitle("Partner");
  const reseller = useQuery(resellerQueryOptions());
  if (reseller.isPending) return <p className="p-4 text-slate-600">Loading…</p>;
  if (reseller.isError) return <p className="p-4 text-red-700">Could not load your reseller status. Please try again.</p>;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold tracking-tight">Partner</h1>
      {reseller.data.reseller ? (
        <>
          <Figures marginEarned={reseller.data.margin_earned} spend={reseller.data.subaccount_spend} markup={reseller.data.markup_percent} />
          {reseller.data.wholesale ? <Wholesale wholesale={reseller.data.wholesale} /> : null}
          <Subaccounts />
          <PartnerKeys />
        </>
      ) : (
        <BecomeReseller revoked={reseller.data.status === "revoked"} />
      )}
    </section>
  );
}

function BecomeReseller({ revoked }: { revoked: boolean }) {
  const become = useBecomeReseller();
  const [accepted, setAccepted] = useState(false);
  if (revoked) return <p className="text-red-700">Your reseller access was revoked. Contact support.</p>;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (accepted) become.mutate();
      }}
    >
      <p>
        Sell numbers to your own customers: give each one a sub-account, a wallet of its own that you fund from yours, and
        buy as it through the API. A sub-account never spends your money.
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />I accept the reseller terms
      </label>
      {become.isError ? <p className="text-red-700">{become.error.message}</p> : null}
      <button type="submit" disabled={!accepted || become.isPending} className="self-start rounded bg-blue-600 px-4 py-2 font-semibold text-white disabled:opacity-50">
        Become a reseller
      </button>
    </form>
  );
}

/** What the reseller earns and its customers spend (live wallet), and its flat markup (set with PUT /api/v1/markups). */
function Figures({ marginEarned, spend, markup }: { marginEarned: number; spend: number; markup: number }) {
  return (
    <dl className="flex flex-wrap gap-2 text-sm">
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Margin earned</dt>
        <dd className="text-lg font-semibold" data-testid="margin-earned">
          {naira(marginEarned)}
        </dd>
      </div>
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Sub-accounts spent</dt>
        <dd className="text-lg font-semibold" data-testid="subaccount-spend">
          {naira(spend)}
        </dd>
      </div>
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Your markup</dt>
        <dd className="text-lg font-semibold" data-testid="markup">
          {markup}%
        </dd>
      </div>
    </dl>
  );
}

type WholesaleView = NonNullable<ResellerView["wholesale"]>;

/** The dashboard's wholesale sentence (decision 074): the tier and what the next one needs, or that the top is reached. */
export function wholesaleNextLine(w: WholesaleView): string {
  return w.next
    ? `${naira(w.next.remaining)} more spend to the next tier (${w.next.name}, ${w.next.percentage}% off).`
    : "You are on the top wholesale tier.";
}

/** The wholesale tier (issue 46): the 30-day spend it is read from (refreshed about hourly), and the next tier's need. */
function Wholesale({ wholesale: w }: { wholesale: WholesaleView }) {
  return (
    <section aria-labelledby="wholesale-tier" className="rounded border p-2 text-sm dark:border-slate-700" data-testid="wholesale">
      <h2 id="wholesale-tier" className="text-lg font-semibold">
        Wholesale tier: {w.tier.name} ({w.tier.percentage}% off)
      </h2>
      <p>
        You and your sub-accounts spent <strong data-testid="wholesale-spend">{naira(w.spend_30d)}</strong> in the last 30 days
        {w.as_of ? ` (as of ${formatTime(w.as_of)})` : ""}.
      </p>
      <p data-testid="wholesale-next">{wholesaleNextLine(w)}</p>
      <p className="text-slate-600 dark:text-slate-300">
        Your price is the better of this and your deposit discount; <a className="text-blue-700 underline dark:text-blue-400" href="#/prices">every tier</a> is on the prices page.
      </p>
    </section>
  );
}

function Subaccounts() {
  const subs = useQuery(resellerSubaccountsQueryOptions());
  return (
    <>
      <p>
        Open and fund sub-accounts and set your markup with your API key (your partner keys are in{" "}
        <a className="text-blue-700 underline dark:text-blue-400" href="#/developers">Developers</a>): see the API reference (Sub-accounts, Markups) and the
        reseller quick-start.
      </p>
      {subs.isPending ? <p className="text-slate-600">Loading sub-accounts…</p> : null}
      {subs.data && subs.data.length === 0 ? <p data-testid="no-subaccounts">No sub-accounts yet.</p> : null}
      {subs.data && subs.data.length > 0 ? (
        <table className="w-full text-left text-sm" data-testid="subaccounts-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Your id</th>
              <th>Status</th>
              <th className="text-right">Balance</th>
            </tr>
          </thead>
          <tbody>
            {subs.data.map((s) => (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td>{s.external_id}</td>
                <td>{s.status}</td>
                <td className="text-right">{naira(s.balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

/** The keys a reseller's bot uses (live ones spend real money; test ones the sandbox wallet's sub-accounts). */
function PartnerKeys() {
  // Settings → API's own query (the same key, so one cache), written here rather than imported from web/api/developer.ts:
  // importing it split that module into a chunk of its own whose name the entry's preload map then carried (+16 B on
  // the dashboard's path, which is at its budget).
  const keys = useQuery({ queryKey: queryKeys.developerKeys, queryFn: () => signedIn.keys.$get().then(json).then((r) => r.data), staleTime: 0 });
  const live = keys.data?.filter((k) => k.revoked_at === null) ?? [];
  return (
    <section aria-labelledby="partner-keys">
      <h2 id="partner-keys" className="text-lg font-semibold">
        Partner API keys
      </h2>
      {keys.data && live.length === 0 ? <p>No API keys yet: create one in Settings → API.</p> : null}
      {live.length > 0 ? (
        <ul className="text-sm" data-testid="partner-keys">
          {live.map((k) => (
            <li key={k.id}>
              {k.name} · {k.prefix}… · {k.mode} · last used {k.last_used_at ? new Date(k.last_used_at).toLocaleString() : "never"}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
