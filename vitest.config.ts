import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { WORKER_TEST_DEPS } from "./scripts/worker-test-deps";

// The worker runs inside real workerd with a real local D1 (the same migrations wrangler applies): project "worker"
// (one runtime per lane, shared by its files) and "worker-fresh" (the few files that need a runtime of their own); the
// web units run in jsdom.
// wrangler.toml points [assets] at the web build; the worker tests do not need it built, only present.
mkdirSync(path.join(import.meta.dirname, "web/dist"), { recursive: true });
const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

/** The worker inside workerd, with the bindings and secrets every worker test project runs with. */
function workerPool() {
  return cloudflareTest({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        TEST_MIGRATIONS: migrations,
        APP_ENV: "test",
        // The origin the tests call (worker/test/helpers.ts api()); links must come from here, never Host.
        PUBLIC_URL: "http://127.0.0.1:8787",
        PROVIDERS: "sandbox",
        JWT_SECRET: "test-jwt-secret-0123456789abcdef",
        SQUAD_SECRET_KEY: "sandbox_sk_test",
        NOWPAYMENTS_API_KEY: "test-now-key",
        NOWPAYMENTS_IPN_SECRET: "test-ipn-secret",
        SMSMAN_TOKEN: "test-smsman-token",
        SWIFT_API_KEY: "test-swift-key",
        SANDBOX_SMS_DELAY_MS: "0",
        // The Telegram bot (issue 48), answered by the sandbox Bot API simulator in-process.
        TELEGRAM_BOT_TOKEN: "7000000001:sandbox-test-token_abcdefghijklmnop",
        TELEGRAM_WEBHOOK_SECRET: "test-telegram-webhook-secret-0123456789",
        TELEGRAM_BOT_USERNAME: "VirtualNumTestBot",
      },
    },
  });
}

/**
 * Files that need a runtime no other file has used (project "worker-fresh", isolate=true): the rate benchmark's smoke
 * run reads the server's own totals, as bench/rate.ts does against a fresh local server (every SMS order open or
 * settled, the money invariants over every row, the run's D1/alarm/upstream-call counters since start, the slots in
 * use), which an earlier file's orders would change.
 */
const FRESH_RUNTIME_FILES = ["worker/test/rate-bench.smoke.test.ts"];

export default defineConfig({
    test: {
      projects: [
        {
          plugins: [workerPool()],
          test: {
            name: "worker",
            include: ["worker/**/*.test.ts", "schema/**/*.test.ts"],
            exclude: FRESH_RUNTIME_FILES,
            setupFiles: ["./worker/test/setup.ts"],
            // Worker test files spend most of their time waiting on workerd (a separate process): two files at a time
            // on two cores finish the suite in about 100 s instead of 135 s. WORKER_TEST_LANES=1 runs every file in one
            // lane, one after another in one runtime (the order-independence check of decision 054; the command line's
            // --maxWorkers does not reach a project's own setting).
            maxWorkers: Number(process.env.WORKER_TEST_LANES ?? 2),
            // One workerd, one isolate and one local D1 per lane, reused by every file the lane runs (decision 054):
            // with isolate=true every file started its own workerd and loaded the worker again, and that setup was
            // more than the tests themselves (setup 351 s of a 314 s run on two lanes). What it asks of a test file:
            // nothing it reads may depend on which files ran before it in its lane. worker/test/setup.ts hands each
            // file a fresh isolate's state (no upstream seam set, no cache, no earlier file's alarm, the operator's
            // settings and the sandbox upstreams as a fresh database has them); the rest is the test's own job: assert
            // on the rows it created (its own users and ids, or a before/after difference, worker/test/file-scope.ts),
            // never on a whole table's count.
            isolate: false,
            // A test asserts what happens, never how fast (the speed targets live in bench/): on a loaded machine a test
            // that makes a dozen requests can pass 5 s (vitest's default) without anything being wrong, so the limits
            // only catch a hang. The file-start hook disarms earlier files' alarms and resets the world tables.
            testTimeout: 30_000,
            hookTimeout: 60_000,
            // Each lane's workerd loads the whole worker (the pool imports wrangler.toml's `main`) module by module over the pool's socket: about 440 modules, 300 of them from npm packages.
            // Pre-bundled (into .vite/, rebuilt when the lockfile or the list changes), it loads about 165 and
            // starts in about two thirds of the time (decision 030). scripts/worker-test-deps.ts lists them; lint keeps
            // the list whole.
            deps: { optimizer: { ssr: { enabled: true, include: WORKER_TEST_DEPS } } },
          },
          // The bundles live in this checkout, not in node_modules/.vite: worktrees share one node_modules, and two
          // checkouts' runs writing one bundle folder made each other's runs fail ("a new version of the pre-bundle").
          cacheDir: path.join(import.meta.dirname, ".vite"),
        },
        {
          plugins: [workerPool()],
          test: {
            // The files that measure the whole server (FRESH_RUNTIME_FILES), each in its own workerd as before.
            name: "worker-fresh",
            include: FRESH_RUNTIME_FILES,
            setupFiles: ["./worker/test/setup.ts"],
            maxWorkers: 1,
            isolate: true,
            testTimeout: 30_000,
            hookTimeout: 60_000,
            deps: { optimizer: { ssr: { enabled: true, include: WORKER_TEST_DEPS } } },
          },
          cacheDir: path.join(import.meta.dirname, ".vite"),
        },
        {
          test: {
            name: "web",
            environment: "jsdom",
            include: ["web/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
            setupFiles: ["./web/test/setup.ts"],
            // One jsdom per lane for all its files instead of one per file (~65 s of set-up saved); web/test/setup.ts
            // gives each file a fresh start (modules, DOM, storage, timers, stubs). Two lanes on two cores (decision 055).
            isolate: false,
            maxWorkers: 2,
            // Above testing-library's wait (web/test/setup.ts), so a screen slow to draw on a loaded machine is waited
            // for, not timed out: a bound, never a speed target (those live in bench/).
            testTimeout: 30_000,
          },
          esbuild: { jsx: "automatic" },
        },
      ],
    },
  });
