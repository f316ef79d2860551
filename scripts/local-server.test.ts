// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./local-env";

/**
 * Issue 43, against the real local server (`npm start`: scripts/start.ts, one workerd through Miniflare), in a scratch
 * copy of the repository so the developer's own web/dist, database and port are never touched:
 *  - a second start works: the first start leaves a web build, the second builds it again (Vite empties web/dist and
 *    writes it anew) while the worker bundle is made beside it (scripts/local-env.ts bundleWorker, decision 064);
 *  - 1,000 POSTs the worker answers from the header alone (a malformed API key, a small JSON body) all get their 401,
 *    none a reset (worker/lib/request-body.ts).
 * Nothing here is timed: the limits below only end a hang.
 */

const HANG_MS = 240_000;
let scratch = "";
let running: ChildProcess | null = null;

/** What `npm start` needs from the checkout (sources and configuration; node_modules is linked, builds are not copied). */
function copyRepository(into: string) {
  const skip = /^[/\\](web[/\\]dist[^/\\]*|[^/\\]+[/\\]node_modules)([/\\]|$)/;
  for (const dir of ["worker", "schema", "web", "scripts", "migrations"]) {
    cpSync(path.join(root, dir), path.join(into, dir), { recursive: true, filter: (src) => !skip.test(src.slice(root.length)) });
  }
  for (const file of ["package.json", "wrangler.toml", "tsconfig.json", "tsconfig.base.json", "tsconfig.web.json", "tsconfig.worker.json", "tsconfig.node.json", "tsconfig.sw.json", ".dev.vars.example"]) {
    cpSync(path.join(root, file), path.join(into, file));
  }
  symlinkSync(path.join(root, "node_modules"), path.join(into, "node_modules"), "dir");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Runs `npm start` in the scratch copy (its own process group) until it answers /api/health; its output for failures. */
async function start(port: number): Promise<{ url: string; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  for (const name of ["WEB_DIST", "SKIP_WEB_BUILD", "PERSIST_TO", "PUBLIC_URL", "WRANGLER_VARS"]) delete env[name];
  const child = spawn(path.join(scratch, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], { cwd: scratch, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running = child;
  const chunks: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => chunks.push(chunk));
  const output = () => Buffer.concat(chunks).toString("utf8");
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    if (await fetch(`${url}/api/health`).then((res) => res.ok, () => false)) return { url, output };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop() {
  const child = running;
  running = null;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

/** The document serves, and the script it names is there (the web build the start made is the one served). */
async function servesTheWebBuild(url: string) {
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /<link rel="modulepreload" crossorigin href="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
  expect(script, "index.html names its entry script").toBeTruthy();
  const entry = await fetch(`${url}${script}`);
  expect(entry.status).toBe(200);
  await entry.arrayBuffer();
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "npm-start-twice-"));
  copyRepository(scratch);
});

afterAll(async () => {
  await stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the local server (npm start)", () => {
  let server: { url: string } | null = null;

  it(
    "starts a second time over the first start's web build",
    async () => {
      const port = await freePort();
      const first = await start(port);
      await servesTheWebBuild(first.url);
      await stop();

      // What the first start left, and more: the old failure needed a file listed by the bundle's dry run and gone by the
      // time it was read, and an earlier build's leftovers (removed by the web build's emptying too) widen that window.
      mkdirSync(path.join(scratch, "web", "dist", "assets"), { recursive: true });
      for (let i = 0; i < 2000; i++) writeFileSync(path.join(scratch, "web", "dist", "assets", `leftover-${i}.js`), "x".repeat(4096));

      server = await start(port);
      await servesTheWebBuild(server.url);
    },
    HANG_MS,
  );

  it(
    "answers 1,000 POSTs refused from their header alone (a malformed API key, a small JSON body) without one reset",
    async () => {
      server ??= await start(await freePort());
      // The loop, on Node's fetch (undici's keep-alive pool, as the outside run used): the 401 is decided from the
      // header, so the route never reads the body.
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      for (let i = 0; i < 1000; i++) {
        try {
          const res = await fetch(`${server.url}/api/v1/sms/orders`, {
            method: "POST",
            headers: { authorization: "Bearer not-a-key", "content-type": "application/json" },
            body: JSON.stringify({ provider: "Swift", country: "5", service: "wa" }),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          failures.push(`${i}: ${cause?.code ?? cause?.message ?? String(error)}`);
        }
      }
      expect(failures, "requests that got no answer (connection reset or closed)").toEqual([]);
      expect(Object.fromEntries(statuses)).toEqual({ 401: 1000 });
    },
    HANG_MS,
  );
});
