import { z } from "zod";

/**
 * Passkeys (WebAuthn, issue 33, decision 034) and step-up: the bodies the web sends, the answers it reads, the
 * messages both show. The ceremony answers themselves (navigator.credentials' JSON) are checked here only for their
 * outer shape; @simplewebauthn/server verifies everything inside them.
 */
export const PASSKEY_MESSAGES = {
  malformedResponse: "Your browser's passkey answer was not in the expected form. Please try again.",
  ceremonyExpired: "This passkey request has expired or was already used. Please try again.",
  notVerified: "That passkey could not be verified. Please try again, or sign in with your password.",
  unknownPasskey: "This passkey is not registered with any account. Sign in with your password, then add it in Settings.",
  alreadyRegistered: "This passkey is already registered.",
  added: "Passkey added. You can now sign in with it.",
  renamed: "Passkey renamed.",
  removed: "Passkey removed.",
  notFound: "This passkey is not on your account.",
  nameRequired: "Give the passkey a name (1 to 60 characters).",
  tooMany: "You can keep up to 20 passkeys. Remove one you no longer use first.",
} as const;

export const STEP_UP_MESSAGES = {
  secondFactorNeeded: "For your security, confirm it's you with your passkey or authenticator app first.",
  reauthNeeded: "For your security, confirm it's you with your password, passkey or authenticator app first.",
  confirmed: "Thanks, that's confirmed. You can continue for the next 10 minutes.",
  wrongPassword: "Your password is not correct.",
  wrongCode: "That code is not correct. Enter the current code from your authenticator app, or an unused recovery code.",
  passwordNotEnough: "Your account has a passkey or two-factor sign-in: confirm with one of those instead of the password.",
  nothingToConfirm: "Enter your password, a code from your authenticator app, or use your passkey.",
} as const;

/** How long a step-up or re-authentication stays fresh (issue 33: "older than 10 minutes"). */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

// Every part of the browser's answer refuses with one clear sentence (a missing field would otherwise read "expected
// object, received undefined", which says nothing to a person and is what the hostile-input test refuses).
const malformed = { error: PASSKEY_MESSAGES.malformedResponse };
const base64url = z.string(malformed).max(16_384, malformed).regex(/^[A-Za-z0-9_-]*$/, malformed);

/** navigator.credentials.create()'s JSON (RegistrationResponseJSON), outer shape only. */
const registrationResponse = z.object(
  {
    id: base64url.min(1, malformed),
    rawId: base64url.min(1, malformed),
    type: z.literal("public-key", malformed),
    response: z.looseObject(
      { clientDataJSON: base64url, attestationObject: base64url, transports: z.array(z.string(malformed).max(32, malformed), malformed).max(10, malformed).optional() },
      malformed,
    ),
    clientExtensionResults: z.looseObject({}, malformed),
    authenticatorAttachment: z.enum(["platform", "cross-platform"], malformed).optional(),
  },
  malformed,
);

/** navigator.credentials.get()'s JSON (AuthenticationResponseJSON), outer shape only. */
const authenticationResponse = z.object(
  {
    id: base64url.min(1, malformed),
    rawId: base64url.min(1, malformed),
    type: z.literal("public-key", malformed),
    response: z.looseObject(
      {
        clientDataJSON: base64url,
        authenticatorData: base64url,
        signature: base64url,
        userHandle: base64url.optional(),
      },
      malformed,
    ),
    clientExtensionResults: z.looseObject({}, malformed),
    authenticatorAttachment: z.enum(["platform", "cross-platform"], malformed).optional(),
  },
  malformed,
);

const challengeId = z.string({ error: PASSKEY_MESSAGES.ceremonyExpired }).min(1, PASSKEY_MESSAGES.ceremonyExpired).max(100, PASSKEY_MESSAGES.ceremonyExpired);
const passkeyName = z.string({ error: PASSKEY_MESSAGES.nameRequired }).trim().min(1, PASSKEY_MESSAGES.nameRequired).max(60, PASSKEY_MESSAGES.nameRequired);

export const passkeyRegisterSchema = z.object({ challenge_id: challengeId, name: passkeyName.optional(), response: registrationResponse });
export const passkeyAssertionSchema = z.object({ challenge_id: challengeId, response: authenticationResponse });
export const passkeyRenameSchema = z.object({ name: passkeyName });
export const passkeyIdParam = z.object({ id: base64url.min(1).max(1400) });

/** POST /api/step-up: exactly one proof. A password is accepted only from an account without a second factor. */
export const stepUpSchema = z.union([
  z.object({ code: z.string().trim().min(1, STEP_UP_MESSAGES.wrongCode).max(20, STEP_UP_MESSAGES.wrongCode) }),
  z.object({ password: z.string().min(1, STEP_UP_MESSAGES.wrongPassword).max(128, STEP_UP_MESSAGES.wrongPassword) }),
  passkeyAssertionSchema,
], { error: STEP_UP_MESSAGES.nothingToConfirm });
export type StepUpInput = z.input<typeof stepUpSchema>;
export type PasskeyAssertionInput = z.input<typeof passkeyAssertionSchema>;
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterSchema>;

/** A ceremony's options for navigator.credentials (the library's JSON) and the id of its single-use challenge. */
export interface PasskeyCeremony<Options = Record<string, unknown>> {
  challenge_id: string;
  options: Options;
}

/** Settings' list: no key material, only what a person recognises a passkey by. */
export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Synced by a password manager or platform (multi-device) and currently backed up. */
  synced: boolean;
}

/**
 * What the account can confirm with when a step-up is asked: the 403 STEP_UP_REQUIRED body carries it, and so does
 * GET /api/step-up. `password` is offered only when the account has no second factor.
 */
export interface StepUpState {
  methods: ("passkey" | "totp" | "password")[];
  /** When the current session's confirmation stops counting (ISO), or null when it is not fresh. */
  fresh_until: string | null;
}
