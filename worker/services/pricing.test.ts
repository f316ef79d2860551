import { describe, expect, it } from "vitest";
import { DEFAULT_TIERS } from "../../schema/settings";
import { rentPriceKobo, smsPriceKobo, type PricingContext } from "./pricing";

const ctx = (tierIndex = 0): PricingContext => ({
  rate: 1600,
  costs: { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 },
  tier: DEFAULT_TIERS[tierIndex],
});

describe("pricing", () => {
  it("applies low_cost when the base is at most ₦1000", () => {
    // $0.50 × 1600 = ₦800 base; × 1.5 = ₦1200
    expect(smsPriceKobo(0.5, ctx())).toBe(120_000);
  });
  it("applies high_cost above ₦1000, and exactly ₦1000 is still low", () => {
    expect(smsPriceKobo(0.625, ctx())).toBe(150_000); // base exactly 1000 -> × 1.5
    expect(smsPriceKobo(1, ctx())).toBe(208_000); // base 1600 -> × 1.3
  });
  it("takes the tier discount off and rounds up to the kobo", () => {
    expect(smsPriceKobo(0.5, ctx(1))).toBe(117_600); // Silver 2%
    expect(smsPriceKobo(0.123457, ctx())).toBe(29_630); // 296.2968 naira -> 296.30
  });
  it("prices rentals with rent_cost", () => {
    expect(rentPriceKobo(1.5, ctx())).toBe(336_000); // 1.5 × 1600 × 1.4
    expect(rentPriceKobo(1.5, ctx(5))).toBe(302_400); // Elite 10%
  });
});
