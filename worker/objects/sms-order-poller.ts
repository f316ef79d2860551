import type { SmsProviderName } from "../../schema/constants";
import type { SmsPollResult } from "../providers/sms/types";
import { isSmsUpstream } from "../providers/sms/upstreams";
import type { TickResult } from "../services/kernel";
import { BatchCache, pollSmsOrderTick } from "../services/sms";
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

  private readonly batch = new BatchCache();

  /**
   * Decision 051, as an upstream account's batch reader (idFromName `batch:<mode>:<upstream>:<account>`, never an
   * order's): the activation's status from the account's getActiveActivations, one call shared by every order of the
   * account that asks within `maxAgeMs` (services/sms/batch-status.ts). null: not listed, or the call failed.
   */
  async activeStatus(ask: { userId: string; provider: SmsProviderName; upstream: string; account: number; upstreamId: string; maxAgeMs: number }): Promise<SmsPollResult | null> {
    this.noteRequest();
    if (!isSmsUpstream(ask.upstream)) return null;
    const adapter = this.services().sms.provider(ask.provider, ask.userId, { upstream: ask.upstream, account: ask.account });
    if (!adapter.activeActivations) return null;
    return this.batch.statusOf(ask.upstreamId, ask.maxAgeMs, () => adapter.activeActivations!(), this.services().clock.now());
  }

  protected tick(orderId: string): Promise<TickResult> {
    return pollSmsOrderTick(this.services().sms, orderId);
  }
}
