import { describe, expect, it } from "vitest";
import { MONEY_ENTITIES, moneyWrites } from "./money-writers";

describe("money writers rule (scripts/lint.ts)", () => {
  it("lets each entity's module write its rows, and tests set rows up by hand", () => {
    for (const e of MONEY_ENTITIES.filter((e) => e.module !== "(none)")) {
      expect(moneyWrites(e.module, `db.update(${e.table}).set({ status: "x" });\nawait db.run(sql\`UPDATE ${e.sqlName} SET status = 'x'\`);`)).toEqual([]);
      expect(moneyWrites(e.module.replace(/\.ts$/, ".test.ts"), `db.update(${e.table});\nUPDATE ${e.sqlName} SET a = 1`)).toEqual([]);
    }
  });

  it("refuses update(<money table>) and raw UPDATE <money table> anywhere else, split over lines or in any case", () => {
    for (const e of MONEY_ENTITIES) {
      const problems = moneyWrites("worker/services/elsewhere.ts", `const a = 1;\nawait db\n  .update(\n    ${e.table})\n  .set({});\nawait db.run(sql\`update ${e.sqlName} set status = 'abandoned'\`);`);
      expect(problems).toHaveLength(2);
      const who = e.module === "(none)" ? "nothing updates" : `only ${e.module.replace("worker/", "").replace(/[./]/g, "\\$&")} writes`;
      expect(problems[0]).toMatch(new RegExp(`^worker/services/elsewhere\\.ts:3: ${who}`));
      expect(problems[1]).toMatch(/^worker\/services\/elsewhere\.ts:6: /);
    }
  });

  it("does not mistake reads, inserts or a similarly named table for a write", () => {
    const text = [
      "db.select().from(payments).where(eq(payments.status, 'pending'));",
      "db.insert(payments).values(row);",
      "db.update(paymentsArchive).set({});",
      "sql`SELECT 1 FROM payments WHERE status = 'credited'`;",
      "sql`UPDATE payments_archive SET a = 1`;",
    ].join("\n");
    expect(moneyWrites("worker/services/funding/card-payments.ts", text)).toEqual([]);
  });

  it("covers every money entity the decision names", () => {
    expect(MONEY_ENTITIES.map((e) => e.table)).toEqual(expect.arrayContaining(["smsOrders", "payments", "rentals", "smsChains", "paymentReviews", "paymentReviewResolutions", "reviewItemResolutions"]));
  });
});
