import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { StatusIncident, StatusIncidentCreate } from "../../../schema/status";
import * as queryKeys from "../../api/keys";
import { Input } from "../../components/ui/input";
import { json, pathParams } from "../../api/client";
import { admin, useAdminChange, when } from "../api";
import { ActionForm, Loading, Panel, Table } from "../ui";

const fieldClass = "h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900";

export const useIncidents = () =>
  useQuery({ queryKey: [...queryKeys.admin, "status-incidents"], queryFn: () => admin["status-incidents"].$get().then(json).then((r) => r.data) });

/**
 * Status incidents (issue 32): what customers read on the public status page (#/status). Posting one and resolving one
 * each need a reason, which the server writes to the audit log in the same batch; the reason never shows publicly.
 */
export default function StatusIncidentsPage() {
  const incidents = useIncidents();
  return (
    <>
      <h1 className="text-xl font-semibold">Status incidents</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Shown on the public status page (<a className="text-blue-700 underline dark:text-blue-300" href="#/status">#/status</a>) within a minute (its cache).
      </p>
      <Panel title="Post an incident">
        <PostIncidentForm />
      </Panel>
      <Panel title="Incidents">
        {incidents.isPending || incidents.isError ? (
          <Loading error={incidents.error} />
        ) : (
          <Table
            label="Status incidents"
            head={["Since", "Title", "Provider", "Resolved", ""]}
            empty="No incident was ever posted."
            rows={incidents.data.map((i) => [
              when(i.started_at),
              <span key="t" title={i.body}>{i.title}</span>,
              i.provider ?? "Whole service",
              when(i.resolved_at),
              i.resolved_at ? "" : <ResolveIncidentForm key="r" incident={i} />,
            ])}
          />
        )}
      </Panel>
    </>
  );
}

export function PostIncidentForm() {
  const post = useAdminChange((body: StatusIncidentCreate) => admin["status-incidents"].$post({ json: body }).then(json));
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  return (
    <ActionForm
      label="Post incident"
      testId="post-incident"
      onSubmit={async (reason, form) => {
        const provider = String(form.get("provider") ?? "");
        const posted = await post.mutateAsync({ title, body, provider: provider === "Swift" || provider === "Dynamic" ? provider : null, reason });
        setTitle("");
        setBody("");
        return { message: `Posted “${posted.title}”.` };
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        <span>Title (public)</span>
        <Input name="title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={120} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>What customers should know (public)</span>
        <textarea name="body" value={body} onChange={(e) => setBody(e.target.value)} required maxLength={1000} className="min-h-24 rounded-lg border border-slate-300 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Affects</span>
        <select name="provider" className={fieldClass} defaultValue="">
          <option value="">The whole service</option>
          <option value="Swift">Swift SMS</option>
          <option value="Dynamic">Dynamic SMS</option>
        </select>
      </label>
    </ActionForm>
  );
}

function ResolveIncidentForm({ incident }: { incident: StatusIncident }) {
  const resolve = useAdminChange((body: { reason: string }) =>
    admin["status-incidents"][":id"].resolve.$post({ param: pathParams({ id: String(incident.id) }), json: body }).then(json),
  );
  return <ActionForm label={`Resolve “${incident.title}”`} variant="outline" onSubmit={(reason) => resolve.mutateAsync({ reason })} />;
}
