import { describe, expect, it } from "vitest";
import { defaultRange } from "./history-export";

describe("defaultRange", () => {
  it("is the last 30 days as Lagos calendar days (UTC+1)", () => {
    // 23:30 UTC on 31 Jan is already 1 Feb in Lagos.
    expect(defaultRange(Date.parse("2026-01-31T23:30:00Z"))).toEqual({ from: "2026-01-02", to: "2026-02-01" });
  });
});
