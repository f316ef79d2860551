import { beforeEach, describe, expect, it } from "vitest";
import { FIRST_VISIT_KEY, TOUR_COMPLETED_KEY } from "../components/dashboard/tour-steps";
import { addPendingPayment, PENDING_PAYMENTS_KEY, readPendingPayments } from "../components/payment/payment-rules";
import { PENDING_SMS_KEY } from "../components/sms/pending-request";
import { clearSession, OWNER_KEY, PER_USER_LOCAL_KEYS, PRIVATE_LOCAL_KEYS, saveSession } from "./session";

// Issue 12, hole 10: on a shared browser the next customer never sees the previous one's pending payments or tour state.

const userA = { userId: "user-a", username: "Ada", userNumber: "08010000001", userEmail: "a@example.com" };
const userB = { userId: "user-b", username: "Bola", userNumber: "08010000002", userEmail: "b@example.com" };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe("per-customer storage on a shared browser", () => {
  it("names the components' own keys", () => {
    expect(PRIVATE_LOCAL_KEYS).toContain(PENDING_PAYMENTS_KEY);
    expect(PRIVATE_LOCAL_KEYS).toContain(PENDING_SMS_KEY);
    expect(PER_USER_LOCAL_KEYS).toEqual(expect.arrayContaining([TOUR_COMPLETED_KEY, FIRST_VISIT_KEY]));
  });

  it("logout forgets the pending card payments, the pending SMS and the invoice in progress", () => {
    saveSession(userA, "token-a");
    addPendingPayment({ ref: "REF-A", amount: 5000, currency: "NGN", timestamp: Date.now() });
    localStorage.setItem(PENDING_SMS_KEY, JSON.stringify({ request_id: "x" }));
    sessionStorage.setItem("active-invoice", JSON.stringify({ paymentId: "p" }));
    clearSession();
    expect(readPendingPayments()).toEqual([]);
    expect(localStorage.getItem(PENDING_SMS_KEY)).toBeNull();
    expect(sessionStorage.getItem("active-invoice")).toBeNull();
  });

  it("another customer signing in starts with none of the previous one's data or tour state, even without a logout", () => {
    saveSession(userA, "token-a");
    addPendingPayment({ ref: "REF-A", amount: 5000, currency: "NGN", timestamp: Date.now() });
    localStorage.setItem(TOUR_COMPLETED_KEY, "true");
    localStorage.setItem(FIRST_VISIT_KEY, "true");
    // A's session ended without a logout (an expired token), then B signs in on the same browser.
    saveSession(userB, "token-b");
    expect(readPendingPayments()).toEqual([]);
    expect(localStorage.getItem(TOUR_COMPLETED_KEY)).toBeNull();
    expect(localStorage.getItem(FIRST_VISIT_KEY)).toBeNull();
    expect(localStorage.getItem(OWNER_KEY)).toBe(userB.userId);
  });

  it("the same customer signing in again keeps their tour state", () => {
    saveSession(userA, "token-a");
    localStorage.setItem(TOUR_COMPLETED_KEY, "true");
    clearSession();
    saveSession(userA, "token-a2");
    expect(localStorage.getItem(TOUR_COMPLETED_KEY)).toBe("true");
  });
});
