import { getServerByName } from "partyserver";
import { realtimeMessageSchema, type RealtimeMessage } from "../../../schema/realtime";
import type { Env } from "../../config";
import { log } from "../../lib/log";
import { noteDoRequest } from "../../lib/run-metrics";
import { queueWebhookEvents } from "./webhooks";

/**
 * Tells a customer's open screens that something changed. Best effort by design: money and state are already in D1
 * when this runs, so a failure here is logged and swallowed (the screens still read the truth from the API).
 * Only server code can call this: the room accepts publishes through its RPC method, never from a socket, and sends
 * only to sockets whose session is still live. Closing a revoked session's sockets is services/sessions.ts'
 * revokeSessions / closeRevokedSockets.
 * The same happening is queued for the account's developer webhooks (services/webhooks.ts): one place decides what
 * a customer is told, on screen or by webhook.
 * Call it after the D1 batch that made the change, e.g. `c.executionCtx.waitUntil(notify(env, userId, msg))` in a
 * route, or awaited inside a Durable Object alarm.
 */
export async function notify(env: Env, userId: string, message: RealtimeMessage): Promise<void> {
  try {
    const parsed = realtimeMessageSchema.parse(message);
    const room = await getServerByName(env.NotificationRoom, userId);
    await room.publish(parsed);
    // Two requests to the room: partyserver's setName (getServerByName), then publish.
    noteDoRequest("NotificationRoom");
    noteDoRequest("NotificationRoom");
  } catch (err) {
    log("warn", "notify failed", { userId, kind: message.kind, error: err instanceof Error ? err.message : String(err) });
  }
  try {
    await queueWebhookEvents(env, userId, message);
  } catch (err) {
    log("error", "webhook queueing failed", { userId, kind: message.kind, error: err instanceof Error ? err.message : String(err) });
  }
}
