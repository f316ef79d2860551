import { and, desc, eq, gt, gte, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getServerByName } from "partyserver";
import { getDb, type Db } from "../../db/client";
import { sessions } from "./tables";
import { type DeveloperRef, type ResellerMarkup, users, type apiKeys } from "../kernel";
import type { Env } from "../../config";
import { signToken } from "../../lib/jwt";
import { log } from "../../lib/log";

/** Matches the api token's lifetime (lib/jwt.ts): a session row outliving its token would serve nobody. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/** last_seen_at moves at most this often, so a signed-in read stays one D1 round trip (the write is off the answer). */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

/** What Settings shows for a signed-in device: taken from the request that opened the session. */
export interface SessionDevice {
  userAgent: string | null;
  country: string | null;
  city: string | null;
}

const NO_DEVICE: SessionDevice = { userAgent: null, country: null, city: null };

/**
 * The device a request comes from: its User-Agent and Cloudflare's approximate place for its address (request.cf,
 * https://developers.cloudflare.com/workers/runtime-apis/request/#incomingrequestcfproperties). Never the address itself.
 */
export function deviceFromRequest(request: Request): SessionDevice {
  const cf = (request as Request & { cf?: { country?: unknown; city?: unknown } }).cf;
  const text = (value: unknown, max: number) => (typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null);
  return {
    userAgent: text(request.headers.get("user-agent"), 256),
    // "T1" is Cloudflare's code for Tor, "XX" for unknown: neither is a place.
    country: ((c) => (c && c !== "XX" && c !== "T1" ? c : null))(text(cf?.country, 2)),
    city: text(cf?.city, 80),
  };
}

/**
 * How a session signed in (decision 034): the password alone, the password and a TOTP or recovery code, or a passkey
 * with user verification (two factors in one). Recorded on the session; step-up reads when it last proved each.
 */
export type SignInMethod = "password" | "password+totp" | "passkey";

/** A new session row (for a db.batch together with the change that opens it, e.g. signup). */
export function newSessionRow(userId: string, now: number, device: SessionDevice = NO_DEVICE, method: SignInMethod = "password") {
  return {
    id: crypto.randomUUID(),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_TTL_MS,
    ...device,
    authMethod: method,
    // Signing in is authenticating: the window for step-up and re-authentication opens now (services/step-up.ts).
    reauthenticatedAt: now,
    secondFactorAt: method === "password" ? null : now,
  };
}

export function sessionInsert(db: Db, row: ReturnType<typeof newSessionRow>) {
  return db.insert(sessions).values(row);
}

/** Opens a session and returns the bearer token that names it. */
export async function startSession(
  db: Db,
  secret: Uint8Array,
  userId: string,
  now: number,
  device: SessionDevice = NO_DEVICE,
  method: SignInMethod = "password",
): Promise<{ token: string; sessionId: string }> {
  const row = newSessionRow(userId, now, device, method);
  await sessionInsert(db, row).run();
  return { token: await tokenForSession(secret, row), sessionId: row.id };
}

export function tokenForSession(secret: Uint8Array, row: { id: string; userId: string }): Promise<string> {
  return signToken(secret, "api", { userId: row.userId, sessionId: row.id });
}

/**
 * Which of a user's sessions a revocation ends: all of them (a reset, the operator blocking the account), all but the
 * caller's (a password change), or named ones (logout, "sign out this device").
 */
export type RevokeScope = { all: true } | { except: string } | { sessionIds: string[] };

/**
 * The revocation as one statement, for a db.batch with the change that causes it (a new password hash). Only live
 * sessions of this user are touched, and the ids it ended come back. After the batch, call closeRevokedSockets.
 */
export function revokeSessionsStatement(db: Db, userId: string, scope: RevokeScope, now: number) {
  const which =
    "except" in scope ? ne(sessions.id, scope.except) : "sessionIds" in scope ? inArray(sessions.id, scope.sessionIds.length ? scope.sessionIds : [""]) : undefined;
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), which))
    .returning({ id: sessions.id });
}

