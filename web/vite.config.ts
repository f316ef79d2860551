import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, createServer, defineConfig, type Plugin, type Rollup } from "vite";
import { CSP_HASHES_FILE, inlineScriptHashes } from "../schema/csp.ts";

const root = path.dirname(new URL(import.meta.url).pathname);
const workerPort = process.env.WORKER_PORT ?? "8787";

/**
 * The landing page is where most visits start, and its screen is a lazy chunk the router asks for only once the entry
 * has run: one more round trip (150 ms on mobile data) before the hero shows. A tiny inline script in index.html starts
 * fetching that chunk and its imports in parallel with the entry, only when the address is the landing page.
 */
function preloadLandingChunk(): Plugin {
  return {
    name: "preload-landing-chunk",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
        const landing = chunks.find((c) => c.facadeModuleId?.endsWith("/routes/homepage.tsx"));
        const entry = chunks.find((c) => c.isEntry);
        if (!landing || !entry) return html;
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const needed = new Set<string>();
        const visit = (file: string) => {
          if (needed.has(file) || file === entry.fileName || entry.imports.includes(file)) return;
          needed.add(file);
          byFile.get(file)?.imports.forEach(visit);
        };
        visit(landing.fileName);
        const files = JSON.stringify([...needed].map((f) => `/${f}`));
        const script = `(function(){var h=location.hash;if(h&&h!=="#/"&&h.indexOf("#/homepage")!==0)return;${files}.forEach(function(f){var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=f;document.head.appendChild(l);});})();`;
        // Before the stylesheet link: an inline script after it would hold the parser until the stylesheet arrives.
        return [{ tag: "script", children: script, injectTo: "head-prepend" }];
      },
    },
  };
}

/**
 * The landing page paints from the HTML itself: at build time React renders the homepage (web/prerender.tsx) into
 * index.html's #root, and web/main.tsx hydrates it. Without this the hero waited for the entry, the router and the
 * landing chunk (1.31 s on the slow-network bench). Other addresses serve the same index.html: the inline theme script
 * marks them (html[data-spa]) so styles.css hides the landing markup until main.tsx replaces it.
 */
function prerenderLanding(): Plugin {
  return {
    name: "prerender-landing",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      async handler(html, ctx) {
        // A throwaway Vite server loads the homepage module for Node (JSX, TypeScript) without a second build.
        const server = await createServer({
          configFile: false,
          root,
          logLevel: "error",
          appType: "custom",
          plugins: [react()],
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderLanding, renderStatusShell } = (await server.ssrLoadModule("/prerender.tsx")) as Record<"renderLanding" | "renderStatusShell", () => Promise<string>>;
          const markup = await renderLanding();
          if (!html.includes('<div id="root"></div>')) throw new Error("prerender-landing: index.html has no empty #root");
          if (!html.includes('<div id="status-shell"></div>')) throw new Error("prerender-landing: index.html has no empty #status-shell");
          let out = html.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
          // The status page's frame (issue 32): shown on #/status by the first-paint script until that page renders.
          out = out.replace('<div id="status-shell"></div>', `<div id="status-shell">${await renderStatusShell()}</div>`);
          // The stylesheet travels inside the page (decision 010): a separate file cost one more round trip, shared
          // the slow link with the scripts, and held the first paint ~300 ms. The file stays in the build (manifest,
          // bench/web-weight.ts) but nothing links it.
          for (const asset of Object.values(ctx.bundle ?? {})) {
            if (asset.type !== "asset" || !asset.fileName.endsWith(".css")) continue;
            // A lazy chunk's own stylesheet (the operator console's) is not linked by index.html: Vite loads it with
            // its chunk, and it must stay off the landing page.
            if (!out.includes(`/${asset.fileName}"`)) continue;
            const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${asset.fileName.replace(/[.]/g, "[.]")}"[^>]*>`);
            const css = typeof asset.source === "string" ? asset.source : new TextDecoder().decode(asset.source);
            if (!link.test(out) || css.includes("</style")) throw new Error(`prerender-landing: cannot inline ${asset.fileName}`);
            out = out.replace(link, () => `<style>${css}</style>`);
          }
          if (/<link rel="stylesheet"/.test(out)) throw new Error("prerender-landing: a stylesheet link was left in index.html");
          return out;
        } finally {
          await server.close();
        }
      },
    },
  };
}

