import { ACCOUNT_MESSAGES } from "../../../schema/account-messages";
import { TWO_FACTOR_MESSAGES, type AuthResponse, type LoginChallenge } from "../../../schema/accounts";
import { passwordProblem } from "../../lib/password-policy";
import { AppError } from "../../lib/errors";
import { signToken, verifyToken } from "../../lib/jwt";
import { log } from "../../lib/log";
import { DECOY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from "../../lib/password";
import { deliverAccountEmail, passwordChangedEmail, passwordResetEmail, sendAccountEmail, verificationEmail } from "./account-emails";
import { createEmailVerification, verificationLink } from "./email-verification";
import { checkPasswordReset, completePasswordReset, createPasswordReset, resetLink } from "./password-reset";
import { clearRateLimit, consumeRateLimit, enforceRateLimit, RATE_LIMITS, type RequestDeps } from "../kernel";
import { closeRevokedSockets, type SessionDevice, tokenForSession } from "./sessions";
import { secondFactorMethods } from "./second-factor";
import { noteDevice, openSignedInSession, refuseBlocked } from "./sign-in";
import { totpKey, verifySecondFactor } from "./two-factor";
import {
  changePassword,
  findUserByEmail,
  findUserById,
  registerAccount,
  replacePasswordHash,
  setPasswordChangeRequired,
  toSessionUser,
  type UserRow,
} from "./users";

/**
 * Accounts (spec sections 2, 3, 5 and 8; issue 12): sign-up, the two login steps, password change and reset. Like the
 * sign-in and account e-mail services beside it, each takes the request's deps (bindings, db, config, the request id,
 * waitUntil for work after the answer: kernel/request-deps.ts) and the request's facts as plain values (the device and
 * address the route read); routes/accounts.ts validates, reads those facts and answers (decision 056).
 */

/** Signs up, opens the first session and e-mails the confirmation link (the first device is remembered silently). */
export async function signUp(
  deps: RequestDeps,
  input: { username: string; email: string; phone: string; password: string; referralCode: string | null; device: SessionDevice },
): Promise<AuthResponse> {
  const { db, config } = deps;
  refuseWeakPassword(input.password, { email: input.email, username: input.username }, "password");
  // Cheap refusal before the slow hash; the unique index still decides when two signups race.
  if (await findUserByEmail(db, input.email)) {
    throw new AppError("EMAIL_TAKEN", ACCOUNT_MESSAGES.emailTaken, { field: "email" });
  }
  const { user, session } = await registerAccount(db, {
    username: input.username,
    email: input.email,
    phone: input.phone,
    passwordHash: await hashPassword(input.password),
    referralCode: input.referralCode,
    device: input.device,
  }, deps.clock.now());
  const token = await tokenForSession(config.jwtSecret, session);
  // Issue 12: the address is confirmed through an e-mailed single-use link; the first device is remembered silently.
  const verification = await createEmailVerification(db, user.id, deps.clock.now());
  await sendAccountEmail(deps, verificationEmail(user, verificationLink(config.webClient, verification)), "verification");
  await noteDevice(deps, user, session, false);
  return { user: toSessionUser(user), token };
}

/**
 * The password step. Counted before checking, so a burst of parallel guesses cannot slip past the limit; a success
 * clears both. Per account AND address first (issue 12): an attacker's address is stopped at 10 without locking the
 * owner out elsewhere, and its refused attempts never reach the account-wide ceiling, which only a spread-out attack
 * meets. With two-factor on the answer is a 5-minute challenge naming the user for the second step, not a session.
 */
export async function signIn(
  deps: RequestDeps,
  input: { email: string; password: string; address: string | null; device: SessionDevice },
): Promise<AuthResponse | LoginChallenge> {
  const { db } = deps;
  const pairKey = `login:${input.email}|ip:${input.address ?? "none"}`;
  const accountKey = `login:${input.email}`;
  await enforceRateLimit(db, pairKey, RATE_LIMITS.loginPerAccountAddress, deps.clock.now());
  await enforceRateLimit(db, accountKey, RATE_LIMITS.loginPerAccount, deps.clock.now());
  const user = await findUserByEmail(db, input.email);
  // An unknown e-mail costs the same derivation and gets the same answer as a wrong password.
  const matches = await verifyPassword(input.password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
  if (!user || !matches) throw new AppError("INVALID_CREDENTIALS", ACCOUNT_MESSAGES.invalidCredentials);
  await Promise.all([clearRateLimit(db, pairKey), clearRateLimit(db, accountKey)]);
  refuseBlocked(user);
  if (needsRehash(user.passwordHash)) await replacePasswordHash(db, user.id, await hashPassword(input.password));
  // Issue 33: a password set under older rules keeps working; the account is flagged so the web asks for a new one
  // (after the second factor too: the flag lives on the account, not in this answer).
  const weak = passwordProblem(input.password, user) !== null;
  if (weak !== (user.passwordChangeRequiredAt !== null)) await setPasswordChangeRequired(db, user.id, weak, deps.clock.now());
  // Any enrolled second factor is asked for, whatever led here (a reset included: it never opens a session). A
  // passkey-only account finishes with the passkey ceremony, which is two factors by itself; the challenge only serves
  // a code (POST /api/login/2fa), kept in the answer so its shape is the same for every account.
  const methods = await secondFactorMethods(db, user);
  if (methods.length > 0) {
    const challenge = await signToken(deps.config.jwtSecret, "two-factor", { userId: user.id, sessionId: crypto.randomUUID() });
    const message = methods.includes("totp") ? TWO_FACTOR_MESSAGES.codeNeeded : TWO_FACTOR_MESSAGES.passkeyNeeded;
    return { two_factor_required: true, challenge, message, methods };
  }
  return signedIn(user, await openSignedInSession(deps, user, input.device), weak);
}

/** A session's answer, with the "choose a new password" flag when the account carries it. */
function signedIn(user: UserRow, token: string, passwordChangeRequired: boolean): AuthResponse {
  return passwordChangeRequired ? { user: toSessionUser(user), token, password_change_required: true } : { user: toSessionUser(user), token };
}

/** A new password that breaks the rules is a 400 naming the field, before anything is written or hashed. */
function refuseWeakPassword(password: string, owner: { email: string; username: string }, field: string): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw new AppError("VALIDATION_FAILED", problem, { field });
}

/** The second login step: the challenge and a TOTP or recovery code, limited like a password. */
export async function signInSecondStep(deps: RequestDeps, input: { challenge: string; code: string; device: SessionDevice }): Promise<AuthResponse> {
  const { db, config } = deps;
  const claims = await verifyToken(config.jwtSecret, "two-factor", input.challenge);
  if (!claims) throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  const limitKey = `2fa:${claims.userId}`;
  await enforceRateLimit(db, limitKey, RATE_LIMITS.twoFactorPerUser, deps.clock.now());
  const user = await findUserById(db, claims.userId);
  if (!user || user.totpEnabledAt === null) throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  const factor = await verifySecondFactor(db, await totpKey(config.jwtSecret), user.id, input.code, deps.clock.now());
  if (factor !== "totp" && factor !== "recovery") {
    throw new AppError("INVALID_CREDENTIALS", factor === "reused" ? TWO_FACTOR_MESSAGES.codeJustUsed : TWO_FACTOR_MESSAGES.wrongCode, { field: "code" });
  }
  await clearRateLimit(db, limitKey);
  // A challenge opens one session: the first success claims its id (one atomic upsert), so a stolen challenge is
  // worth nothing once the customer got in, even with a later code.
  if (!(await consumeRateLimit(db, `2fa-challenge:${claims.sessionId}`, RATE_LIMITS.twoFactorChallengeOnce, deps.clock.now())).allowed) {
    throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  }
  return signedIn(user, await openSignedInSession(deps, user, input.device, "password+totp"), user.passwordChangeRequiredAt !== null);
}

/**
 * Settings' password change. A wrong old password is a 400, not a 401: the web client treats 401 as "signed out", and
 * a typo must not log anyone out. Every OTHER session ends (their sockets too); the one that made the change stays.
 */
export async function changeOwnPassword(
  deps: RequestDeps,
  input: { userId: string; sessionId: string; oldPassword: string; newPassword: string },
): Promise<void> {
  const { db } = deps;
  const limitKey = `password:${input.userId}`;
  await enforceRateLimit(db, limitKey, RATE_LIMITS.passwordChangePerUser, deps.clock.now());
  const user = await findUserById(db, input.userId);
  if (!user || !(await verifyPassword(input.oldPassword, user.passwordHash))) {
    throw new AppError("VALIDATION_FAILED", ACCOUNT_MESSAGES.wrongOldPassword, { field: "oldPassword" });
  }
  // The old password was right: the limit is cleared before a refused new one, which is no guess at anything.
  await clearRateLimit(db, limitKey);
  refuseWeakPassword(input.newPassword, user, "newPassword");
  await changePassword(db, input.userId, input.sessionId, await hashPassword(input.newPassword), deps.clock.now());
  await closeRevokedSockets(deps.env, input.userId);
  await sendAccountEmail(deps, passwordChangedEmail(user, "changed"), "password-changed");
}

/**
 * "Forgot password": limited per e-mail whether or not an account has it, so the 429 reveals nothing either. The rest
 * (looking the account up, creating the link, sending it) happens after the answer, so its timing tells nothing
 * (issue 12). Register's 409 for a taken e-mail is the documented exception (spec section 2).
 */
export async function requestPasswordReset(deps: RequestDeps, email: string): Promise<void> {
  await enforceRateLimit(deps.db, `forgot:${email}`, RATE_LIMITS.forgotPerAccount, deps.clock.now());
  deps.defer(mailResetLinkIfAccount(deps, email));
}

async function mailResetLinkIfAccount(deps: RequestDeps, email: string): Promise<void> {
  const { db } = deps;
  let user: UserRow | null;
  let reset: { id: string; token: string };
  try {
    user = await findUserByEmail(db, email);
    if (!user) return;
    reset = await createPasswordReset(db, user.id, deps.clock.now());
  } catch (err) {
    log("error", "reset link not created", { rid: deps.requestId, reason: err instanceof Error ? err.message : "unknown" });
    return;
  }
  await deliverAccountEmail(deps, passwordResetEmail(user, resetLink(deps.config.webClient, reset)), "password-reset-link");
}

/**
 * The e-mailed link's second half: a new password, every session ended, and a notice to the address. It answers no
 * session (issue 33, ASVS 6.4.3): the customer then signs in like anyone else, and an account with a second factor is
 * asked for it (signIn's secondFactorMethods).
 */
export async function resetPassword(deps: RequestDeps, input: { id: string; token: string; newPassword: string }): Promise<void> {
  const { db } = deps;
  const { userId } = await checkPasswordReset(db, input.id, input.token, deps.clock.now());
  const user = await findUserById(db, userId);
  // A refused password leaves the link unused: the customer tries another one with the same link.
  if (user) refuseWeakPassword(input.newPassword, user, "newPassword");
  await completePasswordReset(db, input.id, userId, await hashPassword(input.newPassword), deps.clock.now());
  await closeRevokedSockets(deps.env, userId);
  if (user) await sendAccountEmail(deps, passwordChangedEmail(user, "reset"), "password-reset");
}
