import { describe, expect, it } from "vitest";
import { isNavActive } from "./nav";

describe("navigation highlight rule", () => {
  it("matches the exact link", () => expect(isNavActive("/dashboard/1", "/dashboard/1")).toBe(true));
  it("matches another id under the same section", () => expect(isNavActive("/sms/7", "/sms/1")).toBe(true));
  it("does not match a different section", () => expect(isNavActive("/number/1", "/sms/1")).toBe(false));
  it("does not match a section that merely shares a prefix", () => expect(isNavActive("/e-plans/1", "/esim/1")).toBe(false));
});
