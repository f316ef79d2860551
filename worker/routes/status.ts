import * as content from "../contract/content";
import { getDb } from "../db/client";
import { publicStatus, STATUS_HTTP_MAX_AGE_S } from "../services/console";
import { routeApp, type RouteApp } from "./route-app";
import { nowOf } from "./flow-deps";

/**
 * GET /api/status: the public status page's figures (issue 32), no sign-in. Served from the isolate's caches (figures a
 * minute, incidents 15 s) and cacheable by browsers and the edge for 15 s, so an incident reaches the page within the
 * minute the console promises (services/console/public-status.ts); the page (#/status) reads the same JSON.
 */
export const statusRoutes: RouteApp = routeApp().openapi(content.status, async (c) => {
  const status = await publicStatus(getDb(c.env.DB), nowOf(c));
  c.header("cache-control", `public, max-age=${STATUS_HTTP_MAX_AGE_S}, s-maxage=${STATUS_HTTP_MAX_AGE_S}`);
  return c.json(status);
});
