import * as contract from "../contract/notifications";
import { getDb } from "../db/client";
import { requireAuth } from "../middleware/auth";
import { requireReauthentication } from "../services/accounts";
import {
  clearRentalForwarding,
  listPushDevices,
  notificationSettingsView,
  registerPushDevice,
  removePushDevice,
  renewPushDevice,
  rentalForwardingView,
  setForwardingDefaults,
  setRentalForwarding,
  updatePushPreferences,
} from "../services/notifications";
import { nowOf, sessionOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * Settings → Notifications and a rental's forwarding (issue 47, decision 069; docs/api.md "Notifications"). The device
 * belongs to the session the token names, never to anything in the body. A forwarding webhook receives every code of a
 * rental, so pointing it somewhere new asks for a recent sign-in proof (ASVS 7.5.1, as a developer webhook's URL does).
 */
export const notificationRoutes: RouteApp = routeApp()
  .openapi(guarded(contract.notificationSettings, requireAuth), async (c) =>
    c.json(await notificationSettingsView(getDb(c.env.DB), c.var.config, owner(c.var.user, c.var.sessionId), nowOf(c))),
  )

  .openapi(guarded(contract.pushPreferences, requireAuth), async (c) =>
    c.json(await updatePushPreferences(getDb(c.env.DB), c.var.config, owner(c.var.user, c.var.sessionId), c.req.valid("json"), nowOf(c))),
  )

  .openapi(guarded(contract.forwardingDefaults, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const input = c.req.valid("json");
    const now = nowOf(c);
    const current = await notificationSettingsView(db, c.var.config, owner(c.var.user, c.var.sessionId), now);
    if (input.webhook_url !== null && input.webhook_url !== current.forwarding.webhook_url) await requireReauthentication(db, sessionOf(c), now);
    return c.json(await setForwardingDefaults(db, c.var.config, owner(c.var.user, c.var.sessionId), input, now));
  })

  .openapi(guarded(contract.addPushDevice, requireAuth), async (c) => {
    const device = { userId: c.var.user.id, sessionId: c.var.sessionId, userAgent: c.req.header("user-agent") ?? null };
    return c.json(await registerPushDevice(getDb(c.env.DB), c.var.config, device, c.req.valid("json"), nowOf(c)), 201);
  })

  .openapi(guarded(contract.removePushDevice, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    await removePushDevice(db, c.var.user.id, c.req.valid("param").id, nowOf(c));
    return c.json({ data: await listPushDevices(db, { userId: c.var.user.id, sessionId: c.var.sessionId }, nowOf(c)) });
  })

  // No sign-in: the service worker has no token. The old subscription's endpoint and auth secret are its proof.
  .openapi(contract.renewPushDevice, async (c) => {
    await renewPushDevice(getDb(c.env.DB), c.var.config, c.req.valid("json"), nowOf(c));
    return c.json({ renewed: true as const });
  })

  .openapi(guarded(contract.rentalForwarding, requireAuth), async (c) => c.json(await rentalForwardingView(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id)))

  .openapi(guarded(contract.setRentalForwarding, requireAuth), async (c) => {
    const db = getDb(c.env.DB);
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const now = nowOf(c);
    const current = await rentalForwardingView(db, c.var.user.id, id);
    if (input.webhook_url !== null && input.webhook_url !== current.webhook_url) await requireReauthentication(db, sessionOf(c), now);
    return c.json(await setRentalForwarding(db, c.var.user.id, id, input, now));
  })

  .openapi(guarded(contract.clearRentalForwarding, requireAuth), async (c) => c.json(await clearRentalForwarding(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id, nowOf(c))));

function owner(user: { id: string; email: string }, sessionId: string) {
  return { userId: user.id, sessionId, email: user.email };
}
