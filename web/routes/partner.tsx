import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { naira } from "../../schema/money";
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
      {reseller.data.reseller ? <Subaccounts /> : <BecomeReseller revoked={reseller.data.status === "revoked"} />}
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

function Subaccounts() {
  const subs = useQuery(resellerSubaccountsQueryOptions());
  return (
    <>
      <p>
        Open and fund sub-accounts with your API key: see the <a className="text-blue-700 underline dark:text-blue-400" href="#/developers">API reference</a> (Sub-accounts)
        and the reseller quick-start.
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
