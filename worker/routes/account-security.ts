import { TWO_FACTOR_MESSAGES, type AccountState, type SignedInDevice, type TwoFactorSetup, type TwoFactorState } from "../../schema/accounts";
import { EMAIL_VERIFY_MESSAGES } from "../../schema/account-messages";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { verifyPassword } from "../lib/password";
import { readAsSignedInUser, requireAuth } from "../middleware/auth";
import { closeTour, completeEmailVerification, confirmEnrolment, createEmailVerification, describePlace, describeUserAgent, disableTwoFactor, findUserById, listLiveSessions, type LiveSession, requireReauthentication, revokeSessions, sendAccountEmail, startEnrolment, toSessionUser, totpKey, twoFactorEmail, unusedRecoveryCodeCount, verificationEmail, verificationLink, verifySecondFactor } from "../services/accounts";
import { clearRateLimit, enforceRateLimit, RATE_LIMITS } from "../services/kernel";
import * as security from "../contract/account-security";
import { nowOf, requestDepsOf, sessionOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * What a wallet owes its customers (issue 12): the account's security state, e-mail verification, the signed-in
 * devices with "sign out" per device and everywhere, and two-factor sign-in. docs/api.md "Account security".
 */
export const accountSecurityRoutes: RouteApp = routeApp()
  /** The signed-in customer and their security state: the banner, Settings, and the operator console's "has 2FA". */
  .openapi(guarded(security.account, requireAuth), (c) => {
    const user = c.var.user;
    c.header("Cache-Control", "no-store");
    return c.json({
      user: toSessionUser({ id: user.id, username: user.username, phone: user.phone, email: user.email }),
      email_verified: user.emailVerifiedAt !== null,
      two_factor_enabled: user.totpEnabledAt !== null,
      password_change_required: (user.passwordChangeRequiredAt ?? null) !== null,
      tour_closed: user.tourClosedAt != null,
    } satisfies AccountState);
  })

  /** The customer closed the dashboard tour (x, Escape or Finish): it stays closed on every device (issue 28). */
  .openapi(guarded(security.closeTour, requireAuth), async (c) => {
    await closeTour(getDb(c.env.DB), c.var.user.id, nowOf(c));
    return c.json({ tour_closed: true as const });
  })

  // ---- E-mail verification ----
  /** Signed out on purpose: the link may be opened on another device than the one that signed up. */
  .openapi(security.verifyEmail, async (c) => {
    const { id, token } = c.req.valid("json");
    const done = await completeEmailVerification(getDb(c.env.DB), id, token, nowOf(c));
    return c.json({ message: done.alreadyConfirmed ? EMAIL_VERIFY_MESSAGES.alreadyVerified : EMAIL_VERIFY_MESSAGES.verified });
  })

  .openapi(guarded(security.resendVerification, requireAuth), async (c) => {
    const user = c.var.user;
    if (user.emailVerifiedAt !== null) throw new AppError("INVALID_STATE", EMAIL_VERIFY_MESSAGES.alreadyVerified);
    const db = getDb(c.env.DB);
    await enforceRateLimit(db, `verify-resend:${user.id}`, RATE_LIMITS.verifyResendPerUser, nowOf(c));
    const link = await createEmailVerification(db, user.id, nowOf(c));
    await sendAccountEmail(requestDepsOf(c), verificationEmail(user, verificationLink(c.var.config.webClient, link)), "verification");
    return c.json({ message: EMAIL_VERIFY_MESSAGES.sent });
  })

  // ---- Signed-in devices ----
  .openapi(security.sessions, async (c) => {
    const rows = await readAsSignedInUser(c, (db, userId) => ({
      queries: [listLiveSessions(db, userId, nowOf(c))],
      shape: ([list]) => list as LiveSession[],
    }));
    const current = c.var.sessionId;
    return c.json({
      data: rows.map((s): SignedInDevice => {
        const { browser, os, label } = describeUserAgent(s.userAgent);
        return {
          id: s.id,
          device: label,
          browser,
          os,
          place: describePlace(s),
          created_at: new Date(s.createdAt).toISOString(),
          last_seen_at: new Date(s.lastSeenAt ?? s.createdAt).toISOString(),
          current: s.id === current,
        };
      }),
    });
  })

  /** "Sign out this device": its token gets 401 and its sockets close before this answers. Another user's: 404. */
  .openapi(guarded(security.revokeSession, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    const revoked = await revokeSessions(c.env, c.var.user.id, { sessionIds: [id] }, nowOf(c));
    if (revoked.length === 0) throw new AppError("NOT_FOUND", "This device is not signed in.");
    return c.json({ revoked: revoked.length, current: id === c.var.sessionId });
  })

  /** "Sign out everywhere": every session, this one included (the web then signs itself out). */
  .openapi(guarded(security.revokeAllSessions, requireAuth), async (c) => {
    const revoked = await revokeSessions(c.env, c.var.user.id, { all: true }, nowOf(c));
    return c.json({ revoked: revoked.length });
  })

  // ---- Two-factor sign-in (TOTP) ----
  .openapi(guarded(security.twoFactor, requireAuth), async (c) => {
    const enabled = c.var.user.totpEnabledAt !== null;
    return c.json({
      enabled,
      enabled_at: enabled ? new Date(c.var.user.totpEnabledAt!).toISOString() : null,
      recovery_codes_left: enabled ? await unusedRecoveryCodeCount(getDb(c.env.DB), c.var.user.id) : 0,
    } satisfies TwoFactorState);
  })

  /** Step 1: a new secret, answered this once for the QR code (otpauth_url) and for typing (secret). */
  .openapi(guarded(security.twoFactorSetup, requireAuth), async (c) => {
    // ASVS 7.5.1: changing how the account signs in needs the password or a second factor from the last 10 minutes.
    await requireReauthentication(getDb(c.env.DB), sessionOf(c), nowOf(c));
    const { secret, otpauthUrl } = await startEnrolment(getDb(c.env.DB), await totpKey(c.var.config.jwtSecret), c.var.user);
    c.header("Cache-Control", "no-store");
    return c.json({ secret, otpauth_url: otpauthUrl } satisfies TwoFactorSetup);
  })

  /** Step 2: a code from the app turns it on; the ten recovery codes are answered this once. */
  .openapi(guarded(security.twoFactorEnable, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const user = c.var.user;
    const limitKey = `2fa:${user.id}`;
    await enforceRateLimit(db, limitKey, RATE_LIMITS.twoFactorPerUser, nowOf(c));
    const codes = await confirmEnrolment(db, await totpKey(c.var.config.jwtSecret), user.id, c.req.valid("json").code, nowOf(c));
    await clearRateLimit(db, limitKey);
    await sendAccountEmail(requestDepsOf(c), twoFactorEmail(user, true), "2fa-on");
    c.header("Cache-Control", "no-store");
    return c.json({ message: TWO_FACTOR_MESSAGES.enabled, recovery_codes: codes });
  })

  /** Off with the password AND a code (a stolen token alone cannot remove the second factor). */
  .openapi(guarded(security.twoFactorDisable, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const { password, code } = c.req.valid("json");
    const user = c.var.user;
    if (user.totpEnabledAt === null) throw new AppError("INVALID_STATE", TWO_FACTOR_MESSAGES.notOn);
    const limitKey = `2fa:${user.id}`;
    await enforceRateLimit(db, limitKey, RATE_LIMITS.twoFactorPerUser, nowOf(c));
    const row = await findUserById(db, user.id);
    // 400, not 401: the web client signs out on a 401, and a typo must not do that.
    if (!row || !(await verifyPassword(password, row.passwordHash))) {
      throw new AppError("VALIDATION_FAILED", TWO_FACTOR_MESSAGES.wrongPassword, { field: "password" });
    }
    const factor = await verifySecondFactor(db, await totpKey(c.var.config.jwtSecret), user.id, code, nowOf(c));
    if (factor !== "totp" && factor !== "recovery") {
      throw new AppError("VALIDATION_FAILED", factor === "reused" ? TWO_FACTOR_MESSAGES.codeJustUsed : TWO_FACTOR_MESSAGES.wrongCode, { field: "code" });
    }
    await clearRateLimit(db, limitKey);
    await disableTwoFactor(db, user.id);
    await sendAccountEmail(requestDepsOf(c), twoFactorEmail(user, false), "2fa-off");
    return c.json({ message: TWO_FACTOR_MESSAGES.disabled });
  });
