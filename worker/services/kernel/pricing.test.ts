import { describe, expect, it } from "vitest";
import { DEFAULT_TIERS } from "../../../schema/settings";
import { costMinorUnits, rentPriceKobo, smsPriceKobo, type PricingContext } from "./pricing";

const ctx = (tierIndex = 0): PricingContext => ({
  rate: 1600,
  costs: { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 },
  discountPercent: DEFAULT_TIERS[tierIndex].percentage,
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
  it("takes the tier discount off and rounds to the nearest kobo, as the client's two decimals show it", () => {
    expect(smsPriceKobo(0.5, ctx(1))).toBe(117_600); // Silver 2%
    expect(smsPriceKobo(0.123457, ctx())).toBe(29_630); // 296.2968 naira -> 296.30
    // 12.341 cents -> 197.456 × 1.5 = 296.184 naira: shown as 296.18, so charged 296.18 (rounding up charged 296.19).
    expect(smsPriceKobo(0.12341, ctx())).toBe(29_618);
  });
  it("prices from the published cost (US cents, four decimals) so the client's formula on it gives the same kobo", () => {
    expect(costMinorUnits(0.1234567)).toBe(12.3457);
    const c = ctx();
    for (const usd of [0.05, 0.1, 0.123457, 0.25, 0.3333333, 0.5, 0.625, 0.77, 1, 1.2345, 2.5]) {
      const cost = costMinorUnits(usd);
      // The spec client's formula, verbatim: cost/100 × rate × (1 + low_cost or high_cost), shown with two decimals.
      const base = (cost / 100) * c.rate;
      const shown = (base * (1 + (base <= 1000 ? c.costs.low_cost : c.costs.high_cost))).toFixed(2);
      expect(smsPriceKobo(usd, c), `$${usd}`).toBe(Math.round(Number(shown) * 100));
    }
  });
  it("prices rentals with rent_cost", () => {
    expect(rentPriceKobo(1.5, ctx())).toBe(336_000); // 1.5 × 1600 × 1.4
    expect(rentPriceKobo(1.5, ctx(5))).toBe(302_400); // Elite 10%
  });
});
