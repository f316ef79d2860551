import { deliverDueWebhooks, STOP, type TickResult, wakeAt } from "../services/kernel";
import { TickScheduler } from "./tick-scheduler";

/**
 * One per API key (idFromName(apiKeyId)): posts the key's queued webhook events (services/webhooks.ts). The events and
 * their attempts live in D1; this object only remembers which key it serves and keeps one alarm for the next due
 * delivery, so every key's events go out one at a time, in order (objects/tick-scheduler.ts).
 */
export class WebhookDelivery extends TickScheduler {
  protected readonly subjectKey = "apiKeyId";

  /** New events were queued (or one is resent): deliver now. */
  async kick(apiKeyId: string): Promise<void> {
    this.noteRequest();
    await this.arm(apiKeyId, Date.now());
  }

  protected async tick(apiKeyId: string): Promise<TickResult> {
    const { clock, upstreams } = this.services();
    const next = await deliverDueWebhooks(this.env, apiKeyId, clock.now(), upstreams.webhookSend);
    // A kick during the run set its own alarm for now; arm() never pushes that one later.
    return next === null ? STOP : wakeAt(next);
  }
}
