import { smsDeps, type TickResult } from "../services/kernel";
import { pollSmsOrderTick } from "../services/sms";
import { TickScheduler } from "./tick-scheduler";

/**
 * One per Receive-SMS order (idFromName(orderId)): its alarm runs pollSmsOrderTick every sms_poll.interval_ms until the
 * code comes, the order ends, or sms_poll.max_attempts polls pass (the tick decides; objects/tick-scheduler.ts).
 */
export class SmsOrderPoller extends TickScheduler {
  protected readonly subjectKey = "orderId";

  /** Also wakes a used order's poller for "request another code": its pending alarm (closing the number) is later. */
  async start(orderId: string, intervalMs: number): Promise<void> {
    this.noteRequest();
    await this.arm(orderId, Date.now() + intervalMs);
  }

  protected tick(orderId: string): Promise<TickResult> {
    return pollSmsOrderTick(smsDeps(this.env), orderId);
  }
}
