import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { seedSettingsSql } from "../worker/db/seed-settings";

/** Shared by `npm start`, `npm run dev`, the e2e web server and the operator CLI: the local database and secrets. */

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

// wrangler must never try the network here: no metrics, no banner, no request.cf lookup.
export const wranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/**
 * The operator CLI (scripts/admin.ts) opens the same SQLite file a running `npm start` (or the journeys' server) serves, and
 * neither side waits for the other's lock: while the server is reading or writing, the CLI's statements fail with
 * "database is locked: SQLITE_BUSY" (reproduced: 6 of 8 CLI writes beside a busy local server; decision 044). That
 * error comes from D1's transaction itself (miniflare's D1DatabaseObject wraps it as a D1 error before anything is
 * committed), so the same statements can run again. An "internal error" is not retried: miniflare raises it
 * when the lock is met after the commit (cloudflare/workers-sdk#14916), and running the statements again would apply
 * them twice.
 */
export function lockedBeforeWriting(output: string): boolean {
  return /database is locked: SQLITE_BUSY/.test(output) && !/internal error/i.test(output);
}

/**
 * A read may always run again: it changes nothing. Met beside a busy server, the lock comes back either as D1's
 * SQLITE_BUSY or, when workerd's SQLite meets it inside its own call, as a bare "internal error; reference = ..." whose
 * text names no lock (seen: e2e/admin.spec.ts's `ledger` read beside a loaded journeys' server), so a read retries on both.
 */
export function lockedWhileReading(output: string): boolean {
  return /database is locked: SQLITE_BUSY/.test(output) || /internal error/i.test(output);
}

/** Creates .dev.vars from .dev.vars.example with a fresh random JWT secret, once. */
/**
 * The sandbox Telegram bot (issue 48), answered by the Bot API simulator: .dev.vars.example's values, used by npm start
 * and the operator CLI when .dev.vars (made before the bot existed) names no bot of its own.
 */
export const SANDBOX_TELEGRAM_VARS = {
  TELEGRAM_BOT_TOKEN: "7000000001:sandbox-local-token_abcdefghijklmnop",
  TELEGRAM_WEBHOOK_SECRET: "sandbox-local-telegram-webhook-secret-0123",
  TELEGRAM_BOT_USERNAME: "VirtualNumSandboxBot",
} as const;

