/**
 * The money core's lint (issue 42, docs/decisions/040, 049 and 062). A money entity is one module that declares its
 * moves with `moneyEntity({ name, table, ... }, { move: {...}, ... })` (worker/services/kernel/money-entity.ts) and is
 * the only code that writes its table; the ledger and the outbox are written only by their statement builders. This
 * file finds, from the source itself:
 * - `moneyWrites`: an insert, update or delete of a money table (drizzle's `.insert(t)`, `.update(t)`, `.delete(t)`,
 *   split over lines or not, and raw `INSERT INTO`, `UPDATE`, `DELETE FROM`, `REPLACE INTO` in any case) anywhere but
 *   the table's owning module;
 * - `unusedMoves`: a declared move no code runs (a declaration is what runs, so an unused one is a dead row of the
 *   table: refused);
 * - `moneyTables`: which module owns which table, read from the declarations (and the few tables that are no entity's:
 *   the ledger, the outbox, a decision's rows, an order's codes), so a new entity is covered the day it is declared.
 * Tests may set rows up by hand (`*.test.ts` and the tests' helpers in worker/test/ are not checked). scripts/lint.ts runs it;
 * scripts/money-writers.test.ts plants a write and proves it is caught.
 */

export interface MoneyTable {
  /** The table's drizzle variable and its SQL name. */
  table: string;
  sqlName: string;
  /** What it holds, for the message. */
  entity: string;
  /** The modules that may write it. */
  modules: string[];
}

/** The money tables that are no declared entity's, and who writes them. */
const FIXED_OWNERS: { table: string; entity: string; modules: string[] }[] = [
  // The ledger's rows and the outbox's events are statements their builders make (every caller puts them in its batch);
  // the outbox's delivery marks and purges its own rows.
  { table: "ledger", entity: "a ledger row", modules: ["worker/db/money-rows.ts"] },
  { table: "outboxEvents", entity: "an outbox event", modules: ["worker/db/money-rows.ts", "worker/services/kernel/outbox.ts"] },
  // An SMS order's codes, written with its code moves.
  { table: "smsOrderCodes", entity: "an SMS order's code", modules: ["worker/services/sms/sms-transitions.ts"] },
  // A review row's decision, written once with its move (never changed).
  { table: "paymentReviewResolutions", entity: "a review decision", modules: ["worker/services/funding/payment-reviews.ts"] },
];

/** `export const users = sqliteTable("users", ...)`: drizzle variable -> SQL name, from the schema files. */
export function tableNames(schemaTexts: string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const text of schemaTexts) {
    for (const m of text.matchAll(/export const (\w+)\s*=\s*sqliteTable\(\s*"(\w+)"/g)) names.set(m[1]!, m[2]!);
  }
  return names;
}

export interface Declaration {
  file: string;
  /** The exported name the moves are reached by (`payment` in `payment.credit`). */
  name: string;
  entity: string;
  table: string;
  moves: string[];
}

/** The money entities declared in `text`: `export const <name> = moneyEntity({ name: "...", table: <table>, ... }, { <moves> })`. */
export function declarations(file: string, text: string): Declaration[] {
  const out: Declaration[] = [];
  for (const m of text.matchAll(/export const (\w+)\s*=\s*moneyEntity\(/g)) {
    const start = m.index! + m[0].length;
    const [def, moves] = topLevelObjects(text, start, 2);
    if (!def || !moves) continue;
    const entity = /name:\s*"([^"]+)"/.exec(def)?.[1] ?? m[1]!;
    const table = /table:\s*(\w+)/.exec(def)?.[1];
    if (!table) continue;
    out.push({ file, name: m[1]!, entity, table, moves: topLevelKeys(moves) });
  }
  return out;
}

/** The owners of every money table: the declarations' modules, and the fixed ones. */
export function moneyTables(declared: Declaration[], names: Map<string, string>): MoneyTable[] {
  const tables = new Map<string, MoneyTable>();
  const add = (table: string, entity: string, module: string) => {
    const known = tables.get(table);
    if (known) {
      if (!known.modules.includes(module)) known.modules.push(module);
      return;
    }
    tables.set(table, { table, sqlName: names.get(table) ?? table, entity, modules: [module] });
  };
  for (const d of declared) add(d.table, `${/^[aeiou]/i.test(d.entity) ? "an" : "a"} ${d.entity}`, d.file);
  for (const f of FIXED_OWNERS) for (const module of f.modules) add(f.table, f.entity, module);
  return [...tables.values()];
}

