import { useQuery } from "@tanstack/react-query";
import { Copy } from "lucide-react";
import { useState, type FormEvent } from "react";
import { naira } from "../../../schema/money";
import { createApiKeySchema, webhookUrlSchema, type ApiKeyMode, type ApiKeyView, type CreatedApiKey } from "../../../schema/api-keys";
import { useAccount } from "../../api/account-security";
import {
  apiKeysQueryOptions,
  sandboxWalletQueryOptions,
  useCreateApiKey,
  useResendWebhookEvent,
  useRevokeApiKey,
  useSandboxTopUp,
  useSetWebhookUrl,
  webhookLogQueryOptions,
  useSetKeyScopes,
} from "../../api/developer";
import { copyText } from "../../lib/clipboard";
import { toast } from "../../lib/toast";
import { AppLink } from "../layout/app-link";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { LoadError } from "../ui/load-error";
import { StepUpCancelled, useConfirmSecurityChange, useStepUp } from "./step-up";
import { formatDateTime } from "../../../schema/datetime";

/**
 * Settings → API (issue 16): developer keys (named, shown once, prefix and last use visible, revoke at once), the free
 * sandbox wallet test keys spend, and each key's webhook URL with its delivery log and "Resend". A lazy chunk: only
 * customers who open Settings download it. Creating a key needs a verified e-mail (the server says so too: 403).
 */
export default function ApiSection() {
  const account = useAccount();
  const keys = useQuery(apiKeysQueryOptions());
  const verified = account.data?.email_verified ?? false;
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>API</CardTitle>
        <CardDescription>
          Keys for bots and resellers: the SMS-Activate protocol at <code>/stubs/handler_api.php</code> and the JSON API at{" "}
          <code>/api/v1</code>. Test keys (<code>sk_test_</code>) use the sandbox and a free test wallet; live keys (
          <code>sk_live_</code>) spend your wallet at your prices. See the{" "}
          <AppLink to="/developers" className="font-medium text-blue-700 underline dark:text-blue-400">
            API reference
          </AppLink>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {account.data && !verified ? (
          <Alert variant="warning">Verify your e-mail address (see the notice above) before creating an API key.</Alert>
        ) : null}
        <CreateKeyForm disabled={!verified} onCreated={setCreated} />
        {keys.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : keys.isError ? (
          <LoadError what="your API keys" error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No keys yet. Name one above and press Create to call the API.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" aria-label="API keys">
            {keys.data.map((key) => (
              <KeyRow key={key.id} apiKey={key} />
            ))}
          </ul>
        )}
        <SandboxWallet />
      </CardContent>
      <Dialog
        open={created !== null}
        onOpenChange={(open) => !open && setCreated(null)}
        title="Your new API key"
        description="Copy it now: it is shown only this once. We keep only a fingerprint of it."
        footer={<Button onClick={() => setCreated(null)}>I have copied it</Button>}
      >
        {created ? (
          <div className="flex flex-col gap-4">
            <Secret label="API key" value={created.secret} />
            <Secret label="Webhook signing secret" value={created.webhook_secret} />
          </div>
        ) : null}
      </Dialog>
    </Card>
  );
}

function Secret({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 text-sm dark:bg-slate-800" data-testid="shown-once-secret">
          {value}
        </code>
        <Button variant="outline" size="icon" aria-label={`Copy ${label.toLowerCase()}`} onClick={() => void copyText(value, `${label} copied.`)}>
          <Copy className="size-4" aria-hidden />
        </Button>
      </div>
    </div>
  );
}

const MODES = [
  { value: "test", label: "Test (sandbox, free test wallet)" },
  { value: "live", label: "Live (spends your wallet)" },
];

