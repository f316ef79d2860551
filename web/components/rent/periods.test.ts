import { describe, expect, it } from "vitest";
import { periodOptions } from "./periods";

describe("periodOptions", () => {
  it.each([
    ["hour", 24],
    ["day", 7],
    ["week", 4],
    ["month", 12],
  ])("%s offers 1 to %i", (unit, max) => {
    const options = periodOptions(unit);
    expect(options.map((o) => o.value)).toEqual(Array.from({ length: max }, (_, i) => String(i + 1)));
  });

  it("labels singular and plural", () => {
    expect(periodOptions("hour")[0].label).toBe("1 hour");
    expect(periodOptions("month")[11].label).toBe("12 months");
  });

  it("offers nothing before a unit is chosen or for an unknown unit", () => {
    expect(periodOptions("")).toEqual([]);
    expect(periodOptions("year")).toEqual([]);
  });
});
