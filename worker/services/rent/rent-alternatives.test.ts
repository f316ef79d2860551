import { describe, expect, it } from "vitest";
import { coveringChoices } from "./rent-alternatives";

describe("the longer units that cover a rental's time (issue 43)", () => {
  it("takes, for each longer unit, the fewest periods lasting at least as long, within its range", () => {
    expect(coveringChoices({ countryId: "5", unit: "hour", period: 24 })).toEqual([
      { countryId: "5", unit: "day", period: 1 },
      { countryId: "5", unit: "week", period: 1 },
      { countryId: "5", unit: "month", period: 1 },
    ]);
    expect(coveringChoices({ countryId: "5", unit: "day", period: 5 })).toEqual([
      { countryId: "5", unit: "week", period: 1 },
      { countryId: "5", unit: "month", period: 1 },
    ]);
    // 4 weeks (28 days) fit in one 30-day month; a month has nothing longer.
    expect(coveringChoices({ countryId: "5", unit: "week", period: 4 })).toEqual([{ countryId: "5", unit: "month", period: 1 }]);
    expect(coveringChoices({ countryId: "5", unit: "month", period: 3 })).toEqual([]);
  });
});
