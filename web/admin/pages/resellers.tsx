import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import * as queryKeys from "../../api/keys";
import { json } from "../../api/client";
import { Input } from "../../components/ui/input";
import { admin, naira, useAdminChange, when } from "../api";
import { ActionForm, CustomerCell, Loading, Panel, Table } from "../ui";

const useResellers = () => useQuery({ queryKey: [...queryKeys.admin, "resellers"], queryFn: () => admin.resellers.$get().then(json).then((r) => r.data) });

/**
 * Resellers (issue 46, decision 072): each with its sub-accounts (open of all, what they hold: owed to its customers and
 * counted in "money held"; the count opens the reseller's sub-account list), its margin earned net of reversals and its
 * markup. Grant or revoke the role by e-mail, with
 * a reason written to the audit log in the same batch.
 */
export default function ResellersPage() {
  const resellers = useResellers();
  const setRole = useAdminChange((body: { email: string; grant: boolean; reason: string }) => admin.resellers.$post({ json: body }).then(json));
  const [email, setEmail] = useState("");
  const [grant, setGrant] = useState(true);
  return (
    <>
      <h1 className="text-xl font-semibold">Resellers</h1>
      <Panel title="Grant or revoke">
        <ActionForm label={grant ? "Grant reseller" : "Revoke reseller"} testId="reseller-role" onSubmit={(reason) => setRole.mutateAsync({ email, grant, reason })}>
          <label className="flex flex-col gap-1 text-sm">
            <span>Customer's e-mail</span>
            <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={!grant} onChange={(e) => setGrant(!e.target.checked)} />
            Revoke instead (its money stays; it opens no sub-account and buys as none)
          </label>
        </ActionForm>
      </Panel>
      <Panel title="Resellers">
        {!resellers.data ? (
          <Loading error={resellers.error} />
        ) : (
          <Table
            label="Resellers"
            head={["Since", "Reseller", "Status", "Sub-accounts (open)", "Held for its customers", "Margin earned", "Markup", "Granted by"]}
            empty="No reseller yet."
            rows={resellers.data.map((r) => [
              when(r.createdAt),
              <CustomerCell key="c" customer={{ id: r.userId, name: r.username, email: r.email, phone: "", test: false }} />,
              r.status,
              <a key="s" className="text-blue-700 underline" href={`#/admin/resellers/${encodeURIComponent(r.userId)}`}>
                {`${r.subaccounts} (${r.openSubaccounts})`}
              </a>,
              naira(r.subaccountBalance),
              naira(r.marginEarned),
              `${r.markupPercent}%`,
              r.grantedBy ?? "accepted the terms",
            ])}
          />
        )}
      </Panel>
    </>
  );
}
