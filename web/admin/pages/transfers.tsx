import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AdminTransferDeposit } from "../../../schema/admin";
import * as queryKeys from "../../api/keys";
import { json } from "../../api/client";
import { admin, naira, when } from "../api";
import { Loading, Panel, StateFilter, Table } from "../ui";

/**
 * Bank transfers (issue 31): every transfer Squad told us arrived, with its state (credited, in review, unmatched: an
 * account we do not know, verifying: Squad not yet asked), and the daily reconciliation of our credits against Squad's
 * transaction list, every difference listed. Review items themselves are decided in the review queue above.
 */
const TRANSFER_STATES = ["verifying", "credited", "review", "refused", "unmatched"] as const satisfies readonly AdminTransferDeposit["state"][];

export function TransferDeposits() {
  const [state, setState] = useState<AdminTransferDeposit["state"] | undefined>(undefined);
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [asked, setAsked] = useState<string | null>(null);
  const list = useQuery({
    queryKey: [...queryKeys.admin, "transfers", state],
    queryFn: () => admin.transfers.$get({ query: { state } }).then(json).then((r) => r.data),
  });
  const report = useQuery({
    queryKey: [...queryKeys.admin, "transfers-reconcile", asked],
    queryFn: () => admin.transfers.reconcile.$get({ query: { date: asked ?? "" } }).then(json),
    enabled: asked !== null,
  });
  return (
    <>
      <Panel
        title="Bank transfers"
        actions={<StateFilter states={TRANSFER_STATES} value={state} onChange={setState} />}
      >
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            head={["Received", "Kind", "State", "Squad says", "Account", "Customer", "Arrived", "Credited", "Squad ref", "Note"]}
            rows={list.data.map((d) => [
              when(d.received_at),
              d.kind,
              d.state,
              d.squad_status,
              d.account_number ?? "—",
              d.user?.email ?? "unknown account",
              naira(d.amount),
              d.credited_amount === null ? "—" : naira(d.credited_amount),
              d.squad_ref,
              d.detail || "",
            ])}
          />
        )}
      </Panel>
      <Panel title="Daily reconciliation (ours vs Squad's list)">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked(date);
          }}
        >
          <label className="text-sm">
            Day (UTC){" "}
            <input className="rounded border px-2 py-1" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </label>
          <button type="submit" className="rounded bg-blue-700 px-3 py-1 text-sm text-white">
            Reconcile
          </button>
        </form>
        {asked === null ? null : !report.data ? (
          <Loading error={report.error} />
        ) : (
          <div className="mt-3 flex flex-col gap-2 text-sm" data-testid="transfer-reconciliation">
            <p>
              Ours: {report.data.ours.count} ({naira(report.data.ours.amount)}) · Squad: {report.data.squad.count} ({naira(report.data.squad.amount)}) ·{" "}
              {report.data.ok ? "no differences" : `${report.data.differences.length} difference(s)`}
            </p>
            <Table
              head={["Where", "Account", "Amount", "Reference", "Note"]}
              empty="Every credit is in Squad's list and every listed transfer was credited."
              rows={report.data.differences.map((d) => [d.kind === "squad_only" ? "Squad only" : "ours only", d.account_number, naira(d.amount), d.reference, d.note])}
            />
          </div>
        )}
      </Panel>
    </>
  );
}
