import { describe, expect, it } from "vitest";
import {
  forgotPasswordSchema,
  loginSchema,
  passwordChangeSchema,
  profileUpdateSchema,
  registerSchema,
} from "../../schema/accounts";
import { DEFAULT_TIERS } from "../../schema/settings";
import { nextTierNeed } from "../components/layout/tier-badge";
import { validateForm } from "./form";

// The forms validate with the shared schemas: these are the messages a person sees (spec section 5).

describe("signup form messages", () => {
  it("names every short or malformed field", () => {
    const result = validateForm(registerSchema, { username: "a", number: "0801", email: "not-an-email", password: "12345", referralCode: "" });
    expect(result).toEqual({
      ok: false,
      errors: {
        username: "Username is required",
        number: "Valid phone number required",
        email: "Enter a valid email",
        password: "Password must be at least 6 characters",
      },
    });
  });

  it("accepts a valid signup with an empty referral code and normalises the email", () => {
    const result = validateForm(registerSchema, { username: "Ada", number: "08012345678", email: " Ada@Example.COM ", password: "secret1", referralCode: "" });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data.email).toBe("ada@example.com");
  });
});

describe("login form messages", () => {
  it("uses the login wording for the email and the signup wording for the password", () => {
    expect(validateForm(loginSchema, { email: "x", password: "123" })).toEqual({
      ok: false,
      errors: { email: "Please enter a valid email", password: "Password must be at least 6 characters" },
    });
  });
});

describe("settings form messages", () => {
  it("profile: username of at least 3 and a phone of 10 to 15 digits with an optional plus", () => {
    expect(validateForm(profileUpdateSchema, { username: "Al", userNumber: "12345" })).toEqual({
      ok: false,
      errors: { username: "Username must be at least 3 characters", userNumber: "Enter a valid phone number (with or without +)" },
    });
    expect(validateForm(profileUpdateSchema, { username: "Ada", userNumber: "+2348012345678" }).ok).toBe(true);
    expect(validateForm(profileUpdateSchema, { username: "Ada", userNumber: "0801-234-5678" }).ok).toBe(false);
  });

  it("password change: both passwords at least 6 characters, each with its own message", () => {
    expect(validateForm(passwordChangeSchema, { oldPassword: "", newPassword: "abc" })).toEqual({
      ok: false,
      errors: { oldPassword: "Old password must be at least 6 characters", newPassword: "New password must be at least 6 characters" },
    });
  });
});

describe("forgot password form", () => {
  it("requires an email", () => {
    expect(validateForm(forgotPasswordSchema, { email: "" })).toEqual({ ok: false, errors: { email: "Email is required" } });
  });
});

describe("discount tier modal: what the next tier needs", () => {
  it("gives the next tier and the naira still to deposit", () => {
    expect(nextTierNeed(DEFAULT_TIERS, 0)).toEqual({ tier: DEFAULT_TIERS[1], remaining: 60_000 });
    expect(nextTierNeed(DEFAULT_TIERS, 60_000)?.tier.text).toBe("Gold");
    expect(nextTierNeed(DEFAULT_TIERS, 2_000_000)).toBeNull();
  });
});
