import type { Env } from "../../config";
import { PRIMARY_UPSTREAM } from "../../providers/sms/upstreams";

/**
 * When a waiting order's poller asks the upstream (decision 051). The customer's promise is unchanged: polling window
 * sms_poll.interval_ms x max_attempts (6 s x 15 = 90 s), then a release and a refund. Ticks are numbered 1..max
 * (tick t about t x interval after purchase); the order row's `attempts` is the last tick passed.
 *
 *  - "every tick" (an upstream that does not push): one status call per tick, the 15th included, then the release, as
 *    the original client polled (SPEC: every 6000 ms, at most 15 attempts), so a code is on screen within a tick.
 *  - "push fallback" (DaisySMS with its webhook set, SWIFT_WEBHOOK=on): the push settles the order the moment the SMS
 *    lands (one confirming getStatus); the poller only looks on ticks 3, 7, 11, ... (18 s, 42 s, 66 s: after codes
 *    usually come, then every 24 s) in case a push was lost, and at the last tick releases the number without a poll
 *    first: DaisySMS answers a cancel of a number that has its code with ACCESS_READY, and endWithoutCode then reads
 *    and delivers that code instead of refunding. A lost push shows its code at most 24 s late, never loses it.
 */
export interface PollPlan {
  kind: "every tick" | "push fallback";
  /** Whether tick `t` (1..max) calls the upstream; the last tick of a plan that does not poll it only releases. */
  polls(tick: number): boolean;
  /** The first tick the poller wakes for. */
  first: number;
  /** The next tick after `tick` the poller must wake for (a polling tick, or the last one). */
  next(tick: number): number;
}

/** Ticks of the push fallback: the 3rd, then every 4th. */
const FALLBACK_FIRST = 3;
const FALLBACK_EVERY = 4;

export function pushesCodes(env: Pick<Env, "SWIFT_WEBHOOK">, order: { provider: string; upstream?: string | null }): boolean {
  const upstream = order.upstream ?? (order.provider === "Dynamic" ? PRIMARY_UPSTREAM.Dynamic : PRIMARY_UPSTREAM.Swift);
  return upstream === "daisysms" && (env.SWIFT_WEBHOOK ?? "").trim().toLowerCase() === "on";
}

export function pollPlan(env: Pick<Env, "SWIFT_WEBHOOK">, order: { provider: string; upstream?: string | null }, maxAttempts: number): PollPlan {
  if (!pushesCodes(env, order)) {
    return { kind: "every tick", polls: (t) => t <= maxAttempts, first: 1, next: (t) => Math.min(t + 1, maxAttempts) };
  }
  const polls = (t: number) => t < maxAttempts && t >= FALLBACK_FIRST && (t - FALLBACK_FIRST) % FALLBACK_EVERY === 0;
  const next = (t: number) => {
    for (let n = t + 1; n < maxAttempts; n += 1) if (polls(n)) return n;
    return maxAttempts;
  };
  return { kind: "push fallback", polls, first: next(0), next };
}