/**
 * THE revocation: ends sessions in D1 (their tokens get 401 on the next request, their realtime tokens can no longer
 * open a socket) and closes, before it returns, every open socket of those sessions. Logout, "sign out this device",
 * "sign out everywhere" and the operator's block call this; the password change and the reset put
 * revokeSessionsStatement in their batch and then call closeRevokedSockets. Returns the ids it ended.
 */
export async function revokeSessions(env: Env, userId: string, scope: RevokeScope, now: number): Promise<string[]> {
  const rows = await revokeSessionsStatement(getDb(env.DB), userId, scope, now);
  await closeRevokedSockets(env, userId);
  return rows.map((r) => r.id);
}

/**
 * Asks the user's notification room to close every socket whose session is no longer live (close code 4001). Awaited,
 * so the answer to a revocation leaves no revoked socket open. Best effort: should the room be unreachable, it still
 * checks liveness before every publish (rooms/notification-room.ts), so a revoked socket never receives a message.
 */
export async function closeRevokedSockets(env: Env, userId: string): Promise<void> {
  try {
    const room = await getServerByName(env.NotificationRoom, userId);
    await room.closeRevokedSessions();
  } catch (err) {
    log("warn", "closing revoked sockets failed", { userId, error: err instanceof Error ? err.message : String(err) });
  }
}

/** Of these session ids, the ones still live (not revoked, not expired): the room's check before it closes or sends. */
export async function liveSessionIds(db: Db, ids: string[], now: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, ids), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return new Set(rows.map((r) => r.id));
}

/** A user's live sessions, most recently seen first (Settings' device list): a query not yet sent, for a batch. */
export function listLiveSessions(db: Db, userId: string, now: number) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      country: sessions.country,
      city: sessions.city,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}
export type LiveSession = Awaited<ReturnType<typeof listLiveSessions>>[number];

// The console's questions about sessions (services/console asks them here: the accounts room owns its tables).

/** The users with a session seen (or opened) since `since`: a subquery, for "signed up before and not seen since". */
export function usersSeenSince(db: Db, since: number) {
  return db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(gte(sql`COALESCE(${sessions.lastSeenAt}, ${sessions.createdAt})`, since));
}

/** Customers with a live session seen in the last `minutes`: "everyone online" for a notification. */
export async function onlineUserIds(db: Db, minutes: number, now: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: sessions.userId })
    .from(sessions)
    .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sql`COALESCE(${sessions.lastSeenAt}, ${sessions.createdAt})`, now - minutes * 60_000)))
    .limit(5000);
  return rows.map((r) => r.userId);
}

/** Whether `sessionId` is one of `userId`'s live sessions. */
export async function isLiveSessionOf(db: Db, userId: string, sessionId: string, now: number): Promise<boolean> {
  const [live] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  return live !== undefined;
}

/** How many live sessions `userId` has, as text, for an audit row's `previous` (read in its batch, before the change). */
export function liveSessionCountSql(userId: string, now: number): SQL {
  return sql`SELECT CAST(COUNT(*) AS TEXT) FROM ${sessions} WHERE ${sessions.userId} = ${userId} AND ${sessions.revokedAt} IS NULL AND ${sessions.expiresAt} > ${now}`;
}

/** Moves last_seen_at; conditional so two tabs racing write once. Called off the answer (waitUntil). */
export async function touchSession(db: Db, sessionId: string, now: number): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, now - LAST_SEEN_EVERY_MS))));
}

/** Sweep: sessions that expired or were revoked more than a day ago are of no further use. */
export async function purgeDeadSessions(db: Db, now: number): Promise<void> {
  const dayAgo = now - 24 * 3600 * 1000;
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.revokedAt, dayAgo)));
}