function CreateKeyForm({ disabled, onCreated }: { disabled: boolean; onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  // A key is a standing credential: creating one asks for a fresh second factor (issue 33, step-up).
  const { guard, dialog } = useStepUp();
  const [name, setName] = useState("");
  const [mode, setMode] = useState<ApiKeyMode>("test");
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = createApiKeySchema.safeParse({ name, mode });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    guard(() => create.mutateAsync(parsed.data))
      .then((key) => {
        setName("");
        onCreated(key);
      })
      .catch((err) => {
        if (!(err instanceof StepUpCancelled)) toast.error(err instanceof Error ? err.message : String(err));
      });
  };

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 lg:flex-row lg:items-end" aria-busy={create.isPending}>
        <Field label="Key name" error={error} className="min-w-0 flex-1">
          {(p) => (
            <Input
              {...p}
              name="keyName"
              placeholder="e.g. Reseller bot"
              value={name}
              disabled={disabled}
              onChange={(e) => {
                setName(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <Field label="Mode" className="min-w-0 lg:w-64">
          {(p) => <Select {...p} options={MODES} value={mode} disabled={disabled} onValueChange={(v) => setMode(v as ApiKeyMode)} />}
        </Field>
        <Button type="submit" disabled={disabled || create.isPending}>
          {create.isPending ? "Creating..." : "Create key"}
        </Button>
      </form>
      {dialog}
    </>
  );
}

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "never");

function KeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKey();
  const [confirm, setConfirm] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const revoked = apiKey.revoked_at !== null;

  return (
    <li className="flex flex-col gap-3 py-4" data-testid="api-key">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 break-words">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {apiKey.name}
            <Badge variant={apiKey.mode === "live" ? "warning" : "secondary"}>{apiKey.mode === "live" ? "Live" : "Test"}</Badge>
            {revoked ? <Badge variant="destructive">Revoked</Badge> : null}
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <code>{apiKey.prefix}…</code> · Created {when(apiKey.created_at)} · Last used {when(apiKey.last_used_at)}
            {revoked ? ` · Revoked ${when(apiKey.revoked_at)}` : ""}
          </p>
        </div>
        {revoked ? null : (
          <Button variant="outline" size="sm" onClick={() => setConfirm(true)} aria-label={`Revoke ${apiKey.name}`}>
            Revoke
          </Button>
        )}
      </div>
      {revoked ? null : <WebhookForm apiKey={apiKey} />}
      {revoked || apiKey.mode !== "live" ? null : <WithdrawScope apiKey={apiKey} />}
      {apiKey.webhook_url || showLog ? (
        <div>
          <Button variant="link" size="sm" className="px-0" aria-expanded={showLog} onClick={() => setShowLog((s) => !s)}>
            {showLog ? "Hide delivery log" : "Show delivery log"}
          </Button>
          {showLog ? <DeliveryLog apiKey={apiKey} /> : null}
        </div>
      ) : null}
      <Dialog
        open={confirm}
        onOpenChange={(open) => !revoke.isPending && setConfirm(open)}
        title={`Revoke "${apiKey.name}"?`}
        description="Programs using this key stop working on their next request. This cannot be undone."
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirm(false)} disabled={revoke.isPending}>
              Keep it
            </Button>
            <Button
              variant="destructive"
              disabled={revoke.isPending}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  onSuccess: () => {
                    setConfirm(false);
                    toast.success(`"${apiKey.name}" was revoked.`);
                  },
                  onError: (err) => toast.error(err.message),
                })
              }
            >
              {revoke.isPending ? "Revoking..." : "Revoke key"}
            </Button>
          </>
        }
      />
    </li>
  );
}

/**
 * Issue 45: a live key may be allowed to withdraw to the account's payout account (POST /api/v1/withdrawals).
 * Allowing it asks for a passkey or two-factor code (the server refuses the password alone); taking it away does not.
 */
function WithdrawScope({ apiKey }: { apiKey: ApiKeyView }) {
  const save = useSetKeyScopes();
  const { guard, dialog } = useStepUp();
  const allowed = apiKey.scopes.includes("withdraw");
  const change = (allow: boolean) =>
    guard(() => save.mutateAsync({ id: apiKey.id, scopes: allow ? ["withdraw"] : [] }))
      .then(() => toast.success(allow ? `"${apiKey.name}" can now withdraw to your payout account.` : `"${apiKey.name}" can no longer withdraw.`))
      .catch((err) => {
        if (!(err instanceof StepUpCancelled)) toast.error(err instanceof Error ? err.message : String(err));
      });
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={allowed} disabled={save.isPending} onChange={(e) => void change(e.target.checked)} aria-describedby={`withdraw-hint-${apiKey.id}`} />
        Allow this key to withdraw
      </label>
      <span id={`withdraw-hint-${apiKey.id}`} className="text-xs text-slate-600 dark:text-slate-400">
        POST /api/v1/withdrawals sends money to your payout account (Settings → Cash out). Needs a passkey or two-factor code.
      </span>
      {dialog}
    </div>
  );
}