/** Whether a file is test code (it may set rows up by hand): a test, or the tests' own helpers in worker/test/. */
const isTest = (file: string) => /\.test\.ts$/.test(file) || file.startsWith("worker/test/");

/** The problems of one file: `file:line: message` followed by the line, as lint prints them. */
export function moneyWrites(file: string, text: string, tables: MoneyTable[]): string[] {
  if (isTest(file)) return [];
  const problems: string[] = [];
  for (const t of tables) {
    if (t.modules.includes(file)) continue;
    // The drizzle call also when split over lines (`db\n  .update(\n    table)`), and raw SQL in any case.
    const pattern = new RegExp(`\\.(?:update|insert|delete)\\(\\s*${t.table}\\s*\\)|\\b(?:UPDATE|INSERT\\s+INTO|DELETE\\s+FROM|REPLACE\\s+INTO)\\s+[\`"]?${t.sqlName}\\b`, "gi");
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split("\n").length;
      const who = t.modules.map((mod) => mod.replace("worker/", "")).join(" or ");
      problems.push(`${file}:${line}: only ${who} writes ${t.entity}'s table ${t.sqlName} (its declared moves, decision 062)\n    ${text.split("\n")[line - 1]!.trim()}`);
    }
  }
  return problems;
}

/**
 * Declared moves nothing runs: a move is run where its entity's name reaches it (`payment.credit`, `smsOrder.fail`)
 * outside tests. Returns one problem per unused move.
 */
export function unusedMoves(declared: Declaration[], sources: { file: string; text: string }[]): string[] {
  const used = new Set<string>();
  for (const { file, text } of sources) {
    if (isTest(file)) continue;
    // An entity imported under another name (`import { payment as paymentEntity }`) is reached by that name.
    const aliases = new Map<string, string>();
    for (const imp of text.matchAll(/import\s*\{([^}]*)\}/g)) {
      for (const a of imp[1]!.matchAll(/\b(\w+)\s+as\s+(\w+)\b/g)) aliases.set(a[2]!, a[1]!);
    }
    for (const m of text.matchAll(/\b(\w+)\.(\w+)\b/g)) used.add(`${aliases.get(m[1]!) ?? m[1]}.${m[2]}`);
  }
  const problems: string[] = [];
  for (const d of declared) {
    for (const move of d.moves) {
      if (!used.has(`${d.name}.${move}`)) problems.push(`${d.file}: ${d.entity}'s move "${move}" is declared but nothing runs it (${d.name}.${move}): remove it or use it`);
    }
  }
  return problems;
}

/** The next `count` top-level object literals' texts after `from` (the arguments of a call), strings and comments skipped. */
function topLevelObjects(text: string, from: number, count: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = from; i < text.length && out.length < count; i++) {
    const skip = skipLiteral(text, i);
    if (skip !== i) {
      i = skip - 1;
      continue;
    }
    const c = text[i];
    if (c === "{" || c === "(" || c === "[") {
      if (depth === 0 && c === "{") start = i;
      depth++;
    } else if (c === "}" || c === ")" || c === "]") {
      depth--;
      if (depth === 0 && c === "}" && start >= 0) {
        out.push(text.slice(start + 1, i));
        start = -1;
      }
      if (depth < 0) break;
    }
  }
  return out;
}

/** The keys of an object literal's body at its own level (`key: ...` or `key(...)`), strings and comments skipped. */
function topLevelKeys(body: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = true;
  for (let i = 0; i < body.length; i++) {
    const skip = skipLiteral(body, i);
    if (skip !== i) {
      i = skip - 1;
      continue;
    }
    const c = body[i]!;
    if ("{([".includes(c)) depth++;
    else if ("})]".includes(c)) depth--;
    else if (depth === 0 && c === ",") expectKey = true;
    else if (depth === 0 && expectKey && /[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(body.slice(i))!;
      if (/^\s*:/.test(body.slice(i + m[0].length))) keys.push(m[0]);
      expectKey = false;
      i += m[0].length - 1;
    }
  }
  return keys;
}

/** The index after a string, template or comment starting at `i` (or `i` itself when none starts there). */
function skipLiteral(text: string, i: number): number {
  const c = text[i];
  if (c === "/" && text[i + 1] === "/") return text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
  if (c === "/" && text[i + 1] === "*") return text.indexOf("*/", i + 2) + 2;
  if (c === '"' || c === "'" || c === "`") {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === "\\") j++;
      else if (text[j] === c) return j + 1;
    }
  }
  return i;
}
