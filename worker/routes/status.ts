import * as content from "../contract/content";
import { getDb } from "../db/client";
import { publicStatus, STATUS_CACHE_MS } from "../services/sms";
import { routeApp, type RouteApp } from "./route-app";

/**
 * GET /api/status: the public status page's figures (issue 32), no sign-in. Served from the isolate's cache (no D1 read
 * while warm) and cacheable at the edge for as long; the page (#/status) reads the same JSON.
 */
export const statusRoutes: RouteApp = routeApp().openapi(content.status, async (c) => {
  const status = await publicStatus(getDb(c.env.DB));
  const seconds = Math.round(STATUS_CACHE_MS / 1000);
  c.header("cache-control", `public, max-age=${seconds}, s-maxage=${seconds}`);
  return c.json(status);
});
