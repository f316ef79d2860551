import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { adapterBuilds } from "./adapter-builders";
import { missingOptionalEntries } from "./complete-lockfile";
import { honoInServices, roomCrossings } from "./domain-rooms";
import { declarations, moneyTables, moneyWrites, tableNames, unusedMoves } from "./money-writers";
import { importCycles, importGraph } from "./import-cycles";
import { root } from "./local-env";
import { contractImports, webWorkerImports } from "./web-imports";
import { unbundledImports } from "./worker-test-deps";
import { staleWorkerTypes } from "./worker-types";

/**
 * The project's lint, two layers (../docs/decisions/009-linting.md):
 * 1. the architectural rules below, which a reviewer would otherwise have to remember (../docs/decisions/001);
 * 2. ESLint with ../eslint.config.js (typescript-eslint recommended, the classic React hook rules), zero warnings.
 * Type errors are tsc's job (`tsc -b`, run before this in `npm test`).
 */
type Rule = { dirs: string[]; test: RegExp; message: string; only?: RegExp; skip?: RegExp };

const rules: Rule[] = [
  { dirs: ["worker", "web", "schema", "e2e"], test: /\b(it|test|describe)\.(only|skip)\(|\bx(it|describe)\(/, message: "focused or skipped test" },
  { dirs: ["schema"], test: /from\s+["'](?!zod|\.)/, message: "schema/ imports zod and itself only", skip: /\.test\.ts$/ },
  { dirs: ["worker/routes"], test: /from\s+["']drizzle-orm|\.\.\/db\/tables/, message: "routes do HTTP only: queries live in services/", skip: /\.test\.ts$/ },
  { dirs: ["worker/routes"], test: /c\.req\.json\(\)/, message: "validate bodies with validate('json', schema) and c.req.valid()" },
  { dirs: ["worker", "scripts"], test: /INSERT\s+OR\s+IGNORE\s+INTO\s+`?ledger/i, message: "INSERT OR IGNORE on the ledger bypasses the balance CHECK inside the trigger; use ON CONFLICT DO NOTHING" },
  { dirs: ["worker"], test: /console\.log\(/, message: "log through lib/log.ts (structured, redacted)", skip: /(\.test\.ts|lib\/log\.ts)$/ },
  { dirs: ["web"], test: /console\.log\(/, message: "no console.log in the web app", skip: /\.test\.tsx?$/ },
  { dirs: ["worker", "web", "schema"], test: /debugger;/, message: "debugger statement" },
  {
    // One clock (issue 42, decision 062): every service and the ledger take their time from the services container
    // (services.clock, a flow's deps.clock, or a `now` its caller read there), so a test moves time through the whole
    // money path by handing the container its own clock.
    dirs: ["worker/services", "worker/db"],
    only: /^worker\/(services\/|db\/money-rows\.ts$)/,
    skip: /\.test\.ts$/,
    test: /\bDate\.now\(\)/,
    message: "time comes from the container's clock (services.clock, deps.clock, or a `now` the caller read there), never Date.now()",
  },
  {
    // The money flows' one dependency shape (docs/decisions/028-money-flow-deps.md): a test records their pushes
    // through deps, which only holds while no flow pushes by itself.
    dirs: ["worker/services"],
    only: /services\/(sms\/sms-(orders|poll|views|upstream|transitions|chain)|rent\/(rentals|rental-(inbox|reminder|extension))|funding\/(payments|card-payments|crypto-payments|payment-crediting|payment-sweep|crypto-currencies))\.ts$/,
    test: /import\s*\{[^}]*\bnotify\b[^}]*\}\s*from\s+["']\.\.\/kernel["']/,
    message: "a money flow pushes through deps.notify (decision 028)",
  },
  {
    // Named results (issue 42): a batch is run by the kernel's runBatch and answered by name, never read by position
    // or cast to fit db.batch.
    dirs: ["worker/services"],
    skip: /(\.test\.ts|kernel\/money-entity\.ts)$/,
    test: /\bas unknown as\b|\bresults?\[\d+\]|\]\s*=\s*await\s+[\w.]*\.batch\(/,
    message: "run a batch with runBatch and read its steps by name (no positional reads, no `as unknown as`: decision 062)",
  },
  {
    // One clock and one time format for every screen, e-mail and CSV (issue 43, decision 063).
    dirs: ["worker", "web"],
    test: /\.toUTCString\(|\.toLocale(Date|Time)String\(|\b(dateStyle|timeStyle|timeZone)\s*:/,
    message: "write times through schema/datetime.ts (Lagos time, one format: decision 063)",
    skip: /\.test\.tsx?$/,
  },
  {
    // One naira format, "₦1,234.56" (issue 43): screens write money through naira() / signedNaira(), never a figure of their own.
    dirs: ["web"],
    test: /\bformatNaira\b|\.replace\(\/\\\.00\$\//,
    message: "write money through naira() from schema/money.ts (one format, kobo included: decision 063)",
    skip: /\.test\.tsx?$/,
  },
  {
    dirs: ["e2e"],
    test: /import\s*\{[^}]*\btest\b[^}]*\}\s*from\s+["']@playwright\/test["']/,
    message: "journeys import test from ./support (it fails a journey on any Content-Security-Policy violation)",
    skip: /support\.ts$/,
  },
];

function files(dir: string): string[] {
  const abs = path.join(root, dir);
  let out: string[] = [];
  for (const name of readdirSync(abs)) {
    if (name === "node_modules" || name === "dist") continue;
    const p = path.join(abs, name);
    if (statSync(p).isDirectory()) out = out.concat(files(path.join(dir, name)));
    else if (/\.(ts|tsx)$/.test(name)) out.push(path.join(dir, name));
  }
  return out;
}

let problems = 0;
for (const rule of rules) {
  for (const dir of rule.dirs) {
    for (const file of files(dir)) {
      if (rule.skip?.test(file) || (rule.only && !rule.only.test(file))) continue;
      const lines = readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (rule.test.test(line)) {
          problems += 1;
          console.error(`${file}:${i + 1}: ${rule.message}\n    ${line.trim()}`);
        }
      });
    }
  }
}
// `npm ci` (CI's install) refuses a lockfile that lacks other platforms' optional binaries; see complete-lockfile.ts.
const missingLockEntries = missingOptionalEntries(JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")));
if (missingLockEntries.length > 0) {
  problems += 1;
  console.error(
    `package-lock.json lacks ${missingLockEntries.length} optional platform entr${missingLockEntries.length === 1 ? "y" : "ies"} ` +
      `(${missingLockEntries.map((m) => m.key.replace("node_modules/", "")).join(", ")}): npm ci would refuse it. ` +
      "Run: npx tsx scripts/complete-lockfile.ts",
  );
}
// No import cycles (issue 14): a circle makes every module in it load, and mean, all the others.
const sourceFiles = ["worker", "web", "schema"].flatMap(files);
for (const cycle of importCycles(importGraph(sourceFiles, root))) {
  problems += 1;
  console.error(`import cycle through ${cycle.length} file(s): ${cycle.join(" -> ")} (move the shared part down a layer)`);
}
// A money table is written only by its entity's module, and every declared move runs somewhere (decision 062;
// scripts/money-writers.ts reads the declarations themselves).
const moneySources = ["worker", "scripts"].flatMap(files).map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));
const declared = moneySources.filter((s) => s.file.startsWith("worker/services/")).flatMap((s) => declarations(s.file, s.text));
const owned = moneyTables(declared, tableNames(moneySources.filter((s) => s.file.startsWith("worker/")).map((s) => s.text)));
for (const problem of [...moneySources.flatMap((s) => moneyWrites(s.file, s.text, owned)), ...unusedMoves(declared, moneySources)]) {
  problems += 1;
  console.error(problem);
}
// A service never builds an upstream adapter: it takes them from the services container (decision 050).
for (const file of files("worker/services")) {
  for (const problem of adapterBuilds(file, readFileSync(path.join(root, file), "utf8"))) {
    problems += 1;
    console.error(problem);
  }
}
// One room per domain (docs/decisions/041-domain-rooms.md): another room, or anything outside the rooms, imports a
// room only through its index.ts; a file inside imports its siblings directly; no service lies loose in services/.
for (const problem of roomCrossings(["worker", "scripts", "bench", "e2e"].flatMap(files), root)) {
  problems += 1;
  console.error(problem);
}
// No service imports hono (docs/decisions/056-no-hono-in-services.md): routes do the Hono part, services take values.
for (const problem of honoInServices(files("worker/services"), root)) {
  problems += 1;
  console.error(problem);
}
// The web imports worker types only (decision 065): the faces' API types of worker/contract/faces.ts, with `import type`;
// and the route definitions it type-checks import only zod, Hono and schema/.
for (const problem of [...files("web").flatMap((f) => webWorkerImports(f, readFileSync(path.join(root, f), "utf8"))), ...files("worker/contract").flatMap((f) => contractImports(f, readFileSync(path.join(root, f), "utf8")))]) {
  problems += 1;
  console.error(problem);
}
// The web's data layer takes the contract's types with `import type` (no bytes) and its constants from the zod-free
// modules (schema/constants.ts): a value import from a zod module would put zod (about 25 kB gzip) on every screen.
const zodModules = new Set(files("schema").filter((f) => /from\s+["']zod["']/.test(readFileSync(path.join(root, f), "utf8"))).map((f) => path.basename(f, ".ts")));
for (const file of ["web/api", "web/realtime", "web/lib"].flatMap(files).filter((f) => !/\.test\.tsx?$/.test(f))) {
  const text = readFileSync(path.join(root, file), "utf8");
  for (const m of text.matchAll(/import\s+(?!type\b)(\{[^}]*\}|\w+)\s+from\s+["'](?:\.\.\/)+schema\/([\w-]+)(?:\.ts)?["']/g)) {
    if (!zodModules.has(m[2])) continue;
    problems += 1;
    console.error(`${file}: imports values from schema/${m[2]}.ts, which imports zod: use \`import type\`, or move the constant to schema/constants.ts`);
  }
}
// The worker test project pre-bundles every package worker/ and schema/ import (decision 030): a new one goes on its list.
for (const file of ["worker", "schema"].flatMap(files)) {
  for (const spec of unbundledImports(readFileSync(path.join(root, file), "utf8"))) {
    problems += 1;
    console.error(`${file}: imports "${spec}", which scripts/worker-test-deps.ts does not list (the worker tests would load it unbundled)`);
  }
}
// worker-configuration.d.ts (Env's bindings, from `wrangler types`) must match wrangler.toml.
const staleTypes = staleWorkerTypes(root);
if (staleTypes) {
  problems += 1;
  console.error(staleTypes);
}
const architecturalProblems = problems;

// ESLint runs even when a rule above failed, so one run shows every finding.
const eslint = new ESLint({ cwd: root });
const results = await eslint.lintFiles(["."]);
const eslintErrors = results.reduce((sum, r) => sum + r.errorCount + r.fatalErrorCount, 0);
// Warnings fail too (the CLI's --max-warnings 0): a warning nobody has to fix is a warning nobody reads.
const eslintWarnings = results.reduce((sum, r) => sum + r.warningCount, 0);
if (eslintErrors + eslintWarnings > 0) {
  const formatter = await eslint.loadFormatter("stylish");
  console.error(await formatter.format(results));
}

if (architecturalProblems + eslintErrors + eslintWarnings > 0) {
  console.error(
    `\nlint: ${architecturalProblems} architectural problem(s), ` +
      `ESLint ${eslintErrors} error(s) and ${eslintWarnings} warning(s)`,
  );
  process.exit(1);
}
console.log(`lint: no problems (architectural rules and ESLint, ${results.length} files)`);
