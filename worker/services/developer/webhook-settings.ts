import { and, desc, eq, sql } from "drizzle-orm";
import type { WebhookEventView } from "../../../schema/api-keys";
import { getDb, type Db } from "../../db/client";
import { apiKeys, webhookEvents } from "../kernel";
import { configFor, type Env } from "../../config";
import { AppError } from "../../lib/errors";
import { ownApiKey } from "./api-keys";
import { enforceCostLimit, enqueueDeliveries, toWebhookEventView } from "../kernel";

/**
 * The owner's side of developer webhooks (Settings → API and /api/v1; docs/developer-api.md "Webhooks", decision 016):
 * a key's URL, its delivery log and "resend". Queueing, signing and delivering the events is the kernel's
 * (services/kernel/webhooks.ts), since every room's notify fans out to it.
 */

/** PUBLIC_URL's origin: a local deployment (http) may register an http URL. */
const publicUrlOf = (env: Env): string => configFor(env).publicUrl;

/**
 * Where a key's events go. https only, except on a deployment whose own PUBLIC_URL is http (local development).
 * null removes the URL (queued events then fail with "no webhook URL" at their next attempt).
 */
export async function setWebhookUrl(env: Env, ownerId: string, keyId: string, url: string | null, now: number): Promise<void> {
  const db = getDb(env.DB);
  const row = await ownApiKey(db, ownerId, keyId);
  await enforceCostLimit(db, ownerId, "apiKey", now);
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
export async function resendWebhookEvent(env: Env, ownerId: string, keyId: string, eventId: string, now: number): Promise<WebhookEventView> {
  const db = getDb(env.DB);
  const key = await ownApiKey(db, ownerId, keyId);
  await enforceCostLimit(db, ownerId, "apiKey", now);
  if (key.revokedAt !== null) throw new AppError("CONFLICT", "This key is revoked.");
  if (!key.webhookUrl) throw new AppError("CONFLICT", "Set a webhook URL first.");
  const [row] = await db
    .update(webhookEvents)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, lastError: null })
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.apiKeyId, keyId)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", "Webhook event not found.");
  await enqueueDeliveries(env, [{ kind: "webhook", target: keyId }]);
  return toWebhookEventView(row);
}
