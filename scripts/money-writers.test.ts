import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { declarations, moneyTables, moneyWrites, tableNames, unusedMoves } from "./money-writers";

/** The real tree's sources, as scripts/lint.ts reads them. */
const root = path.resolve(import.meta.dirname, "..");
function files(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return files(rel);
    return /\.ts$/.test(name) ? [rel] : [];
  });
}
const sources = ["worker", "scripts"].flatMap(files).map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));
const declared = sources.filter((s) => s.file.startsWith("worker/services/")).flatMap((s) => declarations(s.file, s.text));
const tables = moneyTables(declared, tableNames(sources.filter((s) => s.file.startsWith("worker/")).map((s) => s.text)));
const owner = (sqlName: string) => tables.find((t) => t.sqlName === sqlName)!;

describe("the money core's lint (scripts/money-writers.ts, decision 062)", () => {
  it("reads every money entity from its declaration: one module per entity, owning its table", () => {
    const byTable = Object.fromEntries(declared.map((d) => [d.table, d.file]));
    expect(byTable).toMatchObject({
      smsOrders: "worker/services/sms/sms-transitions.ts",
      smsChains: "worker/services/sms/sms-chain.ts",
      rentals: "worker/services/rent/rental-transitions.ts",
      payments: "worker/services/funding/payment-transitions.ts",
      transferDeposits: "worker/services/funding/transfer-deposit.ts",
      paymentReviews: "worker/services/funding/payment-reviews.ts",
      reviewItemResolutions: "worker/services/funding/payment-reviews.ts",
    });
    expect(owner("ledger").modules).toEqual(["worker/db/money-rows.ts"]);
    expect(owner("transfer_deposits").modules).toEqual(["worker/services/funding/transfer-deposit.ts"]);
    expect(declared.find((d) => d.table === "payments")!.moves).toEqual(expect.arrayContaining(["open", "credit", "creditTransfer", "advance", "creditReviewed"]));
  });

  it("finds no write to a money table outside its module, and no declared move that nothing runs, in the tree as it is", () => {
    expect(sources.flatMap((s) => moneyWrites(s.file, s.text, tables))).toEqual([]);
    expect(unusedMoves(declared, sources)).toEqual([]);
  });

  it("catches a write planted in a real service file: drizzle's insert, update or delete of a money table, split over lines", () => {
    const cardPayments = sources.find((s) => s.file === "worker/services/funding/card-payments.ts")!;
    for (const call of ["update", "insert", "delete"]) {
      const planted = `${cardPayments.text}\nawait db\n  .${call}(\n    payments)\n  .set({ status: "credited" });\n`;
      const problems = moneyWrites(cardPayments.file, planted, tables);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^worker\/services\/funding\/card-payments\.ts:\d+: only services\/funding\/payment-transitions\.ts writes a payment's table payments/);
    }
  });

  it("catches raw SQL writing any money table outside its module, in any case", () => {
    for (const t of tables) {
      const text = [`await db.run(sql\`update ${t.sqlName} set status = 'x'\`);`, `sql\`INSERT INTO ${t.sqlName} (a) VALUES (1)\`;`, `sql\`delete from "${t.sqlName}" where 1\`;`].join("\n");
      expect(moneyWrites("worker/services/console/elsewhere.ts", text, tables)).toHaveLength(3);
    }
  });

  it("lets each table's module write it, and tests and their helpers set rows up by hand", () => {
    for (const t of tables) {
      for (const module of t.modules) expect(moneyWrites(module, `db.update(${t.table}).set({});\nsql\`UPDATE ${t.sqlName} SET a = 1\``, tables)).toEqual([]);
      expect(moneyWrites("worker/routes/x.test.ts", `db.insert(${t.table}).values({});`, tables)).toEqual([]);
      expect(moneyWrites("worker/test/setup.ts", `sql\`UPDATE ${t.sqlName} SET a = 1\``, tables)).toEqual([]);
    }
  });

  it("does not mistake reads or a similarly named table for a write", () => {
    const text = [
      "db.select().from(payments).where(eq(payments.status, 'pending'));",
      "db.update(paymentsArchive).set({});",
      "sql`SELECT 1 FROM payments WHERE status = 'credited'`;",
      "sql`UPDATE payments_archive SET a = 1`;",
    ].join("\n");
    expect(moneyWrites("worker/services/funding/card-payments.ts", text, tables)).toEqual([]);
  });

  it("reports a declared move nothing runs; one imported under another name counts as run", () => {
    const module = `export const widget = moneyEntity(\n  { name: "widget", table: widgets, id: "id", status: "status" },\n  {\n    /** a comment's "quote" { */\n    made: { from: "new", to: "new", values: (i: { row: Row }) => i.row },\n    sold: { from: ["new"], to: "sold", set: (_i: object, at) => ({ at: \`\${at}\` }) },\n  },\n);`;
    const [widget] = declarations("worker/services/x/widget.ts", module);
    expect(widget).toMatchObject({ name: "widget", entity: "widget", table: "widgets", moves: ["made", "sold"] });
    const caller = { file: "worker/services/x/use.ts", text: `import { widget as w } from "./widget";\nawait transition(db, w.made, id, {}, at);` };
    expect(unusedMoves([widget!], [caller])).toEqual([`worker/services/x/widget.ts: widget's move "sold" is declared but nothing runs it (widget.sold): remove it or use it`]);
    // A test running it does not make it used.
    expect(unusedMoves([widget!], [caller, { file: "worker/services/x/widget.test.ts", text: "widget.sold" }])).toHaveLength(1);
  });
});
