import { koboToNaira, nairaToKobo } from "../../schema/money";
import * as keys from "../contract/api-keys";
import { getDb } from "../db/client";
import { requireAuth } from "../middleware/auth";
import { createApiKey, developerShareSummary, grantsNewScope, listApiKeys, ownApiKey, scopesOf, setApiKeyScopes, resendWebhookEvent, revokeApiKey, sandboxBalanceKobo, setWebhookUrl, toApiKeyView, topUpSandbox, webhookLog } from "../services/developer";
import { keyWithdrawScopeEmail, requireConfirmedSecondFactor, requireFreshSecondFactor, requireReauthentication, requireVerifiedEmail, sendAccountEmail } from "../services/accounts";
import { deliverEvents } from "../services/kernel";
import { nowOf, requestDepsOf, sessionOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * The Settings "API" section: the signed-in customer manages their developer keys (session token only: a key cannot
 * mint or revoke keys) and their sandbox wallet.
 */
export const apiKeyRoutes: RouteApp = routeApp()
  .openapi(guarded(keys.keys, requireAuth), async (c) => c.json({ data: await listApiKeys(getDb(c.env.DB), c.var.user.id) }))

  .openapi(guarded(keys.refShare, requireAuth), async (c) => c.json(await developerShareSummary(getDb(c.env.DB), c.var.user, nowOf(c))))

  .openapi(guarded(keys.createKey, requireAuth), async (c) => {
    // A key spends the wallet without a password or 2FA: only an owner whose address is confirmed may mint one.
    requireVerifiedEmail(c.var.user);
    // Issue 33: a key is a standing credential, so minting one asks for a second factor from the last 10 minutes.
    await requireFreshSecondFactor(getDb(c.env.DB), sessionOf(c), nowOf(c));
    return c.json(await createApiKey(getDb(c.env.DB), c.var.user, c.req.valid("json"), nowOf(c)), 201);
  })

  .openapi(guarded(keys.revokeKey, requireAuth), async (c) => {
    return c.json(await revokeApiKey(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, nowOf(c)));
  })

  /** The sandbox account's test wallet (created with the first test key, or here). */
  .openapi(guarded(keys.sandboxWallet, requireAuth), async (c) => {
    return c.json({ balance: koboToNaira(await sandboxBalanceKobo(getDb(c.env.DB), c.var.user)) });
  })

  /** Free test money: it exists only in the sandbox account and buys only sandbox numbers. */
  .openapi(guarded(keys.sandboxTopUp, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const sandboxUserId = await topUpSandbox(db, c.var.user, nairaToKobo(c.req.valid("json").amount), nowOf(c));
    const balance = koboToNaira(await sandboxBalanceKobo(db, c.var.user));
    // Test keys' webhooks hear of it like a real deposit (balance.changed, written with the ledger row).
    await deliverEvents(c.var.services.events, sandboxUserId);
    return c.json({ balance });
  })

  /**
   * The key's scopes (issue 45). Granting "withdraw" lets the key send the wallet's money out, so it takes a passkey or
   * TOTP proved in the last 10 minutes, never the password alone; taking a scope away takes nothing more. Either
   * change of withdraw is a security notice e-mailed to the owner (like a passkey added or removed); an unchanged set is not.
   */
  .openapi(guarded(keys.setKeyScopes, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const { id } = c.req.valid("param");
    const { scopes } = c.req.valid("json");
    const before = await ownApiKey(db, c.var.user.id, id);
    if (grantsNewScope(before, scopes)) await requireConfirmedSecondFactor(db, sessionOf(c), nowOf(c), "Letting a key withdraw");
    const could = scopesOf(before.scopes).includes("withdraw");
    const view = await setApiKeyScopes(db, c.var.user.id, id, scopes, nowOf(c));
    const can = view.scopes.includes("withdraw");
    if (can !== could) await sendAccountEmail(requestDepsOf(c), keyWithdrawScopeEmail(c.var.user, can ? "granted" : "removed", view.name), can ? "key-withdraw-granted" : "key-withdraw-removed");
    return c.json(view);
  })

  /** Where the key's webhook events go (null removes it). */
  .openapi(guarded(keys.setWebhook, requireAuth), async (c) => {
    const { id } = c.req.valid("param");
    // ASVS 7.5.1: where account events are sent is changed only by someone who just proved who they are.
    await requireReauthentication(getDb(c.env.DB), sessionOf(c), nowOf(c));
    await setWebhookUrl(c.env, c.var.user.id, id, c.req.valid("json").url, nowOf(c));
    return c.json(toApiKeyView(await ownApiKey(getDb(c.env.DB), c.var.user.id, id)));
  })

  /** The key's delivery log, newest first (the last 100 events). */
  .openapi(guarded(keys.webhookEvents, requireAuth), async (c) => {
    return c.json({ data: await webhookLog(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id) });
  })

  /** Delivers an event again (same id and body), with a fresh 24-hour retry budget. */
  .openapi(guarded(keys.resendWebhookEvent, requireAuth), async (c) => {
    const { id, eventId } = c.req.valid("param");
    return c.json(await resendWebhookEvent(c.env, c.var.user.id, id, eventId, Date.now()));
  });
