import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { pollSmsOrderTick } from "../services/sms-orders";

/**
 * One per Receive-SMS order (idFromName(orderId)): its alarm polls the upstream every sms_poll.interval_ms until the
 * code comes, the order ends, or sms_poll.max_attempts polls pass. The order's state lives in D1, not here: this object
 * only remembers which order it serves, so a repeated or retried alarm simply reads the truth again.
 */
export class SmsOrderPoller extends DurableObject<Env> {
  async start(orderId: string, intervalMs: number): Promise<void> {
    const serving = await this.ctx.storage.get<string>("orderId");
    if (serving && serving !== orderId) throw new Error("this poller serves another order");
    await this.ctx.storage.put("orderId", orderId);
    // Also wakes a used order's poller for "request another code": its pending alarm (closing the number) is later.
    const due = Date.now() + intervalMs;
    const pending = await this.ctx.storage.getAlarm();
    if (pending === null || pending > due) await this.ctx.storage.setAlarm(due);
  }

  /** The order ended elsewhere (cancel, sweep): no more ticks. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
  }

  override async alarm(): Promise<void> {
    const orderId = await this.ctx.storage.get<string>("orderId");
    if (!orderId) return;
    // Throws on anything but an upstream fault, so the runtime retries the alarm with backoff.
    const tick = await pollSmsOrderTick(this.env, orderId);
    if (tick.again) await this.ctx.storage.setAlarm(Date.now() + tick.delayMs);
  }
}
