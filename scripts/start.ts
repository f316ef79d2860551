import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { buildWeb, DEFAULT_WEB_DIST, ensureDevVars, prepareLocalDatabase, root, wranglerEnv } from "./local-env";
import { keepWarm } from "./keep-warm";
import { supervise } from "./supervise";
import { createWranglerOutputFilter } from "./wrangler-output";

// `npm start`: the whole product (web + API + realtime rooms + sandbox providers) on one local port.
// PORT overrides 8787; PERSIST_TO keeps a separate local database (the e2e suite uses its own); WEB_DIST serves a web
// build from another folder (the e2e suite builds into its own, so a running `npm start` keeps serving web/dist).
const port = process.env.PORT ?? "8787";
const persistTo = process.env.PERSIST_TO;
const webDist = process.env.WEB_DIST ?? DEFAULT_WEB_DIST;

ensureDevVars();
prepareLocalDatabase(persistTo);
if (process.env.SKIP_WEB_BUILD !== "1") buildWeb(webDist);

const args = ["dev", "--ip", "127.0.0.1", "--port", port, "--show-interactive-dev-session=false", "--log-level", "warn"];
if (webDist !== DEFAULT_WEB_DIST) args.push("--assets", webDist);
if (persistTo) args.push("--persist-to", persistTo);
// Links and callback URLs are built from PUBLIC_URL only (never the Host header): locally, the address we serve on.
args.push("--var", `PUBLIC_URL:${process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`}`);
if (process.env.WRANGLER_VARS) for (const kv of process.env.WRANGLER_VARS.split(",")) args.push("--var", kv);

// Both streams pass through one filter (scripts/wrangler-output.ts): known-harmless noise becomes one explaining line.
const filter = createWranglerOutputFilter();
const startWrangler = () => {
  const child = spawn(path.join(root, "node_modules", ".bin", "wrangler"), args, { cwd: root, env: wranglerEnv, stdio: ["ignore", "pipe", "pipe"] });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
      for (const kept of filter(line)) out.write(`${kept}\n`);
    });
  }
  return child;
};
// wrangler dev can exit by itself mid-run (scripts/supervise.ts says why): it is started again on the same port with
// the same state, and the restart is said in one line.
const wrangler = supervise({ start: startWrangler, port, say: (line) => console.error(`  ${line}`), exit: (code) => process.exit(code) });

// Announce the URL once the worker answers (wrangler's own banner is silenced with --log-level warn).
void (async () => {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) {
        console.log(`\n  VirtualNum is running at http://127.0.0.1:${port}  (sandbox providers; Ctrl+C to stop)\n`);
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
})();

// wrangler dev's proxy answers its own 503, or exits, when a request rides a pooled connection the app is closing
// after 5 s idle (decision 058): one cheap request a second keeps that pool fresh (scripts/keep-warm.ts).
keepWarm(`http://127.0.0.1:${port}/api/health`);

// wrangler dev does not fire cron triggers by itself; the sweep is the backstop that settles whatever an alarm gave up
// on, so the local product runs it on the same 5-minute schedule as production.
const sweep = setInterval(() => {
  fetch(`http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*`).catch(() => undefined);
}, 5 * 60_000);
sweep.unref();
const stop = () => wrangler.stop("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
