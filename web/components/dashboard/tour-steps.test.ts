import { beforeEach, describe, expect, it } from "vitest";
import { FIRST_VISIT_KEY, TOUR_COMPLETED_KEY, TOUR_STEPS, shouldAutoOpenTour } from "./tour-steps";

describe("tour auto-open rule", () => {
  beforeEach(() => localStorage.clear());
  it("has the spec's five steps in order", () => {
    expect(TOUR_STEPS.map((s) => s.title)).toEqual([
      "Wallet balance", "Purchase numbers", "Rent numbers", "Referral programme", "Transaction history",
    ]);
  });
  it("opens only when both flags are absent", () => {
    expect(shouldAutoOpenTour()).toBe(true);
    localStorage.setItem(FIRST_VISIT_KEY, "true");
    expect(shouldAutoOpenTour()).toBe(false);
    localStorage.clear();
    localStorage.setItem(TOUR_COMPLETED_KEY, "true");
    expect(shouldAutoOpenTour()).toBe(false);
  });
});
