import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { E2E_PORT, E2E_WEB_DIST } from "../playwright.config";
import { deployProof, WORKER_GZIP_LIMIT_KIB } from "./deploy-proof";
import { buildWeb, root } from "./local-env";

// `npm test`: every check a change must pass, in the order that fails fastest.
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const started = Date.now();

// Each step's wall time, kept for `npm run bench` (issue 8: the suite's time is a budget the bench reports, never a test).
const timings: Record<string, number> = {};
function recordTimings(passed: boolean) {
  try {
    const dir = path.join(root, "node_modules", ".cache");
    mkdirSync(dir, { recursive: true });
    const totalS = (Date.now() - started) / 1000;
    // The commit measured, so a figure quoted in the README can name it (worktrees share node_modules, and so this file).
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).stdout?.trim() || null;
    writeFileSync(path.join(dir, "test-timings.json"), JSON.stringify({ finishedAt: new Date().toISOString(), commit, passed, totalS, steps: timings }, null, 2));
  } catch {
    // a read-only checkout still runs its tests
  }
}

function fail(title: string, code: number | null): never {
  console.error(`\n✖ ${title} failed (exit ${code})`);
  recordTimings(false);
  process.exit(code ?? 1);
}

/** Runs one step; `quiet` buffers its output and prints it in one piece when it ends (for steps run side by side). */
function run(title: string, cmd: string, args: string[], opts: { env?: Record<string, string>; quiet?: boolean } = {}): Promise<number | null> & { stop: () => void } {
  const t0 = Date.now();
  console.log(`\n▶ ${title}${opts.quiet ? " (started; its output follows when it ends)" : ""}`);
  const child = spawn(cmd, args, { cwd: root, stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...opts.env } });
  const output: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  const done = new Promise<number | null>((resolve) => {
    child.on("close", (code) => {
      timings[title] = (Date.now() - t0) / 1000;
      if (opts.quiet) {
        console.log(`\n── ${title} ──`);
        process.stdout.write(Buffer.concat(output));
      }
      if (code === 0) console.log(`✔ ${title} (${timings[title].toFixed(1)} s)`);
      resolve(code);
    });
  });
  // Playwright stops its web server itself on SIGTERM.
  return Object.assign(done, { stop: () => void child.kill("SIGTERM") });
}

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}. The browser journeys need Debian's Chromium:\n` +
      `  sudo apt-get update && sudo apt-get install -y chromium\n` +
      `or set CHROMIUM_PATH to a Chromium binary. (Never run 'playwright install': it downloads a browser.)`,
  );
  process.exit(1);
}

// Typecheck and lint are single-threaded: side by side on two cores they take the longer one's time (decision 044).
{
  const [typecheck, lint] = await Promise.all([run("typecheck", bin("tsc"), ["-b"], { quiet: true }), run("lint", bin("tsx"), ["scripts/lint.ts"], { quiet: true })]);
  if (typecheck !== 0) fail("typecheck", typecheck);
  if (lint !== 0) fail("lint", lint);
}
// Deploy proof: the bundle builds and wrangler accepts the bindings, offline (scripts/deploy-proof.ts).
{
  const t0 = Date.now();
  console.log("\n▶ deploy proof (wrangler deploy --dry-run)");
  const proof = deployProof(root);
  timings["deploy proof"] = (Date.now() - t0) / 1000;
  if (!proof.ok) {
    console.error(proof.output);
    console.error(`\n✖ deploy proof failed: ${proof.reason}`);
    recordTimings(false);
    process.exit(1);
  }
  console.log(
    `✔ deploy proof: bundle ${proof.size.totalKiB} KiB, ${proof.size.gzipKiB} KiB gzip (Workers limit ${WORKER_GZIP_LIMIT_KIB} KiB) (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
}
// The journeys' build goes to its own folder (playwright.config.ts serves it), so a running `npm start` keeps
// serving web/dist while the tests run.
console.log("\n▶ web build");
const buildStarted = Date.now();
buildWeb(E2E_WEB_DIST);
timings["web build"] = (Date.now() - buildStarted) / 1000;
rmSync(path.join(root, ".wrangler", `e2e-${E2E_PORT}`), { recursive: true, force: true });

// The journeys run beside the two vitest suites (decision 044): they spend most of their time waiting on the browser,
// timers and the sandbox's code delays, while the suites keep both cores busy. The journeys are held to pass with both
// cores taken (issue 29: green beside a CPU hog), which is the condition this puts them in. Their output is printed in
// one piece when they end, after the suites' own.
const journeys = run("browser journeys (Playwright, Chromium)", bin("playwright"), ["test"], { env: { SKIP_WEB_BUILD: "1" }, quiet: true });
const suites = (async () => {
  const worker = await run("worker tests (workerd + local D1)", bin("vitest"), ["run", "--project", "worker"]);
  if (worker !== 0) return { title: "worker tests (workerd + local D1)", code: worker };
  const web = await run("web unit tests (jsdom)", bin("vitest"), ["run", "--project", "web"]);
  return web !== 0 ? { title: "web unit tests (jsdom)", code: web } : null;
})();
const suitesFailed = await suites;
// A failed suite fails the run at once, as before: the journeys beside it are stopped rather than waited for.
if (suitesFailed) journeys.stop();
const journeysCode = await journeys;
if (suitesFailed) fail(suitesFailed.title, suitesFailed.code);
if (journeysCode !== 0) fail("browser journeys (Playwright, Chromium)", journeysCode);
recordTimings(true);
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
