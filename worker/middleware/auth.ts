import { and, eq, gt, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getDb, type Db } from "../db/client";
import { sessions, users } from "../db/tables";
import { AppError } from "../lib/errors";
import { verifyToken } from "../lib/jwt";
import type { AppEnv } from "../app-env";
import { LAST_SEEN_EVERY_MS, touchSession } from "../services/sessions";

export type SignedInUser = {
  id: string;
  username: string;
  email: string;
  phone: string;
  referralCode: string;
  referredBy: string | null;
  balanceKobo: number;
  totalDepositedKobo: number;
  /** Null until the customer followed the verification link (services/email-verification.ts requireVerifiedEmail). */
  emailVerifiedAt: number | null;
  /** Non-null when two-factor sign-in is on (the operator console can require it). */
  totpEnabledAt: number | null;
};

/**
 * The user comes from the bearer token only. One D1 round trip checks the session (not revoked, not expired) and loads
 * the user row, so logout and password changes revoke a token at once and routes that need the user need no second read.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const claims = await bearerClaims(c);
  const [row] = await sessionUserQuery(getDb(c.env.DB), claims.userId, claims.sessionId);
  if (!row) throw new AppError("UNAUTHORIZED", SESSION_EXPIRED);
  signIn(c, row, claims.sessionId);
  await next();
});

/**
 * Sets c.var.user and c.var.sessionId, and moves the session's last-seen time when it is older than a few minutes:
 * that write runs after the answer (waitUntil), so the signed-in read path stays one D1 round trip.
 */
function signIn(c: Context<AppEnv>, row: SessionUserRow, sessionId: string): SignedInUser {
  const { sessionLastSeenAt, ...user } = row;
  c.set("user", user);
  c.set("sessionId", sessionId);
  if (sessionLastSeenAt === null || sessionLastSeenAt < Date.now() - LAST_SEEN_EVERY_MS) {
    c.executionCtx.waitUntil(touchSession(getDb(c.env.DB), sessionId).catch(() => undefined));
  }
  return user;
}

const SESSION_EXPIRED = "Your session has expired. Please log in again.";

/** The signed token's claims (no D1 read yet): 401 without a bearer token or with a bad or expired one. */
async function bearerClaims(c: Context<AppEnv>) {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw new AppError("UNAUTHORIZED", "Please log in to continue.");
  const claims = await verifyToken(c.var.config.jwtSecret, "api", match[1].trim());
  if (!claims) throw new AppError("UNAUTHORIZED", SESSION_EXPIRED);
  return claims;
}

/** A read a signed-in route runs for the token's user: its queries (not yet sent) and how to shape their rows. */
export interface UserRead<R> {
  queries: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
  shape(results: unknown[], user: SignedInUser): R;
}

/**
 * requireAuth and a read in ONE D1 round trip, for the screens' polled reads (history, orders): the session check and
 * the read's queries go in one db.batch. The queries are keyed by the user id of a token whose signature was verified,
 * and their rows are shaped only once the same batch proved the session valid, so a revoked token sees nothing.
 * Answers 401 exactly as requireAuth does, and sets c.var.user and c.var.sessionId like it.
 */
export async function readAsSignedInUser<R>(c: Context<AppEnv>, read: (db: Db, userId: string) => UserRead<R>): Promise<R> {
  const claims = await bearerClaims(c);
  const db = getDb(c.env.DB);
  const plan = read(db, claims.userId);
  const [sessionRows, ...results] = await db.batch([sessionUserQuery(db, claims.userId, claims.sessionId), ...plan.queries]);
  const row = sessionRows[0];
  if (!row) throw new AppError("UNAUTHORIZED", SESSION_EXPIRED);
  return plan.shape(results, signIn(c, row, claims.sessionId));
}

export async function loadSessionUser(d1: D1Database, userId: string, sessionId: string): Promise<SignedInUser | null> {
  const [row] = await sessionUserQuery(getDb(d1), userId, sessionId);
  if (!row) return null;
  const { sessionLastSeenAt: _seen, ...user } = row;
  return user;
}

type SessionUserRow = SignedInUser & { sessionLastSeenAt: number | null };

/** The session (not revoked, not expired) joined with its user: one query, not yet sent. */
function sessionUserQuery(db: Db, userId: string, sessionId: string) {
  return db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      phone: users.phone,
      referralCode: users.referralCode,
      referredBy: users.referredBy,
      balanceKobo: users.balanceKobo,
      totalDepositedKobo: users.totalDepositedKobo,
      emailVerifiedAt: users.emailVerifiedAt,
      totpEnabledAt: users.totpEnabledAt,
      sessionLastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, Date.now())),
    )
    .limit(1);
}
