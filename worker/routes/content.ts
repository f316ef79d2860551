import { Hono } from "hono";
import { koboToNaira } from "../../schema/money";
import { tierFor } from "../../schema/settings";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { requireAuth } from "../middleware/auth";
import { getSetting, getSettings } from "../services/settings";

/** Operator-managed content and rates, read from settings in D1. */
export const contentRoutes = new Hono<AppEnv>()
  .get("/links", async (c) => c.json(await getSetting(getDb(c.env.DB), "links")))
  .get("/ads", async (c) => c.json({ data: { data: await getSetting(getDb(c.env.DB), "ads") } }))
  .get("/tiers", async (c) => c.json({ data: await getSetting(getDb(c.env.DB), "tiers") }))
  .get("/costs", requireAuth, async (c) => c.json([await getSetting(getDb(c.env.DB), "costs")]))
  .get("/get-rate", requireAuth, async (c) => {
    const s = await getSettings(getDb(c.env.DB), ["rate_settings", "exchange_rate"]);
    return c.json([{ ...s.rate_settings, exchange_rate: s.exchange_rate.rate }]);
  })
  // The user comes from the token; the spec's ?user_id is ignored.
  .get("/level", requireAuth, async (c) => {
    const user = c.var.user;
    const tiers = await getSetting(getDb(c.env.DB), "tiers");
    const totalDeposited = koboToNaira(user.totalDepositedKobo);
    return c.json([{ total_deposited: totalDeposited, tier: tierFor(tiers, totalDeposited) }]);
  })
  .get("/ref", requireAuth, (c) => {
    const origin = c.var.config.publicUrl;
    const code = c.var.user.referralCode;
    return c.json({ data: `${origin}/#/signup/1?ref=${encodeURIComponent(code)}`, code });
  });
