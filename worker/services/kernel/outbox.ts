import { and, asc, eq, isNull, lte, sql, type SQL } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Env } from "../../config";
import type { Db } from "../../db/client";
import { apiKeys, outboxEvents, webhookEvents } from "./tables";
import { log } from "../../lib/log";
import type { OutboxMessage } from "../../db/money-rows";
import type { DeliveryChannels } from "./deps";
import { rowsOf, runBatch, statement, statements } from "./money-entity";
import { webhookRowsFor } from "./webhooks";
import { enqueueDeliveries, LOST_JOB_MS } from "./delivery-queue";

/**
 * The outbox (docs/decisions/040-declared-transitions-and-outbox.md). An event a money transition tells the customer
 * (their screens' socket and their developer webhooks) is a row written in the transition's own D1 batch, guarded by
 * the same condition as its ledger row: a batch that fails or moves nothing writes no event, and a batch that commits
 * cannot lose its event. Delivery (`deliverEvents`, right after the batch, and `sweepOutbox`, from the cron sweep for
 * whatever an evicted worker left) fans each pending row out to `webhook_events` and marks it delivered in one batch,
 * then pushes it to the room: each event reaches each webhook endpoint once (a failed POST is retried with the same
 * event id, decision 016) and the room once.
 */

export { type OutboxEvent, outboxInsert, type OutboxMessage } from "../../db/money-rows";

/** What delivery needs: the push to the customer's room (services/notify.ts in production, a recorder in tests). */
export interface EventDeps {
  env: Env;
  db: Db;
  /** The same shape as services/deps.ts' Notify and Clock (written out: deps.ts builds adapters, the kernel must not). */
  notify: (userId: string, message: RealtimeMessage) => Promise<void>;
  clock: { now(): number };
  /** The delivery channels (issue 47: Web Push and forwarding; issue 48: the linked Telegram chat): absent, an event goes to the room and the webhooks only. */
  channels?: DeliveryChannels;
}

type OutboxRow = typeof outboxEvents.$inferSelect;

/** The message as the room and the webhooks get it: a balance the writer left out is the stored one. */
function messageOf(row: OutboxRow): RealtimeMessage {
  const message = JSON.parse(row.message) as OutboxMessage;
  if ((message.kind === "balance.changed" || message.kind === "payment.credited") && message.balance === undefined) {
    return { ...message, balance: koboToNaira(row.balanceKobo) } as RealtimeMessage;
  }
  return message as RealtimeMessage;
}

/**
 * Delivers one pending event: its webhook rows, its delivery channels' rows (deps.channels: issue 47's Web Push and
 * rental forwarding, issue 48's linked Telegram chat) and its "delivered" mark in one batch, so a retry after a crash queues nothing twice and
 * only the delivery whose mark moved the row pushes it to the room. Returns whether this call did.
 */
async function deliverOne(deps: EventDeps, row: OutboxRow): Promise<boolean> {
  const { db } = deps;
  const message = messageOf(row);
  const { rows, keyIds } = await webhookRowsFor(deps.env, db, row.userId, message, {
    createdAt: row.createdAt,
    balanceKobo: row.balanceKobo,
    dedupeOf: (type) => `outbox:${row.id}:${type}`,
  });
  const channelRows = (await deps.channels?.fanOut(row, message, deps.clock.now())) ?? [];
  const mark = db
    .update(outboxEvents)
    .set({ deliveredAt: deps.clock.now() })
    .where(and(eq(outboxEvents.id, row.id), isNull(outboxEvents.deliveredAt)));
  const { marked } = await runBatch(db, {
    marked: statement(mark),
    webhooks: rows.length > 0 ? statement(db.insert(webhookEvents).values(rows).onConflictDoNothing()) : null,
    channels: channelRows.length > 0 ? statements(channelRows) : null,
  });
  if (marked.written === 0) return false;
  if (channelRows.length > 0) await deps.channels?.kick(row.userId);
  try {
    await deps.notify(row.userId, message);
  } catch (err) {
    // The screens read the truth from the API; the webhooks are already queued.
    log("warn", "outbox push failed", { userId: row.userId, kind: row.kind, error: err instanceof Error ? err.message : String(err) });
  }
  // Each key's delivery job (a lost one is the sweep's: sweepOutbox).
  await enqueueDeliveries(deps.env, keyIds.map((target) => ({ kind: "webhook", target })));
  return true;
}

async function deliverPending(deps: EventDeps, where: SQL, limit: number): Promise<number> {
  return deliverRows(deps, await pendingQuery(deps.db, where, limit));
}

function pendingQuery(db: Db, where: SQL, limit: number) {
  return db
    .select()
    .from(outboxEvents)
    .where(and(isNull(outboxEvents.deliveredAt), where))
    .orderBy(asc(outboxEvents.createdAt), sql`rowid`)
    .limit(limit);
}

