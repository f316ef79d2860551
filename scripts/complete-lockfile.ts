import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Keeps package-lock.json acceptable to `npm ci` on machines whose registry mirror serves only this platform's
 * optional binaries (ours does: @tailwindcss/oxide-android-arm64 and friends answer 404). npm then writes a lockfile
 * without those entries, and `npm ci` refuses it ("Missing: ... from lock file"). This adds each missing optional
 * platform package as a bare optional entry with its os/cpu, so npm ci skips it on every other platform, exactly as
 * it would with a complete lockfile. `npm run lint` fails when an entry is missing; run
 * `npx tsx scripts/complete-lockfile.ts` after `npm install` to restore them.
 */
type LockEntry = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  [key: string]: unknown;
};

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "sunos", "aix", "netbsd"];
const CPU: Record<string, string> = { arm64: "arm64", x64: "x64", arm: "arm", ia32: "ia32", wasm32: "wasm32", riscv64: "riscv64", ppc64: "ppc64", s390x: "s390x", loong64: "loong64" };

export function platformOf(name: string): { os?: string[]; cpu?: string[] } | null {
  const parts = name.split("/").pop()!.split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!cpu) return null;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu] };
}

export function missingOptionalEntries(lock: { packages: Record<string, LockEntry> }): { key: string; entry: LockEntry }[] {
  const out: { key: string; entry: LockEntry }[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${key ? `${key}/` : ""}node_modules/${dep}`;
      if (lock.packages[nested] || lock.packages[`node_modules/${dep}`]) continue;
      const platform = platformOf(dep);
      if (!platform) continue;
      out.push({ key: `node_modules/${dep}`, entry: { version: version.replace(/^[\^~]/, ""), ...(entry.dev ? { dev: true } : {}), optional: true, ...platform } });
    }
  }
  return out;
}

const lockPath = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "package-lock.json");
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const lock = JSON.parse(readFileSync(lockPath, "utf8"));
  const missing = missingOptionalEntries(lock);
  for (const { key, entry } of missing) lock.packages[key] = entry;
  const [rootKey, ...rest] = Object.keys(lock.packages);
  lock.packages = Object.fromEntries([rootKey, ...rest.sort()].map((k) => [k, lock.packages[k]]));
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(missing.length ? `Added ${missing.length} optional platform entries: ${missing.map((m) => m.key.replace("node_modules/", "")).join(", ")}` : "package-lock.json is complete.");
}
