import { Hono, type Context } from "hono";
import { createFactory } from "hono/factory";
import {
  ACCOUNT_MESSAGES,
  forgotPasswordSchema,
  loginSchema,
  passwordChangeSchema,
  profileUpdateSchema,
  registerSchema,
  resetPasswordSchema,
} from "../../schema/accounts";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { DECOY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from "../lib/password";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { emailSenderFor } from "../providers/email/select";
import { checkPasswordReset, completePasswordReset, createPasswordReset, resetLink } from "../services/password-reset";
import { RATE_LIMITS, clearRateLimit, enforceRateLimit } from "../services/rate-limit";
import { endRealtimeSession } from "../services/notify";
import { revokeSession, startSession, tokenForSession } from "../services/sessions";
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
 * (/register/, /logout/, /update/): both spellings are served.
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
  });
  const token = await tokenForSession(c.var.config.jwtSecret, session);
  return c.json({ user: toSessionUser(user), token, message: ACCOUNT_MESSAGES.welcome }, 201);
});
accountRoutes.post("/register", ...registerHandlers).post("/register/", ...registerHandlers);

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
  if (needsRehash(user.passwordHash)) await replacePasswordHash(db, user.id, await hashPassword(password));
  const token = await startSession(db, c.var.config.jwtSecret, user.id);
  return c.json({ user: toSessionUser(user), token });
});

const logoutHandlers = factory.createHandlers(requireAuth, async (c) => {
  await revokeSession(getDb(c.env.DB), c.var.user.id, c.var.sessionId);
  // New sockets are refused at once (the room checks the session); this also closes the ones already open.
  c.executionCtx.waitUntil(endRealtimeSession(c.env, c.var.user.id, c.var.sessionId));
  return c.json({ message: ACCOUNT_MESSAGES.loggedOut });
});
accountRoutes.post("/logout", ...logoutHandlers).post("/logout/", ...logoutHandlers);

const updateHandlers = factory.createHandlers(requireAuth, validate("json", profileUpdateSchema), async (c) => {
  const { username, userNumber } = c.req.valid("json");
  const user = await updateProfile(getDb(c.env.DB), c.var.user.id, { username, phone: userNumber });
  if (!user) throw new AppError("UNAUTHORIZED", "Your session has expired. Please log in again.");
  return c.json({ data: ACCOUNT_MESSAGES.profileUpdated, user: toSessionUser(user) });
});
accountRoutes.patch("/update", ...updateHandlers).patch("/update/", ...updateHandlers);

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
  const session = await changePassword(db, userId, await hashPassword(newPassword));
  const token = await tokenForSession(c.var.config.jwtSecret, session);
  return c.json({ data: { data: ACCOUNT_MESSAGES.passwordUpdated }, message: ACCOUNT_MESSAGES.passwordUpdated, token });
});
accountRoutes.patch("/password", ...passwordHandlers).patch("/password/", ...passwordHandlers);

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
