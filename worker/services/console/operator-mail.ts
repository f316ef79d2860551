import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import { tierFor } from "../../../schema/tiers";
import type { Db } from "../../db/client";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { operatorEmail, type Recipient, usersSeenSince } from "../accounts";
import { getSetting, notSandboxUser } from "../kernel";

/**
 * E-mail to a group of customers (the console's Messages page): who is in the group, the unsubscribe link that takes a
 * customer out of every later group e-mail, and the message itself. Blocked customers, those who unsubscribed and
 * sandbox accounts are never in a group. Sending goes through the product's one e-mail sender (providers/email/select.ts).
 */

export type Audience = { group: "all" } | { group: "tier"; tier: string } | { group: "inactive"; days: number };

/** At most this many recipients per send: a bigger campaign is several sends (and the rate limit spaces them). */
export const MAX_RECIPIENTS_PER_SEND = 1000;
/** Group e-mails an operator may send per hour. */
export const GROUP_MAIL_LIMIT = { limit: 3, windowMs: 60 * 60 * 1000 };

export async function recipientsFor(db: Db, audience: Audience, now: number): Promise<(Recipient & { id: string })[]> {
  // Sandbox accounts (test keys' wallets, @sandbox.invalid) are never customers to write to (issue 28), nor a
  // reseller's sub-account wallets (issue 46: no inbox, the reseller is the customer).
  const reachable = and(isNull(users.emailOptOutAt), isNull(users.blockedAt), notSandboxUser(users.id), isNull(users.parentUserId));
  const base = db.select({ id: users.id, email: users.email, username: users.username, totalDepositedKobo: users.totalDepositedKobo }).from(users);
  if (audience.group === "inactive") {
    const cutoff = now - audience.days * 86_400_000;
    // Inactive: signed up before the cutoff and no session seen (or opened) since.
    const lastSeen = usersSeenSince(db, cutoff);
    const rows = await base.where(and(reachable, lt(users.createdAt, cutoff), sql`${users.id} NOT IN ${lastSeen}`)).limit(MAX_RECIPIENTS_PER_SEND + 1);
    return rows;
  }
  const rows = await base.where(reachable).limit(audience.group === "all" ? MAX_RECIPIENTS_PER_SEND + 1 : 50_000);
  if (audience.group === "all") return rows;
  const tiers = await getSetting(db, "tiers");
  if (!tiers.some((t) => t.text === audience.tier)) throw new AppError("VALIDATION_FAILED", `No tier named "${audience.tier}".`, { field: "tier" });
  return rows.filter((r) => tierFor(tiers, koboToNaira(r.totalDepositedKobo)).text === audience.tier);
}

/** HMAC-SHA256 of the user id under the app secret: the link proves it was ours without a table of tokens. */
async function unsubscribeSignature(secret: Uint8Array, userId: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`unsubscribe:${userId}`)));
  return btoa(String.fromCharCode(...mac)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function unsubscribeLink(origin: string, secret: Uint8Array, userId: string): Promise<string> {
  return `${origin}/api/unsubscribe?u=${encodeURIComponent(userId)}&t=${await unsubscribeSignature(secret, userId)}`;
}

/** Follows an unsubscribe link: true when the signature is ours (the flag is then set, idempotently). */
export async function applyUnsubscribe(db: Db, secret: Uint8Array, userId: string, signature: string, now: number): Promise<boolean> {
  const expected = await unsubscribeSignature(secret, userId);
  if (expected.length !== signature.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  if (diff !== 0) return false;
  await db.update(users).set({ emailOptOutAt: now }).where(and(eq(users.id, userId), isNull(users.emailOptOutAt)));
  return true;
}

export async function groupMessage(origin: string, secret: Uint8Array, to: Recipient & { id: string }, subject: string, body: string) {
  return operatorEmail(to, subject, body, await unsubscribeLink(origin, secret, to.id));
}
