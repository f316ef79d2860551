import type { SecondFactorMethod } from "../../../schema/accounts";
import type { Db } from "../../db/client";
import { passkeyCount } from "./passkeys";

/**
 * The second factors an account has enrolled, in the order the login's second step offers them: TOTP
 * (services/two-factor.ts) and passkeys (services/passkeys.ts). This is the one question sign-in asks before opening a
 * session (issue 33, ASVS 5.0 6.4.3: a password reset never skips the second factor, because the reset only changes
 * the password and the next sign-in asks this), and the one the operator's "reset two-factor" asks before it is
 * requested — so every caller follows when a factor is added here.
 */
export async function secondFactorMethods(db: Db, user: { id: string; totpEnabledAt: number | null }): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = user.totpEnabledAt !== null ? ["totp"] : [];
  if ((await passkeyCount(db, user.id)) > 0) methods.push("passkey");
  return methods;
}

/** Whether an account has ANY second factor enrolled (TOTP or at least one passkey). */
export async function hasSecondFactor(db: Db, user: { id: string; totpEnabledAt: number | null }): Promise<boolean> {
  return (await secondFactorMethods(db, user)).length > 0;
}
