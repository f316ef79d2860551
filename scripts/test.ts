import { spawnSync } from "node:child_process";
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

function step(title: string, cmd: string, args: string[], env: Record<string, string> = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${title}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  timings[title] = (Date.now() - t0) / 1000;
  if (res.status !== 0) {
    console.error(`\n✖ ${title} failed (exit ${res.status})`);
    recordTimings(false);
    process.exit(res.status ?? 1);
  }
  console.log(`✔ ${title} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
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

step("typecheck", bin("tsc"), ["-b"]);
step("lint", bin("tsx"), ["scripts/lint.ts"]);
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
step("worker tests (workerd + local D1)", bin("vitest"), ["run", "--project", "worker"]);
step("web unit tests (jsdom)", bin("vitest"), ["run", "--project", "web"]);
// The journeys' build goes to its own folder (playwright.config.ts serves it), so a running `npm start` keeps
// serving web/dist while the tests run.
console.log("\n▶ web build");
const buildStarted = Date.now();
buildWeb(E2E_WEB_DIST);
timings["web build"] = (Date.now() - buildStarted) / 1000;
rmSync(path.join(root, ".wrangler", `e2e-${E2E_PORT}`), { recursive: true, force: true });
step("browser journeys (Playwright, Chromium)", bin("playwright"), ["test"], { SKIP_WEB_BUILD: "1" });
recordTimings(true);
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
