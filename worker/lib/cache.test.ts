import { describe, expect, it } from "vitest";
import { memoizeByObject, TtlCache } from "./cache";

describe("TtlCache", () => {
  it("serves an entry until ttlMs have passed, then loads again", () => {
    let now = 1_000;
    const cache = new TtlCache<string, number>(10_000, () => now);
    let loads = 0;
    const load = () => ++loads;
    expect(cache.getOrLoad("k", load)).toBe(1);
    now += 9_999;
    expect(cache.getOrLoad("k", load)).toBe(1);
    now += 1;
    expect(cache.getOrLoad("k", load)).toBe(2);
    cache.delete("k");
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", 7, now - 10_000);
    expect(cache.get("k")).toBeUndefined();
  });

  it("shares a pending load and drops a rejected one at once", async () => {
    const cache = new TtlCache<string, Promise<number>>(60_000, () => 0);
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error("upstream down"));
    };
    const first = cache.getOrLoad("k", failing);
    expect(cache.getOrLoad("k", failing)).toBe(first);
    await expect(first).rejects.toThrow("upstream down");
    expect(calls).toBe(1);
    expect(cache.get("k")).toBeUndefined();
    await expect(cache.getOrLoad("k", async () => 5)).resolves.toBe(5);
    expect(await cache.get("k")?.value).toBe(5);
  });
});

describe("memoizeByObject", () => {
  it("computes once per key object", () => {
    let calls = 0;
    const derive = memoizeByObject((o: { n: number }) => ({ double: o.n * 2, call: ++calls }));
    const a = { n: 2 };
    expect(derive(a)).toBe(derive(a));
    expect(derive({ n: 2 })).not.toBe(derive(a));
    expect(calls).toBe(2);
  });
});
