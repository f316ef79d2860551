import { getServerByName } from "partyserver";
import { realtimeMessageSchema, type RealtimeMessage } from "../../schema/realtime";
import type { Env } from "../env";
import { log } from "../lib/log";

/**
 * Tells a customer's open screens that something changed. Best effort by design: money and state are already in D1
 * when this runs, so a failure here is logged and swallowed (the screens still read the truth from the API).
 * Only server code can call this: the room accepts publishes through its RPC method, never from a socket.
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

/**
 * Closes the sockets a session opened (call it on logout and on a password change, after revoking the session).
 * New connections are already refused once the session is revoked; this ends the ones that are open. Best effort.
 */
export async function endRealtimeSession(env: Env, userId: string, sessionId: string): Promise<void> {
  try {
    const room = await getServerByName(env.NotificationRoom, userId);
    await room.closeSession(sessionId);
  } catch (err) {
    log("warn", "realtime session close failed", { userId, error: err instanceof Error ? err.message : String(err) });
  }
}
