import { useState } from "react";
import { PAYMENT_STATUSES } from "../../../schema/constants";
import type { ReasonBody } from "../../../schema/admin";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange, useDeposits, when } from "../api";
import { ActionForm, CustomerCell, Loading, Panel, Table } from "../ui";
import { arrivedText, invoicedText, shortfallText, statusText } from "../deposit-amounts";
import { Filters } from "./filters";
import { ReviewQueue } from "./review-queue";
import { TransferDeposits } from "./transfers";
import { Withdrawals } from "./withdrawals";

/**
 * Deposits: the review queue first (what waits for a decision), then card and crypto payments with filters; verify one
 * again with its provider (credited once, by ledger key).
 */
export default function DepositsPage() {
  const [filter, setFilter] = useState<Record<string, string>>({ stuck: "" });
  const list = useDeposits(filter);
  const [selected, setSelected] = useState<string | null>(null);
  const verify = useAdminChange(({ id, reason }: ReasonBody & { id: string }) => admin.deposits[":id"].verify.$post({ param: pathParams({ id }), json: { reason } }).then(json));
  return (
    <>
      <h1 className="text-xl font-semibold">Deposits</h1>
      <ReviewQueue />
      <Filters
        fields={[
          { name: "channel", label: "Channel", options: ["", "card", "transfer", "crypto"] },
          { name: "status", label: "Status", options: ["", ...PAYMENT_STATUSES] },
          { name: "customer", label: "Customer (name, e-mail or phone)" },
          { name: "stuck", label: "Pending too long", options: ["", "1"] },
        ]}
        values={filter}
        onChange={setFilter}
      />
      <Panel title="Deposits">
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            label="Deposits"
            head={["When", "Customer", "Channel", "Status", "Invoiced", "Arrived", "Credited", ""]}
            rows={list.data.map((d) => [
              when(d.createdAt),
              <CustomerCell key="c" customer={d.customer} />,
              d.channel,
              statusText(d),
              invoicedText(d),
              arrivedText(d),
              <span key="cr" className="tabular-nums">
                {naira(d.credited)}
                {shortfallText(d)}
              </span>,
              <button key="v" type="button" className="text-blue-700 underline" onClick={() => setSelected(d.id)}>
                Verify again
              </button>,
            ])}
          />
        )}
      </Panel>
      <TransferDeposits />
      <Withdrawals />
      {selected && (
        <Panel title={`Verify ${selected} with the provider`}>
          <ActionForm label="Verify again" onSubmit={(reason) => verify.mutateAsync({ id: selected, reason })} />
        </Panel>
      )}
    </>
  );
}
