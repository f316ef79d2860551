import type { Db } from "../db/client";

/**
 * Whether an account has ANY second factor enrolled: the one question sign-in asks before opening a session (issue 33,
 * ASVS 5.0 6.4.3: a password reset never skips the second factor, because the reset only changes the password and the
 * next sign-in asks this). Today that is TOTP (services/two-factor.ts); passkeys add their own check here, so every
 * caller — password sign-in, after a reset or not — follows.
 */
export async function hasSecondFactor(_db: Db, user: { id: string; totpEnabledAt: number | null }): Promise<boolean> {
  return user.totpEnabledAt !== null;
}
