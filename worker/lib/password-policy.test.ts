import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES } from "../../schema/accounts";
import { COMMON_PASSWORDS } from "./common-passwords";
import { isCommonPassword, passwordProblem } from "./password-policy";

// Issue 33 (ASVS 5.0 6.2.1, 6.2.4, 6.2.11, 6.2.12): what a new password may not be, checked offline.
describe("the password rules", () => {
  it("ships a sorted, lower-cased, deduplicated list of common passwords of 8 characters or more, small enough for the worker", () => {
    const words = COMMON_PASSWORDS.split("\n");
    expect(words.length).toBeGreaterThan(2000);
    expect(words.every((w) => w.length >= 8 && w === w.toLowerCase())).toBe(true);
    expect(new Set(words).size).toBe(words.length);
    expect([...words].sort()).toEqual(words);
    // About 20 KB raw (a few KiB gzip) against the worker's 3 MiB gzip limit (scripts/deploy-proof.ts).
    expect(COMMON_PASSWORDS.length).toBeLessThan(64 * 1024);
  });

  it("refuses a listed password whatever its case, and accepts one that is not listed", () => {
    for (const common of ["password1", "PassWord1", "qwerty123", "iloveyou1", "12345678", "trustno1", "virtualnum123"]) {
      expect(isCommonPassword(common), common).toBe(true);
      expect(passwordProblem(common), common).toBe(PASSWORD_MESSAGES.common);
    }
    expect(isCommonPassword("violet-kettle-harmattan")).toBe(false);
    expect(passwordProblem("violet-kettle-harmattan")).toBeNull();
  });

  it("says 8 characters to a shorter password, counting characters rather than UTF-16 units", () => {
    expect(passwordProblem("abc1234")).toBe(PASSWORD_MESSAGES.tooShort);
    expect(PASSWORD_MESSAGES.tooShort).toBe("Password must be at least 8 characters");
    expect(passwordProblem("🔑🔑🔑🔑")).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("🔑🔑🔑🔑🔑🔑🔑🔑")).toBeNull();
  });

  it("refuses the account's own e-mail address, the part before the @, and the username", () => {
    const owner = { email: "Chiamaka.Obi@example.com", username: "chiamaka2026" };
    expect(passwordProblem("chiamaka.obi@example.com", owner)).toBe(PASSWORD_MESSAGES.personal);
    expect(passwordProblem("CHIAMAKA.OBI", owner)).toBe(PASSWORD_MESSAGES.personal);
    expect(passwordProblem("Chiamaka2026", owner)).toBe(PASSWORD_MESSAGES.personal);
    expect(passwordProblem("chiamaka-obi-lagos", owner)).toBeNull();
  });

  it("allows long passphrases (64 and 128 characters) and any characters, untrimmed", () => {
    expect(passwordProblem("a".repeat(40) + " correct horse battery staple")).toBeNull();
    expect(passwordProblem("x".repeat(128))).toBeNull();
    expect(passwordProblem("  spaces around are kept  ")).toBeNull();
  });
});
