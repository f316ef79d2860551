import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { WORKER_TEST_DEPS } from "./scripts/worker-test-deps";

// Two projects: the worker runs inside real workerd with a real local D1 (the same migrations wrangler applies),
// the web units run in jsdom.
// wrangler.toml points [assets] at the web build; the worker tests do not need it built, only present.
mkdirSync(path.join(import.meta.dirname, "web/dist"), { recursive: true });
const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

export default defineConfig({
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
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
                },
              },
            }),
          ],
          test: {
            name: "worker",
            include: ["worker/**/*.test.ts", "schema/**/*.test.ts"],
            setupFiles: ["./worker/test/setup.ts"],
            // Worker test files spend most of their time waiting on workerd (a separate process): two files at a time
            // on two cores finish the suite in about 100 s instead of 135 s.
            maxWorkers: 2,
            // Every test file starts its own workerd and loads the whole worker (the pool imports wrangler.toml's
            // `main`) module by module over the pool's socket: about 440 modules, 300 of them from npm packages.
            // Pre-bundled (into .vite/, rebuilt when the lockfile or the list changes), a file loads about 165 and
            // starts in about two thirds of the time (decision 030). scripts/worker-test-deps.ts lists them; lint keeps
            // the list whole.
            deps: { optimizer: { ssr: { enabled: true, include: WORKER_TEST_DEPS } } },
          },
          // The bundles live in this checkout, not in node_modules/.vite: worktrees share one node_modules, and two
          // checkouts' runs writing one bundle folder made each other's runs fail ("a new version of the pre-bundle").
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
          },
          esbuild: { jsx: "automatic" },
        },
      ],
    },
  });
