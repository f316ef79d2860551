import { describe, expect, it } from "vitest";
import { inviterDisplayName } from "./referral-invitation";

// Issue 28: the name a public page may show for a referrer (worker/routes/referral-invitation.test.ts: the endpoint).
describe("inviterDisplayName", () => {
  it("keeps a first name in any script and refuses what is not one", () => {
    expect(inviterDisplayName("CHIOMA")).toBe("Chioma");
    expect(inviterDisplayName("  émile_dupont ")).toBe("Émile");
    expect(inviterDisplayName("o'neil smith")).toBe("O'neil");
    expect(inviterDisplayName("ade@x.ng")).toBe("Ade");
    expect(inviterDisplayName("+2348031234567")).toBeNull();
    expect(inviterDisplayName("user42")).toBeNull();
    expect(inviterDisplayName("x")).toBeNull();
    expect(inviterDisplayName("a".repeat(21))).toBeNull();
  });
});
