import { env } from "cloudflare:workers";
import { createUser, type TestUser } from "./helpers";

/** Shared by the operator console's tests (routes/admin*.test.ts). */

/** An operator (role granted as the CLI grants it), with two-factor on unless told otherwise. */
export async function makeOperator(opts: { twoFactor?: boolean } = {}): Promise<TestUser> {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'operator', totp_enabled_at = ? WHERE id = ?")
    .bind(opts.twoFactor === false ? null : Date.now(), user.id)
    .run();
  return user;
}

/** What any missing page answers: the console's API answers exactly this to anyone it does not accept. */
export const MISSING_PAGE = { code: "NOT_FOUND", message: "Not found.", error: "Not found." };
