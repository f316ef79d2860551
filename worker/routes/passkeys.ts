import { Hono } from "hono";
import type { AuthResponse } from "../../schema/accounts";
import {
  PASSKEY_MESSAGES,
  STEP_UP_MESSAGES,
  passkeyAssertionSchema,
  passkeyIdParam,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  stepUpSchema,
} from "../../schema/passkeys";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { completeRegistration, confirmStepUp, deviceFromRequest, findUserById, listPasskeys, openSignedInSession, ownPasskey, passkeyCount, passkeyEmail, registrationCeremony, relyingPartyFor, removePasskey, renamePasskey, requireFreshSecondFactor, requireReauthentication, sendAccountEmail, signInCeremony, stepUpCeremony, stepUpState, toSessionUser, verifyAssertion } from "../services/accounts";
import { enforceRateLimit, RATE_LIMITS } from "../services/kernel";
import { nowOf, requestDepsOf, sessionOf } from "./flow-deps";

/**
 * Passkeys (issue 33, decision 034): signing in with one from the login page, managing them in Settings, and the
 * step-up a sensitive change asks for. The relying party is PUBLIC_URL's (services/passkeys.ts relyingPartyFor).
 */
export const passkeyRoutes = new Hono<AppEnv>()
  // ---- Signed out: the login page ----
  .use("/login/passkey/*", async (c, next) => {
    // The same generous per-address ceiling as the password login (routes/accounts.ts).
    const address = c.req.header("cf-connecting-ip");
    if (address) await enforceRateLimit(getDb(c.env.DB), `auth:ip:${address}`, RATE_LIMITS.authPerAddress, nowOf(c));
    await next();
  })
  .post("/login/passkey/options", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await signInCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), nowOf(c)));
  })
  /** A verified passkey (user verification required) is two factors: the session is opened as 'passkey'. */
  .post("/login/passkey/verify", validate("json", passkeyAssertionSchema), async (c) => {
    const db = getDb(c.env.DB);
    const { userId } = await verifyAssertion(db, relyingPartyFor(c.var.config.publicUrl), "sign-in", null, c.req.valid("json"), nowOf(c));
    const user = await findUserById(db, userId);
    if (!user) throw new AppError("VALIDATION_FAILED", PASSKEY_MESSAGES.unknownPasskey);
    return c.json({ user: toSessionUser(user), token: await openSignedInSession(requestDepsOf(c), user, deviceFromRequest(c.req.raw), "passkey") } satisfies AuthResponse);
  })

  // ---- Settings: add, name, list, remove ----
  .use("/passkeys", requireAuth)
  .use("/passkeys/*", requireAuth)
  .get("/passkeys", async (c) => c.json({ data: await listPasskeys(getDb(c.env.DB), c.var.user.id) }))
  /** Adding a passkey changes how the account signs in: re-authentication first (ASVS 7.5.1). */
  .post("/passkeys/options", async (c) => {
    await requireReauthentication(getDb(c.env.DB), sessionOf(c), nowOf(c));
    c.header("Cache-Control", "no-store");
    return c.json(await registrationCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), c.var.user, c.var.sessionId, nowOf(c)));
  })
  .post("/passkeys", validate("json", passkeyRegisterSchema), async (c) => {
    const owner = { userId: c.var.user.id, sessionId: c.var.sessionId };
    const passkey = await completeRegistration(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), owner, c.req.valid("json"), nowOf(c));
    await sendAccountEmail(requestDepsOf(c), passkeyEmail(c.var.user, "added", passkey.name), "passkey-added");
    return c.json({ message: PASSKEY_MESSAGES.added, passkey }, 201);
  })
  .patch("/passkeys/:id", validate("param", passkeyIdParam), validate("json", passkeyRenameSchema), async (c) => {
    const passkey = await renamePasskey(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, c.req.valid("json").name);
    return c.json({ message: PASSKEY_MESSAGES.renamed, passkey });
  })
  /** Removing one is re-authenticated; removing the last one needs a fresh second factor (issue 33). Another user's: 404. */
  .delete("/passkeys/:id", validate("param", passkeyIdParam), async (c) => {
    const db = getDb(c.env.DB);
    const { id } = c.req.valid("param");
    const passkey = await ownPasskey(db, c.var.user.id, id);
    if ((await passkeyCount(db, c.var.user.id)) <= 1) await requireFreshSecondFactor(db, sessionOf(c), nowOf(c));
    else await requireReauthentication(db, sessionOf(c), nowOf(c));
    await removePasskey(db, c.var.user.id, id);
    await sendAccountEmail(requestDepsOf(c), passkeyEmail(c.var.user, "removed", passkey.name), "passkey-removed");
    return c.json({ message: PASSKEY_MESSAGES.removed });
  })

  // ---- Step-up: the session confirms it is still its owner ----
  .use("/step-up", requireAuth)
  .use("/step-up/*", requireAuth)
  .get("/step-up", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await stepUpState(getDb(c.env.DB), sessionOf(c), nowOf(c)));
  })
  .post("/step-up/passkey/options", async (c) => {
    c.header("Cache-Control", "no-store");
    const owner = { userId: c.var.user.id, sessionId: c.var.sessionId };
    return c.json(await stepUpCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), owner, nowOf(c)));
  })
  .post("/step-up", validate("json", stepUpSchema), async (c) => {
    const db = getDb(c.env.DB);
    await confirmStepUp({ db, config: c.var.config }, sessionOf(c), c.req.valid("json"), nowOf(c));
    return c.json({ message: STEP_UP_MESSAGES.confirmed, ...(await stepUpState(db, sessionOf(c), nowOf(c))) });
  });
