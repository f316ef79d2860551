import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimits } from "../db/tables";
import { AppError } from "../lib/errors";

/** A fixed window: at most `limit` hits per key in `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

export const RATE_LIMITS = {
  /**
   * The account-wide login ceiling, against guessing spread over many addresses. Ten times the per-address limit, so
   * one attacking address (stopped at 10 below) can never lock the owner out (issue 12).
   */
  loginPerAccount: { limit: 100, windowMs: FIFTEEN_MINUTES },
  /** Forgot-password is limited the same way, per e-mail (known or not, so the answer reveals nothing). */
  forgotPerAccount: { limit: 10, windowMs: FIFTEEN_MINUTES },
  /** Guessing the old password with a stolen token is limited like a login. */
  passwordChangePerUser: { limit: 10, windowMs: FIFTEEN_MINUTES },
  /** The second login step (and enabling/disabling two-factor): a code is guessed no faster than a password. */
  twoFactorPerUser: { limit: 10, windowMs: FIFTEEN_MINUTES },
  /** A login challenge (5 minutes) is spent by its first successful code: one claim per challenge id. */
  twoFactorChallengeOnce: { limit: 1, windowMs: 5 * 60 * 1000 },
  /** "Send the confirmation link again": enough for a lost mail, not enough to use us to flood an inbox. */
  verifyResendPerUser: { limit: 5, windowMs: 60 * 60 * 1000 },
  // Generous on purpose: a whole office (or a mobile carrier's NAT) shares one address. It only stops a single machine
  // spraying guesses across many accounts.
  authPerAddress: { limit: 300, windowMs: FIFTEEN_MINUTES },
  /**
   * Issue 12: 10 login attempts on one account from one address in 15 minutes, then that address gets 429 for that
   * account; the owner signing in from another address is not affected (the account-wide ceiling above still applies).
   */
  loginPerAccountAddress: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateLimitRule>;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit and says whether it is within the limit. One atomic upsert: parallel requests cannot both slip past,
 * and a window that has passed starts again at 1.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const freshReset = now + rule.windowMs;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: freshReset })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${freshReset} ELSE ${rateLimits.resetAt} END`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const count = row?.count ?? 1;
  const resetAt = row?.resetAt ?? freshReset;
  return { allowed: count <= rule.limit, count, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/** Forgets a key (a successful login clears its account's failures). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Consumes one hit and throws the 429 (one error body with retry_after) when over the limit. */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<void> {
  const result = await consumeRateLimit(db, key, rule);
  if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
}

export function rateLimitedError(retryAfterSeconds: number): AppError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    "RATE_LIMITED",
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    { retry_after: retryAfterSeconds },
  );
}

/** Sweep: drops windows that have passed so the table stays small. */
export async function purgeExpiredRateLimits(db: Db, now = Date.now()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, now));
}
