import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { PasskeyView } from "../../../schema/passkeys";
import { isCeremonyCancelled, passkeyAddressProblem, passkeyErrorText, passkeysQueryOptions, passkeysSupported, useAddPasskey, useRemovePasskey, useRenamePasskey } from "../../api/passkeys";
import { toast } from "../../lib/toast";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { Skeleton } from "../ui/skeleton";
import { StepUpCancelled, useConfirmSecurityChange, useStepUp } from "./step-up";
import { formatDate } from "../../../schema/datetime";

const when = (iso: string) => formatDate(iso);

/** What to say when a passkey action fails: nothing when the customer cancelled (the browser's sheet or our dialog). */
function reportFailure(err: unknown, show: (text: string) => void) {
  if (err instanceof StepUpCancelled || isCeremonyCancelled(err)) return;
  show(passkeyErrorText(err));
}

/**
 * Settings: passkeys (issue 33, decision 034). Add one (this device's fingerprint, face or PIN, or a phone or security
 * key), name it, see when each was last used, remove it. A passkey sign-in counts as two factors.
 */
export function PasskeysSection() {
  const list = useQuery(passkeysQueryOptions());
  const add = useAddPasskey();
  const { guard, dialog } = useStepUp();
  const confirmChange = useConfirmSecurityChange();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const supported = passkeysSupported();
  const address = passkeyAddressProblem();

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    guard(() => add.mutateAsync(name))
      .then((res) => {
        setName("");
        confirmChange(res.message);
      })
      .catch((err) => reportFailure(err, setError));
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Passkeys</CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or screen lock instead of a password and code. A passkey stays on your device or in your password manager,
          and cannot be phished.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {list.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : list.isError ? (
          <LoadError what="your passkeys" error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border" aria-label="Your passkeys">
            {list.data.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} guard={guard} onChanged={confirmChange} />
            ))}
          </ul>
        )}
        {supported && address ? (
          <Alert variant="info" data-testid="passkey-address">
            {address.text}
            {address.href ? (
              <>
                {" "}
                <a className="font-medium underline underline-offset-2" href={address.href}>
                  Open this page at localhost
                </a>
              </>
            ) : null}
          </Alert>
        ) : supported ? (
          <form onSubmit={onAdd} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-busy={add.isPending}>
            <Field label="Name for the new passkey (optional)" className="flex-1">
              {(p) => <Input {...p} name="passkeyName" maxLength={60} placeholder="e.g. My phone" value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? "Waiting for your device..." : "Add a passkey"}
            </Button>
          </form>
        ) : (
          <Alert variant="info">This browser cannot create passkeys. Try a recent Chrome, Safari, Edge or Firefox.</Alert>
        )}
        {error ? <Alert variant="error">{error}</Alert> : null}
      </CardContent>
      {dialog}
    </Card>
  );
}

function PasskeyRow({
  passkey,
  guard,
  onChanged,
}: {
  passkey: PasskeyView;
  guard: <T>(action: () => Promise<T>) => Promise<T>;
  onChanged: (message: string) => void;
}) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const onRename = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: (res) => {
          setEditing(false);
          toast.success(res.message);
        },
        onError: (err) => toast.error(err.message),
      },
    );
  };

  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      {editing ? (
        <form onSubmit={onRename} className="flex flex-1 items-end gap-2">
          <Field label="Name" className="flex-1">
            {(p) => <Input {...p} name="rename" maxLength={60} autoFocus value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Button type="submit" size="sm" disabled={rename.isPending}>
            Save
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setEditing(false);
              setName(passkey.name);
            }}
          >
            Cancel
          </Button>
        </form>
      ) : (
        <div className="min-w-0">
          <p className="flex items-center gap-2 font-medium">
            <span className="truncate">{passkey.name}</span>
            {passkey.synced ? <Badge variant="secondary">Synced</Badge> : null}
          </p>
          <p className="text-sm text-muted-foreground">
            Added {when(passkey.created_at)} · {passkey.last_used_at ? `last used ${when(passkey.last_used_at)}` : "not used yet"}
          </p>
        </div>
      )}
      {editing ? null : (
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => setEditing(true)} aria-label={`Rename ${passkey.name}`}>
            Rename
          </Button>
          <Button variant="outline" size="sm" onClick={() => setConfirmRemove(true)} aria-label={`Remove ${passkey.name}`}>
            Remove
          </Button>
        </div>
      )}
      <Dialog
        open={confirmRemove}
        onOpenChange={(open) => !remove.isPending && setConfirmRemove(open)}
        title={`Remove "${passkey.name}"?`}
        description="You will no longer be able to sign in with it. Remove it from the device or password manager too."
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirmRemove(false)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => {
                setConfirmRemove(false);
                guard(() => remove.mutateAsync(passkey.id))
                  .then((res) => onChanged(res.message))
                  .catch((err) => reportFailure(err, (text) => toast.error(text)));
              }}
            >
              {remove.isPending ? "Removing..." : "Remove"}
            </Button>
          </>
        }
      />
    </li>
  );
}
