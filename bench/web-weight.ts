import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Web weight: the gzip size of the JS and CSS a screen needs before it is usable, following Vite's manifest from the
 * entry through static imports (recursively) plus the screen's lazy route chunk and its static imports.
 * Dynamic imports inside those chunks are not counted: they load on demand.
 */
type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[]; dynamicImports?: string[] };

export function webWeights(distDir: string): { landing: number; dashboard: number; files: Record<string, number> } {
  const manifest = JSON.parse(readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Record<string, Chunk>;
  const gz = (file: string) => gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error("no entry in the Vite manifest");

  const collect = (keys: string[]): Set<string> => {
    const files = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      for (const imp of chunk.imports ?? []) visit(imp);
    };
    keys.forEach(visit);
    return files;
  };
  const chunkKey = (source: string) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(source));
    if (!key) throw new Error(`no chunk for ${source} in the manifest`);
    return key;
  };
  const sum = (files: Set<string>) => [...files].reduce((n, f) => n + gz(f), 0);
  // The route chunks on each screen's path in web/router.tsx: the landing page sits directly under the root; the
  // dashboard sits under the data layer (app-providers: Query, persister, toaster) and the signed-in shell.
  const landing = collect([entryKey, chunkKey("routes/homepage.tsx")]);
  const dashboard = collect([entryKey, chunkKey("app-providers.tsx"), chunkKey("layout/shell.tsx"), chunkKey("routes/dashboard.tsx")]);
  const files: Record<string, number> = {};
  for (const f of new Set([...landing, ...dashboard])) files[f] = gz(f);
  return { landing: sum(landing), dashboard: sum(dashboard), files };
}
