import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { RESET_LINK_INVALID_MESSAGE } from "../../../schema/account-messages";
import { webLink, type WebClient } from "../../lib/public-origin";
import type { Db } from "../../db/client";
import { passwordResets } from "./tables";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { constantTimeEqual } from "../../lib/password";
import { revokeSessionsStatement } from "./sessions";

export const RESET_TTL_MS = 60 * 60 * 1000;
const TOKEN_BYTES = 32;

/**
 * Starts a reset: a random 32-byte token goes into the e-mail only; the table keeps its SHA-256. Returns what the link
 * needs (<web client>reset-password/1?token=<token>&id=<id>, hash or path routing).
 */
export async function createPasswordReset(db: Db, userId: string, now: number): Promise<{ id: string; token: string }> {
  const token = randomUrlToken();
  const id = crypto.randomUUID();
  await db.insert(passwordResets).values({ id, userId, tokenHash: await sha256Hex(token), expiresAt: now + RESET_TTL_MS, createdAt: now });
  return { id, token };
}

/** The e-mailed link, into the configured web client (decision 032): `<client>reset-password/1?token=&id=`. */
export function resetLink(client: WebClient, reset: { id: string; token: string }): string {
  return webLink(client, "reset-password/1", { token: reset.token, id: reset.id });
}

/** Checks a link without using it (cheap, so the slow password hash runs only for a link that can succeed). */
export async function checkPasswordReset(db: Db, id: string, token: string, now: number): Promise<{ userId: string }> {
  const [row] = await db.select().from(passwordResets).where(eq(passwordResets.id, id)).limit(1);
  const tokenHash = await sha256Hex(token);
  // One answer for every way a link can be bad, so it tells a guesser nothing.
  if (!row || row.usedAt !== null || row.expiresAt <= now || !constantTimeEqual(encode(row.tokenHash), encode(tokenHash))) {
    throw invalidLink();
  }
  return { userId: row.userId };
}

/**
 * Uses a link once: claiming it is a conditional UPDATE, so of two parallel submits only one sets the password.
 * Then the new hash, every session revoked and the user's other open links spent, in one batch. The caller then closes
 * the revoked sessions' sockets (services/sessions.ts closeRevokedSockets).
 */
export async function completePasswordReset(db: Db, id: string, userId: string, passwordHash: string, now: number): Promise<void> {
  const claimed = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .returning({ id: passwordResets.id });
  if (claimed.length === 0) throw invalidLink();
  await db.batch([
    db.update(users).set({ passwordHash, passwordChangeRequiredAt: null }).where(eq(users.id, userId)),
    revokeSessionsStatement(db, userId, { all: true }, now),
    db.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt))),
  ]);
}

/** Sweep: links that were used or expired a day ago are of no further use. */
export async function purgeOldPasswordResets(db: Db, now: number): Promise<void> {
  const dayAgo = now - 24 * 3600 * 1000;
  await db.delete(passwordResets).where(or(lt(passwordResets.expiresAt, dayAgo), lt(passwordResets.usedAt, dayAgo)));
}

function invalidLink() {
  return new AppError("VALIDATION_FAILED", RESET_LINK_INVALID_MESSAGE, { field: "token" });
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** 32 random bytes, base64url: the secret half of an e-mailed link (reset, e-mail verification). */
export function randomUrlToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
