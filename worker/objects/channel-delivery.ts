import { STOP, type TickResult, wakeAt } from "../services/kernel";
import { deliverDueChannels } from "../services/notifications";
import { TickScheduler } from "./tick-scheduler";

/**
 * One per customer (idFromName(userId)), issue 47: sends the customer's Web Pushes and rental forwards
 * (services/notifications/delivery-channels.ts). The deliveries and their attempts live in D1; this object only remembers
 * whose they are and keeps one alarm for the next due one (objects/tick-scheduler.ts), as WebhookDelivery does for a key.
 */
export class ChannelDelivery extends TickScheduler {
  protected readonly subjectKey = "userId";

  /** New deliveries were written: send now. */
  async kick(userId: string): Promise<void> {
    this.noteRequest();
    await this.arm(userId, Date.now());
  }

  protected async tick(userId: string): Promise<TickResult> {
    const services = this.services();
    const next = await deliverDueChannels(services, userId);
    return next === null ? STOP : wakeAt(next);
  }
}
