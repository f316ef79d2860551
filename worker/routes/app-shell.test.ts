import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { inlineScriptHashes, NON_DOCUMENT_POLICY, parsePolicy, SERVICE_WORKER_POLICY } from "../../schema/csp";
import worker from "../index";
import { clearSettingsCache, putSetting } from "../services/kernel";
import { db } from "../test/helpers";

// Issue 12 hole 9: the app's document leaves with a Content-Security-Policy that would stop an injected script, built
// from configuration (PUBLIC_URL, the ads setting) and the build's script hashes; the rest gets a deny-all policy.

const THEME = `(function(){document.documentElement.classList.toggle("dark",false);})();`;
const PRELOAD = `(function(){var l=document.createElement("link");l.rel="modulepreload";})();`;
const INDEX_HTML = `<!doctype html><html><head><script>${PRELOAD}</script><script>${THEME}</script></head><body><div id="root"></div><script type="module" crossorigin src="/assets/index-abc.js"></script></body></html>`;

/** The asset binding as the build leaves it: index.html for every address the SPA answers, and the hashes file. */
function fakeAssets(opts: { hashes?: string[] | null; serviceWorker?: boolean } = {}) {
  const requested: string[] = [];
  const fetcher = {
    async fetch(input: RequestInfo | URL) {
      const url = new URL(input instanceof Request ? input.url : String(input));
      requested.push(url.pathname);
      if (url.pathname === "/csp-hashes.json") {
        if (opts.hashes === null) return new Response("not found", { status: 404 });
        return Response.json({ scriptHashes: opts.hashes ?? (await inlineScriptHashes(INDEX_HTML)) });
      }
      if (url.pathname.startsWith("/assets/")) return new Response("export {}", { headers: { "content-type": "text/javascript" } });
      if (url.pathname === "/sw.js" && opts.serviceWorker !== false) return new Response("self.addEventListener('push',()=>{})", { headers: { "content-type": "text/javascript", "cache-control": "public, max-age=14400" } });
      return new Response(INDEX_HTML, { headers: { "content-type": "text/html; charset=utf-8", etag: '"v1"' } });
    },
  };
  return { fetcher: fetcher as unknown as Fetcher, requested };
}

async function get(path: string, assets: Fetcher, headers: Record<string, string> = {}, origin = "http://127.0.0.1:8787") {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${origin}${path}`, { headers }) as Request<unknown, IncomingRequestCfProperties>, { ...env, ASSETS: assets }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

function policyOf(res: Response) {
  const header = res.headers.get("content-security-policy");
  expect(header).toBeTruthy();
  return parsePolicy(header!);
}

// Each test hands the worker a fresh fake asset binding, so no hashes read by another test are kept for it.
afterEach(() => {
  clearSettingsCache();
});

describe("the app document's Content-Security-Policy", () => {
  it("on / allows scripts from our origin and index.html's inline scripts by hash only, sockets only to PUBLIC_URL", async () => {
    const res = await get("/", fakeAssets().fetcher);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX_HTML);
    const policy = policyOf(res);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    // Exactly the two inline scripts' hashes, nothing that would let an injected inline script or eval run.
    expect(policy.get("script-src")).toEqual(["'self'", ...(await inlineScriptHashes(INDEX_HTML))]);
    expect(policy.get("script-src")).toHaveLength(3);
    expect(policy.get("script-src")!.join(" ")).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:|data:/);
    expect(policy.get("connect-src")).toEqual(["'self'", "ws://127.0.0.1:8787"]);
    expect(policy.get("img-src")).toEqual(["'self'", "http://127.0.0.1:8787"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    // Issue 47: our own service worker may start; no other worker.
    expect(policy.get("worker-src")).toEqual(["'self'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
  });

  it("is the same on any address the single-page app answers, and on a revalidation", async () => {
    const assets = fakeAssets();
    const home = (await get("/", assets.fetcher)).headers.get("content-security-policy");
    const spa = await get("/settings/devices", assets.fetcher);
    expect(spa.status).toBe(200);
    expect(await spa.text()).toBe(INDEX_HTML);
    expect(spa.headers.get("content-security-policy")).toBe(home);
    // The hashes are read once per isolate, not on every page load.
    expect(assets.requested.filter((p) => p === "/csp-hashes.json")).toHaveLength(1);
  });

  it("takes the socket origin from PUBLIC_URL, never from the request's Host", async () => {
    const res = await get("/", fakeAssets().fetcher, { host: "evil.example" }, "http://evil.example");
    const connect = policyOf(res).get("connect-src");
    expect(connect).toEqual(["'self'", "ws://127.0.0.1:8787"]);
    expect(connect!.join(" ")).not.toContain("evil.example");
  });

  it("allows images from the https hosts of the configured ads, and only those", async () => {
    await putSetting(db(), "ads", [
      ...SETTING_DEFAULTS.ads,
      { id: 7, url: "https://cdn.example.net/banners/offer.png", link: "/#/sms/1", content: "Offer", bg: "bg-sky-700" },
      { id: 8, url: "https://cdn.example.net/banners/other.png", link: "/#/sms/1", content: "Other", bg: "bg-sky-700" },
      { id: 9, url: "https://img.partner.example:8443/x.webp", link: "/#/sms/1", content: "Partner", bg: "bg-sky-700" },
    ]);
    const res = await get("/", fakeAssets().fetcher);
    expect(policyOf(res).get("img-src")).toEqual(["'self'", "http://127.0.0.1:8787", "https://cdn.example.net", "https://img.partner.example:8443"]);
  });

  it("fails closed when the build's hashes are missing: no inline script runs, nothing is loosened", async () => {
    const res = await get("/", fakeAssets({ hashes: null }).fetcher);
    expect(res.status).toBe(200);
    expect(policyOf(res).get("script-src")).toEqual(["'self'"]);
  });

  it("refuses a hashes file that is not a list of sha256 sources (it could otherwise add any source)", async () => {
    const res = await get("/", fakeAssets({ hashes: ["'unsafe-inline'", "https://evil.example"] }).fetcher);
    expect(policyOf(res).get("script-src")).toEqual(["'self'"]);
  });
});

describe("everything else the worker answers", () => {
  it("API answers carry a policy that runs, loads and frames nothing", async () => {
    const res = await get("/api/health", fakeAssets().fetcher);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(NON_DOCUMENT_POLICY);
    const policy = parsePolicy(NON_DOCUMENT_POLICY);
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.has("script-src")).toBe(false);
  });

  it("an unknown API address is the JSON 404, never index.html", async () => {
    const assets = fakeAssets();
    const res = await get("/api/no-such-thing", assets.fetcher);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
    expect(res.headers.get("content-security-policy")).toBe(NON_DOCUMENT_POLICY);
    expect(assets.requested).toEqual([]);
  });

  it("the worker's own pages (sandbox checkout, outbox) get the deny-all policy too", async () => {
    const res = await get("/sandbox/outbox", fakeAssets().fetcher);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(NON_DOCUMENT_POLICY);
  });

  it("serves the service worker with its own policy (our API and icons only) and asks the network for it every time", async () => {
    const res = await get("/sw.js", fakeAssets().fetcher);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("content-security-policy")).toBe(SERVICE_WORKER_POLICY);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain("push");
    // A build without one: no index.html dressed as a script.
    expect((await get("/sw.js", fakeAssets({ serviceWorker: false }).fetcher)).status).toBe(404);
  });
});
