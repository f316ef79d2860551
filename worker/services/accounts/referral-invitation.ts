import { eq } from "drizzle-orm";
import type { ReferralInvitation } from "../../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../../schema/account-messages";
import type { Db } from "../../db/client";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { getSetting } from "../kernel";
import { normalizeReferralCode } from "./users";

/**
 * What a referral link's sign-up page says (issue 28): who invited the visitor and what the invitation gives. The page is
 * public, so the referrer is named only by a safe display name (inviterDisplayName); a blocked referrer's code still
 * works at sign-up, but is not named either.
 */
export async function referralInvitation(db: Db, code: string): Promise<ReferralInvitation> {
  const normalized = normalizeReferralCode(code);
  const [row] = await db
    .select({ username: users.username, blockedAt: users.blockedAt })
    .from(users)
    .where(eq(users.referralCode, normalized))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", ACCOUNT_MESSAGES.unknownReferral);
  const { percent } = await getSetting(db, "referral_reward_percent");
  return { code: normalized, inviter: row.blockedAt === null ? inviterDisplayName(row.username) : null, reward_percent: percent };
}

/**
 * The first word of a username when it reads as a first name: letters only (any script, with an inner apostrophe),
 * 2 to 20 of them, capitalised. A username that is an e-mail address ("ada.obi@mail.ng") gives its first word ("Ada"),
 * never the address; one that starts with digits (a phone number) or symbols gives null, and the page says "A friend".
 */
export function inviterDisplayName(username: string): string | null {
  const first = username.trim().split(/[\s._\-@+,;:/\\|()[\]{}<>"!?#&*=~^`$%]+/u)[0] ?? "";
  if (!/^\p{L}(?:[\p{L}\p{M}]|'(?=\p{L}))*$/u.test(first)) return null;
  const letters = [...first];
  if (letters.length < 2 || letters.length > 20) return null;
  return letters[0]!.toLocaleUpperCase("en") + letters.slice(1).join("").toLocaleLowerCase("en");
}
