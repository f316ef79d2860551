import { z } from "zod";
import { ACCOUNT_MESSAGES, EMAIL_VERIFY_MESSAGES, PASSWORD_CHANGE_REQUIRED_MESSAGE, RESET_LINK_INVALID_MESSAGE } from "./account-messages";

/**
 * Account contracts, shared by the server's validation and the web forms. Messages are the spec's (section 5).
 * NOTE: a missing field gets the same message as a short one (the `error` on z.string), so a form and an API client see
 * the spec's text either way. Upper bounds are ours (the spec is silent): they keep hashing and storage bounded.
 */

/** The link's id and token come from the verification e-mail (the page reads them from the query). */
export const verifyEmailSchema = z.object({
  id: z.string({ error: EMAIL_VERIFY_MESSAGES.invalidLink }).trim().min(1, EMAIL_VERIFY_MESSAGES.invalidLink).max(100, EMAIL_VERIFY_MESSAGES.invalidLink),
  token: z.string({ error: EMAIL_VERIFY_MESSAGES.invalidLink }).trim().min(1, EMAIL_VERIFY_MESSAGES.invalidLink).max(200, EMAIL_VERIFY_MESSAGES.invalidLink),
});
export type VerifyEmailInput = z.input<typeof verifyEmailSchema>;

/** Two-factor sign-in (issue 12). */
export const TWO_FACTOR_MESSAGES = {
  codeNeeded: "Enter the 6-digit code from your authenticator app (or one of your recovery codes).",
  passkeyNeeded: "Confirm it's you with your passkey to finish signing in.",
  wrongCode: "That code is not correct. Enter the current code from your authenticator app, or an unused recovery code.",
  /** Issue 28: the code was right but already used (at enrolment, or a moment ago): a new one shows every 30 seconds. */
  codeJustUsed: "That code was just used. Wait for the next code in your app (a new one shows every 30 seconds) and enter it.",
  /** At enrolment no recovery codes exist yet, so the refusal does not mention them (issue 28). */
  wrongEnrolmentCode: "That code is not correct. Enter the 6-digit code your authenticator app shows now.",
  challengeExpired: "Your sign-in took too long. Please log in again.",
  alreadyOn: "Two-factor sign-in is already on.",
  notOn: "Two-factor sign-in is not on.",
  noEnrolment: "Start the two-factor setup first.",
  enabled: "Two-factor sign-in is on. Keep your recovery codes somewhere safe: they are shown only once.",
  disabled: "Two-factor sign-in is off.",
  wrongPassword: "Your password is not correct.",
} as const;

const CODE_FIELD = z
  .string({ error: TWO_FACTOR_MESSAGES.wrongCode })
  .trim()
  .min(6, TWO_FACTOR_MESSAGES.wrongCode)
  .max(20, TWO_FACTOR_MESSAGES.wrongCode);

/** The second login step: the challenge the first step answered, and a TOTP or recovery code. */
export const loginTwoFactorSchema = z.object({
  challenge: z.string({ error: TWO_FACTOR_MESSAGES.challengeExpired }).min(1, TWO_FACTOR_MESSAGES.challengeExpired).max(2000, TWO_FACTOR_MESSAGES.challengeExpired),
  code: CODE_FIELD,
});
export type LoginTwoFactorInput = z.input<typeof loginTwoFactorSchema>;

export const twoFactorEnableSchema = z.object({ code: CODE_FIELD });
export const twoFactorDisableSchema = z.object({
  password: z.string({ error: TWO_FACTOR_MESSAGES.wrongPassword }).min(1, TWO_FACTOR_MESSAGES.wrongPassword).max(128, TWO_FACTOR_MESSAGES.wrongPassword),
  code: CODE_FIELD,
});
export type TwoFactorDisableInput = z.input<typeof twoFactorDisableSchema>;

/** A second factor the login's second step accepts: a TOTP or recovery code, or a passkey (issue 33). */
export type SecondFactorMethod = "totp" | "passkey";

/**
 * Login's answer when the account has a second factor: no session yet. `methods` names what the account can finish
 * with: "totp" is a code for POST /api/login/2fa with the 5-minute `challenge`; "passkey" is the login page's passkey
 * ceremony (POST /api/login/passkey/*), which opens a two-factor session by itself. The message asks for the code when
 * TOTP is on (as before passkeys), else for the passkey.
 */
export interface LoginChallenge {
  two_factor_required: true;
  challenge: string;
  message: string;
  methods: SecondFactorMethod[];
}

const SIGNUP_EMAIL_MESSAGE = "Enter a valid email";

/**
 * Passwords (issue 33, ASVS 5.0 6.2.1 and 6.2.9): a NEW password has at least 8 characters (the spec's client checked 6;
 * its forms now follow the server), up to 128 (more than the 64 ASVS asks; PBKDF2-HMAC hashes a key longer than its
 * 64-byte block once, so a long password costs no more to hash), any characters, never trimmed or composed by rules.
 * Login still accepts the 6 characters older accounts were created with: those passwords keep working and the account
 * is asked to choose a new one (AuthResponse.password_change_required). The server also refuses common and breached
 * passwords (worker/lib/password-policy.ts), which the web does not carry.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  newTooShort: `New password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  common: "This password is too common: it is on lists of leaked passwords that attackers try first. Choose another one, for example a few unrelated words.",
  personal: "Your password may not be your e-mail address or your username.",
  /** Issue 43: a change that keeps the same password changes nothing (and signs the other devices out for nothing). */
  sameAsOld: "Your new password must be different from your current one.",
  changeRequired: PASSWORD_CHANGE_REQUIRED_MESSAGE,
} as const;
/** The spec's login check: passwords set before issue 33 may have 6 or 7 characters and still sign in. */
const LOGIN_PASSWORD_MESSAGE = "Password must be at least 6 characters";

