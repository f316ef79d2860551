import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

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
        return [{ tag: "script", children: script, injectTo: "head" }];
      },
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), preloadLandingChunk()],
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
