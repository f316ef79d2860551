import { useState } from "react";
import { Input } from "../../components/ui/input";
import type { AdminCustomer, GroupMailBody, GroupMailPreview, GroupMailSendBody, NotifyBody } from "../../../schema/admin";
import { json } from "../../api/client";
import { admin, useAdminChange, useCustomerSearch } from "../api";
import { ActionForm, errorText, Panel } from "../ui";

type Audience = GroupMailBody["audience"];
const NOTIFY_TARGETS = ["customer", "online"] as const satisfies readonly NotifyBody["target"][];
const NOTIFY_TYPES = ["info", "success", "warning", "error"] as const satisfies readonly NonNullable<NotifyBody["type"]>[];

/**
 * The customer a notification goes to, found by name, e-mail or phone (the customers' search) instead of a pasted
 * id (issue 43); the chosen one's id is the form's `userId`.
 */
function CustomerPicker() {
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<AdminCustomer | null>(null);
  const search = useCustomerSearch(q.trim(), q.trim().length >= 2 && !chosen);
  const matches = q.trim().length >= 2 && !chosen ? (search.data ?? []).slice(0, 5) : [];
  return (
    <div className="flex flex-col gap-1 text-sm">
      <input type="hidden" name="userId" value={chosen?.id ?? ""} />
      {chosen ? (
        <>
          <span>Customer</span>
          <p className="flex flex-wrap items-center gap-2" data-testid="notify-customer">
            <strong>{chosen.username}</strong> <span className="text-slate-600 dark:text-slate-400">{chosen.email}</span>
            <button type="button" className="text-blue-700 underline dark:text-blue-300" onClick={() => setChosen(null)}>
              Change
            </button>
          </p>
        </>
      ) : (
        <label className="flex flex-col gap-1">
          <span>Customer (for one customer): name, e-mail or phone</span>
          <Input value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
        </label>
      )}
      {matches.length > 0 ? (
        <ul aria-label="Matching customers" className="flex flex-col gap-1">
          {matches.map((c) => (
            <li key={c.id}>
              <button type="button" className="w-full rounded border border-slate-200 px-2 py-1 text-left hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800" onClick={() => setChosen(c)}>
                {c.username} · {c.email}
              </button>
            </li>
          ))}
        </ul>
      ) : q.trim().length >= 2 && !chosen && search.data ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">No customer matches.</p>
      ) : null}
    </div>
  );
}

/** Messages: a toast to one customer or everyone online; an e-mail to a group with a preview and a count first. */
export default function MessagesPage() {
  const notify = useAdminChange((body: NotifyBody) => admin.notify.$post({ json: body }).then(json));
  const send = useAdminChange((body: GroupMailSendBody) => admin.email.send.$post({ json: body }).then(json));
  const [group, setGroup] = useState("all");
  const [tier, setTier] = useState("Bronze");
  const [days, setDays] = useState(30);
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [preview, setPreview] = useState<GroupMailPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const audience: Audience = group === "tier" ? { group: "tier", tier } : group === "inactive" ? { group: "inactive", days } : { group: "all" };
  const showPreview = async () => {
    setError(null);
    try {
      setPreview(await admin.email.preview.$post({ json: { audience, subject, body } }).then(json));
    } catch (err) {
      setPreview(null);
      setError(errorText(err));
    }
  };
  return (
    <>
      <h1 className="text-xl font-semibold">Messages</h1>
      <Panel title="Notification (shows as a toast in open tabs)">
        <ActionForm
          label="Send notification"
          onSubmit={async (reason, form) => {
            // The selects below offer exactly the contract's values (the server's notifySchema refuses any other).
            const target = NOTIFY_TARGETS.find((t) => t === form.get("target")) ?? "customer";
            const type = NOTIFY_TYPES.find((t) => t === form.get("type")) ?? "info";
            const res = await notify.mutateAsync({ target, userId: String(form.get("userId") || "") || undefined, type, message: String(form.get("message")), reason });
            return res;
          }}
        >
          <div className="grid gap-2 sm:grid-cols-2">
            <label className="flex flex-col gap-1 text-sm">
              <span>To</span>
              <select name="target" className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900">
                <option value="customer">One customer</option>
                <option value="online">Everyone online</option>
              </select>
            </label>
            <CustomerPicker />
            <label className="flex flex-col gap-1 text-sm">
              <span>Kind</span>
              <select name="type" className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900">
                <option>info</option>
                <option>success</option>
                <option>warning</option>
                <option>error</option>
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Text</span>
              <Input name="message" required maxLength={300} />
            </label>
          </div>
        </ActionForm>
      </Panel>
      <Panel title="E-mail to a group">
        <div className="flex flex-col gap-2">
          <div className="grid gap-2 sm:grid-cols-3">
            <label className="flex flex-col gap-1 text-sm">
              <span>Group</span>
              <select value={group} onChange={(e) => { setGroup(e.target.value); setPreview(null); }} className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900">
                <option value="all">All customers</option>
                <option value="tier">A tier</option>
                <option value="inactive">Inactive for N days</option>
              </select>
            </label>
            {group === "tier" && (
              <label className="flex flex-col gap-1 text-sm">
                <span>Tier name</span>
                <Input value={tier} onChange={(e) => { setTier(e.target.value); setPreview(null); }} />
              </label>
            )}
            {group === "inactive" && (
              <label className="flex flex-col gap-1 text-sm">
                <span>Days</span>
                <Input type="number" min={1} value={days} onChange={(e) => { setDays(Number(e.target.value)); setPreview(null); }} />
              </label>
            )}
          </div>
          <label className="flex flex-col gap-1 text-sm">
            <span>Subject</span>
            <Input value={subject} onChange={(e) => { setSubject(e.target.value); setPreview(null); }} maxLength={150} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>Message</span>
            <textarea value={body} onChange={(e) => { setBody(e.target.value); setPreview(null); }} maxLength={5000} className="min-h-32 rounded-lg border border-slate-300 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900" />
          </label>
          <button type="button" onClick={() => void showPreview()} className="self-start rounded-lg border border-slate-300 px-4 py-2 text-sm">
            Preview and count
          </button>
          {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
          {preview && (
            <div className="flex flex-col gap-2">
              <p className="text-sm">
                Goes to <strong>{preview.count}</strong> customer(s){preview.more ? " (the first 1000; send again for the rest)" : ""}. Unsubscribed and blocked customers are left out.
              </p>
              <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded-lg bg-slate-100 p-3 text-xs dark:bg-slate-800">{`To: ${preview.preview.to}\nSubject: ${preview.preview.subject}\n\n${preview.preview.text}`}</pre>
              <ActionForm label={`Send to ${preview.count}`} onSubmit={(reason) => send.mutateAsync({ audience, subject, body, reason, expectedCount: preview.count })} />
            </div>
          )}
        </div>
      </Panel>
    </>
  );
}
