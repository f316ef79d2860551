import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_BINARIES } from "./scripts/ensure-browser";

// Journeys run against the real product: `scripts/start.ts` (Miniflare, sandbox providers) on its own port and
// its own local database, in Debian's Chromium (never a downloaded browser).
const port = Number(process.env.E2E_PORT ?? 8799);
/**
 * The journeys' browser: Debian's Chromium headless shell when it is installed (package chromium-headless-shell, the
 * same Chromium build without the desktop browser's window, compositor output and extensions: the binary Playwright
 * itself runs headless journeys in), else Debian's full Chromium. The shell spent 14% less CPU on the same journeys on
 * two cores, which two browsers and the server share (decision 061). CHROMIUM_PATH picks another binary.
 */
export const E2E_CHROMIUM =
  process.env.CHROMIUM_PATH ?? CHROMIUM_BINARIES.find((binary) => existsSync(binary)) ?? "/usr/bin/chromium";
export const E2E_PORT = port;
export const E2E_BASE_URL = `http://127.0.0.1:${port}`;
// The ALONE journeys' own server (e2e/support.ts ALONE): the next port, its own database, the same web build. They
// change what every other journey would read (operator settings, the SMS polling setting, the routes a failover
// learns) or open the database beside the server (the operator CLI), so they get a product of their own and run
// beside the others instead of after them (decision 060).
export const E2E_ALONE_PORT = port + 1;
export const E2E_ALONE_BASE_URL = `http://127.0.0.1:${E2E_ALONE_PORT}`;
/** Where a journeys' server keeps its local state (`--persist-to` for the operator CLI). */
export const e2ePersistDir = (serverPort: number) => `.wrangler/e2e-${serverPort}`;
// The journeys serve their own web build, never web/dist: a running `npm start` keeps answering at `/`.
export const E2E_WEB_DIST = `web/dist-e2e-${port}`;
// Another web client's origin (e2e/original-client.spec.ts serves a blank page there and calls the API from it, as the
// spec's original client does): allowed by CORS_ORIGINS below, like any deployment's second client (decision 032).
export const E2E_OTHER_CLIENT_ORIGIN = `http://127.0.0.1:${port + 100}`;

/**
 * The journeys' two servers (`npm start` each): the first builds the journeys' web app unless SKIP_WEB_BUILD says it is
 * built, the second serves the same build.
 */
export const E2E_SERVERS = [
  { url: E2E_BASE_URL, port, skipWebBuild: process.env.SKIP_WEB_BUILD ?? "0", extraVars: `,CORS_ORIGINS:${E2E_OTHER_CLIENT_ORIGIN}` },
  { url: E2E_ALONE_BASE_URL, port: E2E_ALONE_PORT, skipWebBuild: "1", extraVars: "" },
].map((server) => ({
  url: server.url,
  env: {
    PORT: String(server.port),
    PERSIST_TO: e2ePersistDir(server.port),
    WEB_DIST: E2E_WEB_DIST,
    SKIP_WEB_BUILD: server.skipWebBuild,
    // Journeys should not wait 10 s for each sandbox code.
    WRANGLER_VARS: `SANDBOX_SMS_DELAY_MS:2500${server.extraVars}`,
  },
}));

/** Journeys that must not share a server with the others (e2e/support.ts ALONE says which and why). */
const ALONE_TAG = /@alone-/;

export default defineConfig({
  testDir: "./e2e",
  // Sets the journeys' SMS polling once the server is up (e2e/support.ts JOURNEY_SMS_POLL).
  globalSetup: "./e2e/global-setup.ts",
  // One output folder per port, so runs on different ports never wipe each other's traces.
  outputDir: `test-results/e2e-${port}`,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two browsers at once (decisions 059, 060): each journey signs up its own customers; the ALONE ones run one at a
  // time on their own server (projects below). The connection resets that once sent this back to one browser were
  // wrangler dev's proxy hop, which `npm start` no longer has (decision 060). `--workers 1` runs them one at a time.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    // A failed journey keeps its trace (every action with its call log, the network with timings, the console) beside
    // its screenshot and its page's accessibility snapshot (error-context.md). Left out, because every journey pays
    // for them kept or not: the screencast (decision 059) and the DOM snapshot of every action (8% of the journeys'
    // CPU, decision 061). E2E_TRACE_SNAPSHOTS=1 records the snapshots for a hunt.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: process.env.E2E_TRACE_SNAPSHOTS === "1" },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: E2E_CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // The ALONE journeys first, on their own server, one at a time (`workers: 1`) in file order: the operator's
    // (admin.spec.ts, console.spec.ts), then the SMS polling's (sms.spec.ts). The operator CLI opens the server's SQLite
    // beside it while the quick-timeout journeys write to it every second (side by side, the CLI's reconcile-transfers
    // once printed nothing), so they never meet. Listed first, they start at once on one browser while the other takes
    // the rest; after them both browsers share the rest.
    { name: "alone", grep: ALONE_TAG, workers: 1, use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: E2E_ALONE_BASE_URL } },
    // Test by test, not file by file: a long file (sms.spec.ts) does not leave the other browser idle at the end.
    { name: "chromium", grepInvert: ALONE_TAG, fullyParallel: true, use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  // `npm test` starts both servers itself, side by side while the worker tests run (scripts/test.ts), and says so with
  // E2E_SERVERS_STARTED; otherwise Playwright starts them, one after the other.
  webServer: E2E_SERVERS.map((server) => ({
    command: "tsx scripts/start.ts",
    url: `${server.url}/api/health`,
    reuseExistingServer: process.env.E2E_SERVERS_STARTED === "1",
    timeout: 120_000,
    env: server.env,
  })),
});
