import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatDateTime } from "../../../schema/datetime";
import { PUSH_KIND_LABELS, PUSH_KINDS, type NotificationSettingsView, type PushDeviceView, type PushKind } from "../../../schema/notifications";
import { notificationSettingsQueryOptions, queryKeys, removePushDevice, useSavePushPreferences } from "../../api/notifications";
import { notificationPermission, pushSupport, rememberPushChoices, turnPushOff, turnPushOn } from "../../lib/push-device";
import { toast } from "../../lib/toast";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { Skeleton } from "../ui/skeleton";
import { ForwardingCard } from "./forwarding-card";

/**
 * Settings → Notifications (issue 47): push for this device (the browser's permission is asked only from the tap on
 * "Turn on"), the devices that receive pushes, which kinds push, "hide the code on the lock screen", and where rental
 * messages are forwarded. A lazy chunk of its own (web/routes/settings.tsx): none of it is on the dashboard's first load.
 */
export default function NotificationsSection() {
  const settings = useQuery(notificationSettingsQueryOptions());
  const view = settings.data;
  // An open tab's code alerts follow what the server says (web/lib/code-alerts.ts).
  useEffect(() => {
    if (view) rememberPushChoices(view.push.devices.some((d) => d.this_session), view.push.hide_code);
  }, [view]);

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Notifications</CardTitle>
          <CardDescription>Codes, rental messages, payments and refunds on this device even when the app is closed or the phone is locked.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {settings.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : settings.isError ? (
            <LoadError what="your notification settings" error={settings.error} onRetry={() => void settings.refetch()} />
          ) : (
            <>
              <ThisDevice view={settings.data} />
              <Devices devices={settings.data.push.devices} />
              <Choices view={settings.data} />
            </>
          )}
        </CardContent>
      </Card>
      {view ? <ForwardingCard view={view} /> : null}
    </>
  );
}

const DENIED = "Notifications are blocked for this site in this browser. Allow them in the browser's site settings, then turn push on here.";

function ThisDevice({ view }: { view: NotificationSettingsView }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(notificationPermission() === "denied" ? DENIED : null);
  const support = pushSupport();
  const mine = view.push.devices.find((d) => d.this_session);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications });

  if (support === "ios-home-screen") {
    return (
      <Alert variant="info" data-testid="ios-home-screen-note">
        On iPhone and iPad, notifications need VirtualNum on your Home Screen (iOS 16.4 or later). In Safari, tap Share, then Add to Home
        Screen; open VirtualNum from the Home Screen, sign in, and turn push on here.
      </Alert>
    );
  }
  if (support === "unsupported") return <p className="text-sm">This browser cannot receive push notifications. The app still tells you while it is open.</p>;
  if (!view.push.public_key) return <p className="text-sm">Push notifications are not available on this service yet.</p>;

  const on = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await turnPushOn(view.push.public_key!);
      if ("refused" in result) setProblem(result.refused === "denied" ? DENIED : "Push was not turned on: the browser did not allow notifications.");
      else toast.success("Push notifications are on for this device.");
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "Push could not be turned on.");
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  const off = async () => {
    setBusy(true);
    try {
      await turnPushOff(mine!.id);
      toast.success("Push notifications are off for this device.");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Push could not be turned off.");
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm" data-testid="push-status">
        {mine ? "Push is on for this device." : "Push is off for this device."}
      </p>
      {problem ? <Alert variant="error">{problem}</Alert> : null}
      <div>
        {mine ? (
          <Button variant="outline" disabled={busy} onClick={() => void off()}>
            Turn off on this device
          </Button>
        ) : (
          <Button disabled={busy} onClick={() => void on()}>
            {busy ? "Turning on..." : "Turn on for this device"}
          </Button>
        )}
      </div>
    </div>
  );
}

function Devices({ devices }: { devices: PushDeviceView[] }) {
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<string | null>(null);
  if (devices.length === 0) return null;
  const remove = async (device: PushDeviceView) => {
    setRemoving(device.id);
    try {
      await turnPushOffOrForget(device);
      toast.success(`${device.label} no longer receives pushes.`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The device could not be removed.");
    } finally {
      setRemoving(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    }
  };
  return (
    <section aria-labelledby="push-devices-title" className="flex flex-col gap-1">
      <h3 id="push-devices-title" className="text-sm font-semibold">
        Devices that receive pushes
      </h3>
      <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" aria-label="Devices that receive pushes">
        {devices.map((device) => (
          <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 py-2" data-testid="push-device">
            <div className="min-w-0">
              <p className="flex items-center gap-2 text-sm font-medium">
                {device.label}
                {device.this_session ? <Badge variant="success">This device</Badge> : null}
              </p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Since {formatDateTime(device.created_at)}
                {device.last_pushed_at ? ` · Last push ${formatDateTime(device.last_pushed_at)}` : ""} · {device.push_service}
              </p>
            </div>
            <Button variant="outline" size="sm" disabled={removing !== null} onClick={() => void remove(device)} aria-label={`Remove ${device.label}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** This device's row unsubscribes the browser too; another device's is forgotten by the server (it gets nothing more). */
async function turnPushOffOrForget(device: PushDeviceView): Promise<void> {
  if (device.this_session) {
    await turnPushOff(device.id);
    return;
  }
  await removePushDevice(device.id);
}

function Choices({ view }: { view: NotificationSettingsView }) {
  const save = useSavePushPreferences();
  const onError = (err: Error) => toast.error(err.message);
  return (
    <fieldset className="flex flex-col gap-2" disabled={save.isPending}>
      <legend className="mb-1 text-sm font-semibold">What to push</legend>
      {PUSH_KINDS.map((kind: PushKind) => (
        <label key={kind} className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="h-4 w-4" checked={view.push.kinds[kind]} onChange={(e) => save.mutate({ kinds: { [kind]: e.target.checked } }, { onError })} />
          {PUSH_KIND_LABELS[kind]}
        </label>
      ))}
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input type="checkbox" className="h-4 w-4" checked={view.push.hide_code} onChange={(e) => save.mutate({ hide_code: e.target.checked }, { onError })} />
        Hide the code on the lock screen (the notification says a code arrived; the code shows only in the app)
      </label>
    </fieldset>
  );
}
