import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { now, users } from "../kernel/tables";

/**
 * The accounts room's tables: sessions, passkeys and their challenges, e-mail verification and password reset links,
 * two-factor recovery codes, known devices.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    // What Settings shows for a signed-in device: the User-Agent (cut to 256 characters) and Cloudflare's approximate
    // place for the address it signed in from. last_seen_at moves at most every few minutes (middleware/auth.ts).
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    lastSeenAt: integer("last_seen_at"),
    // How the session signed in (decision 034): 'password', 'password+totp' or 'passkey' (a passkey with user
    // verification counts as two factors). second_factor_at: when it last proved a second factor (a TOTP or recovery
    // code, a passkey), at sign-in or by step-up; reauthenticated_at: when it last proved anything (the same, or the
    // password). Step-up and re-authentication (services/step-up.ts) read these two against a 10-minute window.
    authMethod: text("auth_method", { enum: ["password", "password+totp", "passkey"] }).notNull().default("password"),
    secondFactorAt: integer("second_factor_at"),
    reauthenticatedAt: integer("reauthenticated_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * WebAuthn credentials (passkeys, services/passkeys.ts; decision 034). The id is the credential id (base64url) the
 * authenticator chose; the public key is its COSE key (base64url). counter and backed_up are updated after every
 * verified assertion, as @simplewebauthn/server documents (https://simplewebauthn.dev/docs/packages/server).
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    // JSON array of AuthenticatorTransport strings the browser reported at registration (hints for later ceremonies).
    transports: text("transports").notNull().default("[]"),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(now),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * WebAuthn challenges, single-use and short-lived: a ceremony claims its row with one DELETE ... RETURNING before the
 * answer is verified, so a replayed or second answer finds nothing. 'register' and 'step-up' name the user and the
 * session that asked; 'sign-in' names nobody (discoverable credentials: the passkey says whose it is).
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "sign-in", "step-up"] }).notNull(),
    userId: text("user_id"),
    sessionId: text("session_id"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);

/** Single-use links that confirm a customer's e-mail address (the token's SHA-256 only, like password_resets). */
export const emailVerifications = sqliteTable(
  "email_verifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("email_verifications_user_idx").on(t.userId)],
);

/** Two-factor recovery codes: ten per enrolment, SHA-256 only, each spent once by a conditional UPDATE. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_unique").on(t.userId, t.codeHash)],
);

/** Devices a customer has signed in from (browser, OS and country), so a sign-in from an unknown one is e-mailed. */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id").notNull().references(() => users.id),
    // SHA-256 of the device description: the table holds no User-Agent of its own.
    deviceHash: text("device_hash").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
  },
  (t) => [uniqueIndex("known_devices_user_device_unique").on(t.userId, t.deviceHash)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    // SHA-256 of the 32-byte token: the token itself is only ever in the e-mail.
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);
