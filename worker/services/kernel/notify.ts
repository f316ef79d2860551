import { getServerByName } from "partyserver";
import { realtimeMessageSchema, type RealtimeMessage } from "../../../schema/realtime";
import type { Env } from "../../config";
import { log } from "../../lib/log";
import { noteDoRequest } from "../../lib/run-metrics";

/**
 * Tells a customer's open screens that something changed. Best effort by design: money and state are already in D1
 * when this runs, so a failure here is logged and swallowed (the screens still read the truth from the API).
 * Only server code can call this: the room accepts publishes through its RPC method, never from a socket, and sends
 * only to sockets whose session is still live. Closing a revoked session's sockets is services/sessions.ts'
 * revokeSessions / closeRevokedSockets.
 * This is the socket only. An event developer webhooks also get (sms.code, sms.ended, rental.*, balance.changed,
 * payment.credited) is written to the outbox in the batch that made the change (services/kernel/outbox.ts
 * outboxInsert), and its delivery calls this: a toast, a payment's failure or an operator's refresh comes here directly.
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
}
