import { Hono, type Context } from "hono";
import { createFactory } from "hono/factory";
import { forgotPasswordSchema, loginSchema, loginTwoFactorSchema, TWO_FACTOR_MESSAGES, passwordChangeSchema, profileUpdateSchema, registerSchema, resetPasswordSchema } from "../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../schema/account-messages";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { DECOY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from "../lib/password";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { emailSenderFor } from "../providers/email/select";
import { checkPasswordReset, completePasswordReset, createPasswordReset, resetLink } from "../services/password-reset";
import { RATE_LIMITS, clearRateLimit, consumeRateLimit, enforceRateLimit } from "../services/rate-limit";
import { passwordChangedEmail, sendAccountEmail, verificationEmail } from "../services/account-emails";
import { createEmailVerification, verificationLink } from "../services/email-verification";
import { noteDevice, openSignedInSession, refuseBlocked } from "../services/sign-in";
import { closeRevokedSockets, deviceFromRequest, revokeSessions, tokenForSession } from "../services/sessions";
import { totpKey, verifySecondFactor } from "../services/two-factor";
import { signToken, verifyToken } from "../lib/jwt";
import {
  changePassword,
  findUserByEmail,
  findUserById,
  registerAccount,
  replacePasswordHash,
  toSessionUser,
  updateProfile,
} from "../services/users";

/**
 * Accounts (spec sections 2, 3, 5, 7, 8; docs/api.md). The spec's client calls some paths with a trailing slash
 * (/register/, /logout/, /update/): the app is `strict: false` (app.ts), so both spellings reach one route.
 */
export const accountRoutes = new Hono<AppEnv>();
const factory = createFactory<AppEnv>();

// A 429 says when to retry in the body (retry_after) and in the standard header.
accountRoutes.use("*", async (c, next) => {
  await next();
  const retryAfter = c.error instanceof AppError ? c.error.extra.retry_after : undefined;
  if (c.res.status === 429 && typeof retryAfter === "number") c.res.headers.set("Retry-After", String(retryAfter));
});

/**
 * The generous per-address limit on signed-out account calls. Cloudflare sets cf-connecting-ip on every request it
 * routes; a request without it (a local test client) has no address to count.
 */
const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") || null;

const perAddressLimit = factory.createMiddleware(async (c, next) => {
  const address = clientAddress(c);
  if (address) await enforceRateLimit(getDb(c.env.DB), `auth:ip:${address}`, RATE_LIMITS.authPerAddress);
  await next();
});

const registerHandlers = factory.createHandlers(perAddressLimit, validate("json", registerSchema), async (c) => {
  const input = c.req.valid("json");
  const db = getDb(c.env.DB);
  // Cheap refusal before the slow hash; the unique index still decides when two signups race.
  if (await findUserByEmail(db, input.email)) {
    throw new AppError("EMAIL_TAKEN", ACCOUNT_MESSAGES.emailTaken, { field: "email" });
  }
  const { user, session } = await registerAccount(db, {
    username: input.username,
    email: input.email,
    phone: input.number,
    passwordHash: await hashPassword(input.password),
    referralCode: input.referralCode || null,
    device: deviceFromRequest(c.req.raw),
  });
  const token = await tokenForSession(c.var.config.jwtSecret, session);
  // Issue 12: the address is confirmed through an e-mailed single-use link; the first device is remembered silently.
  const verification = await createEmailVerification(db, user.id);
  await sendAccountEmail(c, verificationEmail(user, verificationLink(c.var.config.publicUrl, verification)), "verification");
  await noteDevice(c, user, session, false);
  return c.json({ user: toSessionUser(user), token, message: ACCOUNT_MESSAGES.welcome }, 201);
});
accountRoutes.post("/register", ...registerHandlers);

accountRoutes.post("/login", perAddressLimit, validate("json", loginSchema), async (c) => {
  const { email, password } = c.req.valid("json");
  const db = getDb(c.env.DB);
  // Counted before checking, so a burst of parallel guesses cannot slip past the limit; a success clears both.
  // Per account AND address first (issue 12): an attacker's address is stopped at 10 without locking the owner out
  // elsewhere, and its refused attempts never reach the account-wide ceiling, which only a spread-out attack meets.
  const pairKey = `login:${email}|ip:${clientAddress(c) ?? "none"}`;
  const accountKey = `login:${email}`;
  await enforceRateLimit(db, pairKey, RATE_LIMITS.loginPerAccountAddress);
  await enforceRateLimit(db, accountKey, RATE_LIMITS.loginPerAccount);
  const user = await findUserByEmail(db, email);
  // An unknown e-mail costs the same derivation and gets the same answer as a wrong password.
  const matches = await verifyPassword(password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
  if (!user || !matches) throw new AppError("INVALID_CREDENTIALS", ACCOUNT_MESSAGES.invalidCredentials);
  await Promise.all([clearRateLimit(db, pairKey), clearRateLimit(db, accountKey)]);
  refuseBlocked(user);
  if (needsRehash(user.passwordHash)) await replacePasswordHash(db, user.id, await hashPassword(password));
  if (user.totpEnabledAt !== null) {
    // Two-factor on: no session yet. A 5-minute challenge names the user for the second step (POST /login/2fa).
    const challenge = await signToken(c.var.config.jwtSecret, "two-factor", { userId: user.id, sessionId: crypto.randomUUID() });
    return c.json({ two_factor_required: true as const, challenge, message: TWO_FACTOR_MESSAGES.codeNeeded });
  }
  const token = await openSignedInSession(c, user);
  return c.json({ user: toSessionUser(user), token });
});

/** The second login step when two-factor is on: the challenge and a TOTP or recovery code, limited like a password. */
accountRoutes.post("/login/2fa", perAddressLimit, validate("json", loginTwoFactorSchema), async (c) => {
  const { challenge, code } = c.req.valid("json");
  const db = getDb(c.env.DB);
  const claims = await verifyToken(c.var.config.jwtSecret, "two-factor", challenge);
  if (!claims) throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  const limitKey = `2fa:${claims.userId}`;
  await enforceRateLimit(db, limitKey, RATE_LIMITS.twoFactorPerUser);
  const user = await findUserById(db, claims.userId);
  if (!user || user.totpEnabledAt === null) throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  if (!(await verifySecondFactor(db, await totpKey(c.var.config.jwtSecret), user.id, code))) {
    throw new AppError("INVALID_CREDENTIALS", TWO_FACTOR_MESSAGES.wrongCode, { field: "code" });
  }
  await clearRateLimit(db, limitKey);
  // A challenge opens one session: the first success claims its id (one atomic upsert), so a stolen challenge is
  // worth nothing once the customer got in, even with a later code.
  if (!(await consumeRateLimit(db, `2fa-challenge:${claims.sessionId}`, RATE_LIMITS.twoFactorChallengeOnce)).allowed) {
    throw new AppError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.challengeExpired);
  }
  const token = await openSignedInSession(c, user);
  return c.json({ user: toSessionUser(user), token });
});

const logoutHandlers = factory.createHandlers(requireAuth, async (c) => {
  // Ends the session and closes its open sockets before answering (new ones are refused: the room checks the session).
  await revokeSessions(c.env, c.var.user.id, { sessionIds: [c.var.sessionId] });
  return c.json({ message: ACCOUNT_MESSAGES.loggedOut });
});
accountRoutes.post("/logout", ...logoutHandlers);

const updateHandlers = factory.createHandlers(requireAuth, validate("json", profileUpdateSchema), async (c) => {
  const { username, userNumber } = c.req.valid("json");
  const user = await updateProfile(getDb(c.env.DB), c.var.user.id, { username, phone: userNumber });
  if (!user) throw new AppError("UNAUTHORIZED", "Your session has expired. Please log in again.");
  // SPEC 7 "data is a text message": the body is the message, a JSON string (issue 19); our client knows what it sent.
  return c.json(ACCOUNT_MESSAGES.profileUpdated);
});
accountRoutes.patch("/update", ...updateHandlers);

const passwordHandlers = factory.createHandlers(requireAuth, validate("json", passwordChangeSchema), async (c) => {
  const { oldPassword, newPassword } = c.req.valid("json");
  const db = getDb(c.env.DB);
  const userId = c.var.user.id;
  const limitKey = `password:${userId}`;
  await enforceRateLimit(db, limitKey, RATE_LIMITS.passwordChangePerUser);
  const user = await findUserById(db, userId);
  // Not a 401: the web client treats 401 as "signed out", and a typo in the old password must not log anyone out.
  if (!user || !(await verifyPassword(oldPassword, user.passwordHash))) {
    throw new AppError("VALIDATION_FAILED", ACCOUNT_MESSAGES.wrongOldPassword, { field: "oldPassword" });
  }
  await clearRateLimit(db, limitKey);
  // Every OTHER session ends (their sockets too); the one that made the change stays signed in (issue 19).
  await changePassword(db, userId, c.var.sessionId, await hashPassword(newPassword));
  await closeRevokedSockets(c.env, userId);
  await sendAccountEmail(c, passwordChangedEmail(user, "changed"), "password-changed");
  // SPEC 7 "data.data message": the body's data is the message (issue 19). The caller's token stays valid, so no new
  // one is needed: a client that stores nothing stays signed in.
  return c.json({ data: ACCOUNT_MESSAGES.passwordUpdated });
});
accountRoutes.patch("/password", ...passwordHandlers);

accountRoutes.post("/forgot-password", perAddressLimit, validate("json", forgotPasswordSchema), async (c) => {
  const { email } = c.req.valid("json");
  const db = getDb(c.env.DB);
  // Limited per e-mail whether or not an account has it, so the 429 reveals nothing either.
  await enforceRateLimit(db, `forgot:${email}`, RATE_LIMITS.forgotPerAccount);
  // Issue 12: the answer does the same work whether or not the e-mail has an account (the rate limit above, nothing
  // else): looking the account up, creating the link and sending it all happen after the answer, so its timing tells
  // nothing. Register's 409 for a taken e-mail is the documented exception (spec section 2).
  c.executionCtx.waitUntil(mailResetLinkIfAccount(c, email));
  return c.json({ message: ACCOUNT_MESSAGES.forgotSent });
});

async function mailResetLinkIfAccount(c: Context<AppEnv>, email: string): Promise<void> {
  const db = getDb(c.env.DB);
  const sender = emailSenderFor(c.env, c.var.config, db);
  try {
    const user = await findUserByEmail(db, email);
    if (!user) return;
    const reset = await createPasswordReset(db, user.id);
    await sender.send(resetEmail(user.email, user.username, resetLink(c.var.config.publicUrl, reset)));
  } catch (err) {
    log("error", "reset e-mail not delivered", { rid: c.var.requestId, sender: sender.name, reason: err instanceof Error ? err.message : "unknown" });
  }
}

accountRoutes.post("/reset-password", perAddressLimit, validate("json", resetPasswordSchema), async (c) => {
  const { id, token, newPassword } = c.req.valid("json");
  const db = getDb(c.env.DB);
  const { userId } = await checkPasswordReset(db, id, token);
  await completePasswordReset(db, id, userId, await hashPassword(newPassword));
  await closeRevokedSockets(c.env, userId);
  const user = await findUserById(db, userId);
  if (user) await sendAccountEmail(c, passwordChangedEmail(user, "reset"), "password-reset");
  return c.json({ message: ACCOUNT_MESSAGES.resetDone });
});

function resetEmail(to: string, username: string, link: string) {
  const text = [
    `Hello ${username},`,
    "",
    "We received a request to reset the password of your account. Open this link to choose a new password:",
    link,
    "",
    "The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  ].join("\n");
  return { to, subject: "Reset your password", text, html: `<p>Hello ${escapeHtml(username)},</p><p>We received a request to reset the password of your account. <a href="${escapeHtml(link)}">Choose a new password</a>.</p><p>The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>` };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
