import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

/** Starts the product like `npm start` does, on its own port and a fresh local database, for a benchmark run. */
export async function startServer(port: number, vars: string[] = []): Promise<{ url: string; stop: () => void }> {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
  const persist = path.join(".wrangler", `bench-${port}`);
  rmSync(path.join(root, persist), { recursive: true, force: true });
  const child: ChildProcess = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PERSIST_TO: persist, SKIP_WEB_BUILD: "1", WRANGLER_VARS: vars.join(",") },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  throw new Error("the server did not start within 120 s");
}

/** The operator's statements against a benchmark server's local D1 (as scripts/admin.ts runs them): its rows. */
export function localD1(persistTo: string, sql: string): Record<string, number>[] {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
  const bin = path.join(root, "node_modules", ".bin", "wrangler");
  const res = spawnSync(bin, ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--command", sql, "--json"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  if (res.status !== 0) throw new Error(`wrangler d1 execute failed: ${res.stderr}`);
  const out = res.stdout;
  return (JSON.parse(out.slice(out.indexOf("["))) as { results: Record<string, number>[] }[])[0].results;
}
