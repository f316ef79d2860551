import { and, eq, gt, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { getDb } from "../db/client";
import { sessions, users } from "../db/tables";
import { AppError } from "../lib/errors";
import { verifyToken } from "../lib/jwt";
import type { AppEnv } from "../app-env";

export type SignedInUser = {
  id: string;
  username: string;
  email: string;
  phone: string;
  referralCode: string;
  referredBy: string | null;
  balanceKobo: number;
  totalDepositedKobo: number;
};

/**
 * The user comes from the bearer token only. One D1 round trip checks the session (not revoked, not expired) and loads
 * the user row, so logout and password changes revoke a token at once and routes that need the user need no second read.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw new AppError("UNAUTHORIZED", "Please log in to continue.");
  const claims = await verifyToken(c.var.config.jwtSecret, "api", match[1].trim());
  if (!claims) throw new AppError("UNAUTHORIZED", "Your session has expired. Please log in again.");
  const user = await loadSessionUser(c.env.DB, claims.userId, claims.sessionId);
  if (!user) throw new AppError("UNAUTHORIZED", "Your session has expired. Please log in again.");
  c.set("user", user);
  c.set("sessionId", claims.sessionId);
  await next();
});

export async function loadSessionUser(d1: D1Database, userId: string, sessionId: string): Promise<SignedInUser | null> {
  const db = getDb(d1);
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      phone: users.phone,
      referralCode: users.referralCode,
      referredBy: users.referredBy,
      balanceKobo: users.balanceKobo,
      totalDepositedKobo: users.totalDepositedKobo,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, Date.now())),
    )
    .limit(1);
  return row ?? null;
}
