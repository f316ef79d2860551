import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from "../../schema/accounts";
import { COMMON_PASSWORDS } from "./common-passwords";

/**
 * What a new password must not be (issue 33, ASVS 5.0 6.2.4, 6.2.11, 6.2.12), checked offline on the server: shorter
 * than 8 characters, on the shipped list of common and breached passwords (lib/common-passwords.ts, built by
 * scripts/make-password-blocklist.ts), or the account's own e-mail address, its part before the @, or its username.
 * Compared lower-cased, so "PassWord1" is as common as "password1". No composition rules (ASVS 6.2.5).
 *
 * Sign-up, the password change and the reset refuse such a password (a 400 naming the field, nothing written); a
 * sign-in whose (older) password fails the same rules still succeeds and flags the account (services/accounts.ts).
 */
let commonSet: Set<string> | null = null;

/** The list as a Set, built once per isolate from the constant (pure data: nothing request-specific is kept). */
function commonPasswords(): Set<string> {
  commonSet ??= new Set(COMMON_PASSWORDS.split("\n"));
  return commonSet;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

export interface PasswordOwner {
  email?: string | null;
  username?: string | null;
}

/** Why this password may not be set (one message, the first rule it breaks), or null when it may. */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.common;
  const lowered = password.toLowerCase();
  const email = owner.email?.trim().toLowerCase();
  const personal = [email, email?.split("@")[0], owner.username?.trim().toLowerCase()].filter((w): w is string => Boolean(w && w.length >= 3));
  if (personal.includes(lowered)) return PASSWORD_MESSAGES.personal;
  return null;
}
