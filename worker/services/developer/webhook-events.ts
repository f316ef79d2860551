import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { WebhookEventType } from "../../../schema/api-keys";
import { koboToNaira } from "../../../schema/money";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Db } from "../../db/client";
import { apiKeys, webhookEvents } from "../../db/tables";
import { configFor, type Env } from "../../config";

/**
 * What a developer webhook event is (docs/developer-api.md "Webhooks", decision 016): the events a realtime message
 * stands for, and their `webhook_events` rows for each of the account's keys with a URL. Apart from services/webhooks.ts
 * (delivery and the owner's side) so the outbox (services/kernel/outbox.ts) can build the rows without the API-key
 * commands.
 */

/** PUBLIC_URL's origin, for links in payloads (never a request's Host: there is no request here anyway). */
const publicUrlOf = (env: Env): string => configFor(env).publicUrl;

export const WEBHOOK_EVENT_TYPES = ["sms.code", "sms.ended", "rental.sms", "rental.ended", "balance.changed"] as const;

export type EventRow = typeof webhookEvents.$inferSelect;

interface QueuedEvent {
  type: WebhookEventType;
  /** What it is about: deliveries per subject keep their order. */
  subject: string;
  /** Makes queuing the same happening twice a no-op (null: each call is its own happening). */
  dedupe: string | null;
  data: Record<string, unknown>;
}

/** The webhook events a realtime message stands for (none for toasts, failures and operators' messages). */
function eventsFor(env: Env, message: RealtimeMessage): QueuedEvent[] {
  const base = publicUrlOf(env);
  const link = (path: string) => ({ url: `${base}${path}` });
  switch (message.kind) {
    case "sms.code":
      return [
        {
          type: "sms.code",
          subject: message.orderId,
          dedupe: `sms.code:${message.orderId}:${message.code}`,
          data: { order_id: message.orderId, number: message.number, code: message.code, ...link(`/api/v1/sms/orders/${message.orderId}`) },
        },
      ];
    case "sms.ended":
      return [
        {
          type: "sms.ended",
          subject: message.orderId,
          dedupe: `sms.ended:${message.orderId}`,
          data: {
            order_id: message.orderId,
            status: message.status,
            refunded: message.refunded,
            // A "next route" chain moved on: the receiver follows the new order (null when nothing follows this one).
            next_order_id: message.nextOrderId ?? null,
            ...link(`/api/v1/sms/orders/${message.orderId}`),
          },
        },
        ...(message.refunded ? [balanceEvent(null)] : []),
      ];
    case "rental.sms":
      return [
        {
          type: "rental.sms",
          subject: message.rentalId,
          dedupe: null, // notify is called once per newly stored message (rentals.ts inserts with ON CONFLICT DO NOTHING)
          data: { rental_id: message.rentalId, sender: message.sender, text: message.text, code: message.code, ...link(`/api/v1/rentals/${message.rentalId}`) },
        },
      ];
    case "rental.ended":
      return [
        {
          type: "rental.ended",
          subject: message.rentalId,
          dedupe: `rental.ended:${message.rentalId}`,
          data: { rental_id: message.rentalId, status: message.status, refunded: message.refunded, ...link(`/api/v1/rentals/${message.rentalId}`) },
        },
        ...(message.refunded ? [balanceEvent(null)] : []),
      ];
    case "balance.changed":
      return [balanceEvent(message.balance)];
    case "payment.credited":
      return [balanceEvent(message.balance)];
    default:
      return [];
  }
}

/** balance: the new balance in naira, or null to read it when queuing (a refund's message does not carry it). */
function balanceEvent(balance: number | null): QueuedEvent {
  return { type: "balance.changed", subject: "wallet", dedupe: null, data: { balance, currency: "NGN" } };
}

/**
 * The `webhook_events` rows a realtime message stands for, one per (live key of `userId` with a URL, event), and the
 * keys to wake. `balanceKobo` fills a balance the message does not carry (a refund's); `dedupeOf` names an event that
 * has no natural dedupe key (a balance change), so building the rows again for the same happening (the outbox's
 * retried delivery) queues nothing twice. Insert them with ON CONFLICT DO NOTHING.
 */
export async function webhookRowsFor(
  env: Env,
  db: Db,
  userId: string,
  message: RealtimeMessage,
  opts: { createdAt: number; balanceKobo: number; dedupeOf: ((type: WebhookEventType) => string) | null },
): Promise<{ rows: EventRow[]; keyIds: string[] }> {
  const events = eventsFor(env, message);
  if (events.length === 0) return { rows: [], keyIds: [] };
  const keys = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.actingUserId, userId), isNull(apiKeys.revokedAt), isNotNull(apiKeys.webhookUrl)));
  if (keys.length === 0) return { rows: [], keyIds: [] };
  for (const e of events) {
    if (e.type === "balance.changed" && e.data.balance === null) e.data.balance = koboToNaira(opts.balanceKobo);
    if (e.dedupe === null && opts.dedupeOf) e.dedupe = opts.dedupeOf(e.type);
  }
  const rows = keys.flatMap((k) => events.map((e, i) => newEventRow(k.id, e, opts.createdAt + i)));
  return { rows, keyIds: keys.map((k) => k.id) };
}

function newEventRow(apiKeyId: string, e: QueuedEvent, createdAt: number): EventRow {
  const id = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
  // The body the receiver gets: id and timestamp inside too, so a stored body alone can be deduplicated and ordered.
  const payload = JSON.stringify({ id, type: e.type, created_at: new Date(createdAt).toISOString(), data: e.data });
  return {
    id,
    apiKeyId,
    type: e.type,
    subject: e.subject,
    dedupeKey: e.dedupe ?? id,
    payload,
    status: "pending",
    attempts: 0,
    lastResponseCode: null,
    lastError: null,
    nextAttemptAt: createdAt,
    createdAt,
    deliveredAt: null,
  };
}

export function deliveryFor(env: Env, apiKeyId: string) {
  return env.WEBHOOK.get(env.WEBHOOK.idFromName(apiKeyId));
}

