import { describe, expect, it } from "vitest";
import { formatDateTime, formatPhone, formatSeconds, shortId } from "./format";

describe("one clock and format (issue 43; schema/datetime.test.ts checks the same in workerd)", () => {
  const now = Date.parse("2024-12-01T12:00:00Z");
  it("writes Lagos time on the 12-hour clock, labelled, from a timestamp string and from epoch milliseconds alike", () => {
    expect(formatDateTime("2024-03-05T13:07:09Z", { now })).toBe("Mar 5, 2:07 PM WAT");
    expect(formatDateTime("2024-12-25 08:30:00", { now })).toBe("Dec 25, 9:30 AM WAT");
    expect(formatDateTime(Date.UTC(2024, 10, 29, 2, 8), { now })).toBe("Nov 29, 3:08 AM WAT");
    expect(formatDateTime("2023-01-08T23:05:00Z", { now })).toBe("Jan 9, 2023, 12:05 AM WAT");
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime("yesterday")).toBe("—");
  });
});

describe("short order ids", () => {
  it("shows a UUID's first group and leaves short ids whole", () => {
    expect(shortId("3f2a9c1e-7b4d-4e8a-9f00-123456789abc")).toBe("3f2a9c1e");
    expect(shortId("R-1234")).toBe("R-1234");
  });
});

describe("phone numbers written for their country", () => {
  it.each([
    ["2348031234567", "+234 803 123 4567"],
    ["+2348031234567", "+234 803 123 4567"],
    ["08031234567", "0803 123 4567"],
    ["15551234567", "+1 555 123 4567"],
    ["79001234567", "+7 900 123 45 67"],
    ["447911123456", "+44 7911 123456"],
    ["27710596858", "+27 71 059 6858"],
    ["628123456789", "+62 812 3456 789"],
    ["9991234567", "+999 123 456 7"],
  ])("%s -> %s", (raw, shown) => {
    expect(formatPhone(raw)).toBe(shown);
  });

  it("leaves what is not a plain number as it was", () => {
    expect(formatPhone("call me")).toBe("call me");
    expect(formatPhone(null)).toBe("");
  });
});

describe("waits in words", () => {
  it("writes seconds, minutes and hours as people read them", () => {
    expect(formatSeconds(45.4)).toBe("45 s");
    expect(formatSeconds(120)).toBe("2 min");
    expect(formatSeconds(90)).toBe("1 min 30 s");
    expect(formatSeconds(3900)).toBe("1 h 5 min");
    expect(formatSeconds(7200)).toBe("2 h");
  });
});
