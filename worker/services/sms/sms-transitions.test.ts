import { describe, expect, it } from "vitest";
import { storedSmsText } from "./sms-transitions";

// Issue 28: the whole SMS is kept as the customer is shown it (worker/routes/sms-full-text.test.ts follows it end to end).
describe("storedSmsText", () => {
  it("keeps a message cleaned of control characters, trimmed and bounded; nothing for an empty one", () => {
    expect(storedSmsText("  Code:\u0007 1234\r\nBye ")).toBe("Code: 1234\nBye");
    expect(storedSmsText("x".repeat(2000))).toHaveLength(1600);
    expect(storedSmsText("   ")).toBeNull();
    expect(storedSmsText(undefined)).toBeNull();
  });
});
