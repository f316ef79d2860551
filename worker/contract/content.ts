
import { z } from "zod";
import { unsubscribeQuerySchema } from "../../schema/admin";
import type { DataOf, Health, RealtimeToken } from "../../schema/answers";
import type { Ad, DiscountTier, LevelRow, RateSettingsRow, SettingValue, SiteLink, WholesaleTier } from "../../schema/settings";
import type { PublicStatus } from "../../schema/status";
import { answer, route } from "./kit";

/**
 * Content, settings and the small reads every screen makes, mounted at /api (routes/content.ts, health.ts, status.ts,
 * realtime.ts).
 */

export const health = route({ method: "get", path: "/health", responses: { 200: answer<Health>() } });

/** The public status page's figures (issue 32): no sign-in, cached at the edge. */
export const status = route({ method: "get", path: "/status", responses: { 200: answer<PublicStatus>() } });

export const links = route({ method: "get", path: "/links", responses: { 200: answer<SiteLink[]>() } });

/** SPEC 7 "data.data is a list of ads" (the body's data). */
export const ads = route({ method: "get", path: "/ads", responses: { 200: answer<DataOf<Ad[]>>() } });

export const tiers = route({ method: "get", path: "/tiers", responses: { 200: answer<DataOf<DiscountTier[]>>() } });

/** Issue 46 (decision 074): resellers' wholesale tiers by 30-day spend, public like the discount tiers. */
export const wholesaleTiers = route({ method: "get", path: "/wholesale-tiers", responses: { 200: answer<DataOf<WholesaleTier[]>>() } });

export const costs = route({ method: "get", path: "/costs", responses: { 200: answer<SettingValue<"costs">[]>() } });

export const rate = route({ method: "get", path: "/get-rate", responses: { 200: answer<RateSettingsRow[]>() } });

/** The spec's client sends ?user_id: the user comes from the token, so it is not read. */
export const level = route({ method: "get", path: "/level", responses: { 200: answer<LevelRow[]>() } });

/** SPEC 7 "Referral link as data": the body is the link, a JSON string. */
export const referralLink = route({ method: "get", path: "/ref", responses: { 200: answer<string>() } });

export const realtimeToken = route({ method: "get", path: "/realtime-token", responses: { 200: answer<RealtimeToken>() } });

/**
 * The unsubscribe link at the foot of every group e-mail, mounted at /api outside the operator gate (a page opened
 * from a mail client: signed, no sign-in).
 */
export const unsubscribe = route({
  method: "get",
  path: "/unsubscribe",
  request: { query: unsubscribeQuerySchema },
  responses: {
    200: { description: "Unsubscribed", content: { "text/html": { schema: z.string() } } },
    404: { description: "Not a valid link", content: { "text/html": { schema: z.string() } } },
  },
});
