import { and, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { WebhookEventType, WebhookEventView } from "../../../schema/api-keys";
import { koboToNaira } from "../../../schema/money";
import type { RealtimeMessage } from "../../../schema/realtime";
import { getDb, type Db } from "../../db/client";
import { apiKeys, users, webhookEvents } from "./tables";
import { configFor, type Env } from "../../config";
import { log } from "../../lib/log";
import type { WebhookSend } from "./deps";
import { isSubaccountWallet } from "./sandbox-accounts";
import { deadLetterInsert, enqueueDeliveries } from "./delivery-queue";

/**
 * Developer webhooks (docs/developer-api.md "Webhooks", decision 016). Each API key may register a URL; the events its
 * account's screens are told about are also queued in `webhook_events` (by the outbox's delivery, kernel/outbox.ts), one row per (key, event),
 * and POSTed by the key's delivery job (a Cloudflare Queues message, kernel/delivery-queue.ts, decision 073): signed as Standard Webhooks specifies
 * (https://www.standardwebhooks.com, "webhook-id", "webhook-timestamp", "webhook-signature: v1,<base64 HMAC-SHA256>"),
 * retried with backoff for 24 hours until a 2xx, never two events of one order out of sequence.
 */

/** PUBLIC_URL's origin, for links in payloads (never a request's Host: there is no request here anyway). */
const publicUrlOf = (env: Env): string => configFor(env).publicUrl;

export const WEBHOOK_EVENT_TYPES = ["sms.code", "sms.ended", "rental.sms", "rental.ended", "rental.renewing", "balance.changed", "payment.failed",
  "withdrawal.requested", "withdrawal.paid", "withdrawal.failed", "withdrawal.reversed",
  "subaccount.created", "subaccount.frozen", "subaccount.unfrozen", "subaccount.closed", "subaccount.transfer"] as const;

/** Waits after each failed attempt: 10 attempts over 24 hours (the 10th is 23 h 51 min after the first). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 3600_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000, 8 * 3600_000];
/** A receiver that does not answer within this long counts as a failed attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Due events posted per alarm run; the alarm comes back at once for the rest. */
const BATCH = 25;

type EventRow = typeof webhookEvents.$inferSelect;

interface QueuedEvent {
  type: WebhookEventType;
  /** What it is about: deliveries per subject keep their order. */
  subject: string;
  /** Makes queuing the same happening twice a no-op (null: each call is its own happening). */
  dedupe: string | null;
  data: Record<string, unknown>;
}

/** The webhook events a realtime message stands for (none for toasts and operators' messages). */
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
    case "rental.renewing":
      return [
        {
          type: "rental.renewing",
          subject: message.rentalId,
          // One per reminder: the renewal's expiry and how far ahead (24 h, 1 h) name the happening.
          dedupe: `rental.renewing:${message.rentalId}:${message.renewsAt}:${message.funded}`,
          data: { rental_id: message.rentalId, renews_at: message.renewsAt, price: message.price, currency: "NGN", funded: message.funded, ...link(`/api/v1/rentals/${message.rentalId}`) },
        },
      ];
    case "balance.changed":
      return [balanceEvent(message.balance)];
    case "payment.credited":
      return [balanceEvent(message.balance)];
    case "withdrawal.changed": {
      // Issue 45: withdrawal.requested (held at once, or waiting for an operator), .paid, .failed (Squad or the
      // re-query said failed, or an operator refused it: status says which), .reversed (the bank sent it back later).
      // A hold, or a hold credited back, also moves the wallet: balance.changed beside it.
      const type = withdrawalEventType[message.state];
      if (!type) return [];
      const event: QueuedEvent = {
        type,
        subject: message.withdrawalId,
        dedupe: `withdrawal.${message.state}:${message.withdrawalId}`,
        data: {
          withdrawal_id: message.withdrawalId,
          status: message.state,
          amount: message.amount,
          currency: "NGN",
          message: message.message,
          ...link(`/api/v1/withdrawals/${message.withdrawalId}`),
        },
      };
      return type === "withdrawal.paid" ? [event] : [event, balanceEvent(null)];
    }
    case "subaccount.changed": {
      // Issue 46: told to the reseller (the message is addressed to the parent), naming the sub-account. A lifecycle
      // change has one per sub-account (created, closed) or one per move (frozen, unfrozen: dedupe left to the outbox
      // row); a transfer one per transfer.
      const base = { subaccount_id: message.subaccountId, external_id: message.externalId };
      if (message.change === "transfer") {
        const t = message.transfer;
        if (!t) return [];
        return [
          {
            type: "subaccount.transfer",
            subject: message.subaccountId,
            dedupe: `subaccount.transfer:${t.id}`,
            data: { ...base, transfer_id: t.id, direction: t.direction, reason: t.reason, amount: t.amount, currency: "NGN", ...link(`/api/v1/subaccounts/${message.subaccountId}/transfers`) },
          },
        ];
      }
      const status = message.change === "frozen" ? "frozen" : message.change === "closed" ? "closed" : "active";
      const once = message.change === "created" || message.change === "closed";
      return [
        {
          type: `subaccount.${message.change}`,
          subject: message.subaccountId,
          dedupe: once ? `subaccount.${message.change}:${message.subaccountId}` : null,
          data: { ...base, status, ...link(`/api/v1/subaccounts/${message.subaccountId}`) },
        },
      ];
    }
    case "payment.failed":
      return [
        {
          type: "payment.failed",
          subject: message.paymentId,
          // One per payment and status: a replayed failure is one event.
          dedupe: `payment.failed:${message.paymentId}:${message.status}`,
          data: { payment_id: message.paymentId, status: message.status, message: message.message },
        },
      ];
    default:
      return [];
  }
}

