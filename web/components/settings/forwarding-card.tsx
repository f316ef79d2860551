import { useState, type FormEvent } from "react";
import type { NotificationSettingsView, RentalForwardingInput } from "../../../schema/notifications";
import { useSaveForwardingDefaults } from "../../api/notifications";
import { useTelegram } from "../../api/telegram";
import { copyText } from "../../lib/clipboard";
import { toast } from "../../lib/toast";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { StepUpCancelled, useStepUp } from "./step-up";

/**
 * Settings → Notifications, rental forwarding by default (issue 47): every message a rented number receives, and its
 * reminders, also go where the customer reads them: an e-mail to the account's address, a webhook URL (signed like the
 * developer webhooks), the linked Telegram chat (shown while the bot is connected). A rental can choose its own (the
 * rental's inbox).
 */
export function ForwardingCard({ view }: { view: NotificationSettingsView }) {
  const save = useSaveForwardingDefaults();
  const telegram = useTelegram(false);
  const { guard, dialog } = useStepUp();
  const [url, setUrl] = useState(view.forwarding.webhook_url ?? "");
  const [error, setError] = useState<string | undefined>();

  const submit = (next: RentalForwardingInput, done?: string) => {
    setError(undefined);
    void guard(() => save.mutateAsync(next)).then(
      () => done && toast.success(done),
      (err: unknown) => {
        if (err instanceof StepUpCancelled) return;
        const message = err instanceof Error ? err.message : "Not saved.";
        setError(message);
        toast.error(message);
      },
    );
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // The server checks the URL (https, a public address) and says what is wrong; no schema is loaded for it here.
    const webhookUrl = url.trim() ? url.trim() : null;
    submit({ email: view.forwarding.email, webhook_url: webhookUrl }, webhookUrl ? "Rental messages now go to your webhook too." : "The forwarding webhook is removed.");
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Forward rental messages</CardTitle>
        <CardDescription>Every SMS your rented numbers receive (and their renewal and ending reminders), where you read it. Each rental can choose its own in its inbox.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4"
            checked={view.forwarding.email}
            disabled={save.isPending}
            onChange={(e) => submit({ email: e.target.checked, webhook_url: view.forwarding.webhook_url })}
          />
          E-mail each message, with its sender, full text and code, to {view.forwarding.email_address}
        </label>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
          <Field label="Webhook URL (https)" error={error}>
            {(p) => <Input {...p} name="webhook_url" type="url" inputMode="url" placeholder="https://example.com/rental-sms" value={url} onChange={(e) => setUrl(e.target.value)} />}
          </Field>
          <div>
            <Button type="submit" variant="outline" disabled={save.isPending}>
              Save webhook
            </Button>
          </div>
        </form>
        {view.forwarding.webhook_secret ? (
          <div className="flex flex-col gap-1 text-sm">
            <p>
              Each post is signed like our developer webhooks (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
              <code>webhook-signature</code>). Verify it with this secret:
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800" data-testid="forwarding-secret">
                {view.forwarding.webhook_secret}
              </code>
              <Button variant="outline" size="sm" onClick={() => void copyText(view.forwarding.webhook_secret!, "Secret copied.")}>
                Copy
              </Button>
            </div>
          </div>
        ) : null}
        <TelegramChoice
          linked={telegram.data?.linked}
          chatName={telegram.data?.chat_name ?? null}
          checked={view.forwarding.telegram}
          disabled={save.isPending}
          onChange={(on) => submit({ email: view.forwarding.email, webhook_url: view.forwarding.webhook_url, telegram: on })}
        />
      </CardContent>
      {dialog}
    </Card>
  );
}

/**
 * "Send them to my Telegram chat": a checkbox while a chat is linked, a pointer to Settings → Telegram while none is,
 * nothing on a deployment without a bot (linked undefined). Shared with a rental's own forwarding.
 */
export function TelegramChoice(props: { linked: boolean | undefined; chatName: string | null; checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  if (props.linked === undefined) return null;
  if (!props.linked) return <p className="text-sm text-slate-600 dark:text-slate-400">Telegram: connect our bot under Settings → Telegram to get them in your chat too.</p>;
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="h-4 w-4" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      Send each message and reminder to my Telegram chat{props.chatName ? ` (${props.chatName})` : ""}
    </label>
  );
}
