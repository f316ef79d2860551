import path from "node:path";

/**
 * "The web imports worker types only" (docs/decisions/065-route-definitions-and-typed-client.md): web/ may take from
 * worker/ nothing but types, and only from worker/contract/faces.ts (the faces' API types, computed from the route
 * definitions), so no worker code reaches a bundle; and worker/contract/ imports only zod, Hono's and
 * @hono/zod-openapi's types and schema/, so the web's type check reads no other worker module (no Workers types, no
 * drizzle, no services). Both checked by scripts/lint.ts.
 */

/** Every import or re-export of a source (static, across lines, or an inline `import("...")` type): its specifier and whether it is type-only. */
function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/\b(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g)) found.push({ spec: m[3], typeOnly: Boolean(m[2]) });
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ spec: m[1], typeOnly: false });
  return found;
}

const FACES = "worker/contract/faces";

/** What a web/ source imports from worker/ against the rule, one line each ([] when it keeps it). */
export function webWorkerImports(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const { spec, typeOnly } of importsOf(text)) {
    if (!spec.startsWith(".")) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.tsx?$/, "");
    if (!target.startsWith("worker/")) continue;
    if (target !== FACES) problems.push(`${file}: imports ${spec}: the web takes only the API types of ${FACES}.ts from worker/ (decision 065)`);
    else if (!typeOnly) problems.push(`${file}: imports ${spec} without \`import type\`: the web bundles no worker code (decision 065)`);
  }
  return problems;
}

const CONTRACT_PACKAGES = /^(zod|@hono\/zod-openapi|hono(\/[\w/-]+)?)$/;

/** What a worker/contract/ source (its tests aside) imports beyond zod, Hono and schema/, one line each. */
export function contractImports(file: string, text: string): string[] {
  if (/\.test\.ts$/.test(file)) return [];
  const problems: string[] = [];
  for (const { spec } of importsOf(text)) {
    if (!spec.startsWith(".")) {
      if (!CONTRACT_PACKAGES.test(spec)) problems.push(`${file}: imports ${spec}: a route definition imports only zod, hono and @hono/zod-openapi (the web type-checks it)`);
      continue;
    }
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (!target.startsWith("worker/contract/") && !target.startsWith("schema/")) {
      problems.push(`${file}: imports ${spec}: a route definition imports only schema/ and worker/contract/ (the web type-checks it)`);
    }
  }
  return problems;
}
