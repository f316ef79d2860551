import { useQuery } from "@tanstack/react-query";
import type { DeadLetterView } from "../../../schema/admin";
import * as queryKeys from "../../api/keys";
import { json, pathParams } from "../../api/client";
import { admin, useAdminChange, when } from "../api";
import { ActionForm, Loading, Panel, Table } from "../ui";

export const useDeadLetters = () =>
  useQuery({ queryKey: [...queryKeys.admin, "dead-letters"], queryFn: () => admin["dead-letters"].$get().then(json).then((r) => r.data) });

const KIND_LABELS: Record<DeadLetterView["kind"], string> = {
  webhook: "Developer webhook",
  channels: "Forward (e-mail or webhook)",
  telegram: "Telegram message",
};

/**
 * Deliveries given up (issue 44, decision 073): a developer webhook, a rental forward or a Telegram message that failed
 * for good, or a delivery job the queue gave up on. Replaying one (with a reason, audited) sends it again from a fresh
 * start, once.
 */
export default function DeadLettersPage() {
  const letters = useDeadLetters();
  return (
    <>
      <h1 className="text-xl font-semibold">Failed deliveries</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Replay one once its receiver works again: it is sent once more with the same id, so a receiver that already has it ignores it.
      </p>
      <Panel title="Dead letters">
        {letters.isPending || letters.isError ? (
          <Loading error={letters.error} />
        ) : (
          <Table
            label="Dead letters"
            head={["Given up", "Kind", "Target", "Why", "Attempts", "Replayed", ""]}
            empty="No delivery was given up."
            rows={letters.data.map((l) => [
              when(l.created_at),
              KIND_LABELS[l.kind],
              <code key="t" className="text-xs">{l.target}</code>,
              l.reason,
              String(l.attempts),
              l.replayed_at ? `${when(l.replayed_at)} by ${l.replayed_by ?? ""}` : "",
              l.replayed_at ? "" : <ReplayForm key="r" letter={l} />,
            ])}
          />
        )}
      </Panel>
    </>
  );
}

function ReplayForm({ letter }: { letter: DeadLetterView }) {
  const replay = useAdminChange((body: { reason: string }) => admin["dead-letters"][":id"].replay.$post({ param: pathParams({ id: letter.id }), json: body }).then(json));
  return <ActionForm label={`Replay ${letter.delivery_id ?? letter.target}`} variant="outline" testId={`replay-${letter.id}`} onSubmit={(reason) => replay.mutateAsync({ reason })} />;
}