/** The developer event a withdrawal's state is told as (none for "sending": the customer's screen only). */
const withdrawalEventType: Partial<Record<Extract<RealtimeMessage, { kind: "withdrawal.changed" }>["state"], WebhookEventType>> = {
  approval: "withdrawal.requested",
  held: "withdrawal.requested",
  paid: "withdrawal.paid",
  failed: "withdrawal.failed",
  refused: "withdrawal.failed",
  reversed: "withdrawal.reversed",
};

/** balance: the new balance in naira, or null to read it when queuing (a refund's message does not carry it). */
function balanceEvent(balance: number | null): QueuedEvent {
  return { type: "balance.changed", subject: "wallet", dedupe: null, data: { balance, currency: "NGN" } };
}

/**
 * Queues the webhook events a realtime message stands for, for every live key of `userId` (the acting account: a
 * sandbox account's events go to its test keys) that has a URL, and wakes their delivery objects. The money flows never
 * call this: their events reach webhooks through the outbox (kernel/outbox.ts), which builds the same rows with
 * `webhookRowsFor` in the batch that marks the event delivered.
 */
export async function queueWebhookEvents(env: Env, userId: string, message: RealtimeMessage, now: number): Promise<void> {
  const db = getDb(env.DB);
  const [u] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, userId)).limit(1);
  const { rows, keyIds } = await webhookRowsFor(env, db, userId, message, { createdAt: now, balanceKobo: u?.balanceKobo ?? 0, dedupeOf: null });
  if (rows.length === 0) return;
  await db.insert(webhookEvents).values(rows).onConflictDoNothing();
  await enqueueDeliveries(env, keyIds.map((target) => ({ kind: "webhook", target })));
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
  // A reseller's sub-account has no keys of its own: its events go to its parent's keys, naming it (issue 46).
  const parentId = isSubaccountWallet(userId)
    ? ((await db.select({ parentUserId: users.parentUserId }).from(users).where(eq(users.id, userId)).limit(1))[0]?.parentUserId ?? null)
    : null;
  const keys = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.actingUserId, parentId ?? userId), isNull(apiKeys.revokedAt), isNotNull(apiKeys.webhookUrl)));
  if (keys.length === 0) return { rows: [], keyIds: [] };
  for (const e of events) {
    if (parentId) e.data.subaccount_id = userId;
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

/** A dead letter's replay (services/console/dead-letters.ts): the failed event is pending again, with fresh attempts. */
export function reviveWebhookEvent(db: Db, eventId: string, now: number) {
  return db
    .update(webhookEvents)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, lastError: null })
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.status, "failed")));
}

// ---------------------------------------------------------------------------------------------------------------
// Signing: the `standardwebhooks` package (https://www.standardwebhooks.com; its reference library, the one receivers
// verify with). It is plain JavaScript over @stablelib/base64 and fast-sha256 (no Node crypto), so it runs in workerd.
// The secret is "whsec_<base64>"; the signed content "<id>.<timestamp>.<body>"; the header "v1,<base64 HMAC-SHA256>".

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestampSeconds * 1000), body);
}

// ---------------------------------------------------------------------------------------------------------------
// Delivery (run by the key's delivery job, worker/deliveries.ts)

/** How long one attempt holds its event (a claim): a second job running for the key meanwhile leaves it alone. */
const LEASE_MS = 60_000;


