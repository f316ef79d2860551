import { getServerByName } from "partyserver";
import { realtimeMessageSchema, type RealtimeMessage } from "../../schema/realtime";
import type { Env } from "../env";
import { log } from "../lib/log";

/**
 * Tells a customer's open screens that something changed. Best effort by design: money and state are already in D1
 * when this runs, so a failure here is logged and swallowed (the screens still read the truth from the API).
 * Only server code can call this: the room accepts publishes through its RPC method, never from a socket, and sends
 * only to sockets whose session is still live. Closing a revoked session's sockets is services/sessions.ts'
 * revokeSessions / closeRevokedSockets.
 * Call it after the D1 batch that made the change, e.g. `c.executionCtx.waitUntil(notify(env, userId, msg))` in a
 * route, or awaited inside a Durable Object alarm.
 */
export async function notify(env: Env, userId: string, message: RealtimeMessage): Promise<void> {
  try {
    const parsed = realtimeMessageSchema.parse(message);
    const room = await getServerByName(env.NotificationRoom, userId);
    await room.publish(parsed);
  } catch (err) {
    log("warn", "notify failed", { userId, kind: message.kind, error: err instanceof Error ? err.message : String(err) });
  }
}
