import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { WebhookEventType, WebhookEventView } from "../../schema/api-keys";
import type { RealtimeMessage } from "../../schema/realtime";
import { getDb, type Db } from "../db/client";
import { apiKeys, users, webhookEvents } from "../db/tables";
import { configFor, type Env } from "../config";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { ownApiKey } from "./api-keys";
import { enforceCostLimit } from "./rate-limit";
import { upstreamSeams, type WebhookSend } from "../providers/test-seams";
import { deliveryFor, webhookRowsFor, type EventRow } from "./developer/webhook-events";

/**
 * Developer webhooks (docs/developer-api.md "Webhooks", decision 016). Each API key may register a URL; the events its
 * account's screens are told about (services/notify.ts) are also queued in `webhook_events`, one row per (key, event),
 * and POSTed by the key's WebhookDelivery Durable Object: signed as Standard Webhooks specifies
 * (https://www.standardwebhooks.com, "webhook-id", "webhook-timestamp", "webhook-signature: v1,<base64 HMAC-SHA256>"),
 * retried with backoff for 24 hours until a 2xx, never two events of one order out of sequence.
 */

/** PUBLIC_URL's origin (never a request's Host). */
const publicUrlOf = (env: Env): string => configFor(env).publicUrl;

/** Waits after each failed attempt: 10 attempts over 24 hours (the 10th is 23 h 51 min after the first). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 3600_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000, 8 * 3600_000];
/** A receiver that does not answer within this long counts as a failed attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Due events posted per alarm run; the alarm comes back at once for the rest. */
const BATCH = 25;

/**
 * Queues the webhook events a realtime message stands for, for every live key of `userId` (the acting account: a
 * sandbox account's events go to its test keys) that has a URL, and wakes their delivery objects. The money flows never call this: their events reach webhooks through the outbox
 * (services/kernel/outbox.ts), which builds the same rows with `webhookRowsFor` in the batch that marks the event
 * delivered.
 */
export async function queueWebhookEvents(env: Env, userId: string, message: RealtimeMessage, now = Date.now()): Promise<void> {
  const db = getDb(env.DB);
  const [u] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, userId)).limit(1);
  const { rows, keyIds } = await webhookRowsFor(env, db, userId, message, { createdAt: now, balanceKobo: u?.balanceKobo ?? 0, dedupeOf: null });
  if (rows.length === 0) return;
  await db.insert(webhookEvents).values(rows).onConflictDoNothing();
  await Promise.all(keyIds.map((k) => deliveryFor(env, k).kick(k)));
}

// ---------------------------------------------------------------------------------------------------------------
// Signing (Standard Webhooks: the secret after "whsec_" is base64; the signed content is "<id>.<timestamp>.<body>")

function base64ToBytes(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

export async function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", base64ToBytes(secret.replace(/^whsec_/, "")), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`));
  return `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Delivery (run by the key's WebhookDelivery object)


/**
 * Posts the key's due events oldest first. An event that fails holds back the later events of its subject (an order's
 * sms.ended never overtakes its sms.code); other subjects go on. Returns when to run again (null: nothing pending).
 * Idempotent: each attempt's outcome is written before the next event is read, so a re-run alarm only repeats an
 * attempt whose result was never recorded (receivers dedupe by webhook-id).
 */
export async function deliverDueWebhooks(env: Env, apiKeyId: string, now = Date.now(), send: WebhookSend = upstreamSeams.webhooks ?? fetch): Promise<number | null> {
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
    sent++;
    const outcome = await attempt(key.url, key.secret, event, now, send);
    const attempts = event.attempts + 1;
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const status = delivered ? "delivered" : delay === undefined ? "failed" : "pending";
    await db
      .update(webhookEvents)
      .set({
        status,
        attempts,
        lastResponseCode: outcome.status,
        lastError: delivered ? null : outcome.error,
        nextAttemptAt: status === "pending" ? now + delay! : event.nextAttemptAt,
        deliveredAt: delivered ? now : null,
      })
      .where(and(eq(webhookEvents.id, event.id), eq(webhookEvents.status, "pending")));
    if (status === "pending") {
      held.add(event.subject);
      next = Math.min(next ?? Infinity, now + delay!);
    } else if (status === "failed") {
      log("warn", "webhook given up after 24 hours", { apiKeyId, eventId: event.id, lastResponseCode: outcome.status });
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
        "webhook-signature": await signWebhook(secret, event.id, timestamp, event.payload),
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
// The owner's side (Settings → API)

/**
 * Where a key's events go. https only, except on a deployment whose own PUBLIC_URL is http (local development).
 * null removes the URL (queued events then fail with "no webhook URL" at their next attempt).
 */
export async function setWebhookUrl(env: Env, ownerId: string, keyId: string, url: string | null): Promise<void> {
  const db = getDb(env.DB);
  const row = await ownApiKey(db, ownerId, keyId);
  await enforceCostLimit(db, ownerId, "apiKey");
  if (row.revokedAt !== null) throw new AppError("CONFLICT", "This key is revoked.");
  if (url !== null) {
    const parsed = new URL(url);
    const localDeployment = publicUrlOf(env).startsWith("http://");
    if (parsed.protocol !== "https:" && !(localDeployment && parsed.protocol === "http:")) {
      throw new AppError("VALIDATION_FAILED", "The webhook URL must start with https://.");
    }
    if (parsed.username || parsed.password) throw new AppError("VALIDATION_FAILED", "The webhook URL cannot carry a user name or password.");
  }
  await db.update(apiKeys).set({ webhookUrl: url }).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, ownerId)));
}

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

/** The key's delivery log, newest first. */
export async function webhookLog(db: Db, ownerId: string, keyId: string): Promise<WebhookEventView[]> {
  await ownApiKey(db, ownerId, keyId);
  const rows = await db.select().from(webhookEvents).where(eq(webhookEvents.apiKeyId, keyId)).orderBy(desc(webhookEvents.createdAt), desc(sql`rowid`)).limit(100);
  return rows.map(toWebhookEventView);
}

/**
 * "Resend": the event is delivered again from a fresh start (same id and body, so a receiver that already has it
 * dedupes it), with a new 24-hour retry budget.
 */
export async function resendWebhookEvent(env: Env, ownerId: string, keyId: string, eventId: string, now = Date.now()): Promise<WebhookEventView> {
  const db = getDb(env.DB);
  const key = await ownApiKey(db, ownerId, keyId);
  await enforceCostLimit(db, ownerId, "apiKey");
  if (key.revokedAt !== null) throw new AppError("CONFLICT", "This key is revoked.");
  if (!key.webhookUrl) throw new AppError("CONFLICT", "Set a webhook URL first.");
  const [row] = await db
    .update(webhookEvents)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, lastError: null })
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.apiKeyId, keyId)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", "Webhook event not found.");
  await deliveryFor(env, keyId).kick(keyId);
  return toWebhookEventView(row);
}

/** The sweep forgets delivery records older than 30 days. */
export async function purgeWebhookEvents(db: Db, now = Date.now()): Promise<void> {
  await db.delete(webhookEvents).where(and(sql`${webhookEvents.createdAt} < ${now - 30 * 86_400_000}`, sql`${webhookEvents.status} <> 'pending'`));
}
