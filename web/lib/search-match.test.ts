import { describe, expect, it } from "vitest";
import { matchesSearch } from "./search-match";

describe("service search (issue 28)", () => {
  it("finds a service by name, by its protocol code, and despite one typo", () => {
    expect(matchesSearch("WhatsApp — ₦1,200.00", "whats")).toBe(true);
    expect(matchesSearch("WhatsApp — ₦1,200.00", "wa", ["wa"])).toBe(true);
    expect(matchesSearch("WhatsApp — ₦1,200.00", "whatsap")).toBe(true);
    expect(matchesSearch("WhatsApp — ₦1,200.00", "whatsaap")).toBe(true);
    expect(matchesSearch("Telegram — ₦800.00", "telegarm")).toBe(false);
    expect(matchesSearch("Telegram — ₦800.00", "telagram")).toBe(true);
  });
  it("does not match unrelated services or short guesses", () => {
    expect(matchesSearch("Telegram — ₦800.00", "wa", ["tg"])).toBe(false);
    expect(matchesSearch("Telegram — ₦800.00", "tx")).toBe(false);
    expect(matchesSearch("Telegram — ₦800.00", "")).toBe(true);
  });
});
