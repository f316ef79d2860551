import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions } from "../db/tables";
import { signToken } from "../lib/jwt";

/** Matches the api token's lifetime (lib/jwt.ts): a session row outliving its token would serve nobody. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/** A new session row (for a db.batch together with the change that opens it, e.g. signup or a password change). */
export function newSessionRow(userId: string, now = Date.now()) {
  return { id: crypto.randomUUID(), userId, createdAt: now, expiresAt: now + SESSION_TTL_MS };
}

export function sessionInsert(db: Db, row: ReturnType<typeof newSessionRow>) {
  return db.insert(sessions).values(row);
}

/** Opens a session and returns the bearer token that names it. */
export async function startSession(db: Db, secret: Uint8Array, userId: string): Promise<string> {
  const row = newSessionRow(userId);
  await sessionInsert(db, row).run();
  return signToken(secret, "api", { userId, sessionId: row.id });
}

export function tokenForSession(secret: Uint8Array, row: { id: string; userId: string }): Promise<string> {
  return signToken(secret, "api", { userId: row.userId, sessionId: row.id });
}

/** Logout: the token naming this session gets 401 on its next request (requireAuth checks revoked_at). */
export async function revokeSession(db: Db, userId: string, sessionId: string, now = Date.now()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Every open session of a user (password change, reset), as a statement for the same batch as the new hash. */
export function revokeAllSessionsStatement(db: Db, userId: string, now = Date.now()) {
  return db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Sweep: sessions that expired or were revoked more than a day ago are of no further use. */
export async function purgeDeadSessions(db: Db, now = Date.now()): Promise<void> {
  const dayAgo = now - 24 * 3600 * 1000;
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.revokedAt, dayAgo)));
}
