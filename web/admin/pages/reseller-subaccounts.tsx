import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AdminSubaccountRow } from "../../../schema/admin";
import * as queryKeys from "../../api/keys";
import { json, pathParams } from "../../api/client";
import { admin, naira, when } from "../api";
import { Loading, Pager, Panel, StateFilter, Table, usePages } from "../ui";

// Written out (type-checked against the schema's list), as the withdrawals page does: no value import of schema/admin.
const SUBACCOUNT_STATES = ["active", "frozen", "closed"] as const satisfies readonly AdminSubaccountRow["status"][];

/** Rows a page: a full page means there may be older ones (the API pages like the audit log, `before` = last id). */
export const SUBACCOUNTS_PAGE = 50;

/**
 * One reseller's sub-accounts (issue 46, #/admin/resellers/<id>): its live wallet's, newest first, a state at a time,
 * each with its external id, balance (owed to the reseller's customer, inside "money held") and spend net of refunds.
 * Read only: the reseller freezes and closes them through the API.
 */
export default function ResellerSubaccountsPage({ id }: { id: string }) {
  const [status, setStatus] = useState<AdminSubaccountRow["status"] | undefined>(undefined);
  const pages = usePages();
  const list = useQuery({
    queryKey: [...queryKeys.admin, "reseller-subaccounts", id, status, pages.before],
    queryFn: () =>
      admin.resellers[":id"].subaccounts.$get({ param: pathParams({ id }), query: { status, before: pages.before, limit: String(SUBACCOUNTS_PAGE) } }).then(json),
  });
  const reseller = list.data?.reseller;
  return (
    <>
      <a className="text-sm text-blue-700 underline" href="#/admin/resellers">
        ← Resellers
      </a>
      <h1 className="text-xl font-semibold">Sub-accounts of {reseller ? `${reseller.username} (${reseller.email})` : id}</h1>
      <Panel
        title="Sub-accounts"
        actions={
          <StateFilter
            states={SUBACCOUNT_STATES}
            value={status}
            onChange={(next) => {
              setStatus(next);
              pages.reset();
            }}
          />
        }
      >
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            label="Sub-accounts"
            head={["Created", "Sub-account", "External id", "Name", "Status", "Balance", "Spend"]}
            empty={status ? `No ${status} sub-account.` : "No sub-account yet."}
            rows={list.data.data.map((s) => [when(s.createdAt), s.id, s.externalId, s.name, s.status, naira(s.balance), naira(s.spend)])}
          />
        )}
        <Pager pages={pages} rows={list.data?.data} pageSize={SUBACCOUNTS_PAGE} />
      </Panel>
    </>
  );
}
