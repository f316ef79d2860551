import { mkdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildWeb, bundleWorker, DEFAULT_WEB_DIST, ensureDevVars, prepareLocalDatabase, root, SANDBOX_TELEGRAM_VARS } from "./local-env";
import { createRuntimeOutputFilter } from "./runtime-output";

// `npm start`: the whole product (web + API + realtime rooms + sandbox providers) on one local port.
// PORT overrides 8787; PERSIST_TO keeps a separate local database (the e2e suite uses its own); WEB_DIST serves a web
// build from another folder (the e2e suite builds into its own, so a running `npm start` keeps serving web/dist);
// WRANGLER_VARS ("NAME:value,NAME:value") overrides variables, as `wrangler dev --var` would.
const port = Number(process.env.PORT ?? "8787");
const persistTo = path.resolve(root, process.env.PERSIST_TO ?? path.join(".wrangler", "state"));
const webDist = process.env.WEB_DIST ?? DEFAULT_WEB_DIST;

ensureDevVars();
const bundleDir = path.join(root, ".wrangler", `start-${port}`);
// The worker's bundle (a wrangler child process) is made while the database is prepared and the web app built; it reads
// none of the web build (local-env.ts bundleWorker), so a second start's build cannot pull files from under it.
const bundled = bundleWorker(bundleDir);
await prepareLocalDatabase(persistTo);
if (process.env.SKIP_WEB_BUILD !== "1") buildWeb(webDist);

// The worker runs in one workerd, served by Miniflare on our port, not behind `wrangler dev` (decision 060).
// wrangler dev puts a second workerd (its ProxyWorker, for live reload) in front of the app and forwards each request
// over pooled keep-alive connections that both sides close after 5 s idle: a request handed one as it closes never
// reaches the app, and wrangler 4.86 answers it with its own 503, resets the client's connection, or exits
// (cloudflare/workers-sdk#14641, #14926; decision 058). `npm start` does not reload code, so it has no use for that
// hop. What runs is what a deploy uploads: the bundle of `wrangler deploy --dry-run`, with wrangler.toml's bindings as
// wrangler itself turns them into Miniflare options (D1, Durable Objects, assets, [vars] and .dev.vars), the same
// local state folder (`--persist-to` layout: <dir>/v3), so the operator CLI and `wrangler d1 --local` see this data.
// `npm run dev` keeps wrangler dev for hot reload.
const main = await bundled;
// Miniflare serves this folder; with SKIP_WEB_BUILD=1 on a fresh clone it may not exist yet.
mkdirSync(path.resolve(root, webDist), { recursive: true });
const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"), undefined, {
  overrides: { assets: { directory: path.resolve(root, webDist) } },
});
const vars: Record<string, string> = {
  // Links and callback URLs are built from PUBLIC_URL only (never the Host header): locally, the address we serve on.
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
};
// The Telegram bot (issue 48) against the sandbox Bot API simulator, for a .dev.vars made before the bot existed:
// .dev.vars.example's sandbox values, only while the providers are the sandbox and .dev.vars names no bot of its own.
const bindings = workerOptions.bindings as Record<string, unknown> | undefined;
if (bindings?.PROVIDERS === "sandbox" && !bindings.TELEGRAM_BOT_TOKEN) {
  Object.assign(vars, SANDBOX_TELEGRAM_VARS);
}
for (const kv of (process.env.WRANGLER_VARS ?? "").split(",").filter(Boolean)) {
  const at = kv.indexOf(":");
  if (at > 0) vars[kv.slice(0, at)] = kv.slice(at + 1);
}

// The app's own log lines pass through one filter (scripts/runtime-output.ts): known-harmless noise becomes one
// explaining line.
const filter = createRuntimeOutputFilter();
const pipeLines = (stream: Readable, out: NodeJS.WriteStream) =>
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
    for (const kept of filter(line)) out.write(`${kept}\n`);
  });

const mf = new Miniflare({
  host: "127.0.0.1",
  port,
  defaultPersistRoot: path.join(persistTo, "v3"),
  // No request.cf lookup on the network: Miniflare's placeholder values, as wrangler dev gives with
  // CLOUDFLARE_CF_FETCH_ENABLED=false.
  cf: false,
  log: new Log(LogLevel.WARN),
  handleRuntimeStdio(stdout: Readable, stderr: Readable) {
    pipeLines(stdout, process.stdout);
    pipeLines(stderr, process.stderr);
  },
  workers: [
    {
      ...workerOptions,
      // wrangler.toml's name: Durable Object state lives under it (<dir>/v3/do/virtual-numbers-<Class>).
      name: "virtual-numbers",
      modules: true,
      modulesRoot: bundleDir,
      scriptPath: main,
      bindings: { ...workerOptions.bindings, ...vars },
    },
  ],
});

void mf.ready.then(
  () => console.log(`\n  VirtualNum is running at http://127.0.0.1:${port}  (sandbox providers; Ctrl+C to stop)\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

// Production runs the sweep from a cron trigger; locally nothing fires cron triggers, and the sweep is the backstop
// that settles whatever an alarm gave up on, so the local product runs it on the same 5-minute schedule. It is called
// on the worker itself: GET /cdn-cgi/handler/scheduled reaches the assets router in front of it, which has no cron
// handler and answers "exception" (under wrangler dev too: the local sweep never ran before decision 060).
const sweep = setInterval(() => {
  void mf
    .getWorker()
    .then((worker) => worker.scheduled({ cron: "*/5 * * * *" }))
    .then(
      ({ outcome }) => {
        if (outcome !== "ok") console.error(`  cron sweep: ${outcome} (the app's log above says why)`);
      },
      (error: unknown) => console.error("  cron sweep could not run:", error),
    );
}, 5 * 60_000);
sweep.unref();

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  clearInterval(sweep);
  void mf.dispose().finally(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
