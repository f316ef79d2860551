import { and, asc, eq, inArray, lte, min, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DeliveryChannel } from "../../../schema/notifications";
import { PUSH_KINDS, type PushKind } from "../../../schema/notifications";
import type { RealtimeMessage } from "../../../schema/realtime";
import { configFor, type Env } from "../../config";
import type { Db } from "../../db/client";
import { log } from "../../lib/log";
import { webLink } from "../../lib/public-origin";
import { EmailDeliveryError } from "../../providers/email/email-sender";
import { topicFor } from "../../providers/push/web-push";
import { liveSessionIds } from "../accounts";
import { type Clock, deadLetterInsert, type DeliveryChannels, enqueueDeliveries, LOST_JOB_MS, outboxEvents, RETRY_DELAYS_MS, rowsOf, runBatch, signWebhook, type Upstreams, users } from "../kernel";
import { findRental } from "../rent";
import { forwardedRentalId, forwardWordsFor } from "./forward-message";
import { pushWordsFor, withdrawalWords } from "./push-notification";
import { channelDeliveries, notificationSettings, pushSubscriptions, rentalForwarding } from "./tables";

/**
 * The outbox's delivery channels beyond the room and the developer webhooks (issue 47, decision 069): Web Push to the
 * customer's devices and rental forwarding (e-mail, a signed webhook; Telegram's place is kept). The kernel's outbox
 * knows them only as DeliveryChannels (kernel/deps.ts), which `deliveryChannels` below is and the container hands it.
 * One small unit with two halves, so moving a channel onto a queue later replaces only the second:
 * - fan-out (`channelRowsFor`): what one outbox event makes, one `channel_deliveries` row per (event, channel, target),
 *   inserted by the outbox's delivery in the batch that marks the event delivered, so an event reaches each device and
 *   each forwarding target once however often delivery runs;
 * - sending (`deliverDueChannels`, run by the customer's delivery job on the queue, kernel/delivery-queue.ts): each row is claimed before it is
 *   sent (a lease, so two runs never send one row at once), then marked delivered, retried with backoff, dropped (the
 *   device or its session is gone) or failed (given up). A run that dies mid-send leaves its lease to expire and the
 *   row is tried again: a push service or receiver may then see it twice, which the notification's tag (it replaces),
 *   the webhook's id (receivers dedupe) and Resend's Idempotency-Key (one e-mail) absorb.
 */

type ChannelRow = typeof channelDeliveries.$inferInsert;
type SettingsRow = typeof notificationSettings.$inferSelect;

/** A push's retries: soon, then less often, never past its TTL (a code is useless after its order). */
const PUSH_RETRY_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];
/** A forward keeps trying for 24 hours, like a developer webhook (decision 016). */
const FORWARD_LIFETIME_MS = 24 * 3600_000;
/** How long a send may hold its row before another run may take it. */
const LEASE_MS = 60_000;
/** Rows sent per run; the object comes back at once for the rest. */
const BATCH = 25;

/** The muted kinds a stored choice lists (anything unreadable mutes nothing). */
export function mutedKinds(stored: string | null | undefined): Set<PushKind> {
  try {
    const list: unknown = JSON.parse(stored ?? "[]");
    return new Set(Array.isArray(list) ? (list.filter((k) => (PUSH_KINDS as readonly unknown[]).includes(k)) as PushKind[]) : []);
  } catch {
    return new Set();
  }
}

/** The outbox row the channels read (the fields delivery has at hand). */
export interface ChannelEvent {
  id: string;
  userId: string;
  createdAt: number;
}

