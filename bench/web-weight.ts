import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Web weight: the gzip size of the JS and CSS a screen needs before it is usable, following Vite's manifest from the
 * entry through static imports (recursively) plus the screen's lazy route chunk and its static imports.
 * Dynamic imports inside those chunks are not counted: they load on demand.
 */
type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[]; dynamicImports?: string[] };

export function webWeights(distDir: string): { landing: number; dashboard: number; files: Record<string, number>; consoleLeaks: string[] } {
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
  return { landing: sum(landing), dashboard: sum(dashboard), files, consoleLeaks: consoleLeaks(distDir, manifest, new Set([...landing, ...dashboard])) };
}

/**
 * The service worker (issue 47, decision 069): /sw.js, built apart from the app's chunks, so it is weighed on its own
 * (gzip), with the events it listens to. It must never cache (no `fetch` handler, no Cache API): every screen, money
 * screens first, comes from the network.
 */
export function serviceWorkerWeight(distDir: string): { gzip: number; events: string[]; caches: boolean } {
  const code = readFileSync(path.join(distDir, "sw.js"), "utf8");
  const events = [...code.matchAll(/addEventListener\(\s*[`"']([a-z]+)[`"']/g)].map((m) => m[1]);
  return { gzip: gzipSync(code, { level: 9 }).length, events, caches: events.includes("fetch") || /\bcaches\./.test(code) };
}

/**
 * The operator console (web/admin, issue 15) must add no byte to what customers load. Returns what breaks that, empty
 * when nothing does: a console chunk or stylesheet on the landing or dashboard path, a file on that path (or
 * index.html, which carries the landing's inline stylesheet) holding the console's API prefix or its stylesheet's
 * own rules. The console still needs its route entries in the router (a path and a lazy import each).
 */
export function consoleLeaks(distDir: string, manifest: Record<string, Chunk>, customerFiles: Set<string>): string[] {
  const leaks: string[] = [];
  const consoleFiles = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!key.startsWith("admin/")) continue;
    consoleFiles.add(chunk.file);
    for (const css of chunk.css ?? []) consoleFiles.add(css);
  }
  if (consoleFiles.size === 0) leaks.push("no console chunk in the manifest (web/admin): the check would prove nothing");
  for (const file of customerFiles) if (consoleFiles.has(file)) leaks.push(`console file on the customer's path: ${file}`);
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  for (const file of [...customerFiles].filter((f) => f.endsWith(".js"))) {
    if (readFileSync(path.join(distDir, file), "utf8").includes("/api/admin")) leaks.push(`console code (/api/admin) in ${file}`);
  }
  if (html.includes("/api/admin")) leaks.push("console code (/api/admin) in index.html");
  // A rule the console's stylesheet emits for a class only the console uses must not be in the customer's stylesheet.
  for (const css of [...consoleFiles].filter((f) => f.endsWith(".css"))) {
    const own = new Set(readFileSync(path.join(distDir, css), "utf8").match(/\.[a-z][\w-]*(?:\\:[\w-]+)*/g) ?? []);
    const customerCss = html + [...customerFiles].filter((f) => f.endsWith(".css")).map((f) => readFileSync(path.join(distDir, f), "utf8")).join("");
    for (const marker of [".min-w-max", ".whitespace-pre-wrap"]) {
      if (own.has(marker) && customerCss.includes(marker)) leaks.push(`console-only rule ${marker} in the customer's stylesheet`);
    }
  }
  return leaks;
}
