import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { EMAIL_VERIFY_MESSAGES } from "../../../schema/account-messages";
import { webLink, type WebClient } from "../../lib/public-origin";
import type { Db } from "../../db/client";
import { emailVerifications } from "./tables";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { constantTimeEqual } from "../../lib/password";
import type { SignedInUser } from "./sessions";
import { randomUrlToken, sha256Hex } from "./password-reset";

/** A verification link lives a day: long enough to find the mail, short enough that an old inbox is not a key. */
export const VERIFY_TTL_MS = 24 * 3600 * 1000;

/**
 * The guard other services call before an action that needs a confirmed address (changing the e-mail, creating API
 * keys). Funding and buying do not call it. 403 EMAIL_NOT_VERIFIED with a message saying what to do.
 */
export function requireVerifiedEmail(user: Pick<SignedInUser, "emailVerifiedAt">): void {
  if (user.emailVerifiedAt === null) throw new AppError("EMAIL_NOT_VERIFIED", EMAIL_VERIFY_MESSAGES.required);
}

/**
 * A single-use link: 32 random bytes go into the e-mail only, the table keeps their SHA-256 (like a reset link, so a
 * leaked table confirms nobody's address). Returns what the link needs.
 */
export async function createEmailVerification(db: Db, userId: string, now: number): Promise<{ id: string; token: string }> {
  const { insert, link } = await emailVerificationInsert(db, userId, now);
  await insert;
  return link;
}

/** A new link's row as a query (for a batch that writes it with something else, e.g. the operator's audit row). */
export async function emailVerificationInsert(db: Db, userId: string, now: number) {
  const token = randomUrlToken();
  const id = crypto.randomUUID();
  return { insert: db.insert(emailVerifications).values({ id, userId, tokenHash: await sha256Hex(token), expiresAt: now + VERIFY_TTL_MS, createdAt: now }), link: { id, token } };
}

/** The e-mailed link, into the configured web client (WEB_CLIENT_URL, decision 032): `<client>verify-email?token=&id=`. */
export function verificationLink(client: WebClient, link: { id: string; token: string }): string {
  return webLink(client, "verify-email", { token: link.token, id: link.id });
}

/**
 * Uses a link once: the claim is a conditional UPDATE (two clicks racing: one wins), checked against the token's hash
 * first. Then the address is marked verified (the first time only) and the user's other open links are spent.
 * One answer for an unknown, wrong, used or expired link.
 */
export async function completeEmailVerification(db: Db, id: string, token: string, now: number): Promise<{ userId: string; alreadyConfirmed?: boolean }> {
  const [row] = await db.select().from(emailVerifications).where(eq(emailVerifications.id, id)).limit(1);
  const tokenHash = await sha256Hex(token);
  const enc = (t: string) => new TextEncoder().encode(t);
  const genuine = row !== undefined && constantTimeEqual(enc(row.tokenHash), enc(tokenHash));
  // Issue 28: a genuine link opened again (or a second link after the first) on a confirmed address says it is
  // confirmed, not "invalid": only the link's own token proves it, so nobody learns another address's state.
  if (genuine && row.usedAt !== null) {
    const [user] = await db.select({ verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, row.userId)).limit(1);
    if (user?.verifiedAt != null) return { userId: row.userId, alreadyConfirmed: true };
  }
  if (!row || !genuine || row.usedAt !== null || row.expiresAt <= now) throw invalidLink();
  const claimed = await db
    .update(emailVerifications)
    .set({ usedAt: now })
    .where(and(eq(emailVerifications.id, id), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)))
    .returning({ id: emailVerifications.id });
  if (claimed.length === 0) throw invalidLink();
  await db.batch([
    db.update(users).set({ emailVerifiedAt: now }).where(and(eq(users.id, row.userId), isNull(users.emailVerifiedAt))),
    db
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.userId, row.userId), isNull(emailVerifications.usedAt))),
  ]);
  return { userId: row.userId };
}

/** Sweep: links used or expired a day ago are of no further use. */
export async function purgeOldEmailVerifications(db: Db, now: number): Promise<void> {
  const dayAgo = now - 24 * 3600 * 1000;
  await db.delete(emailVerifications).where(or(lt(emailVerifications.expiresAt, dayAgo), lt(emailVerifications.usedAt, dayAgo)));
}

function invalidLink() {
  return new AppError("VALIDATION_FAILED", EMAIL_VERIFY_MESSAGES.invalidLink, { field: "token" });
}
