import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AdminWithdrawalRow, WithdrawalState } from "../../../schema/withdrawals";
import * as queryKeys from "../../api/keys";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange, when } from "../api";
import { ActionForm, Loading, Pager, Panel, StateFilter, Table, usePages } from "../ui";

/**
 * Withdrawals (issue 45, decision 071): every cash out with its state, customer, account, the holder's name the bank
 * gave beside the verified name it was matched against, our reference and Squad's word. One waiting for approval is
 * approved or refused here with a reason (audited); above approval_threshold the approval is a request a second
 * operator approves on the Approvals page (decision 035), and the money stays held meanwhile.
 */
// Written out (type-checked against the schema's list): a value import of schema/withdrawals would bring its zod
// schemas into a chunk the customer's screens share, and the dashboard has no byte to spare (bench/web-weight.ts).
const WITHDRAWAL_STATES = ["approval", "held", "sending", "paid", "failed", "reversed", "refused"] as const satisfies readonly WithdrawalState[];

/** Rows a page: a full page means there may be older ones (the API pages like the audit log, `before` = last id). */
export const WITHDRAWALS_PAGE = 50;

export function Withdrawals() {
  const [state, setState] = useState<WithdrawalState | undefined>("approval");
  const pages = usePages();
  const before = pages.before;
  const [selected, setSelected] = useState<AdminWithdrawalRow | null>(null);
  const list = useQuery({
    queryKey: [...queryKeys.admin, "withdrawals", state, before],
    queryFn: () => admin.withdrawals.$get({ query: { state, before, limit: String(WITHDRAWALS_PAGE) } }).then(json).then((r) => r.data),
  });
  return (
    <>
      <Panel
        title="Withdrawals"
        actions={
          <StateFilter
            states={WITHDRAWAL_STATES}
            value={state}
            onChange={(next) => {
              setState(next);
              pages.reset();
            }}
          />
        }
      >
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            head={["Asked", "State", "Customer", "Amount", "Account", "Name match", "Reference", "Squad says", "Decision", ""]}
            empty="No withdrawal in this state."
            rows={list.data.map((w) => [
              when(w.created_at),
              w.state,
              w.email,
              naira(w.amount + w.fee),
              w.account,
              `${w.account_name} ↔ ${w.verified_name ?? "—"}`,
              w.reference,
              [w.squad_status, w.detail].filter(Boolean).join(": ") || "—",
              w.decided_by ? `${w.decided_by}: ${w.decision_reason ?? ""}` : "—",
              w.state === "approval" ? (
                <button key="d" type="button" className="text-blue-700 underline" onClick={() => setSelected(w)}>
                  Decide
                </button>
              ) : (
                ""
              ),
            ])}
          />
        )}
        <Pager pages={pages} rows={list.data} pageSize={WITHDRAWALS_PAGE} />
      </Panel>
      {selected ? <Decide key={selected.id} withdrawal={selected} onDone={() => setSelected(null)} /> : null}
    </>
  );
}

function Decide({ withdrawal, onDone }: { withdrawal: AdminWithdrawalRow; onDone: () => void }) {
  const param = pathParams({ id: withdrawal.id });
  const approve = useAdminChange((reason: string) => admin.withdrawals[":id"].approve.$post({ param, json: { reason } }).then(json));
  const refuse = useAdminChange((reason: string) => admin.withdrawals[":id"].refuse.$post({ param, json: { reason } }).then(json));
  return (
    <Panel title={`Withdrawal of ${naira(withdrawal.amount)} by ${withdrawal.email} to ${withdrawal.account}`}>
      <div className="grid gap-4 sm:grid-cols-2" data-testid="withdrawal-decision">
        <ActionForm
          label="Approve"
          testId="approve-withdrawal"
          onSubmit={async (reason) => {
            const answer = await approve.mutateAsync(reason);
            // Above the threshold the answer says it waits for a second operator (ActionForm shows its message).
            if (!("approval" in answer)) onDone();
            return answer;
          }}
        />
        <ActionForm label="Refuse (money back)" variant="outline" testId="refuse-withdrawal" onSubmit={(reason) => refuse.mutateAsync(reason).then(onDone)} />
      </div>
    </Panel>
  );
}
