import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countingD1 } from "./d1-metrics";

describe("D1 round-trip counter", () => {
  it("counts statements and batches, and the wrapped binding still works", async () => {
    const counter = { count: 0 };
    const db = countingD1(env.DB, counter);
    const one = await db.prepare("SELECT ? AS n").bind(7).first<{ n: number }>();
    const batch = await db.batch([db.prepare("SELECT 1 AS a"), db.prepare("SELECT ? AS b").bind(2)]);
    expect(one?.n).toBe(7);
    expect(batch.map((r) => r.results[0])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(counter.count).toBe(2);
  });
});
