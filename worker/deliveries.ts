import type { Env } from "./config";
import { servicesFor } from "./container";
import { log } from "./lib/log";
import { deliverDueWebhooks, type DeliveryJob, enqueueDeliveries, isDeliveryJob, recordDeadJob, type Services } from "./services/kernel";
import { deliverDueChannels } from "./services/notifications";
import { deliverDueTelegram } from "./services/telegram";

/**
 * The delivery queue's consumer (wrangler.toml [[queues.consumers]], issue 44, decision 073): the composition root of a
 * delivery job, as scheduled.ts is the cron's. Each job drains one target's due rows with its room's sender; the rows in
 * D1 say what is owed and what was sent (kernel/delivery-queue.ts).
 */

/** wrangler.toml's queue names (the consumer tells them apart by batch.queue). */
export const DELIVERY_QUEUE = "virtual-numbers-deliveries";
export const DELIVERY_DEAD_LETTER_QUEUE = "virtual-numbers-deliveries-dlq";

/** A job that threw waits 10 s, 20 s, 40 s, ... (at most 10 minutes) before the queue tries it again. */
export const failedJobDelaySeconds = (attempts: number): number => Math.min(600, 10 * 2 ** Math.max(0, attempts - 1));

/** Drains one target's due rows; answers when the next one is due (null: nothing left). */
export function runDeliveryJob(services: Services, job: DeliveryJob): Promise<number | null> {
  switch (job.kind) {
    case "webhook":
      return deliverDueWebhooks(services.env, job.target, services.clock.now(), services.upstreams.webhookSend);
    case "channels":
      return deliverDueChannels(services, job.target);
    case "telegram":
      return deliverDueTelegram(services, job.target);
  }
}

/**
 * One batch of the delivery queue. A job (several messages for one target are one job) that finds rows waiting for a
 * later attempt enqueues itself again delayed to that moment and is acknowledged; a job that throws is retried by the
 * queue with backoff (after max_retries the queue moves it to the dead-letter queue).
 */
export async function consumeDeliveries(batch: MessageBatch<unknown>, env: Env, defer: (work: Promise<unknown>) => void): Promise<void> {
  if (batch.queue === DELIVERY_DEAD_LETTER_QUEUE) return recordDeadJobs(batch, env, defer);
  const services = servicesFor(env, { defer });
  const jobs = new Map<string, { job: DeliveryJob; messages: Message<unknown>[] }>();
  for (const message of batch.messages) {
    if (!isDeliveryJob(message.body)) {
      log("warn", "delivery queue: not a job, dropped", { id: message.id });
      message.ack();
      continue;
    }
    const key = `${message.body.kind}:${message.body.target}`;
    const entry = jobs.get(key) ?? { job: { kind: message.body.kind, target: message.body.target }, messages: [] };
    entry.messages.push(message);
    jobs.set(key, entry);
  }
  await Promise.all(
    [...jobs.values()].map(async ({ job, messages }) => {
      try {
        const next = await runDeliveryJob(services, job);
        if (next !== null) await enqueueDeliveries(env, [job], (next - services.clock.now()) / 1000);
        for (const m of messages) m.ack();
      } catch (err) {
        log("warn", "delivery job failed, the queue retries it", { kind: job.kind, target: job.target, error: err instanceof Error ? err.message : String(err) });
        for (const m of messages) m.retry({ delaySeconds: failedJobDelaySeconds(m.attempts) });
      }
    }),
  );
}

/** The dead-letter queue: each job the delivery queue gave up on becomes a row the console lists. */
async function recordDeadJobs(batch: MessageBatch<unknown>, env: Env, defer: (work: Promise<unknown>) => void): Promise<void> {
  const services = servicesFor(env, { defer });
  for (const message of batch.messages) {
    if (isDeliveryJob(message.body)) await recordDeadJob(services.db, message.body, message.attempts, services.clock.now());
    message.ack();
  }
}
