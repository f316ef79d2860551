import { describe, expect, it } from "vitest";
import { areasError, betterText, choiceParams, recordText, surchargeText } from "./offer-words";

describe("the purchase card's offer words (issue 49)", () => {
  it("shows a record only from the minimum sample, always with the sample size", () => {
    expect(recordText({ sample: 120, success_rate: 94, median_seconds_to_code: 41 }, 30, 7)).toBe("94% got a code in the last 7 days, typically in 41 s (from 120 orders).");
    expect(recordText({ sample: 1200, success_rate: 87.5, median_seconds_to_code: 95 }, 30, 7)).toBe("87.5% got a code in the last 7 days, typically in 1 min 35 s (from 1,200 orders).");
    expect(recordText({ sample: 12, success_rate: null, median_seconds_to_code: null }, 30, 7)).toBe("Only 12 orders in the last 7 days: its record shows from 30.");
    expect(recordText({ sample: 0, success_rate: null, median_seconds_to_code: null }, 30, 7)).toBe("No orders of this offer in the last 7 days yet: its record shows from 30.");
  });

  it("names a better route with its figures and price in one line", () => {
    const better = { provider: "Dynamic" as const, country_id: "11", country: "United Kingdom", service_id: "1", service: "WhatsApp", price: 1150, record: { sample: 80, success_rate: 94, median_seconds_to_code: 41 } };
    expect(betterText(better)).toBe("Better: Dynamic SMS, United Kingdom — 94% in 41 s, ₦1,150.00");
  });

  it("says the surcharge before the click, and nothing without a choice", () => {
    expect(surchargeText({ price: 1400, base_price: 1000, surcharge_percent: 40 })).toBe("Your choice costs 40% more (the provider's own charge): ₦1,400.00 instead of ₦1,000.00.");
    expect(surchargeText({ price: 1000, base_price: 1000, surcharge_percent: 0 })).toBeNull();
  });

  it("sends the choice in the upstream's own parameter names and checks area codes as the server does", () => {
    expect(choiceParams({ carrier: "tmo", areas: "212, 718", operator: "" })).toEqual({ carriers: "tmo", areas: "212,718" });
    expect(choiceParams({ carrier: "", areas: " ", operator: "mts" })).toEqual({ operator: "mts" });
    expect(areasError("212 718", 10)).toBeUndefined();
    expect(areasError("112", 10)).toMatch(/three digits/);
    expect(areasError("212,213,214", 2)).toBe("Choose at most 2 area codes.");
  });
});
