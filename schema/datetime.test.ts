import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatTime, lagosDay, toInstant } from "./datetime";

// Runs in workerd (the worker project), as the CSV and the e-mails use it there; web/lib/format.test.ts checks the same
// texts under Node's ICU, which the screens' tests run on.
const NOW_2024 = Date.parse("2024-12-01T12:00:00Z");

describe("one clock: Lagos time, 12-hour, labelled WAT (issue 43)", () => {
  it("writes the issue's 03:08 Lagos payment as Lagos time, not the stored UTC", () => {
    expect(formatDateTime("2024-11-29T02:08:00Z", { now: NOW_2024 })).toBe("Nov 29, 3:08 AM WAT");
  });

  it("writes an afternoon as PM on the 12-hour clock, never '14:07 PM'", () => {
    expect(formatDateTime("2024-03-05T13:07:09Z", { now: NOW_2024 })).toBe("Mar 5, 2:07 PM WAT");
  });

  it("writes noon and midnight on the 12-hour clock and moves the day with the zone", () => {
    expect(formatDateTime("2024-12-25T11:00:00Z", { now: NOW_2024 })).toBe("Dec 25, 12:00 PM WAT");
    expect(formatDateTime("2024-01-08T23:05:00Z", { now: NOW_2024 })).toBe("Jan 9, 12:05 AM WAT");
  });

  it("reads epoch milliseconds, ISO text and zone-less stored text (UTC) alike", () => {
    const ms = Date.UTC(2024, 10, 29, 2, 8);
    expect(formatDateTime(ms, { now: NOW_2024 })).toBe("Nov 29, 3:08 AM WAT");
    expect(formatDateTime("2024-11-29 02:08:00", { now: NOW_2024 })).toBe("Nov 29, 3:08 AM WAT");
    expect(formatDateTime(new Date(ms), { now: NOW_2024 })).toBe("Nov 29, 3:08 AM WAT");
    expect(toInstant("2024-11-29T02:08")?.getTime()).toBe(ms);
  });

  it("shows the year for another year, and always when asked (the CSV)", () => {
    expect(formatDateTime("2023-11-29T02:08:00Z", { now: NOW_2024 })).toBe("Nov 29, 2023, 3:08 AM WAT");
    expect(formatDateTime("2024-11-29T02:08:00Z", { year: "always" })).toBe("Nov 29, 2024, 3:08 AM WAT");
    // New Year's Eve 23:30 UTC is already the next year in Lagos.
    expect(formatDateTime("2024-12-31T23:30:00Z", { now: Date.parse("2025-01-01T08:00:00Z") })).toBe("Jan 1, 12:30 AM WAT");
  });

  it("says a dash for what is missing or unreadable", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime(undefined)).toBe("—");
    expect(formatDateTime("yesterday")).toBe("—");
    expect(formatDateTime(Number.NaN)).toBe("—");
  });

  it("writes a day alone, a time alone and a Lagos calendar day the same way", () => {
    expect(formatDate("2024-11-28T23:30:00Z")).toBe("Nov 29, 2024");
    expect(formatTime("2024-11-29T13:08:00Z")).toBe("2:08 PM WAT");
    expect(lagosDay("2024-11-28T23:30:00Z")).toBe("2024-11-29");
    expect(lagosDay(null)).toBe("");
  });
});
