import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { users } from "../db/tables";
import { countingD1, newTally } from "./d1-metrics";

describe("D1 metrics wrapper", () => {
  it("counts statements and batches, and the wrapped binding still works", async () => {
    const tally = newTally();
    const db = countingD1(env.DB, tally);
    const one = await db.prepare("SELECT ? AS n").bind(7).first<{ n: number }>();
    const col = await db.prepare("SELECT ? AS n").bind(8).first<number>("n");
    const none = await db.prepare("SELECT 1 AS n WHERE 0").first();
    const batch = await db.batch([db.prepare("SELECT 1 AS a"), db.prepare("SELECT ? AS b").bind(2)]);
    expect([one?.n, col, none]).toEqual([7, 8, null]);
    expect(batch.map((r) => r.results[0])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(tally.count).toBe(4);
    expect(tally.statements).toBe(5);
    expect(tally.unmeasured).toBe(0);
  });

  it("reads rows read and written from D1's meta, raw() included (drizzle's selects), with duplicate column names intact", async () => {
    const tally = newTally();
    const wrapped = countingD1(env.DB, tally);
    await wrapped.prepare("CREATE TABLE IF NOT EXISTS metrics_probe (n INTEGER)").run();
    await wrapped.batch([wrapped.prepare("INSERT INTO metrics_probe VALUES (1)"), wrapped.prepare("INSERT INTO metrics_probe VALUES (2)")]);
    const written = tally.rowsWritten;
    expect(written).toBeGreaterThanOrEqual(2);
    const rows = await wrapped.prepare("SELECT n, n * 10 AS n FROM metrics_probe ORDER BY 1").raw();
    expect(rows).toEqual([
      [1, 10],
      [2, 20],
    ]);
    const withNames = await wrapped.prepare("SELECT n FROM metrics_probe ORDER BY n").raw({ columnNames: true });
    expect(withNames).toEqual([["n"], [1], [2]]);
    expect(tally.rowsRead).toBeGreaterThanOrEqual(4);
    expect(tally.unmeasured).toBe(0);
    // drizzle through the wrapper reads the same as without it
    const viaDrizzle = await drizzle(wrapped).select({ id: users.id }).from(users).limit(1);
    expect(Array.isArray(viaDrizzle)).toBe(true);
    expect(tally.waitMs).toBeGreaterThanOrEqual(0);
  });
});
