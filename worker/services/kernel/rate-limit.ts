import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rateLimits } from "./tables";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { Env } from "../../config";

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
  /**
   * Issue 12: 10 login attempts on one account from one address in 15 minutes, then that address gets 429 for that
   * account; the owner signing in from another address is not affected (the account-wide ceiling above still applies).
   */
  loginPerAccountAddress: { limit: 10, windowMs: FIFTEEN_MINUTES },
  /**
   * Issue 47: a service worker renewing its push subscription proves itself with the old one's endpoint and secret (it
   * holds no session); this many tries per old endpoint, so the secret cannot be guessed through us.
   */
  pushRenewalPerDevice: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateLimitRule>;

const ONE_MINUTE = 60 * 1000;

/**
 * Issue 12, hole 6: per-account limits on every action that costs an upstream call or creates an object (a Durable
 * Object alarm, a provider order, a checkout). Enforced in the services (enforceCostLimit), so the web app, /api/v1 and
 * /stubs/handler_api.php share them. Generous on purpose: an honest customer buys a handful of numbers and opens one or
 * two checkouts a minute; these only stop a script (one account once opened 30 checkouts and 30 invoices in a second).
 */
export const COST_LIMITS = {
  /** Card checkouts and crypto invoices together (each is an upstream call and a row; an invoice also an alarm). */
  payment: { limit: 20, windowMs: ONE_MINUTE },
  /** Verify Payment clicks and the return page's polling (each asks Squad). */
  verify: { limit: 60, windowMs: ONE_MINUTE },
  /** SMS numbers bought (each number of a multi-buy counts) and "another code" requests. */
  smsBuy: { limit: 30, windowMs: ONE_MINUTE },
  /** SMS cancels (each releases a number upstream). */
  smsCancel: { limit: 30, windowMs: ONE_MINUTE },
  /** Rentals started, extended, cancelled or ended. */
  rental: { limit: 15, windowMs: ONE_MINUTE },
  /** API key created or revoked, webhook URL set, webhook event resent. */
  apiKey: { limit: 30, windowMs: ONE_MINUTE },
  /** Issue 47: a push device added or removed, a notification choice or a forwarding target saved. */
  notifications: { limit: 30, windowMs: ONE_MINUTE },
} as const satisfies Record<string, RateLimitRule>;

export type CostAction = keyof typeof COST_LIMITS;

/**
 * Throttles on the Workers Rate Limiting binding (issue 44, decision 073): counted by the platform, in memory at the
 * Cloudflare location, so a hot path writes nothing to D1 for them. What the binding can count is a fixed window of 10
 * or 60 seconds and an approximate, per-location count, so only throttles that tolerate both moved here; a limit with
 * a longer window or one that must hold exactly (a login's 10 tries per account and address in 15 minutes, issue 12;
 * the money-cost limits that ride in the purchase batch) stays in D1 above. The numbers are wrangler.toml's
 * [[ratelimits]] (worker/test/reliability/binding-limits.test.ts holds them equal).
 */
export const BINDING_LIMITS = {
  /**
   * Signed-out account calls per address (register, login, forgot and reset password, passkey sign-in, the referral
   * page). Generous on purpose: a whole office (or a mobile carrier's NAT) shares one address; it only stops a single
   * machine spraying guesses across many accounts. It was 300 per 15 minutes in D1 (20 a minute on average, bursts
   * of 300); 100 a minute keeps a burst of a busy office and the journeys' many sign-ins from 127.0.0.1 (every run stays
   * under 300 in 15 minutes, so under 100 in any minute) while still stopping a spray at about 1.7 a second.
   */
  AUTH_ADDRESS_LIMITER: { limit: 100, periodSeconds: 60 },
  /** "Check Now" on an SMS order (each asks the upstream at once), per account: the 30 a minute it was in D1. */
  CHECK_NOW_LIMITER: { limit: 30, periodSeconds: 60 },
} as const;

export type BindingLimiter = keyof typeof BINDING_LIMITS;

/**
 * Counts one hit on the binding's `key` and throws the one 429 past its limit. retry_after is the window's length:
 * the binding does not say when its window ends (an upper bound). A binding that errors lets the request through
 * (logged): these throttles guard against sprays, and the per-account limits in D1 still hold.
 */
export async function enforceBindingLimit(env: Pick<Env, BindingLimiter>, limiter: BindingLimiter, key: string): Promise<void> {
  let success = true;
  try {
    ({ success } = await env[limiter].limit({ key }));
  } catch (err) {
    log("warn", "rate limiter binding failed, let through", { limiter, error: err instanceof Error ? err.message : String(err) });
  }
  if (!success) throw rateLimitedError(BINDING_LIMITS[limiter].periodSeconds);
}

/** Counts one costly action for the account and throws the one 429 (retry_after, Retry-After) past its limit. */
export async function enforceCostLimit(db: Db, userId: string, action: CostAction, now: number): Promise<void> {
  const result = await consumeRateLimit(db, costKey(action, userId), COST_LIMITS[action], now);
  if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
}

function costKey(action: CostAction, userId: string): string {
  return `cost:${action}:${userId}`;
}

/**
 * enforceCostLimit folded into a batch the action sends anyway (docs/decisions/031), so the limit costs no round trip
 * of its own. Put `count` FIRST in that batch (it is the same counter, the same upsert), guard every write of the
 * action with `within` (true while this hit is within the limit), then hand the batch's first result to `enforce`,
 * which throws the same 429 enforceCostLimit throws. A D1 batch is one transaction run alone, so parallel requests
 * cannot both slip past, and a refused action commits only its counted hit: nothing of its own is written. Anything
 * upstream must come after the batch, so past the limit it is never called.
 */
export function costLimitInBatch(db: Db, userId: string, action: CostAction, now: number) {
  const key = costKey(action, userId);
  const rule = COST_LIMITS[action];
  return {
    count: rateLimitUpsert(db, key, rule, now),
    within: sql`(SELECT ${rateLimits.count} FROM ${rateLimits} WHERE ${rateLimits.key} = ${key}) <= ${rule.limit}`,
    enforce(counted: { count: number; resetAt: number }[]): void {
      const result = rateLimitResult(counted[0], rule, now);
      if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
    },
  };
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit and says whether it is within the limit. One atomic upsert: parallel requests cannot both slip past,
 * and a window that has passed starts again at 1.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule, now: number): Promise<RateLimitResult> {
  const [row] = await rateLimitUpsert(db, key, rule, now);
  return rateLimitResult(row, rule, now);
}

function rateLimitUpsert(db: Db, key: string, rule: RateLimitRule, now: number) {
  const freshReset = now + rule.windowMs;
  return db
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
}

function rateLimitResult(row: { count: number; resetAt: number } | undefined, rule: RateLimitRule, now: number): RateLimitResult {
  const count = row?.count ?? 1;
  const resetAt = row?.resetAt ?? now + rule.windowMs;
  return { allowed: count <= rule.limit, count, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/** Forgets a key (a successful login clears its account's failures). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Consumes one hit and throws the 429 (one error body with retry_after) when over the limit. */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimitRule, now: number): Promise<void> {
  const result = await consumeRateLimit(db, key, rule, now);
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
export async function purgeExpiredRateLimits(db: Db, now: number): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, now));
}
