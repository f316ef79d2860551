import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { TWO_FACTOR_MESSAGES } from "../../../schema/accounts";
import type { Db } from "../../db/client";
import { passkeys, recoveryCodes } from "./tables";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { sha256Hex } from "./password-reset";
import { rowsOf, runBatch, statement } from "../kernel";

/**
 * TOTP two-factor sign-in (RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app reads from an otpauth:// QR
 * code), computed by the otpauth library (docs/decisions: the 2FA record). This module keeps the secret encrypted at
 * rest, refuses a code's replay, and keeps ten single-use recovery codes as SHA-256 hashes.
 */
export const TOTP_ISSUER = "VirtualNum";
const PERIOD_SECONDS = 30;
/** One step either side: a phone clock 30 s off still works; a code is good for at most 90 s. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

function totpFor(secretBase32: string, label = ""): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/**
 * Starts (or restarts) an enrolment: a new 160-bit secret stored encrypted with totp_enabled_at still null. Answered
 * once, for the QR code and for typing; never readable again. Refused while two-factor is already on.
 */
export async function startEnrolment(db: Db, key: CryptoKey, user: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const updated = await db
    .update(users)
    .set({ totpSecret: await encryptSecret(key, secret), totpLastStep: null })
    .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  if (updated.length === 0) throw new AppError("INVALID_STATE", TWO_FACTOR_MESSAGES.alreadyOn);
  return { secret, otpauthUrl: totpFor(secret, user.email).toString() };
}

/**
 * Confirms an enrolment with a code from the app: turns two-factor on and answers ten fresh recovery codes (shown
 * once; only their hashes are kept). One batch, and the switch is conditional, so two confirmations cannot both win.
 */
export async function confirmEnrolment(db: Db, key: CryptoKey, userId: string, code: string, now: number): Promise<string[]> {
  const [row] = await db.select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row || row.enabledAt !== null) throw new AppError("INVALID_STATE", TWO_FACTOR_MESSAGES.alreadyOn);
  if (!row.secret) throw new AppError("INVALID_STATE", TWO_FACTOR_MESSAGES.noEnrolment);
  const step = matchingStep(await decryptSecret(key, row.secret), code, now);
  // No recovery codes exist before enrolment: the refusal does not mention them (issue 28).
  if (step === null) throw new AppError("VALIDATION_FAILED", TWO_FACTOR_MESSAGES.wrongEnrolmentCode, { field: "code" });
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((c) => sha256Hex(normalizeRecoveryCode(c))));
  const { switched } = await runBatch(db, {
    switched: rowsOf(db
      .update(users)
      .set({ totpEnabledAt: now, totpLastStep: step })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt), isNotNull(users.totpSecret)))
      .returning({ id: users.id })),
    oldCodes: statement(db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))),
    newCodes: statement(db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })))),
  });
  if (switched.length === 0) throw new AppError("INVALID_STATE", TWO_FACTOR_MESSAGES.alreadyOn);
  return codes;
}

/**
 * Checks a second factor for a user with two-factor on: a current TOTP code (each time step accepted once: the
 * stored last step moves forward by a conditional UPDATE) or an unused recovery code (spent by a conditional UPDATE).
 * "reused" for a right code already spent (never a success); null for anything else.
 */
export async function verifySecondFactor(db: Db, key: CryptoKey, userId: string, code: string, now: number): Promise<"totp" | "recovery" | "reused" | null> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const [row] = await db.select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId)).limit(1);
    if (!row?.secret || row.enabledAt === null) return null;
    const step = matchingStep(await decryptSecret(key, row.secret), trimmed, now);
    if (step === null) return null;
    const moved = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    // A right code whose time step was already spent (enrolment took it, or it was just used): refused, but said so,
    // so the customer waits for the next code instead of doubting the app (issue 28).
    return moved.length > 0 ? "totp" : "reused";
  }
  const normalized = normalizeRecoveryCode(trimmed);
  if (!/^[a-z0-9]{10}$/.test(normalized)) return null;
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, await sha256Hex(normalized)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return spent.length > 0 ? "recovery" : null;
}

/** Turns two-factor off (the caller has checked the password and a code): secret and recovery codes are deleted. */
export async function disableTwoFactor(db: Db, userId: string): Promise<void> {
  await db.batch([
    db.update(users).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(users.id, userId)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
  ]);
}

/**
 * Every second factor of a customer goes (an operator's approved reset: services/console/operator-approvals.ts): the
 * TOTP secret, the recovery codes and the passkeys. Statements for the caller's batch (with its audit row).
 */
export function resetSecondFactorStatements(db: Db, userId: string) {
  return [
    db.update(users).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(users.id, userId)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.delete(passkeys).where(eq(passkeys.userId, userId)),
  ] as const;
}

export async function unusedRecoveryCodeCount(db: Db, userId: string): Promise<number> {
  const rows = await db.select({ id: recoveryCodes.id }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}

/** The time step a code belongs to (within the window), or null. otpauth compares in constant time. */
function matchingStep(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code.trim())) return null;
  const totp = totpFor(secretBase32);
  const delta = totp.validate({ token: code.trim(), timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

// Recovery codes: 10 characters from an alphabet without look-alikes, shown as xxxxx-xxxxx. 31^10 ≈ 2^49 each.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let code = "";
  for (const b of bytes) code += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}


/**
 * The key that encrypts TOTP secrets at rest: HKDF-SHA256 from JWT_SECRET with its own label, so a database copy alone
 * does not give an attacker anyone's second factor. Rotating JWT_SECRET therefore also retires enrolled secrets
 * (customers sign in with a recovery code and enrol again): documented in the 2FA decision record.
 */
export async function totpKey(jwtSecret: Uint8Array): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", jwtSecret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode("virtual-numbers totp secret v1") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** "v1.<iv>.<ciphertext>" (base64): AES-256-GCM with a random 96-bit IV. */
export async function encryptSecret(key: CryptoKey, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(secret));
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function decryptSecret(key: CryptoKey, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !sealed) throw new Error("unknown TOTP secret format");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(sealed));
  return new TextDecoder().decode(plain);
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}
