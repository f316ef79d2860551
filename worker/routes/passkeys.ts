import type { AuthResponse } from "../../schema/accounts";
import { PASSKEY_MESSAGES, STEP_UP_MESSAGES } from "../../schema/passkeys";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { requireAuth } from "../middleware/auth";
import { completeRegistration, confirmStepUp, deviceFromRequest, findUserById, listPasskeys, openSignedInSession, ownPasskey, passkeyCount, passkeyEmail, registrationCeremony, relyingPartyFor, removePasskey, renamePasskey, requireFreshSecondFactor, requireReauthentication, sendAccountEmail, signInCeremony, stepUpCeremony, stepUpState, toSessionUser, verifyAssertion } from "../services/accounts";
import { perAddressLimit } from "../middleware/address-limit";
import * as passkeys from "../contract/passkeys";
import { nowOf, requestDepsOf, sessionOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";


/**
 * Passkeys (issue 33, decision 034): signing in with one from the login page, managing them in Settings, and the
 * step-up a sensitive change asks for. The relying party is PUBLIC_URL's (services/passkeys.ts relyingPartyFor).
 */
export const passkeyRoutes: RouteApp = routeApp()
  // ---- Signed out: the login page ----
  .openapi(guarded(passkeys.signInOptions, perAddressLimit), async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await signInCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), nowOf(c)));
  })
  /** A verified passkey (user verification required) is two factors: the session is opened as 'passkey'. */
  .openapi(guarded(passkeys.signInVerify, perAddressLimit), async (c) => {
    const db = getDb(c.env.DB);
    const { userId } = await verifyAssertion(db, relyingPartyFor(c.var.config.publicUrl), "sign-in", null, c.req.valid("json"), nowOf(c));
    const user = await findUserById(db, userId);
    if (!user) throw new AppError("VALIDATION_FAILED", PASSKEY_MESSAGES.unknownPasskey);
    return c.json({ user: toSessionUser(user), token: await openSignedInSession(requestDepsOf(c), user, deviceFromRequest(c.req.raw), "passkey") } satisfies AuthResponse);
  })

  // ---- Settings: add, name, list, remove ----
  .openapi(guarded(passkeys.passkeys, requireAuth), async (c) => c.json({ data: await listPasskeys(getDb(c.env.DB), c.var.user.id) }))
  /** Adding a passkey changes how the account signs in: re-authentication first (ASVS 7.5.1). */
  .openapi(guarded(passkeys.registrationOptions, requireAuth), async (c) => {
    await requireReauthentication(getDb(c.env.DB), sessionOf(c), nowOf(c));
    c.header("Cache-Control", "no-store");
    return c.json(await registrationCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), c.var.user, c.var.sessionId, nowOf(c)));
  })
  .openapi(guarded(passkeys.addPasskey, requireAuth), async (c) => {
    const owner = { userId: c.var.user.id, sessionId: c.var.sessionId };
    const passkey = await completeRegistration(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), owner, c.req.valid("json"), nowOf(c));
    await sendAccountEmail(requestDepsOf(c), passkeyEmail(c.var.user, "added", passkey.name), "passkey-added");
    return c.json({ message: PASSKEY_MESSAGES.added, passkey }, 201);
  })
  .openapi(guarded(passkeys.renamePasskey, requireAuth), async (c) => {
    const passkey = await renamePasskey(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, c.req.valid("json").name);
    return c.json({ message: PASSKEY_MESSAGES.renamed, passkey });
  })
  /** Removing one is re-authenticated; removing the last one needs a fresh second factor (issue 33). Another user's: 404. */
  .openapi(guarded(passkeys.removePasskey, requireAuth), async (c) => {
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
  .openapi(guarded(passkeys.stepUpState, requireAuth), async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await stepUpState(getDb(c.env.DB), sessionOf(c), nowOf(c)));
  })
  .openapi(guarded(passkeys.stepUpOptions, requireAuth), async (c) => {
    c.header("Cache-Control", "no-store");
    const owner = { userId: c.var.user.id, sessionId: c.var.sessionId };
    return c.json(await stepUpCeremony(getDb(c.env.DB), relyingPartyFor(c.var.config.publicUrl), owner, nowOf(c)));
  })
  .openapi(guarded(passkeys.stepUp, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    await confirmStepUp({ db, config: c.var.config }, sessionOf(c), c.req.valid("json"), nowOf(c));
    return c.json({ message: STEP_UP_MESSAGES.confirmed, ...(await stepUpState(db, sessionOf(c), nowOf(c))) });
  });
