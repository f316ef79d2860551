import { describe, expect, it } from "vitest";
import { SMS_ORDER_STATUSES, SMS_PHASES, type SmsOrderStatus, type SmsPhase } from "../../../schema/constants";
import { smsOrderPhase } from "./sms-views";

// Issue 29: what the customer sees of an order is decided here, from our state and chain alone (never from texts).
describe("smsOrderPhase", () => {
  const alone: Record<SmsOrderStatus, SmsPhase> = {
    pending: "waiting",
    waiting: "waiting",
    used: "received",
    timeout: "timeout",
    error: "error",
    failed: "error",
    cancelled: "cancelled",
  };

  it("maps every state of an order bought alone to one phase the screen knows", () => {
    for (const state of SMS_ORDER_STATUSES) {
      expect(smsOrderPhase(state, null)).toBe(alone[state]);
      expect(SMS_PHASES).toContain(smsOrderPhase(state, null));
    }
  });

  it("a route of 'try another number' that ended without a code stays waiting while the chain moves on", () => {
    const buyingNext = { next_request_id: null, moving_on: true };
    const named = { next_request_id: "o2", moving_on: false };
    const over = { next_request_id: null, moving_on: false };
    for (const chain of [buyingNext, named]) {
      expect(smsOrderPhase("timeout", chain)).toBe("waiting");
      expect(smsOrderPhase("error", chain)).toBe("waiting");
      expect(smsOrderPhase("failed", chain)).toBe("waiting");
    }
    // No route left: the end is shown as such.
    expect(smsOrderPhase("timeout", over)).toBe("timeout");
    // A code on the route, or the customer's cancel, is never hidden by the chain.
    expect(smsOrderPhase("used", buyingNext)).toBe("received");
    expect(smsOrderPhase("cancelled", buyingNext)).toBe("cancelled");
  });
});