export function ensureDevVars(): void {
  const target = path.join(root, ".dev.vars");
  if (existsSync(target)) return;
  copyFileSync(path.join(root, ".dev.vars.example"), target);
  const secret = randomBytes(32).toString("hex");
  writeFileSync(target, readFileSync(target, "utf8").replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${secret}`));
  console.log("Created .dev.vars (sandbox providers, random JWT secret).");
}

/**
 * Applies the D1 migrations and seeds the operator settings a fresh install needs, on the local database under
 * `persistTo` (default .wrangler/state). Both are idempotent.
 *
 * It does what `wrangler d1 migrations apply DB --local` and `wrangler d1 execute DB --local --file` do (wrangler 4.86,
 * `executeLocally` and `d1MigrationsApplyCommand`: the same d1_migrations table, each unapplied file in the order of its
 * number, split by wrangler's own splitSqlQuery and run as one batch with the INSERT that records it), so the CLI sees
 * the same state afterwards, but in one Miniflare instead of one per file: through the CLI, a fresh database's 22
 * migrations took 10.8 s, and every journeys' server and bench run starts from a fresh one.
 */
export async function prepareLocalDatabase(persistTo?: string): Promise<void> {
  const { unstable_readConfig, unstable_splitSqlQuery } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(root, "wrangler.toml") });
  const database = config.d1_databases.find((d: { binding: string }) => d.binding === "DB");
  if (!database?.database_id) throw new Error("wrangler.toml has no D1 database bound as DB");
  const table = database.migrations_table ?? "d1_migrations";
  const dir = path.join(root, database.migrations_dir ?? "migrations");
  const { d1: db, dispose } = await openLocalD1(persistTo, database.database_id);
  try {
    const run = (sql: string) => db.batch(unstable_splitSqlQuery(sql).map((query) => db.prepare(query)));
    await run(`CREATE TABLE IF NOT EXISTS ${table}(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`);
    const applied = new Set((await db.prepare(`SELECT name FROM ${table}`).all<{ name: string }>()).results.map((r) => r.name));
    const pending = readdirSync(dir)
      .filter((name) => name.endsWith(".sql") && !applied.has(name))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    for (const name of pending) {
      await run(`${readFileSync(path.join(dir, name), "utf8")}\nINSERT INTO ${table} (name) values ('${name}');`);
    }
    await run(seedSettingsSql());
  } finally {
    await dispose();
  }
  console.log("Local database ready (migrations applied, settings seeded).");
}

/**
 * The local D1 database `databaseId` under `persistTo` (default .wrangler/state), in wrangler's `--persist-to` layout
 * (<dir>/v3/d1, the file `npm start`, `wrangler d1 --local` and the operator CLI share), opened by a Miniflare that
 * runs nothing else. Miniflare is loaded here, so a command that never opens the database does not pay for it.
 */
export async function openLocalD1(persistTo: string | undefined, databaseId: string) {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    modules: true,
    script: "",
    d1Persist: path.join(path.resolve(root, persistTo ?? path.join(".wrangler", "state")), "v3", "d1"),
    d1Databases: { DB: databaseId },
  });
  return { d1: await mf.getD1Database("DB"), dispose: () => mf.dispose() };
}

/** Where `npm start` and `npm run build` put the web app (wrangler.toml's [assets] directory). */
export const DEFAULT_WEB_DIST = "web/dist";

/** Builds the web app into `outDir` (relative to the repository). */
export function buildWeb(outDir = DEFAULT_WEB_DIST): void {
  const args = ["build", "--config", "web/vite.config.ts", "--logLevel", "warn", "--outDir", path.join(root, outDir), "--emptyOutDir"];
  // The local product runs sandbox providers: its build carries the sandbox tools (Simulate payment on a crypto
  // invoice). `npm run build`, the deployable build, never sets this.
  const res = spawnSync(path.join(root, "node_modules", ".bin", "vite"), args, {
    env: { ...process.env, VITE_SANDBOX_TOOLS: "1" },
    cwd: root,
    stdio: "inherit",
  });
  if (res.status !== 0) throw new Error("web build failed");
}

/**
 * Bundles the worker as a deploy would (`wrangler deploy --dry-run --outdir`, offline: see wranglerEnv) into `outDir`
 * and resolves to the bundle's entry module. `npm start` serves exactly this file. Asynchronous, so the start script
 * prepares the database and builds the web app meanwhile.
 *
 * The dry run reads its [assets] folder to the last file (it lists and hashes each one for the upload it does not
 * make), and the web build beside it empties web/dist and writes it again: a file listed, then gone, ended a second
 * `npm start` with "Missing file or directory: web/dist/assets/…" (issue 43, decision 064). The bundle needs none of
 * those files (the worker reads its assets at run time, through the ASSETS binding, from the folder Miniflare serves),
 * so the dry run gets a folder of its own, `<outDir>-assets`, empty: `--assets` replaces only wrangler.toml's
 * directory, the binding and the routing rules stay.
 */
export async function bundleWorker(outDir: string): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const ownAssets = `${outDir}-assets`;
  rmSync(ownAssets, { recursive: true, force: true });
  mkdirSync(ownAssets, { recursive: true });
  const args = ["deploy", "--dry-run", "--outdir", outDir, "--assets", ownAssets];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules", ".bin", "wrangler"), args, { cwd: root, env: wranglerEnv, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve();
      process.stderr.write(Buffer.concat(output));
      reject(new Error(`wrangler ${args.join(" ")} failed (exit ${code})`));
    });
  });
  return path.join(outDir, "index.js");
}