/**
 * The prerendered landing paints before any script work (issue 43, decision 064). A parser-inserted module script runs
 * as soon as the document is parsed; when its bundles are already there (a fast link, or a cache), the first frame then
 * waits for module evaluation (React, the router) and the router's first load: measured in the bench's browser with the
 * CPU 4x slower and the network not, first contentful paint 636 ms median with the entry, 468 ms with no script, and
 * DOMContentLoaded (after the entry ran) before the paint. So the entry is fetched at once (a modulepreload link) but
 * started by a small script at the end of the body, after the first frame on the landing address; everywhere else,
 * and in a tab that is not visible (no frame comes), it starts at once. Without JavaScript nothing changes.
 */
function entryAfterFirstPaint(): Plugin {
  return {
    name: "entry-after-first-paint",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const entry = Object.values(ctx.bundle ?? {}).find((c) => c.type === "chunk" && c.isEntry);
        if (!entry) return html;
        const tag = `<script type="module" crossorigin src="/${entry.fileName}"></script>`;
        if (!html.includes(tag)) throw new Error(`entry-after-first-paint: index.html has no ${tag}`);
        const src = JSON.stringify(`/${entry.fileName}`);
        const loader = `(function(){var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=${src};var go=function(){document.head.appendChild(s)};if(document.documentElement.hasAttribute("data-spa")||document.visibilityState!=="visible"||!window.requestAnimationFrame)return go();requestAnimationFrame(function(){setTimeout(go,0)})})();`;
        return html
          .replace(tag, `<link rel="modulepreload" crossorigin href="/${entry.fileName}">`)
          .replace("</body>", () => `<script>${loader}</script>\n  </body>`);
      },
    },
  };
}

/**
 * The service worker (issue 47, decision 069): web/sw/service-worker.ts built on its own into one small classic script
 * at /sw.js (a fixed address: a registration is tied to its script's URL, and a module worker is not everywhere yet),
 * with the build's id inside (__BUILD_ID__: a digest of every emitted file's name, so any change to the app makes a new
 * worker and the browser replaces the old one on its next check). Built apart from the app so it shares no chunk with
 * it, and nothing of it reaches the app's bundles.
 */
function serviceWorkerBuild(): Plugin {
  return {
    name: "service-worker",
    apply: "build",
    async generateBundle(_options, bundle) {
      const names = Object.keys(bundle)
        .filter((f) => !f.endsWith(".html") && !f.startsWith(".vite/"))
        .sort();
      const buildId = createHash("sha256").update(names.join("\n")).digest("hex").slice(0, 12);
      const result = (await build({
        configFile: false,
        root,
        logLevel: "error",
        define: { __BUILD_ID__: JSON.stringify(buildId) },
        build: {
          write: false,
          target: "es2022",
          minify: true,
          lib: { entry: path.join(root, "sw/service-worker.ts"), formats: ["iife"], name: "sw", fileName: () => "sw.js" },
        },
      })) as Rollup.RollupOutput | Rollup.RollupOutput[];
      const output = (Array.isArray(result) ? result[0] : result).output.find((o) => o.type === "chunk");
      if (!output || output.type !== "chunk") throw new Error("service-worker: the build wrote no script");
      this.emitFile({ type: "asset", fileName: "sw.js", source: output.code });
    },
  };
}

/**
 * Hono's typed client (hc: web/api/client.ts, decision 065) writes a call's `cookie` argument into a Cookie header with
 * hono's cookie serializer (hono/dist/client/client.js imports ../utils/cookie.js). A browser's fetch never sends a
 * Cookie header a script sets (a forbidden request header: https://fetch.spec.whatwg.org/#forbidden-request-header), so
 * no web call passes one; the app build gets a serializer that says so instead of hono's 1.5 kB (0.6 kB gzip), which
 * sat in the contract chunk on every signed-in screen's first load.
 */
