import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { resolve } from "./import-cycles";

/**
 * The domain rooms (docs/decisions/041-domain-rooms.md): worker/services/ holds one folder per domain (kernel, accounts,
 * funding, sms, rent, console, developer), and each folder's index.ts is its one entry point. A file inside a room
 * imports its siblings directly (never its own index); everything else, other rooms, routes, objects, middleware and
 * tests, imports a room only through its index. That keeps a room's inside free to change and its surface written
 * down in one file. Exceptions, each for a reason the rule cannot see:
 * - worker/app-env.ts (Hono's context type) names accounts' SignedInUser and ApiCaller type-only from their file:
 *   every index leads through the kernel's deps to the providers and the sandbox simulators, which type their routes
 *   with app-env.ts, so an import of an index there would be a cycle.
 * - scripts/ (the node CLI) cannot load what an index brings (the Worker's runtime): it may import a room's file
 *   directly when that file is runtime-free, i.e. its value imports reach only schema/.
 * - Each room owns its tables (issue 42, decision 062): `<room>/tables.ts` defines them; worker/db/tables.ts, the one
 *   re-export drizzle-kit reads, may import every room's, and a room's tables.ts may import another room's for a
 *   foreign key. A service never imports worker/db/tables.ts: it reads its own room's tables and the kernel's (through
 *   the kernel's index), and asks any other room through that room's index.
 */
export const ROOMS_DIR = "worker/services";
const TYPE_ONLY_EXCEPTIONS = new Set(["worker/app-env.ts"]);
/** The drizzle-kit re-export of every room's tables. */
const SCHEMA_REEXPORT = "worker/db/tables.ts";
const isRoomTables = (file: string) => path.basename(file) === "tables.ts" && roomOf(file) !== undefined;

const statementPattern = /\b(?:import|export)\s+(type\s+)?(?:[^;"'`]*?\s+from\s+|)["'](\.{1,2}(?:\/[^"']*)?)["']|\bimport\s*\(\s*["'](\.{1,2}(?:\/[^"']*)?)["']/g;

interface Import {
  target: string;
  typeOnly: boolean;
}

function importsOf(file: string, root: string, read: (f: string) => string, exists: (p: string) => boolean): Import[] {
  const out: Import[] = [];
  for (const m of read(file).matchAll(statementPattern)) {
    const target = resolve(file, m[2] ?? m[3], root, exists);
    if (target) out.push({ target, typeOnly: m[1] !== undefined });
  }
  return out;
}

const roomOf = (file: string): string | undefined => {
  const rel = path.posix.relative(ROOMS_DIR, file.split(path.sep).join("/"));
  if (rel.startsWith("..")) return undefined;
  const parts = rel.split("/");
  return parts.length > 1 ? parts[0] : undefined;
};

/** Every import in `files` that reaches past a room's index, and every file left loose in worker/services/. */
export function roomCrossings(
  files: string[],
  root: string,
  read = (f: string) => readFileSync(path.join(root, f), "utf8"),
  exists: (p: string) => boolean = existsSync,
): string[] {
  const problems: string[] = [];
  const runtimeFree = (target: string) =>
    importsOf(target, root, read, exists).every((i) => i.typeOnly || i.target.startsWith("schema/")) &&
    !/\bfrom\s+["'](?!\.)/.test(read(target).replace(/import\s+type\b[^;]*;/g, ""));
  for (const file of files) {
    if (path.dirname(file) === ROOMS_DIR) problems.push(`${file}: a service lives in its domain's room (worker/services/<room>/), not loose in services/`);
    const own = roomOf(file);
    for (const { target, typeOnly } of importsOf(file, root, read, exists)) {
      if (target === SCHEMA_REEXPORT && own && !/\.test\.ts$/.test(file)) {
        problems.push(`${file}: imports ${SCHEMA_REEXPORT}; a room reads its own tables (./tables) and the kernel's (its index), and asks another room through that room's index (decision 062)`);
        continue;
      }
      const room = roomOf(target);
      if (!room) continue;
      // The schema's re-export, and one room's table referring to another's (a foreign key), read table files directly.
      if (isRoomTables(target) && (file === SCHEMA_REEXPORT || (isRoomTables(file) && own !== room))) continue;
      const isIndex = path.basename(target) === "index.ts" && path.dirname(target) === `${ROOMS_DIR}/${room}`;
      if (own === room) {
        if (isIndex) problems.push(`${file}: imports its own room's index; a file inside ${room}/ imports its siblings directly`);
        continue;
      }
      if (isIndex) continue;
      if (typeOnly && TYPE_ONLY_EXCEPTIONS.has(file)) continue;
      if (file.startsWith("scripts/") && runtimeFree(target)) continue;
      problems.push(`${file}: imports ${target}, past the ${room} room's index (import "${ROOMS_DIR}/${room}" and export what you need from its index.ts)`);
    }
  }
  return problems;
}

/** An import of `hono`, its subpaths (hono/factory, ...) or a Hono middleware package (@hono/...): static, type-only,
 *  re-export, dynamic or an inline `import("hono")` type. */
const honoPattern =
  /\b(?:import|export)\s+(?:type\s+)?(?:[^;"'`]*?\s+from\s+|)["']((?:hono|@hono\/[^"'/]+)(?:\/[^"']*)?)["']|\bimport\s*\(\s*["']((?:hono|@hono\/[^"'/]+)(?:\/[^"']*)?)["']/g;

/**
 * No service knows it runs under Hono (issue 29; docs/decisions/056-no-hono-in-services.md): a file under
 * worker/services/ imports nothing from hono or @hono/ (values, types and inline `import("hono")` types alike), nor
 * worker/app-env.ts, which is Hono's environment type. A service takes plain inputs (db, RequestDeps, the signed-in
 * user, the request's facts as values) and the route does the Hono part.
 */
export function honoInServices(
  files: string[],
  root: string,
  read = (f: string) => readFileSync(path.join(root, f), "utf8"),
  exists: (p: string) => boolean = existsSync,
): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!file.split(path.sep).join("/").startsWith(`${ROOMS_DIR}/`)) continue;
    for (const m of read(file).matchAll(honoPattern)) {
      problems.push(`${file}: imports "${m[1] ?? m[2]}"; a service takes plain inputs and its route does the Hono part (decision 056)`);
    }
    if (importsOf(file, root, read, exists).some((i) => i.target === "worker/app-env.ts")) {
      problems.push(`${file}: imports worker/app-env.ts (Hono's environment); a service takes plain inputs and its route does the Hono part (decision 056)`);
    }
  }
  return problems;
}
