import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { RentalForwardingInput } from "../../../schema/notifications";
import { rentalForwardingQueryOptions, useRentalForwardingChange } from "../../api/notifications";
import { useTelegram } from "../../api/telegram";
import { TelegramChoice } from "../settings/forwarding-card";
import { toast } from "../../lib/toast";
import { StepUpCancelled, useStepUp } from "../settings/step-up";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

/**
 * One rental's forwarding (issue 47): its messages to the account's e-mail, a webhook and/or the linked Telegram chat,
 * instead of the default in Settings → Notifications. Folded away under the inbox: most renters read the inbox itself.
 */
export function RentalForwarding({ rentalId }: { rentalId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="rental-forwarding">
      <summary className="cursor-pointer font-medium">Forward this number's messages</summary>
      {open ? <ForwardingForm rentalId={rentalId} /> : null}
    </details>
  );
}

function ForwardingForm({ rentalId }: { rentalId: string }) {
  const current = useQuery(rentalForwardingQueryOptions(rentalId));
  const change = useRentalForwardingChange(rentalId);
  const telegram = useTelegram(false);
  const { guard, dialog } = useStepUp();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  if (!current.data) return <p className="mt-2 text-slate-600 dark:text-slate-400">{current.isError ? current.error.message : "Loading..."}</p>;
  const view = current.data;
  const shownUrl = url ?? view.webhook_url ?? "";

  const save = (next: RentalForwardingInput | null, done: string) => {
    setError(undefined);
    void guard(() => change.mutateAsync(next)).then(
      () => toast.success(done),
      (err: unknown) => {
        if (err instanceof StepUpCancelled) return;
        setError(err instanceof Error ? err.message : "Not saved.");
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // The server checks the URL (https, a public address) and says what is wrong.
    save({ email: view.email, webhook_url: shownUrl.trim() ? shownUrl.trim() : null }, "Forwarding saved for this number.");
  };

  return (
    <div className="mt-2 flex flex-col gap-3">
      <p className="text-slate-600 dark:text-slate-400">{view.inherited ? "This number follows your default in Settings → Notifications." : "This number has its own forwarding."}</p>
      <label className="flex items-center gap-2">
        <input type="checkbox" className="h-4 w-4" checked={view.email} disabled={change.isPending} onChange={(e) => save({ email: e.target.checked, webhook_url: view.webhook_url }, "Forwarding saved for this number.")} />
        E-mail each message to my account's address
      </label>
      <TelegramChoice
        linked={telegram.data?.linked}
        chatName={telegram.data?.chat_name ?? null}
        checked={view.telegram}
        disabled={change.isPending}
        onChange={(on) => save({ email: view.email, webhook_url: view.webhook_url, telegram: on }, on ? "This number's messages now go to Telegram." : "This number's messages no longer go to Telegram.")}
      />
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
        <Field label="Webhook URL (https)" error={error}>
          {(p) => <Input {...p} name="rental_webhook_url" type="url" inputMode="url" value={shownUrl} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" variant="outline" disabled={change.isPending}>
            Save
          </Button>
          {!view.inherited ? (
            <Button type="button" size="sm" variant="ghost" disabled={change.isPending} onClick={() => save(null, "This number follows your default again.")}>
              Use my default
            </Button>
          ) : null}
        </div>
      </form>
      {dialog}
    </div>
  );
}
