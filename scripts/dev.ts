import { spawn } from "node:child_process";
import path from "node:path";
import { ensureDevVars, prepareLocalDatabase, root, wranglerEnv } from "./local-env";

// `npm run dev`: wrangler dev for the worker (API, rooms, sandbox) on WORKER_PORT (8787) and Vite with hot reload on
// VITE_PORT (5173), which forwards /api, /sandbox and /parties to the worker. Open the Vite URL.
const workerPort = process.env.WORKER_PORT ?? "8787";
ensureDevVars();
await prepareLocalDatabase();

const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
// The browser opens Vite's address, so links and callback URLs (PUBLIC_URL, never the Host header) point there.
const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.VITE_PORT ?? 5173}`;
const worker = spawn(bin("wrangler"), ["dev", "--ip", "127.0.0.1", "--port", workerPort, "--show-interactive-dev-session=false", "--var", `PUBLIC_URL:${publicUrl}`], {
  cwd: root,
  env: wranglerEnv,
  stdio: "inherit",
});
const vite = spawn(bin("vite"), ["--config", "web/vite.config.ts", "--host", "127.0.0.1"], {
  cwd: root,
  env: { ...process.env, WORKER_PORT: workerPort },
  stdio: "inherit",
});
const stop = () => {
  worker.kill("SIGTERM");
  vite.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
worker.on("exit", stop);
vite.on("exit", stop);