const HONO_COOKIE_REFUSED = "\0hono-client-no-cookie";
function honoClientWithoutCookies(): Plugin {
  return {
    name: "hono-client-without-cookies",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "../utils/cookie.js" && importer && /node_modules[\\/]hono[\\/]dist[\\/]client[\\/]client\.js$/.test(importer)) return HONO_COOKIE_REFUSED;
      return null;
    },
    load(id) {
      if (id !== HONO_COOKIE_REFUSED) return null;
      return 'export const serialize = () => { throw new Error("The web app sends no cookies: a browser drops a Cookie header set by a script."); };';
    },
  };
}

/**
 * The Content-Security-Policy allows index.html's inline scripts (the theme script and the landing preload above) by
 * their sha256, never 'unsafe-inline' (decision 021). Once the build has written index.html, the hashes are computed
 * from the bytes on disk (what the browser will hash) and written next to it; the worker reads them to build the header.
 */
function cspHashes(): Plugin {
  let outDir = "";
  return {
    name: "csp-hashes",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle() {
      const html = readFileSync(path.join(outDir, "index.html"), "utf8");
      const scriptHashes = await inlineScriptHashes(html);
      if (scriptHashes.length === 0) throw new Error("csp-hashes: index.html has no inline script (expected the theme script)");
      writeFileSync(path.join(outDir, CSP_HASHES_FILE), `${JSON.stringify({ scriptHashes }, null, 2)}\n`);
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), honoClientWithoutCookies(), preloadLandingChunk(), prerenderLanding(), entryAfterFirstPaint(), serviceWorkerBuild(), cspHashes()],
  build: {
    outDir: path.join(root, "dist"),
    emptyOutDir: true,
    sourcemap: false,
    // bench/web-weight.ts follows the manifest to add up what each screen needs; .assetsignore keeps it unserved.
    manifest: true,
    target: "es2022",
    // Tailwind v4 itself needs these browsers (its own baseline); telling the CSS minifier so drops fallbacks that no
    // supported browser reads (1.2 kB gzip of the 10.9 kB stylesheet).
    cssTarget: ["chrome111", "safari16.4", "firefox128"],
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Left alone, the bundler cuts TanStack Query into four shared chunks (each gzipped on its own) and React away
          // from react-dom; one chunk per library family compresses better and costs fewer requests (2.1 kB gzip less
          // on the dashboard). Neither group is on the landing page's path except the framework it needs anyway.
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack[\\/](react-router|router-core|history|store|react-store))[\\/]/,
              priority: 20,
            },
            {
              name: "query",
              test: /node_modules[\\/]@tanstack[\\/](query-core|react-query|query-persist-client-core|query-sync-storage-persister|react-query-persist-client)[\\/]/,
              priority: 10,
            },
            {
              // The signed-in data layer every screen shares: the contract's constants, the query keys, the typed API
              // client (web/api/client.ts with Hono's hc, decision 065), the accounts, wallet, orders, content and
              // payments api modules, the session hook, the toast and pollEvery. Left alone the bundler cut them into
              // a dozen chunks of a few hundred bytes each (a request, a gzip frame and a preload-map entry apiece); as
              // one they weigh less (with hc: dashboard 151.0 kB gzip apart, 149.6 kB as one; bench/web-weight.ts).
              // Only these modules, not what they import, and none of them is on the landing page's path.
              name: "contract",
              test: /(schema[\\/]constants|web[\\/]api[\\/](keys|wallet|orders|content|payments|client|accounts|account-security)|web[\\/]lib[\\/](use-session|toast)|web[\\/]realtime[\\/]status)\.ts$|node_modules[\\/]hono[\\/]dist[\\/]client|hono-client-no-cookie$/,
              priority: 5,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  // `npm run dev`: Vite serves the web app with hot reload and forwards the API and the rooms to `wrangler dev`.
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      "/api": `http://127.0.0.1:${workerPort}`,
      "/sandbox": `http://127.0.0.1:${workerPort}`,
      "/parties": { target: `ws://127.0.0.1:${workerPort}`, ws: true },
    },
  },
});