export type SignedInUser = {
  id: string;
  username: string;
  email: string;
  phone: string;
  referralCode: string;
  referredBy: string | null;
  balanceKobo: number;
  totalDepositedKobo: number;
  /** An active reseller's stored 30-day volume (its wholesale tier, decision 074); null for everyone else. */
  wholesaleVolumeKobo: number | null;
  /** Null until the customer followed the verification link (services/email-verification.ts requireVerifiedEmail). */
  emailVerifiedAt: number | null;
  /** Non-null when two-factor sign-in is on (the operator console can require it). */
  totpEnabledAt: number | null;
  /** Non-null while the account's password fails today's rules (issue 33): the web asks for a new one. Read by the
   * session read only (an API key's caller has no use for it). */
  passwordChangeRequiredAt?: number | null;
  /** Non-null once the customer closed the dashboard tour (issue 28), on whatever device. */
  tourClosedAt?: number | null;
  /** Set only when an API request acts as a reseller's sub-account (middleware/subaccount.ts): the reseller's markup. */
  resellerMarkup?: ResellerMarkup | null;
  /** Set only on an API purchase that named a developer's `ref` (issue 46, developer/ref-share.ts): who earns the share. */
  developerRef?: DeveloperRef | null;
};

/**
 * Who a request signed with an API key acts as. `user` is the acting account priced at the owner's discount tier.
 * Beside SignedInUser (not in developer/api-keys.ts) so that app-env.ts can name both without reaching a room's index.
 */
export interface ApiCaller {
  key: Pick<typeof apiKeys.$inferSelect, "id" | "userId" | "actingUserId" | "mode" | "name" | "webhookUrl" | "webhookSecret" | "lastUsedAt" | "scopes">;
  user: SignedInUser;
}

/** A read a signed-in route runs (middleware/auth.ts readAsSignedInUser) for the token's user: its queries (not yet sent) and how to shape their rows. */
export interface UserRead<R> {
  queries: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
  shape(results: unknown[], user: SignedInUser): R;
}

/** Why a session no longer opens anything (issue 28): its account is blocked, it was signed out, or it expired. */
export async function sessionEndReason(db: Db, userId: string, sessionId: string): Promise<"blocked" | "signed_out" | "expired"> {
  const [row] = await db
    .select({ blockedAt: users.blockedAt, revokedAt: sessions.revokedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .limit(1);
  if (row?.blockedAt != null) return "blocked";
  if (row?.revokedAt != null) return "signed_out";
  return "expired";
}

/** The session's user when the session is live (not revoked, not expired), else null: the rooms check each socket with it. */
export async function loadSessionUser(d1: D1Database, userId: string, sessionId: string, now: number): Promise<SignedInUser | null> {
  const [row] = await sessionUserQuery(getDb(d1), userId, sessionId, now);
  if (!row) return null;
  const { sessionLastSeenAt: _seen, ...user } = row;
  return user;
}

export type SessionUserRow = SignedInUser & { sessionLastSeenAt: number | null };

/** The account's own columns every signed-in read selects (the session's user here, a linked chat's account in chat-links.ts). */
export const accountColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  phone: users.phone,
  referralCode: users.referralCode,
  referredBy: users.referredBy,
  balanceKobo: users.balanceKobo,
  totalDepositedKobo: users.totalDepositedKobo,
  wholesaleVolumeKobo: users.wholesaleVolumeKobo,
  emailVerifiedAt: users.emailVerifiedAt,
  totpEnabledAt: users.totpEnabledAt,
};

/** The session (not revoked, not expired) joined with its user: one query, not yet sent. */
export function sessionUserQuery(db: Db, userId: string, sessionId: string, now: number) {
  return db
    .select({
      ...accountColumns,
      passwordChangeRequiredAt: users.passwordChangeRequiredAt,
      tourClosedAt: users.tourClosedAt,
      sessionLastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    )
    .limit(1);
}
