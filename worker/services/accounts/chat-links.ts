import { and, count, eq, gt, isNull, or } from "drizzle-orm";
import { STEP_UP_WINDOW_MS } from "../../../schema/passkeys";
import type { Db } from "../../db/client";
import { rowsOf, runBatch, users } from "../kernel";
import { passkeys, sessions } from "./tables";
import { sha256Hex } from "./password-reset";
import { accountColumns, type SignedInUser } from "./sessions";

/**
 * What a chat face (the Telegram bot, issue 48) asks of accounts: who a linked chat acts as, whether the link still
 * stands (the session that made it, the password it was made under, a block), and whether the customer confirmed
 * recently in the web app (step-up). The chat face keeps its own link rows; the account's rows are read only here.
 */

/** A digest of the stored password hash: a link made under one password ends when it changes (decision 070). */
export async function passwordStamp(passwordHash: string): Promise<string> {
  return (await sha256Hex(`telegram-link:${passwordHash}`)).slice(0, 32);
}

export interface ChatAccount {
  user: SignedInUser;
  blocked: boolean;
  /** The session that made the link was revoked (signed out, "sign out everywhere", a password change elsewhere). */
  sessionRevoked: boolean;
  passwordStamp: string;
}

/** The account a chat is linked to, as the link's checks need it; null when the account is gone. */
export async function chatAccount(db: Db, userId: string, sessionId: string): Promise<ChatAccount | null> {
  const { rows, sessionRows } = await runBatch(db, {
    rows: rowsOf(
      db
        .select({
          ...accountColumns,
          blockedAt: users.blockedAt,
          passwordHash: users.passwordHash,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1),
    ),
    sessionRows: rowsOf(db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId))).limit(1)),
  });
  const row = rows[0];
  if (!row) return null;
  const { blockedAt, passwordHash, ...user } = row;
  // A session row the sweep already forgot was revoked (or expired) more than a day ago.
  const session = sessionRows[0];
  return { user, blocked: blockedAt !== null, sessionRevoked: !session || session.revokedAt !== null, passwordStamp: await passwordStamp(passwordHash) };
}

/** The live session (not revoked, not expired) of this user, with the account's password stamp: what a link is made of. */
export async function liveSessionStamp(db: Db, userId: string, sessionId: string, now: number): Promise<{ passwordStamp: string } | null> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, blockedAt: users.blockedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row || row.blockedAt !== null) return null;
  return { passwordStamp: await passwordStamp(row.passwordHash) };
}

/**
 * Whether the customer confirmed in the web app in the last 10 minutes (step-up, decision 034), on any of their live
 * sessions: a second factor for an account that has one (TOTP or a passkey), else the password. What the bot accepts
 * instead of a TOTP code for a money action above its threshold.
 */
export async function confirmedInWebApp(db: Db, user: { id: string; totpEnabledAt: number | null }, now: number): Promise<boolean> {
  const since = now - STEP_UP_WINDOW_MS;
  const [passkeyCount] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
  const hasSecondFactor = user.totpEnabledAt !== null || (passkeyCount?.total ?? 0) > 0;
  const proof = hasSecondFactor ? gt(sessions.secondFactorAt, since) : or(gt(sessions.reauthenticatedAt, since), gt(sessions.secondFactorAt, since));
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), proof))
    .limit(1);
  return row !== undefined;
}
