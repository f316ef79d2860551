import { useState } from "react";
import { Button } from "../../components/ui/button";
import type { AdminReconcile } from "../../../schema/admin";
import { json } from "../../api/client";
import { admin, naira, useAuditLog, when } from "../api";
import { readableChange } from "../readable";
import { errorText, Loading, Panel, Table } from "../ui";
import { Filters } from "./filters";

/** Audit log with filters, and "reconcile now": balance = sum(ledger) for every customer, money conserved. */
export default function AuditPage() {
  const [filter, setFilter] = useState<Record<string, string>>({});
  const list = useAuditLog(filter);
  const [report, setReport] = useState<AdminReconcile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reconcile = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await admin.reconcile.$get().then(json));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1 className="text-xl font-semibold">Audit and reconcile</h1>
      <Panel title="Reconcile" actions={<Button size="sm" onClick={() => void reconcile()} disabled={busy}>{busy ? "Checking…" : "Reconcile now"}</Button>}>
        {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
        {report ? (
          <div className="flex flex-col gap-2 text-sm" data-testid="reconcile-report">
            <p className={report.ok ? "font-semibold text-emerald-700" : "font-semibold text-red-700"}>
              {report.ok ? "Reconciled: every balance equals the sum of its ledger rows; money is conserved." : "Differences found."}
            </p>
            <p>
              {report.customers} customers, {report.ledgerRows} ledger rows · held {naira(report.moneyHeld)} · ledger total {naira(report.ledgerTotal)}
            </p>
            <Table head={["Customer", "Balance", "Ledger", "Difference"]} rows={report.differences.map((d) => [d.email, naira(d.balance), naira(d.ledger), naira(d.difference)])} empty="No differences." />
          </div>
        ) : (
          <p className="text-sm text-slate-500">Checks balance = sum(ledger) and balance ≥ 0 for every customer.</p>
        )}
      </Panel>
      <Filters
        fields={[
          { name: "action", label: "Action (prefix)", options: ["", "setting.", "ledger.", "user.", "operator.", "deposit.", "order.", "rental.", "message."] },
          { name: "actor", label: "Operator" },
          { name: "subject", label: "Subject (id or key)" },
        ]}
        values={filter}
        onChange={setFilter}
      />
      <Panel title="Audit log">
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            label="Audit log"
            fit
            head={["When", "Who", "What", "Subject", "Before", "After", "Why"]}
            rows={list.data.map((a) => {
              const change = readableChange(a);
              return [
                <span key="w" className="block min-w-[6.5rem]">{when(a.createdAt)}</span>,
                a.actor,
                a.action,
                <span key="s" className="block font-mono text-xs">{a.subject ?? "—"}</span>,
                <span key="b" className="block whitespace-pre-line text-xs">{change.before}</span>,
                <span key="a" className="block whitespace-pre-line text-xs">{change.after}</span>,
                <span key="r" className="block whitespace-pre-line">{a.reason ?? ""}</span>,
              ];
            })}
          />
        )}
      </Panel>
    </>
  );
}
