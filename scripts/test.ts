import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { E2E_ALONE_PORT, E2E_PORT, E2E_SERVERS, E2E_WEB_DIST, e2ePersistDir } from "../playwright.config";
import { deployProof, WORKER_GZIP_LIMIT_KIB } from "./deploy-proof";
import { ensureBrowser } from "./ensure-browser";
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
  return Object.assign(done, { stop: () => void child.kill("SIGTERM") });
}

// Before any suite: Debian's Chromium for the journeys, installed from the system's packages when missing (issue 50).
const journeysBrowser = ensureBrowser();

/** The bundle builds and wrangler accepts the bindings, offline (scripts/deploy-proof.ts). */
function deployProofStep() {
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

/** The journeys' build goes to its own folder (playwright.config.ts serves it), so a running `npm start` keeps serving web/dist. */
function webBuildStep() {
  console.log("\n▶ web build");
  const t0 = Date.now();
  buildWeb(E2E_WEB_DIST);
  timings["web build"] = (Date.now() - t0) / 1000;
}

/**
 * The journeys' two servers (playwright.config.ts E2E_SERVERS), started here side by side instead of by Playwright one
 * after the other: each start is about 7 s of CPU (bundle, database, workerd), and the worker suite leaves about a
 * fifth of two cores idle (77% busy, sampled), so they are ready by the time it ends. Their output goes to
 * test-results/servers-<port>.log (printed here only if one cannot start); they are stopped when this script exits.
 */
function startJourneyServers() {
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  const children = E2E_SERVERS.map((server) => {
    const logPath = path.join("test-results", `servers-${server.env.PORT}.log`);
    const log = openSync(path.join(root, logPath), "w");
    // Its own process group, so stopping it stops tsx, start.ts and workerd together.
    const child = spawn(bin("tsx"), ["scripts/start.ts"], { cwd: root, detached: true, stdio: ["ignore", log, log], env: { ...process.env, ...server.env, SKIP_WEB_BUILD: "1" } });
    closeSync(log); // the child has its own copy
    return { server, child, logPath };
  });
  const stop = () => {
    for (const { child } of children) {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
  };
  process.on("exit", stop);
  const ready = async (): Promise<string | null> => {
    const deadline = Date.now() + 120_000;
    for (const { server, child } of children) {
      for (;;) {
        if (child.exitCode !== null) return `the server on ${server.url} exited (${child.exitCode})`;
        const up = await fetch(`${server.url}/api/health`).then((res) => res.ok, () => false);
        if (up) break;
        if (Date.now() > deadline) return `the server on ${server.url} did not answer in 120 s`;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return null;
  };
  return { ready, stop, logs: children.map(({ logPath }) => logPath) };
}

// Typecheck and lint are single-threaded: side by side on two cores they take the longer one's time (decision 044).
// Lint ends first; the web units (jsdom, no server) then take the core it leaves while typecheck goes on (decision 059),
// and after them the deploy proof and the journeys' web build (neither needs anything tsc says; decision 061).
{
  const webUnits = "web unit tests (jsdom)";
  const typecheckDone = run("typecheck", bin("tsc"), ["-b"], { quiet: true });
  // Supply chain (issue 33, ASVS 15.1.2): the CycloneDX SBOM builds from package-lock.json and no high or critical
  // advisory is open for what ships (scripts/audit.ts). Mostly waiting on the registry, so it runs beside lint. It was
  // .ci/run's own step; it is part of `npm test` so CI runs the README's commands and nothing else (issue 50).
  const supplyChain = run("supply chain (SBOM, audit of what ships)", "sh", ["-c", "npm run --silent sbom && npm run --silent audit:prod"], { quiet: true });
  const lint = await run("lint", bin("tsx"), ["scripts/lint.ts"], { quiet: true });
  const supply = await supplyChain;
  if (supply !== 0) {
    typecheckDone.stop();
    fail("supply chain", supply);
  }
  if (lint !== 0) {
    typecheckDone.stop();
    fail("lint", lint);
  }
  const web = await run(webUnits, bin("vitest"), ["run", "--project", "web"], { quiet: true });
  if (web !== 0) {
    typecheckDone.stop();
    fail(webUnits, web);
  }
  deployProofStep();
  webBuildStep();
  const typecheck = await typecheckDone;
  if (typecheck !== 0) fail("typecheck", typecheck);
}

for (const port of [E2E_PORT, E2E_ALONE_PORT]) rmSync(path.join(root, e2ePersistDir(port)), { recursive: true, force: true });
const servers = startJourneyServers();

// The worker suite, then the journeys, one after the other. Tried side by side on the loaded machine (decision 044): 10 worker
// tests failed (4-7 s each under that load) and an accessibility journey ran out of its 240 s, so they stay apart.
// The worker tests are two projects (vitest.config.ts, decision 054): "worker" shares a runtime per lane, "worker-fresh"
// gives its few files their own.
{
  const title = "worker tests (workerd + local D1)";
  const code = await run(title, bin("vitest"), ["run", "--project", "worker", "--project", "worker-fresh"]);
  if (code !== 0) fail(title, code);
}
{
  const t0 = Date.now();
  const problem = await servers.ready();
  timings["journeys' servers ready (after the worker tests)"] = (Date.now() - t0) / 1000;
  if (problem) {
    for (const log of servers.logs) console.error(`\n── ${log} ──\n${readFileSync(path.join(root, log), "utf8")}`);
    fail(`journeys' servers: ${problem}`, 1);
  }
}
console.log(`\n  The journeys' browser: ${journeysBrowser}`);
const journeys = await run("browser journeys (Playwright, Chromium)", bin("playwright"), ["test"], { env: { SKIP_WEB_BUILD: "1", E2E_SERVERS_STARTED: "1" } });
servers.stop();
if (journeys !== 0) {
  console.error(`\nThe journeys' servers wrote their log to ${servers.logs.join(" and ")}.`);
  fail("browser journeys (Playwright, Chromium)", journeys);
}
recordTimings(true);
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
