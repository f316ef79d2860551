import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { adImageOrigins, CSP_HASHES_FILE, documentPolicy, SERVICE_WORKER_POLICY, type CspHashes } from "../../schema/csp";
import { log } from "../lib/log";
import { getSetting } from "../services/kernel";

/**
 * The app's document through the worker (decision 021): wrangler.toml runs the worker first for every address except
 * the fingerprinted bundles and the static files (those get web/public/_headers' policy from the asset server), so
 * index.html, at / and at every address the single-page app answers, leaves with a policy built from configuration:
 * the build's script hashes, PUBLIC_URL's socket origin and the configured ad image hosts.
 */

/** Addresses the worker itself answers; anything else of theirs is the app's JSON 404, never index.html. */
const WORKER_PREFIXES = ["/api/", "/parties/", "/sandbox/", "/stubs/"];

// The hashes belong to the deployed build, which cannot change under a running isolate: read once per asset binding
// (an isolate's env, and so its ASSETS, is one object for every request it serves, as config.ts's memo relies on) and
// kept while it lives. A failed read is not kept (a local build may appear after the worker started). Keyed by the
// binding rather than held in one variable, a test's fake binding starts with nothing read and needs no reset hook.
const hashesByAssets = new WeakMap<Fetcher, Promise<CspHashes>>();

async function readHashes(assets: Fetcher, publicUrl: string): Promise<CspHashes> {
  const res = await assets.fetch(new URL(`/${CSP_HASHES_FILE}`, publicUrl));
  if (!res.ok) throw new Error(`${CSP_HASHES_FILE} answered ${res.status}`);
  const body = (await res.json()) as Partial<CspHashes>;
  if (!Array.isArray(body.scriptHashes) || !body.scriptHashes.every((h) => typeof h === "string" && /^'sha256-[A-Za-z0-9+/]+={0,2}'$/.test(h))) {
    throw new Error(`${CSP_HASHES_FILE} is not a list of sha256 sources`);
  }
  return { scriptHashes: body.scriptHashes };
}

async function scriptHashes(c: Context<AppEnv>, assets: Fetcher): Promise<string[]> {
  let hashes = hashesByAssets.get(assets);
  if (!hashes) {
    hashes = readHashes(assets, c.var.config.publicUrl);
    hashesByAssets.set(assets, hashes);
  }
  try {
    return (await hashes).scriptHashes;
  } catch (err) {
    if (hashesByAssets.get(assets) === hashes) hashesByAssets.delete(assets);
    // Fail closed: without the hashes the inline scripts are blocked (the app still loads its bundle, unthemed).
    log("error", "csp hashes unreadable", { rid: c.var.requestId, message: err instanceof Error ? err.message : String(err) });
    return [];
  }
}

async function adOrigins(c: Context<AppEnv>): Promise<string[]> {
  try {
    // Settings are cached per isolate (services/settings.ts), so this is usually no D1 round trip at all.
    return adImageOrigins(await getSetting(getDb(c.env.DB), "ads"));
  } catch (err) {
    // The page still serves; only ad images from other hosts stay blocked (the carousel shows its fallback).
    log("warn", "csp ad hosts unreadable", { rid: c.var.requestId, message: err instanceof Error ? err.message : String(err) });
    return [];
  }
}

/**
 * The service worker's script (issue 47, web/sw/): its own policy (it fetches our API and our icons, nothing else), and
 * always asked of the network so a new build's worker is found at the browser's next check. A missing build is 404.
 */
async function serveServiceWorker(assets: Fetcher, request: Request): Promise<Response> {
  const asset = await assets.fetch(request);
  if (!asset.ok || !(asset.headers.get("content-type") ?? "").includes("javascript")) return new Response("Not found.", { status: 404 });
  const res = new Response(asset.body, asset);
  res.headers.set("Content-Security-Policy", SERVICE_WORKER_POLICY);
  res.headers.set("Cache-Control", "no-cache");
  return res;
}

export async function serveAppShell(c: Context<AppEnv>) {
  const path = new URL(c.req.url).pathname;
  const assets = c.env.ASSETS;
  if (!assets || WORKER_PREFIXES.some((p) => path.startsWith(p))) return c.notFound();
  if (path === "/sw.js") return serveServiceWorker(assets, c.req.raw);
  const [asset, hashList, adHosts] = await Promise.all([assets.fetch(c.req.raw), scriptHashes(c, assets), adOrigins(c)]);
  const res = new Response(asset.body, asset);
  // Every answer that comes this way gets the document's policy, a 304 included: a 304's headers replace the cached
  // copy's, so a revalidated index.html must keep the policy it was served with. (Stray non-HTML files that take this
  // path, csp-hashes.json, gain nothing from a looser policy on a document that is not a page.)
  res.headers.set(
    "Content-Security-Policy",
    documentPolicy({ publicUrl: c.var.config.publicUrl, scriptHashes: hashList, adImageOrigins: adHosts }),
  );
  return res;
}