/** claimUnkeyedEvents' two statements (exported for the query-plan test: both are index searches). */
export function eventDeliveryStatements(db: Db, userId: string, now: number, channels?: DeliveryChannels) {
  return [
    db
      .update(outboxEvents)
      .set({ deliveredAt: now })
      .where(
        and(
          eq(outboxEvents.userId, userId),
          isNull(outboxEvents.deliveredAt),
          sql`NOT EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${apiKeys.actingUserId} = ${userId} AND ${apiKeys.revokedAt} IS NULL AND ${apiKeys.webhookUrl} IS NOT NULL)`,
          // Nor a delivery channel of their own to fan out to (a push device, forwarding, a linked Telegram chat).
          channels?.noneFor(userId),
        ),
      )
      .returning(),
    pendingQuery(db, eq(outboxEvents.userId, userId), 50),
  ] as const;
}

/**
 * Issue 30 (decision 057): the customer's pending events in one round trip of two statements instead of a read, a
 * key lookup and a mark per event. A customer with no live webhook key (almost everyone) has nothing to fan out, so
 * their pending events are claimed (marked delivered) by one compare-and-set UPDATE whose guard is that no such key
 * exists (nor a delivery channel: a push device, a forwarding target, a linked Telegram chat), in the same batch (one transaction) as the read of what is still pending after it: an event is never marked
 * delivered while a key that should get it exists, and only the call whose UPDATE moved a row pushes it (as the
 * per-event mark did). The claimed rows are pushed to the room here; what the read returns (a customer with a webhook
 * key) goes through the per-event delivery with its webhook rows, as before. Returns those rows.
 */
async function claimUnkeyedEvents(deps: EventDeps, userId: string): Promise<OutboxRow[]> {
  const [claim, read] = eventDeliveryStatements(deps.db, userId, deps.clock.now(), deps.channels);
  const { claimed, pending } = await runBatch(deps.db, { claimed: rowsOf(claim), pending: rowsOf(read) });
  // The room gets them in the order they were written (an UPDATE's RETURNING has no order of its own).
  for (const row of [...claimed].sort((a, b) => a.createdAt - b.createdAt)) {
    try {
      await deps.notify(row.userId, messageOf(row));
    } catch (err) {
      // The screens read the truth from the API; there are no webhooks to queue for this customer.
      log("warn", "outbox push failed", { userId: row.userId, kind: row.kind, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return pending;
}

async function deliverRows(deps: EventDeps, rows: OutboxRow[]): Promise<number> {
  let delivered = 0;
  for (const row of rows) {
    try {
      if (await deliverOne(deps, row)) delivered++;
    } catch (err) {
      // Left pending: the next delivery or sweep tries again; the later events are not held back by this one.
      log("warn", "outbox event not delivered yet", { eventId: row.id, kind: row.kind, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return delivered;
}

/**
 * Delivers the customer's pending events now: what a flow calls right after the batch that wrote them. Never throws
 * (the batch has committed; whatever is left pending, the sweep delivers).
 */
export async function deliverEvents(deps: EventDeps, userId: string): Promise<void> {
  try {
    const keyed = await claimUnkeyedEvents(deps, userId);
    if (keyed.length > 0) await deliverRows(deps, keyed);
  } catch (err) {
    log("warn", "outbox delivery failed, the sweep will deliver", { userId, error: err instanceof Error ? err.message : String(err) });
  }
}

/** Events this old still pending were left by a worker that stopped after its batch (a live one delivers at once). */
export const OUTBOX_GRACE_MS = 10_000;

/**
 * The cron sweep's part: delivers events an evicted worker left pending, then re-enqueues the job of every key with a
 * webhook event still due LOST_JOB_MS after its moment (its queue job was lost: a live one runs it within seconds).
 * Returns how many of each.
 */
export async function sweepOutbox(deps: EventDeps): Promise<{ delivered: number; kicked: number }> {
  const now = deps.clock.now();
  let delivered = 0;
  for (let round = 0; round < 10; round++) {
    const n = await deliverPending(deps, lte(outboxEvents.createdAt, now - OUTBOX_GRACE_MS), 200);
    delivered += n;
    if (n < 200) break;
  }
  const due = await deps.db
    .selectDistinct({ apiKeyId: webhookEvents.apiKeyId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.status, "pending"), lte(webhookEvents.nextAttemptAt, now - LOST_JOB_MS)))
    .limit(500);
  await enqueueDeliveries(deps.env, due.map(({ apiKeyId }) => ({ kind: "webhook", target: apiKeyId })));
  return { delivered, kicked: due.length };
}

/** The sweep forgets delivered events after 30 days (the webhook log keeps its own rows as long). */
export async function purgeOutbox(db: Db, now: number): Promise<void> {
  await db.delete(outboxEvents).where(and(sql`${outboxEvents.deliveredAt} IS NOT NULL`, lte(outboxEvents.createdAt, now - 30 * 86_400_000)));
}
