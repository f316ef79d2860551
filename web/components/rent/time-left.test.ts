import { describe, expect, it } from "vitest";
import { formatTimeLeft } from "./time-left";

const now = Date.parse("2026-04-20T10:00:00Z");

describe("formatTimeLeft", () => {
  it("reads days, hours, minutes as the rental nears its end", () => {
    expect(formatTimeLeft(now + (2 * 86_400 + 4 * 3600 + 59) * 1000, now)).toBe("2d 4h");
    expect(formatTimeLeft(now + (3 * 3600 + 5 * 60) * 1000, now)).toBe("3h 05m");
    expect(formatTimeLeft("2026-04-20T10:12:09Z", now)).toBe("12m 09s");
  });

  it("says Expired at and after the end, and a dash when unknown", () => {
    expect(formatTimeLeft(now, now)).toBe("Expired");
    expect(formatTimeLeft(now - 1000, now)).toBe("Expired");
    expect(formatTimeLeft(null, now)).toBe("—");
    expect(formatTimeLeft("not a date", now)).toBe("—");
  });
});
