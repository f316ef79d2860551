import { useQuery } from "@tanstack/react-query";
import type { AdminApproval, ApprovalDecisionBody } from "../../../schema/admin";
import * as queryKeys from "../../api/keys";
import { json, pathParams } from "../../api/client";
import { admin, useAdminChange, when } from "../api";
import { ActionForm, Loading, Panel, Table } from "../ui";

/**
 * Changes waiting for a second operator (issue 33, worker/services/operator-approvals.ts): large manual credits and
 * debits, a customer's two-factor reset, the approval threshold. The operator who asked sees no Approve (the server
 * answers 403 anyway) and may withdraw the request; any other operator approves or rejects it, with a reason.
 */
const useApprovals = (status: "pending" | "decided") =>
  useQuery({
    queryKey: [...queryKeys.admin, "approvals", status],
    queryFn: () => admin.approvals.$get({ query: { status } }).then(json).then((r) => r.data),
  });

function PendingApproval({ approval }: { approval: AdminApproval }) {
  const param = pathParams({ id: approval.id });
  const approve = useAdminChange((body: ApprovalDecisionBody) => admin.approvals[":id"].approve.$post({ param, json: body }).then(json));
  const reject = useAdminChange((body: ApprovalDecisionBody) => admin.approvals[":id"].reject.$post({ param, json: body }).then(json));
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-testid="pending-approval">
      <p className="font-medium">{approval.summary}</p>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Asked by {approval.requestedByMe ? "you" : approval.requestedBy} on {when(approval.createdAt)}: “{approval.reason}”. Expires {when(approval.expiresAt)}.
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        {approval.requestedByMe ? (
          <p className="text-sm text-slate-500">You asked for this change: another operator must approve it.</p>
        ) : (
          <ActionForm label="Approve" testId="approve-form" onSubmit={(reason) => approve.mutateAsync({ reason })} />
        )}
        <ActionForm label={approval.requestedByMe ? "Withdraw" : "Reject"} variant="outline" testId="reject-form" onSubmit={(reason) => reject.mutateAsync({ reason })} />
      </div>
    </li>
  );
}

export default function ApprovalsPage() {
  const pending = useApprovals("pending");
  const decided = useApprovals("decided");
  return (
    <>
      <h1 className="text-xl font-semibold">Approvals</h1>
      <Panel title="Waiting for a second operator">
        {!pending.data ? (
          <Loading error={pending.error} />
        ) : pending.data.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing waits for approval.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {pending.data.map((a) => (
              <PendingApproval key={a.id} approval={a} />
            ))}
          </ul>
        )}
      </Panel>
      <Panel title="Decided">
        {!decided.data ? (
          <Loading error={decided.error} />
        ) : (
          <Table
            head={["When", "Change", "Asked by", "Decision", "By", "Why"]}
            rows={decided.data.map((a) => [when(a.decidedAt), a.summary, a.requestedBy, a.status, a.decidedBy ?? "—", a.decisionReason ?? ""])}
            empty="No decision yet."
          />
        )}
      </Panel>
    </>
  );
}
