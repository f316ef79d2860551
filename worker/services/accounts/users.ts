import { and, eq, isNull } from "drizzle-orm";
import { type SessionUser } from "../../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../../schema/account-messages";
import type { Db } from "../../db/client";
import { users } from "../kernel";
import { AppError, isUniqueViolation } from "../../lib/errors";
import { newSessionRow, revokeSessionsStatement, sessionInsert, type SessionDevice } from "./sessions";

export type UserRow = typeof users.$inferSelect;

/** The spec's session user (the shape stored by the web app under userData). */
export function toSessionUser(user: Pick<UserRow, "id" | "username" | "phone" | "email">): SessionUser {
  return { userId: user.id, username: user.username, userNumber: user.phone, userEmail: user.email };
}

/** Emails are stored lower-cased; callers pass what the schema produced (trimmed, lower-cased). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Referral codes are shown upper-case and matched case-insensitively (people retype them). */
export async function findReferrerId(db: Db, code: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.referralCode, normalizeReferralCode(code))).limit(1);
  return row?.id ?? null;
}

export function normalizeReferralCode(code: string): string {
  return code.trim().toUpperCase();
}

// No 0/O or 1/I/L: the code is read aloud and retyped.
const REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const REFERRAL_LENGTH = 8;

export function generateReferralCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFERRAL_LENGTH));
  let code = "";
  // 256 % 31 leaves a tiny bias; irrelevant for a code that only has to be unique, not secret.
  for (const b of bytes) code += REFERRAL_ALPHABET[b % REFERRAL_ALPHABET.length];
  return code;
}

export interface NewAccount {
  username: string;
  email: string;
  phone: string;
  passwordHash: string;
  referralCode?: string | null;
  /** The signing-up browser, for Settings' device list. */
  device?: SessionDevice;
}

/**
 * Creates the user and its first session in one batch. The unique index on email decides duplicates (so two parallel
 * signups cannot both win); a referral-code collision (31^8 codes) just draws another code.
 */
export async function registerAccount(db: Db, input: NewAccount, now: number): Promise<{ user: UserRow; session: ReturnType<typeof newSessionRow> }> {
  let referredBy: string | null = null;
  if (input.referralCode) {
    referredBy = await findReferrerId(db, input.referralCode);
    if (!referredBy) throw new AppError("VALIDATION_FAILED", ACCOUNT_MESSAGES.unknownReferral, { field: "referralCode" });
  }
  for (let attempt = 0; ; attempt++) {
    const user: UserRow = {
      id: crypto.randomUUID(),
      username: input.username,
      email: input.email.toLowerCase(),
      phone: input.phone,
      passwordHash: input.passwordHash,
      referralCode: generateReferralCode(),
      referredBy,
      balanceKobo: 0,
      totalDepositedKobo: 0,
      wholesaleVolumeKobo: null,
      wholesaleVolumeAt: null,
      emailVerifiedAt: null,
      role: "customer",
      blockedAt: null,
      emailOptOutAt: null,
      passwordChangeRequiredAt: null,
      tourClosedAt: null,
      totpSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
      parentUserId: null,
      createdAt: now,
    };
    const session = newSessionRow(user.id, now, input.device);
    try {
      await db.batch([db.insert(users).values(user), sessionInsert(db, session)]);
      return { user, session };
    } catch (err) {
      if (isUniqueViolation(err) && errorMentions(err, "users.email")) {
        throw new AppError("EMAIL_TAKEN", ACCOUNT_MESSAGES.emailTaken, { field: "email" });
      }
      if (isUniqueViolation(err) && errorMentions(err, "users.referral_code") && attempt < 4) continue;
      throw err;
    }
  }
}

/** Records that the customer closed the dashboard tour; the first close stands (a later one changes nothing). */
export async function closeTour(db: Db, userId: string, now: number): Promise<void> {
  await db.update(users).set({ tourClosedAt: now }).where(and(eq(users.id, userId), isNull(users.tourClosedAt)));
}

export async function updateProfile(db: Db, userId: string, input: { username: string; phone: string }): Promise<UserRow | null> {
  const [row] = await db.update(users).set({ username: input.username, phone: input.phone }).where(eq(users.id, userId)).returning();
  return row ?? null;
}

/** Flags (or clears) "choose a new password": set at a sign-in whose password fails today's rules (issue 33). */
export async function setPasswordChangeRequired(db: Db, userId: string, required: boolean, now: number): Promise<void> {
  await db.update(users).set({ passwordChangeRequiredAt: required ? now : null }).where(eq(users.id, userId));
}

/** Re-hash after a login with an older work factor (the password is known to be right at that point). */
export async function replacePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/**
 * Password change: the new hash and every OTHER session revoked in one batch, so no other token survives a change that
 * succeeded, while the session that made it stays signed in. The caller then closes the revoked sessions' sockets
 * (services/sessions.ts closeRevokedSockets).
 */
export async function changePassword(db: Db, userId: string, keepSessionId: string, passwordHash: string, now: number): Promise<void> {
  await db.batch([
    db.update(users).set({ passwordHash, passwordChangeRequiredAt: null }).where(eq(users.id, userId)),
    revokeSessionsStatement(db, userId, { except: keepSessionId }, now),
  ]);
}

function errorMentions(err: unknown, text: string): boolean {
  const message = err instanceof Error ? `${err.message} ${err.cause instanceof Error ? err.cause.message : ""}` : String(err);
  return message.includes(text);
}

