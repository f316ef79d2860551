import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = path.dirname(new URL(import.meta.url).pathname);
const workerPort = process.env.WORKER_PORT ?? "8787";

export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: path.join(root, "dist"),
    emptyOutDir: true,
    sourcemap: false,
    // bench/web-weight.ts follows the manifest to add up what each screen needs; .assetsignore keeps it unserved.
    manifest: true,
    target: "es2022",
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
