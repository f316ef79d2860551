import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";

/**
 * Caches a public GET answer at the edge (Cloudflare's Cache API, the data centre that served it) for `seconds`, and
 * tells browsers they may keep it as long. Only for answers that are the same for every visitor (no token, no cookie
 * changes them): the key is the configured origin plus the path and query, never the Host header. A 200 is cached;
 * an error never is. `x-edge-cache: HIT` marks an answer served from the cache (a test and a curious operator read it).
 */
export function edgeCached(seconds: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const cache = defaultCache();
    const url = new URL(c.req.url);
    const key = new Request(new URL(url.pathname + url.search, c.var.config.publicUrl).href, { method: "GET" });
    const hit = cache ? await cache.match(key) : undefined;
    if (hit) {
      const answer = new Response(hit.body, hit);
      answer.headers.set("x-edge-cache", "HIT");
      return answer;
    }
    await next();
    if (c.res.status !== 200) return;
    c.res.headers.set("Cache-Control", `public, max-age=${seconds}`);
    c.res.headers.set("x-edge-cache", "MISS");
    if (!cache) return;
    const stored = cache.put(key, c.res.clone()).catch(() => undefined);
    try {
      c.executionCtx.waitUntil(stored);
    } catch {
      await stored; // no execution context (a direct app.request in a test): store before answering
    }
  });
}

function defaultCache(): Cache | undefined {
  return typeof caches === "undefined" ? undefined : (caches as unknown as { default?: Cache }).default;
}