const newId = () => `cdl_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * The rows one event makes. Reads the customer's choices, their devices whose session is still live (a signed-out or
 * revoked device gets nothing), and for a rental's event its forwarding (the rental's own, else the account's default).
 */
export async function channelRowsFor(deps: { env: Env; db: Db }, event: ChannelEvent, message: RealtimeMessage, now: number): Promise<ChannelRow[]> {
  const config = configFor(deps.env);
  const rentalId = forwardedRentalId(message);
  const { db } = deps;
  const { settingsRows, devices, forwardRows, userRows } = await runBatch(db, {
    settingsRows: rowsOf(db.select().from(notificationSettings).where(eq(notificationSettings.userId, event.userId)).limit(1)),
    devices: rowsOf(db.select({ id: pushSubscriptions.id, sessionId: pushSubscriptions.sessionId }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, event.userId))),
    forwardRows: rowsOf(db.select().from(rentalForwarding).where(and(eq(rentalForwarding.rentalId, rentalId ?? ""), eq(rentalForwarding.userId, event.userId))).limit(1)),
    userRows: rowsOf(db.select({ email: users.email }).from(users).where(eq(users.id, event.userId)).limit(1)),
  });
  const settings: SettingsRow | undefined = settingsRows[0];
  const rows: ChannelRow[] = [];
  const base = { eventId: event.id, userId: event.userId, status: "pending" as const, attempts: 0, nextAttemptAt: now, createdAt: event.createdAt };

  const push = pushWordsFor(message, { webClient: config.webClient, hideCode: settings?.hideCode ?? false, at: event.createdAt });
  if (push && devices.length > 0 && !mutedKinds(settings?.pushMuted).has(push.kind)) {
    const live = await liveSessionIds(db, [...new Set(devices.map((d) => d.sessionId))], now);
    const payload = JSON.stringify(push.payload);
    for (const device of devices.filter((d) => live.has(d.sessionId))) {
      rows.push({ ...base, id: newId(), channel: "push", target: device.id, payload, expiresAt: event.createdAt + push.ttlSeconds * 1000 });
    }
  }

  const own = forwardRows[0];
  const forward = own ? { email: own.email, webhookUrl: own.webhookUrl } : { email: settings?.forwardEmail ?? false, webhookUrl: settings?.forwardWebhookUrl ?? null };
  const to = userRows[0]?.email;
  if (rentalId && to && (forward.email || forward.webhookUrl)) {
    const rental = await findRental(db, rentalId);
    const words =
      rental && rental.userId === event.userId
        ? forwardWordsFor(message, { webClient: config.webClient, rental: { id: rentalId, number: rental.number, countryName: rental.countryName }, at: event.createdAt })
        : null;
    const expiresAt = event.createdAt + FORWARD_LIFETIME_MS;
    if (words?.email && forward.email) {
      rows.push({ ...base, id: newId(), channel: "email", target: to, payload: JSON.stringify(words.email), expiresAt });
    }
    if (words && forward.webhookUrl) {
      const id = newId();
      // The body the receiver gets, with its own id and time inside (like a developer webhook's: decision 016).
      const body = JSON.stringify({ id, type: words.webhook.type, created_at: new Date(event.createdAt).toISOString(), data: words.webhook.data });
      rows.push({ ...base, id, channel: "webhook", target: forward.webhookUrl, payload: body, expiresAt });
    }
  }
  // Issue 45: every withdrawal notice (requested, paid, failed, refused, reversed) is e-mailed too, whatever the
  // customer chose for pushes: money leaving the wallet is told where a stolen session cannot hide it.
  const withdrawalMail = message.kind === "withdrawal.changed" ? withdrawalWords(message) : null;
  if (withdrawalMail && message.kind === "withdrawal.changed" && to) {
    const text = `${message.message}.\n\nSee it in Settings → Cash out: ${webLink(config.webClient, "settings")}\n\nIf you did not ask for this withdrawal, sign out of every device from Settings → Devices and write to support at once.`;
    rows.push({ ...base, id: newId(), channel: "email", target: to, payload: JSON.stringify({ subject: withdrawalMail.title, text }), expiresAt: event.createdAt + FORWARD_LIFETIME_MS });
  }
  return rows;
}

/** True in SQL while the customer has no device and forwards nothing (the outbox's fast path: kernel/outbox.ts). */
function noChannelFor(userId: string): SQL {
  // A withdrawal's event is always e-mailed (channelRowsFor), so it never takes the fast path.
  return sql`NOT EXISTS (SELECT 1 FROM ${outboxEvents} WHERE ${outboxEvents.userId} = ${userId} AND ${outboxEvents.deliveredAt} IS NULL AND ${outboxEvents.kind} = 'withdrawal.changed')
    AND NOT EXISTS (SELECT 1 FROM ${pushSubscriptions} WHERE ${pushSubscriptions.userId} = ${userId})
    AND NOT EXISTS (SELECT 1 FROM ${notificationSettings} WHERE ${notificationSettings.userId} = ${userId} AND (${notificationSettings.forwardEmail} = 1 OR ${notificationSettings.forwardWebhookUrl} IS NOT NULL))
    AND NOT EXISTS (SELECT 1 FROM ${rentalForwarding} WHERE ${rentalForwarding.userId} = ${userId} AND (${rentalForwarding.email} = 1 OR ${rentalForwarding.webhookUrl} IS NOT NULL))`;
}

/** The channels as the kernel's outbox delivery takes them (the container builds one per env: worker/container.ts). */
export function deliveryChannels(env: Env, db: Db): DeliveryChannels {
  return {
    async fanOut(event, message, now) {
      const rows = await channelRowsFor({ env, db }, event, message, now);
      // D1 binds at most 100 parameters per statement; a row binds 14.
      const items: BatchItem<"sqlite">[] = [];
      for (let i = 0; i < rows.length; i += 6) items.push(db.insert(channelDeliveries).values(rows.slice(i, i + 6)).onConflictDoNothing());
      return items;
    },
    kick: (userId) => kickChannels(env, userId),
    noneFor: noChannelFor,
    revive: (kind, deliveryId, now) => (kind === "channels" ? reviveChannelDelivery(db, deliveryId, now) : null),
  };
}

/** Enqueues the customer's delivery job (kernel/delivery-queue.ts); a lost one is the sweep's (sweepChannels). Never throws. */
export async function kickChannels(env: Env, userId: string): Promise<void> {
  await enqueueDeliveries(env, [{ kind: "channels", target: userId }]);
}

/** A dead letter's replay (services/console/dead-letters.ts): the failed forward is pending again, for another day. */
export function reviveChannelDelivery(db: Db, deliveryId: string, now: number) {
  return db
    .update(channelDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, expiresAt: now + FORWARD_LIFETIME_MS })
    .where(and(eq(channelDeliveries.id, deliveryId), eq(channelDeliveries.status, "failed")));
}

export interface ChannelDeps {
  env: Env;
  db: Db;
  clock: Clock;
  upstreams: Pick<Upstreams, "webPush" | "email" | "webhookSend">;
}

type Outcome =
  | { kind: "delivered"; status: number | null }
  | { kind: "retry"; status: number | null; error: string; retryAfterMs?: number | null }
  | { kind: "failed"; status: number | null; error: string }
  | { kind: "dropped"; status: number | null; error: string };

type DeliveryRow = typeof channelDeliveries.$inferSelect;

/**
 * Sends the customer's due deliveries, oldest first. Returns when to run again (null: nothing left to send).
 */
export async function deliverDueChannels(deps: ChannelDeps, userId: string): Promise<number | null> {
  const { db } = deps;
  const now = deps.clock.now();
  const due = await db
    .select()
    .from(channelDeliveries)
    .where(and(eq(channelDeliveries.userId, userId), inArray(channelDeliveries.status, ["pending", "sending"]), lte(channelDeliveries.nextAttemptAt, now)))
    .orderBy(asc(channelDeliveries.createdAt), sql`rowid`)
    .limit(BATCH);
  for (const row of due) {
    const [claimed] = await db
      .update(channelDeliveries)
      .set({ status: "sending", attempts: sql`${channelDeliveries.attempts} + 1`, nextAttemptAt: now + LEASE_MS })
      .where(and(eq(channelDeliveries.id, row.id), inArray(channelDeliveries.status, ["pending", "sending"]), lte(channelDeliveries.nextAttemptAt, now)))
      .returning();
    if (!claimed) continue;
    const outcome: Outcome =
      now > claimed.expiresAt ? { kind: "failed", status: claimed.lastStatus, error: claimed.lastError ?? "not delivered in time" } : await sendSafely(deps, claimed, now);
    await record(deps, claimed, outcome, now);
  }
  if (due.length >= BATCH) return now;
  const [next] = await db
    .select({ at: min(channelDeliveries.nextAttemptAt) })
    .from(channelDeliveries)
    .where(and(eq(channelDeliveries.userId, userId), inArray(channelDeliveries.status, ["pending", "sending"])));
  return next?.at ?? null;
}

async function sendSafely(deps: ChannelDeps, row: DeliveryRow, now: number): Promise<Outcome> {
  try {
    return await send(deps, row, now);
  } catch (err) {
    return { kind: "retry", status: null, error: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 200) : "send failed" };
  }
}

function send(deps: ChannelDeps, row: DeliveryRow, now: number): Promise<Outcome> {
  const channel: DeliveryChannel = row.channel;
  switch (channel) {
    case "push":
      return sendPush(deps, row, now);
    case "email":
      return sendEmail(deps, row);
    case "webhook":
      return sendWebhook(deps, row, now);
    case "telegram":
      // The bot does not exist yet (issue 47): nothing writes these rows; one that appears is refused, not lost silently.
      return Promise.resolve({ kind: "failed", status: null, error: "Telegram forwarding is not available yet" });
  }
}

async function sendPush(deps: ChannelDeps, row: DeliveryRow, now: number): Promise<Outcome> {
  const [device] = await deps.db
    .select({ endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth, sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, row.target), eq(pushSubscriptions.userId, row.userId)))
    .limit(1);
  if (!device) return { kind: "dropped", status: null, error: "the device was removed" };
  // Checked again at the send: a session signed out after the event was fanned out gets nothing either.
  if (!(await liveSessionIds(deps.db, [device.sessionId], now)).has(device.sessionId)) return { kind: "dropped", status: null, error: "the device's session ended" };
  const sender = deps.upstreams.webPush();
  if (!sender) return { kind: "failed", status: null, error: "this deployment has no VAPID keys" };
  const payload = JSON.parse(row.payload) as { tag?: string };
  const outcome = await sender.send(device, row.payload, {
    // What is left of its TTL: the push service must not hold it past the moment it stops being useful.
    ttlSeconds: Math.max(1, Math.floor((row.expiresAt - now) / 1000)),
    urgency: "high",
    topic: await topicFor(payload.tag ?? row.eventId),
  });
  switch (outcome.kind) {
    case "delivered":
      await deps.db.update(pushSubscriptions).set({ lastPushedAt: now }).where(eq(pushSubscriptions.id, row.target));
      return { kind: "delivered", status: outcome.status };
    case "gone":
      // RFC 8030 §7.3: the subscription is no more; it is forgotten so nothing is sent to it again.
      await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.target));
      return { kind: "dropped", status: outcome.status, error: `the push service answered ${outcome.status}: the subscription is gone` };
    case "retry":
      return { kind: "retry", status: outcome.status, error: outcome.error, retryAfterMs: outcome.retryAfterMs };
    case "refused":
      return { kind: "failed", status: outcome.status, error: outcome.error };
  }
}

async function sendEmail(deps: ChannelDeps, row: DeliveryRow): Promise<Outcome> {
  const words = JSON.parse(row.payload) as { subject: string; text: string };
  try {
    await deps.upstreams.email().send({ to: row.target, subject: words.subject, text: words.text, idempotencyKey: row.id });
    return { kind: "delivered", status: null };
  } catch (err) {
    const status = err instanceof EmailDeliveryError ? (err.status ?? null) : null;
    const error = err instanceof Error ? err.message.slice(0, 200) : "not sent";
    // A refusal (4xx but throttling) would be refused again; anything else is worth another try.
    return status !== null && status >= 400 && status < 500 && status !== 429 ? { kind: "failed", status, error } : { kind: "retry", status, error };
  }
}

async function sendWebhook(deps: ChannelDeps, row: DeliveryRow, now: number): Promise<Outcome> {
  const [settings] = await deps.db.select({ secret: notificationSettings.forwardWebhookSecret }).from(notificationSettings).where(eq(notificationSettings.userId, row.userId)).limit(1);
  if (!settings?.secret) return { kind: "failed", status: null, error: "no signing secret" };
  const timestamp = Math.floor(now / 1000);
  const res = await deps.upstreams.webhookSend(row.target, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "VirtualNum-Webhooks/1",
      "webhook-id": row.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(settings.secret, row.id, timestamp, row.payload),
    },
    body: row.payload,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  await res.body?.cancel().catch(() => undefined);
  return res.status >= 200 && res.status < 300 ? { kind: "delivered", status: res.status } : { kind: "retry", status: res.status, error: `HTTP ${res.status}` };
}

async function record(deps: ChannelDeps, row: DeliveryRow, outcome: Outcome, now: number): Promise<void> {
  const base = { lastStatus: outcome.status, lastError: outcome.kind === "delivered" ? null : outcome.error };
  let set: Partial<DeliveryRow>;
  if (outcome.kind === "retry") {
    const delays = row.channel === "push" ? PUSH_RETRY_MS : RETRY_DELAYS_MS;
    const delay = Math.max(delays[Math.min(row.attempts, delays.length) - 1] ?? delays[delays.length - 1], outcome.retryAfterMs ?? 0);
    set = now + delay > row.expiresAt ? { ...base, status: "failed" } : { ...base, status: "pending", nextAttemptAt: now + delay };
  } else {
    set = { ...base, status: outcome.kind, deliveredAt: outcome.kind === "delivered" ? now : null };
  }
  const mark = deps.db
    .update(channelDeliveries)
    .set(set)
    // Only the run that holds this attempt's claim records it (a run whose lease expired finds attempts moved on).
    .where(and(eq(channelDeliveries.id, row.id), eq(channelDeliveries.status, "sending"), eq(channelDeliveries.attempts, row.attempts)));
  // A forward given up is a dead letter the operator may replay (a push past its TTL is no use to anyone).
  if (set.status === "failed" && row.channel !== "push") {
    const letter = deadLetterInsert(deps.db, { kind: "channels", target: row.userId, deliveryId: row.id, reason: outcome.kind === "delivered" ? "" : outcome.error, attempts: row.attempts }, now);
    await deps.db.batch([mark, letter]);
  } else {
    await mark;
  }
  if (set.status === "failed") log("warn", "channel delivery given up", { channel: row.channel, deliveryId: row.id, lastStatus: outcome.status });
}

/**
 * The cron sweep's part: re-enqueues the job of every customer with a delivery still due LOST_JOB_MS after its moment
 * (the job was lost), and forgets the push devices of
 * sessions that ended (the accounts room purges dead sessions on its own). Returns how many customers it woke.
 */
export async function sweepChannels(deps: { env: Env; db: Db; clock: Clock }): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectDistinct({ userId: channelDeliveries.userId })
    .from(channelDeliveries)
    .where(and(inArray(channelDeliveries.status, ["pending", "sending"]), lte(channelDeliveries.nextAttemptAt, now - LOST_JOB_MS)))
    .limit(500);
  await enqueueDeliveries(deps.env, due.map(({ userId }) => ({ kind: "channels", target: userId })));
  const devices = await deps.db.select({ id: pushSubscriptions.id, sessionId: pushSubscriptions.sessionId }).from(pushSubscriptions).limit(2000);
  // D1 binds at most 100 parameters per statement: the devices are asked about, and forgotten, 90 at a time.
  for (let i = 0; i < devices.length; i += 90) {
    const chunk = devices.slice(i, i + 90);
    const live = await liveSessionIds(deps.db, [...new Set(chunk.map((d) => d.sessionId))], now);
    const dead = chunk.filter((d) => !live.has(d.sessionId)).map((d) => d.id);
    if (dead.length > 0) await deps.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, dead));
  }
  return due.length;
}

/** The sweep forgets finished deliveries after 30 days. */
export async function purgeChannelDeliveries(db: Db, now: number): Promise<void> {
  await db.delete(channelDeliveries).where(and(inArray(channelDeliveries.status, ["delivered", "failed", "dropped"]), lte(channelDeliveries.createdAt, now - 30 * 86_400_000)));
}
