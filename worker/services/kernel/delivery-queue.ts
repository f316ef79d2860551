import type { Env } from "../../config";
import type { Db } from "../../db/client";
import { log } from "../../lib/log";
import { deliveryDeadLetters } from "./tables";

/**
 * Delivery jobs on Cloudflare Queues (issue 44, docs/decisions/073-delivery-queue-rate-limiter-signing.md).
 *
 * What each target is owed lives in D1, one row per (event, target) written in the batch that marks the outbox event
 * delivered (`webhook_events`, `channel_deliveries`, `telegram_deliveries`): the row's status is the delivered-marker a
 * job checks, and a row is claimed with a lease before its send, so a job that runs twice, or two jobs at once, send a
 * row once. A job says only "this target has deliveries due": `{ kind, target }` (a developer key, a customer's push and
 * forwards, a Telegram chat). The consumer (worker/deliveries.ts) drains the target's due rows with the room's sender and
 * then, if rows wait for a later attempt (their backoff), sends itself again delayed to that moment; a job that throws
 * (D1 unreachable, a bug) is retried by the queue with backoff and, after wrangler.toml's max_retries, lands in the
 * dead-letter queue, whose consumer records it here. A row a sender gives up for good (24 h of failed webhook posts, a
 * refused forward) is recorded here in the batch that marks it failed. The operator replays either from the console.
 */

export const DELIVERY_KINDS = ["webhook", "channels", "telegram"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** One queue message: drain this target's due deliveries. */
export interface DeliveryJob {
  kind: DeliveryKind;
  target: string;
}

/** The queue's longest delay (https://developers.cloudflare.com/queues/configuration/batching-retries/: 12 hours). */
export const MAX_DELAY_SECONDS = 43_200;

/** A row still due this long after its moment had its job lost (a live job runs it within seconds): the sweep re-enqueues it. */
export const LOST_JOB_MS = 5 * 60_000;

export function isDeliveryJob(body: unknown): body is DeliveryJob {
  const job = body as Partial<DeliveryJob> | null;
  return typeof job === "object" && job !== null && (DELIVERY_KINDS as readonly unknown[]).includes(job.kind) && typeof job.target === "string" && job.target.length > 0;
}

/**
 * Sends delivery jobs (deduplicated), `delaySeconds` from now. Never throws: the rows are in D1, and a job lost here is
 * re-enqueued by the cron sweep (LOST_JOB_MS).
 */
export async function enqueueDeliveries(env: Env, jobs: DeliveryJob[], delaySeconds = 0): Promise<void> {
  const unique = [...new Map(jobs.map((j) => [`${j.kind}:${j.target}`, j])).values()];
  if (unique.length === 0) return;
  const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  try {
    // sendBatch takes at most 100 messages.
    for (let i = 0; i < unique.length; i += 100) {
      await env.DELIVERIES.sendBatch(unique.slice(i, i + 100).map((body) => ({ body, ...(delay > 0 ? { delaySeconds: delay } : {}) })));
    }
  } catch (err) {
    log("warn", "delivery jobs not enqueued, the sweep will", { jobs: unique.length, error: err instanceof Error ? err.message : String(err) });
  }
}

const newId = () => `dlq_${crypto.randomUUID().replaceAll("-", "")}`;

/** The insert that records one delivery given up (batched by the sender with the row's failed mark). */
export function deadLetterInsert(db: Db, letter: { kind: DeliveryKind; target: string; deliveryId: string | null; reason: string; attempts: number }, now: number) {
  return db.insert(deliveryDeadLetters).values({ id: newId(), ...letter, reason: letter.reason.slice(0, 300), createdAt: now });
}

/** The dead-letter queue's consumer: a job the queue gave up on (worker/deliveries.ts). */
export async function recordDeadJob(db: Db, job: DeliveryJob, attempts: number, now: number): Promise<void> {
  await deadLetterInsert(db, { ...job, deliveryId: null, reason: "the delivery job failed on every retry", attempts }, now);
  log("warn", "delivery job dead-lettered", { kind: job.kind, target: job.target, attempts });
}
