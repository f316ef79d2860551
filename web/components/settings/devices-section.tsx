import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { SignedInDevice } from "../../../schema/accounts";
import { sessionsQueryOptions, useRevokeAllSessions, useRevokeSession } from "../../api/account-security";
import { useLogout } from "../../api/accounts";
import { useGo } from "../layout/app-link";
import { toast } from "../../lib/toast";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Dialog } from "../ui/dialog";
import { Skeleton } from "../ui/skeleton";
import { LoadError } from "../ui/load-error";
import { formatDateTime } from "../../../schema/datetime";

const when = (iso: string) => formatDateTime(iso);

/** Settings: the signed-in devices, "sign out" per device and "sign out everywhere" (their sockets close at once). */
export function DevicesSection() {
  const sessions = useQuery(sessionsQueryOptions());
  const revoke = useRevokeSession();
  const revokeAll = useRevokeAllSessions();
  const signOutHere = useLogout();
  const go = useGo();
  const [confirmAll, setConfirmAll] = useState(false);

  const signOut = (device: SignedInDevice) =>
    revoke.mutate(device.id, {
      onSuccess: () => {
        if (device.current) {
          signOutHere();
          void go("/login/1");
        } else toast.success(`${device.device} was signed out.`);
      },
      onError: (err) => toast.error(err.message),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Signed-in devices</CardTitle>
        <CardDescription>Where your account is signed in now. Sign out any device you do not recognise, then change your password.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {sessions.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : sessions.isError ? (
          <LoadError what="your signed-in devices" error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" aria-label="Signed-in devices">
            {sessions.data.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="signed-in-device">
                <div className="min-w-0">
                  <p className="flex items-center gap-2 font-medium">
                    {device.device}
                    {device.current ? <Badge variant="success">This device</Badge> : null}
                  </p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {device.place ? `${device.place} · ` : ""}Last seen {when(device.last_seen_at)} · Signed in {when(device.created_at)}
                  </p>
                </div>
                <Button variant="outline" size="sm" disabled={revoke.isPending} onClick={() => signOut(device)} aria-label={`Sign out ${device.device}${device.current ? " (this device)" : ""}`}>
                  Sign out
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button variant="destructive" onClick={() => setConfirmAll(true)}>
            Sign out everywhere
          </Button>
        </div>
      </CardContent>
      <Dialog
        open={confirmAll}
        onOpenChange={(open) => !revokeAll.isPending && setConfirmAll(open)}
        title="Sign out everywhere?"
        description="Every device signed in to your account is signed out at once, this one included. You will log in again here."
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirmAll(false)} disabled={revokeAll.isPending}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={revokeAll.isPending}
              onClick={() =>
                revokeAll.mutate(undefined, {
                  onSuccess: () => {
                    signOutHere();
                    void go("/login/1");
                  },
                  onError: (err) => toast.error(err.message),
                })
              }
            >
              {revokeAll.isPending ? "Signing out..." : "Sign out everywhere"}
            </Button>
          </>
        }
      />
    </Card>
  );
}