/** Trimmed and lower-cased before the format check: emails are unique case-insensitively. */
function emailField(message: string) {
  return z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .max(254, message)
    .pipe(z.email(message));
}

function passwordField(message: string, min: number) {
  return z.string({ error: message }).min(min, message).max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong);
}

export const registerSchema = z.object({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(2, "Username is required")
    .max(50, "Username must be at most 50 characters"),
  number: z
    .string({ error: "Valid phone number required" })
    .trim()
    .min(10, "Valid phone number required")
    .max(20, "Valid phone number required"),
  email: emailField(SIGNUP_EMAIL_MESSAGE),
  password: passwordField(PASSWORD_MESSAGES.tooShort, PASSWORD_MIN_LENGTH),
  // Optional: the signup form sends "" when empty and the link from GET /api/ref pre-fills it.
  referralCode: z.string().trim().max(32, ACCOUNT_MESSAGES.unknownReferral).nullish(),
});
export type RegisterInput = z.input<typeof registerSchema>;

/** GET /api/referral/:code: the code as a referral link carries it (the sign-up form's own bound). */
export const referralCodeParamSchema = z.object({
  code: z.string({ error: ACCOUNT_MESSAGES.unknownReferral }).trim().min(1, ACCOUNT_MESSAGES.unknownReferral).max(32, ACCOUNT_MESSAGES.unknownReferral),
});

export const loginSchema = z.object({
  email: emailField("Please enter a valid email"),
  password: passwordField(LOGIN_PASSWORD_MESSAGE, 6),
});
export type LoginInput = z.input<typeof loginSchema>;

export const profileUpdateSchema = z.object({
  username: z
    .string({ error: "Username must be at least 3 characters" })
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(50, "Username must be at most 50 characters"),
  userNumber: z
    .string({ error: "Enter a valid phone number (with or without +)" })
    .trim()
    .regex(/^\+?\d{10,15}$/, "Enter a valid phone number (with or without +)"),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

export const passwordChangeSchema = z.object({
  oldPassword: z
    .string({ error: "Old password must be at least 6 characters" })
    .min(6, "Old password must be at least 6 characters")
    .max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong),
  newPassword: passwordField(PASSWORD_MESSAGES.newTooShort, PASSWORD_MIN_LENGTH),
}).refine((v) => v.newPassword !== v.oldPassword, { message: PASSWORD_MESSAGES.sameAsOld, path: ["newPassword"] });
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

export const forgotPasswordSchema = z.object({
  email: z
    .string({ error: "Email is required" })
    .trim()
    .toLowerCase()
    .min(1, "Email is required")
    .max(254, "Enter a valid email")
    .pipe(z.email("Enter a valid email")),
});
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

/** The link's id and token come from the reset e-mail (the page reads them from the query). */
// NOTE: the spec's reset form checks no length on the client; the server still applies the signup rule so a reset can
// never set a password the other forms would refuse. A web form may use resetPasswordSchema or only show the server's message.
export const resetPasswordSchema = z.object({
  id: z.string({ error: RESET_LINK_INVALID_MESSAGE }).trim().min(1, RESET_LINK_INVALID_MESSAGE).max(100, RESET_LINK_INVALID_MESSAGE),
  token: z.string({ error: RESET_LINK_INVALID_MESSAGE }).trim().min(1, RESET_LINK_INVALID_MESSAGE).max(200, RESET_LINK_INVALID_MESSAGE),
  newPassword: passwordField(PASSWORD_MESSAGES.newTooShort, PASSWORD_MIN_LENGTH),
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

// Answers the server builds (never parsed from a client), so plain types: `import type` costs the web nothing.
export interface SessionUser {
  userId: string;
  username: string;
  userNumber: string;
  userEmail: string;
}

export interface AuthResponse {
  user: SessionUser;
  token: string;
  /**
   * The password that signed in no longer meets the rules (shorter than 8 characters, a common one, or the account's
   * own e-mail or username; issue 33): it still works, and the web asks the customer to change it. Absent when fine.
   */
  password_change_required?: true;
}

/** GET /api/account: the signed-in customer and their security state. */
export interface AccountState {
  user: SessionUser;
  email_verified: boolean;
  two_factor_enabled: boolean;
  /** Set at a sign-in whose password no longer meets the rules, until the password is changed or reset (issue 33). */
  password_change_required: boolean;
  /** Issue 28: the customer closed or finished the dashboard tour (on any device): it does not open by itself again. */
  tour_closed?: boolean;
}

/** GET /api/sessions: `{ data: SignedInDevice[] }`, the live sessions, `current` marking the caller's own. */
export interface SignedInDevice {
  id: string;
  device: string;
  browser: string | null;
  os: string | null;
  place: string | null;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

/** GET /api/2fa. */
export interface TwoFactorState {
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
}

/** POST /api/2fa/setup: the new secret, for the QR code (otpauth_url) and for typing (secret). */
export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
}

/** An answer that is only a sentence to show. */
export interface MessageAnswer {
  message: string;
}

/**
 * GET /api/referral/:code (public, issue 28): who invited a visitor who opened a referral link, and what the invitation
 * gives. `inviter` is only a safe display name (the first word of the referrer's username, never an e-mail or a phone
 * number; null when the username has no such word). `reward_percent` is the referrer's share of the new customer's
 * first deposit, paid by us (the new customer pays and receives the full amount); 0 when the programme pays nothing.
 */
export interface ReferralInvitation {
  code: string;
  inviter: string | null;
  reward_percent: number;
}
