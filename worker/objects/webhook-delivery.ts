import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { deliverDueWebhooks } from "../services/webhooks";

/**
 * One per API key (idFromName(apiKeyId)): posts the key's queued webhook events (services/webhooks.ts). The events and
 * their attempts live in D1; this object only remembers which key it serves and keeps one alarm for the next due
 * delivery, so every key's events go out one at a time, in order, and a retried alarm just reads the truth again.
 */
export class WebhookDelivery extends DurableObject<Env> {
  /** New events were queued (or one is resent): deliver now. */
  async kick(apiKeyId: string): Promise<void> {
    await this.ctx.storage.put("apiKeyId", apiKeyId);
    await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const apiKeyId = await this.ctx.storage.get<string>("apiKeyId");
    if (!apiKeyId) return;
    const next = await deliverDueWebhooks(this.env, apiKeyId);
    // A kick during the run set its own alarm for now; never push that one later.
    const pending = await this.ctx.storage.getAlarm();
    if (next !== null && (pending === null || pending > next)) await this.ctx.storage.setAlarm(next);
  }
}
