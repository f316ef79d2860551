import { and, eq, gt, isNull, lt, ne, or } from "drizzle-orm";
import { LINK_TOKEN_PATTERN, LINK_TOKEN_TTL_MS, type TelegramLinkStart, type TelegramState } from "../../../schema/telegram";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { chatAccount, liveSessionStamp, sha256Hex, type SignedInUser } from "../accounts";
import { getSetting } from "../kernel";
import { telegramLinks, telegramLinkTokens } from "./tables";

/**
 * Linking a chat to an account (issue 48, decision 070). Settings' "Connect Telegram" makes a single-use token (32
 * random bytes, base64url: 43 characters of A-Za-z0-9_-, a valid deep-link start parameter of at most 64:
 * https://core.telegram.org/bots/features#deep-linking), keeps only its SHA-256 for 10 minutes and opens
 * t.me/<bot>?start=<token>; the bot's `/start <token>` spends it and links the chat. One chat per account and one
 * account per chat; either side can unlink.
 */

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A new link for this session's account; earlier unused tokens of the account stop working. */
export async function createLinkToken(db: Db, session: { userId: string; sessionId: string }, botUsername: string, now: number): Promise<TelegramLinkStart> {
  const token = randomToken();
  const expiresAt = now + LINK_TOKEN_TTL_MS;
  await db.batch([
    db.delete(telegramLinkTokens).where(and(eq(telegramLinkTokens.userId, session.userId), or(isNull(telegramLinkTokens.usedAt), lt(telegramLinkTokens.expiresAt, now)))),
    db.insert(telegramLinkTokens).values({ tokenHash: await sha256Hex(token), userId: session.userId, sessionId: session.sessionId, createdAt: now, expiresAt }),
  ]);
  return { url: `https://t.me/${botUsername}?start=${token}`, expires_at: new Date(expiresAt).toISOString() };
}

export type LinkOutcome =
  | { linked: true; userId: string; previousChatId: string | null }
  | { linked: false; reason: "invalid" | "other-account" | "session-ended" };

/**
 * `/start <token>` in a chat: the token is spent (a compare-and-set on its hash: a second use, an expired or unknown
 * token finds nothing), then the chat is linked to the token's account, if the session that made it still lives and the
 * chat is not linked to another account. A chat already linked to this account stays linked (a second link is a no-op).
 */
export async function linkChat(db: Db, token: string, chat: { chatId: string; chatName: string | null }, now: number): Promise<LinkOutcome> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { linked: false, reason: "invalid" };
  const [claimed] = await db
    .update(telegramLinkTokens)
    .set({ usedAt: now })
    .where(and(eq(telegramLinkTokens.tokenHash, await sha256Hex(token)), isNull(telegramLinkTokens.usedAt), gt(telegramLinkTokens.expiresAt, now)))
    .returning({ userId: telegramLinkTokens.userId, sessionId: telegramLinkTokens.sessionId });
  if (!claimed) return { linked: false, reason: "invalid" };
  const [current] = await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, chat.chatId)).limit(1);
  // A link token for another account must not move a linked chat: a stranger's link sent to a customer would otherwise
  // make the customer's chat buy on the stranger's wallet, or the reverse. They unlink first, on purpose.
  if (current && current.userId !== claimed.userId) return { linked: false, reason: "other-account" };
  const stamp = await liveSessionStamp(db, claimed.userId, claimed.sessionId, now);
  if (!stamp) return { linked: false, reason: "session-ended" };
  const [previous] = await db.select({ chatId: telegramLinks.chatId }).from(telegramLinks).where(and(eq(telegramLinks.userId, claimed.userId), ne(telegramLinks.chatId, chat.chatId))).limit(1);
  const row = { chatId: chat.chatId, userId: claimed.userId, sessionId: claimed.sessionId, passwordStamp: stamp.passwordStamp, chatName: chat.chatName, linkedAt: now };
  await db.batch([
    // One chat per account: linking another chat replaces the first (it is told so by the caller).
    db.delete(telegramLinks).where(and(eq(telegramLinks.userId, claimed.userId), ne(telegramLinks.chatId, chat.chatId))),
    db.insert(telegramLinks).values(row).onConflictDoUpdate({ target: telegramLinks.chatId, set: row }),
  ]);
  return { linked: true, userId: claimed.userId, previousChatId: previous?.chatId ?? null };
}

export type LinkRow = typeof telegramLinks.$inferSelect;

/** The account's linked chat, if any. */
export async function linkOfUser(db: Db, userId: string): Promise<LinkRow | null> {
  const [row] = await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId)).limit(1);
  return row ?? null;
}

/** Unlinks whatever chat the account has; returns its chat id (null: none was linked). */
export async function unlinkUser(db: Db, userId: string): Promise<string | null> {
  const rows = await db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).returning({ chatId: telegramLinks.chatId });
  return rows[0]?.chatId ?? null;
}

/** Unlinks a chat; returns the account it was linked to (null: none). */
export async function unlinkChat(db: Db, chatId: string): Promise<string | null> {
  const rows = await db.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId)).returning({ userId: telegramLinks.userId });
  return rows[0]?.userId ?? null;
}

export type LinkedChat =
  | { state: "linked"; link: LinkRow; user: SignedInUser }
  | { state: "unlinked" }
  /** The link was there and ended now (why: the customer is told once). */
  | { state: "ended"; why: "blocked" | "session" | "password" | "gone" };

/**
 * Who a chat acts as, checked on every update: the account must exist and not be blocked, and, as the operator's
 * `telegram_bot` setting says, the session that made the link must not have been revoked and the password must be the
 * one it was linked under. A link that fails a check is removed here, so it fails once and the chat is then unlinked.
 */
export async function linkedChat(db: Db, chatId: string): Promise<LinkedChat> {
  const [link] = await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, chatId)).limit(1);
  if (!link) return { state: "unlinked" };
  const [account, setting] = await Promise.all([chatAccount(db, link.userId, link.sessionId), getSetting(db, "telegram_bot")]);
  const why = !account
    ? "gone"
    : account.blocked
      ? "blocked"
      : setting.unlink_on_session_revoked && account.sessionRevoked
        ? "session"
        : setting.unlink_on_password_change && account.passwordStamp !== link.passwordStamp
          ? "password"
          : null;
  if (why || !account) {
    await db.delete(telegramLinks).where(and(eq(telegramLinks.chatId, chatId), eq(telegramLinks.userId, link.userId)));
    return { state: "ended", why: why ?? "gone" };
  }
  return { state: "linked", link, user: account.user };
}

/** The country whose services the chat listed last: a name typed next is looked for there (screens.ts searchScreen). */
export async function rememberSearchCountry(db: Db, chatId: string, countryId: string): Promise<void> {
  await db.update(telegramLinks).set({ searchCountry: countryId }).where(eq(telegramLinks.chatId, chatId));
}

/** GET /api/telegram: Settings' section. */
export async function telegramState(db: Db, userId: string, botUsername: string): Promise<TelegramState> {
  const link = await linkOfUser(db, userId);
  return { bot_username: botUsername, linked: link !== null, chat_name: link?.chatName ?? null, linked_at: link ? new Date(link.linkedAt).toISOString() : null };
}

/** The refusal a web call gets when the deployment has no bot (the routes are absent: the app's 404). */
export function botAbsent(): AppError {
  return new AppError("NOT_FOUND", "Not found.");
}
