import { describe, expect, it } from "vitest";
import { countdownText, holdTimeWords } from "./sms-hold";

describe("the hold time and the refund countdown in words", () => {
  it("says minutes and seconds as a person would", () => {
    expect(holdTimeWords(90)).toBe("1 minute 30 seconds");
    expect(holdTimeWords(300)).toBe("5 minutes");
    expect(holdTimeWords(45)).toBe("45 seconds");
    expect(holdTimeWords(61)).toBe("1 minute 1 second");
  });
  it("counts down as m:ss, never below 0:00", () => {
    expect(countdownText(90_000)).toBe("1:30");
    expect(countdownText(4_200)).toBe("0:05");
    expect(countdownText(-1)).toBe("0:00");
  });
});
