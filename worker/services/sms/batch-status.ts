import type { SmsProviderName } from "../../../schema/constants";
import { SMS_ACTIVATE_PROFILES } from "../../providers/sms/sms-activate-profiles";
import type { ActiveActivation, SmsPollResult, SmsProvider } from "../../providers/sms/types";
import { isSandboxUser, type SmsDeps } from "../kernel";

/**
 * One status call per upstream account per tick, where the upstream documents a call answering every active
 * activation of the account at once (the SMS-Activate protocol's getActiveActivations; HeroSMS's profile: batchStatus),
 * decision 051. Each order's poller still ticks on its own (its window, its release, its refund are unchanged), but
 * instead of a getStatus of its own it asks its account's batch reader: one Durable Object per upstream account
 * (objects/sms-order-poller.ts `activeStatus`, idFromName `batch:<mode>:<upstream>:<account>`), which answers from the
 * account's last getActiveActivations while it is younger than half a tick, and otherwise makes one (concurrent asks
 * share it). The orders of one account wake on the same tick boundaries (batchAlignedWake), so one call serves all.
 */

/** Whether this order's upstream documents a batch status call (its profile's batchStatus; its adapter reads it). */
export function readsInBatch(provider: SmsProvider): boolean {
  const profile = (SMS_ACTIVATE_PROFILES as Record<string, { batchStatus: string | null } | undefined>)[provider.upstream ?? ""];
  return typeof provider.activeActivations === "function" && Boolean(profile?.batchStatus);
}

/** The account's batch reader (a SmsOrderPoller under another name: no class or binding of its own). */
export function batchReaderFor(deps: SmsDeps, order: { userId: string; upstream: string | null; upstreamAccount: number }) {
  const mode = isSandboxUser(order.userId) ? "sandbox-account" : (deps.env.PROVIDERS ?? "live");
  return deps.env.SMS_ORDER.get(deps.env.SMS_ORDER.idFromName(`batch:${mode}:${order.upstream}:${order.upstreamAccount}`));
}

/**
 * The order's status from its account's batch answer, or null when the batch did not list it (finished, unknown, or
 * the call failed): the caller then asks getStatus for this one order.
 */
export async function batchPoll(
  deps: SmsDeps,
  order: { id: string; userId: string; provider: SmsProviderName; upstream: string | null; upstreamAccount: number; upstreamId: string },
  maxAgeMs: number,
): Promise<SmsPollResult | null> {
  return batchReaderFor(deps, order).activeStatus({ userId: order.userId, provider: order.provider, upstream: order.upstream ?? "", account: order.upstreamAccount, upstreamId: order.upstreamId, maxAgeMs });
}

/** The next wake-up of a batch-read order: the first tick boundary (a multiple of the interval) at least one interval away. */
export function batchAlignedWake(now: number, intervalMs: number, ticks = 1): number {
  return Math.ceil((now + ticks * intervalMs) / intervalMs) * intervalMs;
}

/** The account's last batch answer, kept in the reader's memory (a restart only costs one more call). */
export class BatchCache {
  private last: { at: number; byId: Map<string, SmsPollResult> } | null = null;
  private inflight: Promise<Map<string, SmsPollResult> | null> | null = null;

  async statusOf(upstreamId: string, maxAgeMs: number, read: () => Promise<ActiveActivation[] | null>, now: number): Promise<SmsPollResult | null> {
    if (this.last && now - this.last.at <= maxAgeMs) return this.last.byId.get(upstreamId) ?? null;
    this.inflight ??= (async () => {
      try {
        const listed = await read();
        if (!listed) return null;
        const byId = new Map(listed.map((a) => [a.upstreamId, a.result]));
        this.last = { at: now, byId };
        return byId;
      } catch {
        return null; // the callers fall back to their own getStatus, which reports the fault as before
      } finally {
        this.inflight = null;
      }
    })();
    return (await this.inflight)?.get(upstreamId) ?? null;
  }
}
