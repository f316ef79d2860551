import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "./local-env";

/**
 * The worker's bindings and wrangler.toml [vars] are typed by `wrangler types` into worker-configuration.d.ts (checked
 * in); worker/config.ts adds the secrets and optional variables wrangler.toml cannot declare. `npm run types`
 * regenerates the file; the lint (scripts/lint.ts) fails when it is stale.
 * --env-file /dev/null: never read a developer's .dev.vars (its secrets would land in the checked-in file and make the
 * output differ from machine to machine). --strict-vars=false: APP_ENV is "production" in wrangler.toml but "test" or
 * "development" elsewhere, so a literal type would be a lie. No runtime types: @cloudflare/workers-types supplies them.
 * (`wrangler types --check` regenerates with default options, so it cannot check this file; staleWorkerTypes does.)
 */
export const WORKER_TYPES_FILE = "worker-configuration.d.ts";
export const wranglerTypesArgs = (out: string) => ["types", out, "--include-runtime=false", "--strict-vars=false", "--env-file", "/dev/null"];

const wrangler = (root: string) => path.join(root, "node_modules", ".bin", "wrangler");
// The generated header names the output file; everything after it is what must match.
const body = (text: string) => text.split("\n").slice(2).join("\n");

export function generateWorkerTypes(root: string, out = WORKER_TYPES_FILE): void {
  const res = spawnSync(wrangler(root), wranglerTypesArgs(out), { cwd: root, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`wrangler types failed:\n${res.stdout}${res.stderr}`);
}

/** Undefined when worker-configuration.d.ts matches wrangler.toml, else what to do about it. */
export function staleWorkerTypes(root: string): string | undefined {
  // Generated beside the real file so the relative import paths in it are the same.
  const scratch = `.worker-configuration.check-${process.pid}.d.ts`;
  try {
    generateWorkerTypes(root, scratch);
    let current = "";
    try {
      current = readFileSync(path.join(root, WORKER_TYPES_FILE), "utf8");
    } catch {
      return `${WORKER_TYPES_FILE} is missing: run npm run types`;
    }
    const fresh = readFileSync(path.join(root, scratch), "utf8");
    return body(current) === body(fresh) ? undefined : `${WORKER_TYPES_FILE} is stale (wrangler.toml changed): run npm run types`;
  } finally {
    rmSync(path.join(root, scratch), { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generateWorkerTypes(root);
  console.log(`wrote ${WORKER_TYPES_FILE}`);
}
