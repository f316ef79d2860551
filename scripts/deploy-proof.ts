import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Deploy proof (issue 13): `wrangler deploy --dry-run --outdir <tmp>` bundles the worker exactly as a deploy would and
 * checks wrangler.toml's bindings (D1, Durable Objects and their migrations, assets, vars), offline and without an
 * account (STACK.md: the three env vars below keep wrangler from reaching the network). The SQL migrations themselves
 * are proven by the worker tests, which apply every file in migrations/ to a real local D1 before each test file.
 */

/** Workers' size limit after compression on the Free plan (https://developers.cloudflare.com/workers/platform/limits/). */
export const WORKER_GZIP_LIMIT_KIB = 3 * 1024;

export interface BundleSize {
  totalKiB: number;
  gzipKiB: number;
}

/** Reads wrangler's "Total Upload: 1472.91 KiB / gzip: 266.10 KiB" line. */
export function parseBundleSize(output: string): BundleSize | null {
  const match = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
  return match ? { totalKiB: Number(match[1]), gzipKiB: Number(match[2]) } : null;
}

export function deployProof(root: string): { ok: true; size: BundleSize } | { ok: false; reason: string; output: string } {
  const outdir = mkdtempSync(path.join(tmpdir(), "deploy-dry-run-"));
  // [assets] points at the web build; the dry run needs the folder, not its contents.
  mkdirSync(path.join(root, "web", "dist"), { recursive: true });
  try {
    const res = spawnSync(path.join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    });
    const output = `${res.stdout ?? ""}${res.stderr ?? ""}`;
    if (res.status !== 0) return { ok: false, reason: `wrangler deploy --dry-run exited ${res.status}`, output };
    const size = parseBundleSize(output);
    if (!size) return { ok: false, reason: "wrangler did not report the bundle size", output };
    if (size.gzipKiB > WORKER_GZIP_LIMIT_KIB) return { ok: false, reason: `the bundle is ${size.gzipKiB} KiB gzip, above Workers' ${WORKER_GZIP_LIMIT_KIB} KiB limit`, output };
    return { ok: true, size };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

// `npx tsx scripts/deploy-proof.ts` runs it alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = deployProof(path.resolve(import.meta.dirname, ".."));
  if (!result.ok) {
    console.error(result.output);
    console.error(`✖ deploy proof: ${result.reason}`);
    process.exit(1);
  }
  console.log(`✔ deploy proof: bundle ${result.size.totalKiB} KiB, ${result.size.gzipKiB} KiB gzip (limit ${WORKER_GZIP_LIMIT_KIB} KiB gzip)`);
}
