import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getDb, type Db } from "../db/client";
import { SESSION_ENDED_MESSAGES } from "../../schema/account-messages";
import { AppError } from "../lib/errors";
import { verifyToken } from "../lib/jwt";
import type { AppEnv } from "../app-env";
import { LAST_SEEN_EVERY_MS, sessionEndReason, sessionUserQuery, type SessionUserRow, type SignedInUser, touchSession, type UserRead } from "../services/accounts";

// The session's loading (one query joining the session and its user) lives in services/sessions.ts, where the rooms
// use it too; this module reads the bearer token off the request and sets c.var.user.
export type { SignedInUser, UserRead };


/**
 * The user comes from the bearer token only. One D1 round trip checks the session (not revoked, not expired) and loads
 * the user row, so logout and password changes revoke a token at once and routes that need the user need no second read.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const claims = await bearerClaims(c);
  const [row] = await sessionUserQuery(getDb(c.env.DB), claims.userId, claims.sessionId, c.var.services.clock.now());
  if (!row) throw await sessionEnded(getDb(c.env.DB), claims);
  signIn(c, row, claims.sessionId);
  await next();
});

/**
 * For the public reads a signed-in caller sees differently (the price list at their tier): a visitor passes with
 * c.var.viewer null; a token that is sent must be a live session (401 exactly as requireAuth otherwise), and then
 * c.var.viewer, c.var.user and c.var.sessionId are set as requireAuth sets them.
 */
export const optionalAuth = createMiddleware<AppEnv>(async (c, next) => {
  c.set("viewer", null);
  if (c.req.header("authorization")) {
    const claims = await bearerClaims(c, SESSION_EXPIRED);
    const [row] = await sessionUserQuery(getDb(c.env.DB), claims.userId, claims.sessionId, c.var.services.clock.now());
    if (!row) throw new AppError("UNAUTHORIZED", SESSION_EXPIRED);
    c.set("viewer", signIn(c, row, claims.sessionId));
  }
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
    c.executionCtx.waitUntil(touchSession(getDb(c.env.DB), sessionId, c.var.services.clock.now()).catch(() => undefined));
  }
  return user;
}

const SESSION_EXPIRED = "Your session has expired. Please log in again.";

/** The bearer token's verified claims, or null without one or with a bad or expired one (logout: nothing to end). */
export async function sessionClaims(c: Context<AppEnv>): Promise<{ userId: string; sessionId: string } | null> {
  return bearerClaims(c).catch(() => null);
}

/**
 * Why a signed token's session no longer opens anything, said on the login page the tab is sent to (issue 28): a
 * blocked account, a session signed out from elsewhere, or one that simply expired. Read only on this failure path,
 * for the token's own user (the token's signature proves who asks), so the signed-in path keeps its one round trip.
 */
async function sessionEnded(db: Db, claims: { userId: string; sessionId: string }): Promise<AppError> {
  const reason = await sessionEndReason(db, claims.userId, claims.sessionId);
  if (reason === "blocked") return new AppError("UNAUTHORIZED", SESSION_ENDED_MESSAGES.blocked, { reason });
  if (reason === "signed_out") return new AppError("UNAUTHORIZED", SESSION_ENDED_MESSAGES.signedOut, { reason });
  return new AppError("UNAUTHORIZED", SESSION_EXPIRED, { reason });
}

/** The signed token's claims (no D1 read yet): 401 without a bearer token or with a bad or expired one. */
async function bearerClaims(c: Context<AppEnv>, notBearer = "Please log in to continue.") {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw new AppError("UNAUTHORIZED", notBearer);
  const claims = await verifyToken(c.var.config.jwtSecret, "api", match[1].trim());
  if (!claims) throw new AppError("UNAUTHORIZED", SESSION_EXPIRED);
  return claims;
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
  const [sessionRows, ...results] = await db.batch([sessionUserQuery(db, claims.userId, claims.sessionId, c.var.services.clock.now()), ...plan.queries]);
  const row = sessionRows[0];
  if (!row) throw await sessionEnded(db, claims);
  return plan.shape(results, signIn(c, row, claims.sessionId));
}
