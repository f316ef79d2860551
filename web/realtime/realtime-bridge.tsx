import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useSessionUser } from "../lib/use-session";
import { connectRealtime, type RealtimeOptions } from "./connection";
import { RESYNC_KEYS, handleRealtimeFrame, invalidateKeys } from "./messages";
import { setRealtimeConnected } from "./status";

/**
 * Mounted once inside the signed-in shell: one realtime socket per tab while a user is signed in, closed at logout
 * (the shell unmounts, or the stored session disappears in this or another tab). Renders nothing.
 *
 * While the socket is up, polling queries stretch to the long fallback (status.ts pollEvery). When it goes down, the
 * live queries are refetched at once: that fetch re-arms their refetchInterval at the spec's short polling, and on a
 * reconnect the same refetch catches up with any message sent while the socket was away.
 */
export function RealtimeBridge({ options }: { options?: RealtimeOptions }) {
  const queryClient = useQueryClient();
  const userId = useSessionUser()?.userId ?? null;

  useEffect(() => {
    if (!userId) return;
    const connection = connectRealtime(
      {
        onMessage: (data) => handleRealtimeFrame(queryClient, data),
        onOpen: (reconnected) => {
          setRealtimeConnected(true);
          if (reconnected) invalidateKeys(queryClient, RESYNC_KEYS);
        },
        onDown: () => {
          setRealtimeConnected(false);
          invalidateKeys(queryClient, RESYNC_KEYS);
        },
      },
      options,
    );
    return () => {
      connection.close();
      setRealtimeConnected(false);
    };
  }, [userId, queryClient, options]);

  return null;
}