/**
 * Posts the key's due events oldest first. An event that fails holds back the later events of its subject (an order's
 * sms.ended never overtakes its sms.code); other subjects go on. Returns when to run again (null: nothing pending).
 * Each attempt first claims its event (next_attempt_at moved a lease ahead, attempts counted, guarded on pending and
 * due), so two jobs for one key never post one event at once, and a job that runs again finds a delivered event done;
 * only an attempt whose outcome was never recorded (the job died mid-post) is repeated once its lease passes, which
 * receivers dedupe by webhook-id. An event given up after its last retry is recorded as a dead letter in the same batch.
 */
export async function deliverDueWebhooks(env: Env, apiKeyId: string, now: number, send: WebhookSend): Promise<number | null> {
  const db = getDb(env.DB);
  const [key] = await db
    .select({ url: apiKeys.webhookUrl, secret: apiKeys.webhookSecret, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, apiKeyId))
    .limit(1);
  const pending = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.apiKeyId, apiKeyId), eq(webhookEvents.status, "pending")))
    .orderBy(webhookEvents.createdAt, sql`rowid`)
    .limit(200);
  if (pending.length === 0) return null;
  if (!key || key.revokedAt !== null || !key.url) {
    // Nowhere to deliver: the log says why; "resend" after setting a URL queues them again.
    await db
      .update(webhookEvents)
      .set({ status: "failed", lastError: !key || key.revokedAt !== null ? "key revoked" : "no webhook URL" })
      .where(inArray(webhookEvents.id, pending.map((e) => e.id)));
    return null;
  }
  const held = new Set<string>();
  let sent = 0;
  let next: number | null = null;
  for (const event of pending) {
    if (held.has(event.subject)) continue;
    if (event.nextAttemptAt > now || sent >= BATCH) {
      held.add(event.subject);
      next = Math.min(next ?? Infinity, sent >= BATCH ? now : event.nextAttemptAt);
      continue;
    }
    // The claim: only the job whose update moved the event posts it.
    const [claimed] = await db
      .update(webhookEvents)
      .set({ nextAttemptAt: now + LEASE_MS, attempts: sql`${webhookEvents.attempts} + 1` })
      .where(and(eq(webhookEvents.id, event.id), eq(webhookEvents.status, "pending"), lte(webhookEvents.nextAttemptAt, now)))
      .returning({ attempts: webhookEvents.attempts });
    if (!claimed) {
      held.add(event.subject);
      continue;
    }
    sent++;
    const outcome = await attempt(key.url, key.secret, event, now, send);
    const attempts = claimed.attempts;
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const status = delivered ? "delivered" : delay === undefined ? "failed" : "pending";
    const mark = db
      .update(webhookEvents)
      .set({
        status,
        lastResponseCode: outcome.status,
        lastError: delivered ? null : outcome.error,
        nextAttemptAt: status === "pending" ? now + delay! : event.nextAttemptAt,
        deliveredAt: delivered ? now : null,
      })
      // Only this attempt's claim records it.
      .where(and(eq(webhookEvents.id, event.id), eq(webhookEvents.status, "pending"), eq(webhookEvents.attempts, attempts)));
    if (status === "failed") {
      await db.batch([mark, deadLetterInsert(db, { kind: "webhook", target: apiKeyId, deliveryId: event.id, reason: outcome.error ?? `HTTP ${outcome.status}`, attempts }, now)]);
      log("warn", "webhook given up after 24 hours", { apiKeyId, eventId: event.id, lastResponseCode: outcome.status });
    } else {
      await mark;
    }
    if (status === "pending") {
      held.add(event.subject);
      next = Math.min(next ?? Infinity, now + delay!);
    }
  }
  return next;
}

async function attempt(url: string, secret: string, event: EventRow, now: number, send: WebhookSend): Promise<{ status: number | null; error: string | null }> {
  const timestamp = Math.floor(now / 1000);
  try {
    const res = await send(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "VirtualNum-Webhooks/1",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(secret, event.id, timestamp, event.payload),
      },
      body: event.payload,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, error: res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}` };
  } catch (err) {
    return { status: null, error: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 200) : "delivery failed" };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The delivery log's view (the owner's side, Settings → API and /api/v1, is services/developer/webhook-settings.ts)

export function toWebhookEventView(row: EventRow): WebhookEventView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: row.id,
    type: row.type as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    last_response_code: row.lastResponseCode,
    last_error: row.lastError,
    created_at: iso(row.createdAt)!,
    next_attempt_at: row.status === "pending" ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/** The sweep forgets delivery records older than 30 days. */
export async function purgeWebhookEvents(db: Db, now: number): Promise<void> {
  await db.delete(webhookEvents).where(and(sql`${webhookEvents.createdAt} < ${now - 30 * 86_400_000}`, sql`${webhookEvents.status} <> 'pending'`));
}