function WebhookForm({ apiKey }: { apiKey: ApiKeyView }) {
  const save = useSetWebhookUrl();
  // Where account events go is changed only after the password or a fresh second factor (ASVS 7.5.1).
  const { guard, dialog } = useStepUp();
  const confirmChange = useConfirmSecurityChange();
  const [url, setUrl] = useState(apiKey.webhook_url ?? "");
  const [error, setError] = useState<string | undefined>();

  const submit = (value: string | null) => {
    const parsed = webhookUrlSchema.safeParse({ url: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    guard(() => save.mutateAsync({ id: apiKey.id, url: parsed.data.url }))
      .then(() => confirmChange(value ? "Webhook URL saved." : "Webhook URL removed."))
      .catch((err) => {
        if (!(err instanceof StepUpCancelled)) setError(err instanceof Error ? err.message : String(err));
      });
  };

  return (
    <>
      <form
        className="flex flex-col gap-2 lg:flex-row lg:items-end"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit(url.trim() || null);
        }}
      >
        <Field label={`Webhook URL for ${apiKey.name}`} error={error} className="min-w-0 flex-1" hint="Events are POSTed here, signed with the key's webhook secret.">
          {(p) => (
            <Input
              {...p}
              type="url"
              inputMode="url"
              placeholder="https://example.com/webhooks/virtualnum"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <Button type="submit" variant="secondary" disabled={save.isPending}>
          Save URL
        </Button>
        {apiKey.webhook_url ? (
          <Button
            variant="ghost"
            disabled={save.isPending}
            onClick={() => {
              setUrl("");
              submit(null);
            }}
          >
            Remove
          </Button>
        ) : null}
      </form>
      {dialog}
    </>
  );
}

const STATUS_BADGE = { delivered: "success", pending: "warning", failed: "destructive" } as const;

function DeliveryLog({ apiKey }: { apiKey: ApiKeyView }) {
  const log = useQuery(webhookLogQueryOptions(apiKey.id));
  const resend = useResendWebhookEvent();
  if (log.isPending) return <Skeleton className="h-12 w-full" />;
  if (log.isError) return <LoadError what="the webhook deliveries" error={log.error} onRetry={() => void log.refetch()} />;
  if (log.data.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">No events yet: each order this key places sends its events to your webhook, and they show here.</p>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={`Webhook deliveries for ${apiKey.name}`}>
        <thead className="text-xs text-slate-600 dark:text-slate-400">
          <tr>
            <th className="py-1 pr-3 font-medium">Event</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Attempts</th>
            <th className="py-1 pr-3 font-medium">Response</th>
            <th className="py-1 pr-3 font-medium">Queued</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.data.map((event) => (
            <tr key={event.id} className="border-t border-slate-200 dark:border-slate-800" data-testid="webhook-event">
              <td className="py-2 pr-3">
                <span className="font-medium">{event.type}</span>
                <br />
                <code className="text-xs text-slate-600 dark:text-slate-400">{event.id}</code>
              </td>
              <td className="py-2 pr-3">
                <Badge variant={STATUS_BADGE[event.status]}>{event.status}</Badge>
              </td>
              <td className="py-2 pr-3">{event.attempts}</td>
              <td className="py-2 pr-3">{event.last_response_code ?? event.last_error ?? "—"}</td>
              <td className="py-2 pr-3">{when(event.created_at)}</td>
              <td className="py-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={resend.isPending || apiKey.revoked_at !== null || !apiKey.webhook_url}
                  aria-label={`Resend ${event.type} ${event.id}`}
                  onClick={() =>
                    resend.mutate({ keyId: apiKey.id, eventId: event.id }, { onSuccess: () => toast.success("Queued again."), onError: (err) => toast.error(err.message) })
                  }
                >
                  Resend
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SandboxWallet() {
  const wallet = useQuery(sandboxWalletQueryOptions());
  const topUp = useSandboxTopUp();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700">
      <div>
        <p className="font-medium">Test wallet</p>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="sandbox-balance">
          {wallet.data ? `${naira(wallet.data.balance)}` : "…"} · spent only by test keys on sandbox numbers
        </p>
      </div>
      <Button
        variant="outline"
        disabled={topUp.isPending}
        onClick={() => topUp.mutate(5000, { onSuccess: (r) => toast.success(`Test wallet: ${naira(r.balance)}`), onError: (err) => toast.error(err.message) })}
      >
        Add ₦5,000 test money
      </Button>
    </div>
  );
}
