import { spawn } from "node:child_process";
import path from "node:path";
import { buildWeb, ensureDevVars, prepareLocalDatabase, root, wranglerEnv } from "./local-env";

// `npm start`: the whole product (web + API + realtime rooms + sandbox providers) on one local port.
// PORT overrides 8787; PERSIST_TO keeps a separate local database (the e2e suite uses its own).
const port = process.env.PORT ?? "8787";
const persistTo = process.env.PERSIST_TO;

ensureDevVars();
prepareLocalDatabase(persistTo);
if (process.env.SKIP_WEB_BUILD !== "1") buildWeb();

const args = ["dev", "--ip", "127.0.0.1", "--port", port, "--show-interactive-dev-session=false", "--log-level", "warn"];
if (persistTo) args.push("--persist-to", persistTo);
if (process.env.WRANGLER_VARS) for (const kv of process.env.WRANGLER_VARS.split(",")) args.push("--var", kv);

const child = spawn(path.join(root, "node_modules", ".bin", "wrangler"), args, { cwd: root, env: wranglerEnv, stdio: ["ignore", "pipe", "inherit"] });
let announced = false;
child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes("Ready on")) {
    announced = true;
    console.log(`\n  VirtualNum is running at http://127.0.0.1:${port}  (sandbox providers; Ctrl+C to stop)\n`);
  }
});
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
