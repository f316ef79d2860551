import { koboToNaira } from "../../schema/money";
import type { LevelRow, RateSettingsRow } from "../../schema/settings";
import { tierFor } from "../../schema/tiers";
import * as content from "../contract/content";
import { getDb } from "../db/client";
import { webLink, type WebClient } from "../lib/public-origin";
import { requireAuth } from "../middleware/auth";
import { getSetting, getSettings } from "../services/kernel";
import { guarded, routeApp, type RouteApp } from "./route-app";

/** Operator-managed content and rates, read from settings in D1. */
export const contentRoutes: RouteApp = routeApp()
  .openapi(content.links, async (c) => c.json(await getSetting(getDb(c.env.DB), "links")))
  // SPEC 7 "data.data is a list of ads": axios's data is the body, so the body's data is the list (issue 19). Images
  // are absolute on PUBLIC_URL and in-app links open the configured web client (issue 27): another client on another
  // origin, with hash or path routing, shows and follows them.
  .openapi(content.ads, async (c) => {
    const { publicUrl, webClient } = c.var.config;
    const ads = await getSetting(getDb(c.env.DB), "ads");
    return c.json({ data: ads.map((ad) => ({ ...ad, url: new URL(ad.url, publicUrl).href, link: adLink(webClient, ad.link) })) });
  })
  .openapi(content.tiers, async (c) => c.json({ data: await getSetting(getDb(c.env.DB), "tiers") }))
  // Public like the discount tiers: the prices page shows them signed out (decision 074). Lowest threshold first.
  .openapi(content.wholesaleTiers, async (c) => c.json({ data: [...(await getSetting(getDb(c.env.DB), "wholesale_tiers"))].sort((a, b) => a.threshold - b.threshold) }))
  // Configuration, like /sms/price's starter-tier prices it explains: the spec's original client reads it signed out.
  .openapi(content.costs, async (c) => c.json([await getSetting(getDb(c.env.DB), "costs")]))
  .openapi(guarded(content.rate, requireAuth), async (c) => {
    const s = await getSettings(getDb(c.env.DB), ["rate_settings", "exchange_rate"]);
    // `rate` is the exchange rate prices are computed with (SPEC 4: cost/100 × rate × markup), so a client applying the
    // formula shows what the server charges (issue 19). The crypto funding rate (rate_settings.rate) is `crypto_rate`.
    const { rate: cryptoRate, ...funding } = s.rate_settings;
    return c.json([{ ...funding, rate: s.exchange_rate.rate, exchange_rate: s.exchange_rate.rate, crypto_rate: cryptoRate } satisfies RateSettingsRow]);
  })
  // The user comes from the token; the spec's ?user_id is ignored.
  .openapi(guarded(content.level, requireAuth), async (c) => {
    const user = c.var.user;
    const tiers = await getSetting(getDb(c.env.DB), "tiers");
    const totalDeposited = koboToNaira(user.totalDepositedKobo);
    return c.json([{ total_deposited: totalDeposited, tier: tierFor(tiers, totalDeposited) } satisfies LevelRow]);
  })
  .openapi(guarded(content.referralLink, requireAuth), (c) => {
    // SPEC 7 "Referral link as data": the body is the link itself, a JSON string (issue 19), into the configured web
    // client (decision 032).
    return c.json(webLink(c.var.config.webClient, "signup/1", { ref: c.var.user.referralCode }));
  });

/**
 * An ad's link as the configured web client opens it: an in-app route stored as "/#/sms/1" or "/sms/1" becomes that
 * client's link for "sms/1" (hash or path routing); an outside https address stays as it is.
 */
export function adLink(client: WebClient, stored: string): string {
  if (/^https?:\/\//i.test(stored)) return stored;
  return webLink(client, stored.replace(/^\/?#?\/?/, ""));
}
