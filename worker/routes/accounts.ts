import { $ } from "@hono/zod-openapi";
import { ACCOUNT_MESSAGES } from "../../schema/account-messages";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { requireAuth, sessionClaims } from "../middleware/auth";
import { changeOwnPassword, deviceFromRequest, referralInvitation, requestPasswordReset, resetPassword, revokeSessions, signIn, signInSecondStep, signUp, updateProfile } from "../services/accounts";
import { clientAddress, perAddressLimit } from "../middleware/address-limit";
import * as accounts from "../contract/accounts";
import { nowOf, requestDepsOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * Accounts (spec sections 2, 3, 5, 7, 8; docs/api.md); the logic is services/accounts.ts. The spec's client calls some
 * paths with a trailing slash (/register/, /logout/, /update/): the app is `strict: false` (app.ts), so both spellings
 * reach one route.
 */


/** The caller's address as Cloudflare reports it (the login's per account and address limit, issue 12). */

export const accountRoutes: RouteApp = $(
  routeApp()
    // A 429 says when to retry in the body (retry_after) and in the standard header.
    .use("*", async (c, next) => {
      await next();
      const retryAfter = c.error instanceof AppError ? c.error.extra.retry_after : undefined;
      if (c.res.status === 429 && typeof retryAfter === "number") c.res.headers.set("Retry-After", String(retryAfter));
    }),
)
  .openapi(guarded(accounts.register, perAddressLimit), async (c) => {
    const input = c.req.valid("json");
    const session = await signUp(requestDepsOf(c), {
      username: input.username,
      email: input.email,
      phone: input.number,
      password: input.password,
      referralCode: input.referralCode || null,
      device: deviceFromRequest(c.req.raw),
    });
    return c.json({ ...session, message: ACCOUNT_MESSAGES.welcome }, 201);
  })

  /**
   * Public (issue 28): a referral link's sign-up page says who invited the visitor (a first name only) and what the
   * invitation gives; an unknown code is 404. Limited per address like the other signed-out account calls.
   */
  .openapi(guarded(accounts.referralInvitation, perAddressLimit), async (c) => c.json(await referralInvitation(getDb(c.env.DB), c.req.valid("param").code), 200))

  /** With two-factor sign-in on, the answer is a challenge for POST /login/2fa instead of the session. */
  .openapi(guarded(accounts.login, perAddressLimit), async (c) => {
    const { email, password } = c.req.valid("json");
    return c.json(await signIn(requestDepsOf(c), { email, password, address: clientAddress(c), device: deviceFromRequest(c.req.raw) }), 200);
  })

  .openapi(guarded(accounts.loginSecondStep, perAddressLimit), async (c) =>
    c.json(await signInSecondStep(requestDepsOf(c), { ...c.req.valid("json"), device: deviceFromRequest(c.req.raw) }), 200),
  )

  /**
   * Ends the session and closes its open sockets before answering (new ones are refused: the room checks the session).
   * A session that is already gone (expired, revoked elsewhere, no token) answers the same 200: the caller is signed
   * out either way, and the spec's original client clears its own state only on a 2xx (issue 27). Nothing is revoked
   * for a token whose signature does not verify.
   */
  .openapi(accounts.logout, async (c) => {
    const claims = await sessionClaims(c);
    if (claims) await revokeSessions(c.env, claims.userId, { sessionIds: [claims.sessionId] }, nowOf(c));
    return c.json({ message: ACCOUNT_MESSAGES.loggedOut }, 200);
  })

  .openapi(guarded(accounts.updateProfile, requireAuth), async (c) => {
    const { username, userNumber } = c.req.valid("json");
    const user = await updateProfile(getDb(c.env.DB), c.var.user.id, { username, phone: userNumber });
    if (!user) throw new AppError("UNAUTHORIZED", "Your session has expired. Please log in again.");
    // SPEC 7 "data is a text message": the body is the message, a JSON string (issue 19); our client knows what it sent.
    return c.json(ACCOUNT_MESSAGES.profileUpdated, 200);
  })

  .openapi(guarded(accounts.changePassword, requireAuth), async (c) => {
    const { oldPassword, newPassword } = c.req.valid("json");
    await changeOwnPassword(requestDepsOf(c), { userId: c.var.user.id, sessionId: c.var.sessionId, oldPassword, newPassword });
    // SPEC 7 "data.data message": the body's data is the message (issue 19). The caller's token stays valid, so no new
    // one is needed: a client that stores nothing stays signed in.
    return c.json({ data: ACCOUNT_MESSAGES.passwordUpdated }, 200);
  })

  .openapi(guarded(accounts.forgotPassword, perAddressLimit), async (c) => {
    await requestPasswordReset(requestDepsOf(c), c.req.valid("json").email);
    return c.json({ message: ACCOUNT_MESSAGES.forgotSent }, 200);
  })

  .openapi(guarded(accounts.resetPassword, perAddressLimit), async (c) => {
    await resetPassword(requestDepsOf(c), c.req.valid("json"));
    return c.json({ message: ACCOUNT_MESSAGES.resetDone }, 200);
  });
