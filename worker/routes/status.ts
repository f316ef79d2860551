import { nowOf } from "./flow-deps";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { publicStatus, STATUS_CACHE_MS } from "../services/console";

/**
 * GET /api/status: the public status page's figures (issue 32), no sign-in. Served from the isolate's cache (no D1 read
 * while warm) and cacheable at the edge for as long; the page (#/status) reads the same JSON.
 */
export const statusRoutes = new Hono<AppEnv>().get("/status", async (c) => {
  const status = await publicStatus(getDb(c.env.DB), nowOf(c));
  const seconds = Math.round(STATUS_CACHE_MS / 1000);
  c.header("cache-control", `public, max-age=${seconds}, s-maxage=${seconds}`);
  return c.json(status);
});
