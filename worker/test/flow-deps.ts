import type { RealtimeMessage } from "../../schema/realtime";
import type { Clock, Notify } from "../services/kernel";

/**
 * What a test hands a money flow instead of the real time and the real push (services/deps.ts): spread them over the
 * built deps, `{ ...smsDeps(env), clock, notify: pushes.notify }`, the same way for SMS, rentals and payments.
 */

/** A clock that reads what the test says; `set` moves it. */
export function fixedClock(at: number): Clock & { set(ms: number): void } {
  let now = at;
  return { now: () => now, set: (ms) => void (now = ms) };
}

/** A notify that records what the flow told the customer, in order, and reaches no room and no webhook. */
export function recordingNotify(): { notify: Notify; sent: { userId: string; message: RealtimeMessage }[] } {
  const sent: { userId: string; message: RealtimeMessage }[] = [];
  return {
    sent,
    notify: async (userId, message) => {
      sent.push({ userId, message });
    },
  };
}
