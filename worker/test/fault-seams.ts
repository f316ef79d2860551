import type { Db } from "../db/client";

/**
 * The outbox's fault seam (worker/test/reliability/outbox.test.ts, decisions 040 and 062): a database that stops
 * answering right after the first batch that wrote an outbox event has committed, as a worker evicted between its
 * money batch and the delivery would. Everything after it throws.
 */
export function stoppingAfterTheEventBatch(real: Db): Db {
  let stopped = false;
  return new Proxy(real, {
    get(target, prop) {
      if (stopped && ["select", "selectDistinct", "insert", "update", "delete", "batch", "run", "all", "get"].includes(String(prop))) {
        throw new Error("the worker was stopped");
      }
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "batch") {
        return async (queries: { toSQL(): { sql: string } }[]) => {
          const result = await (value as (q: unknown) => Promise<unknown>).call(target, queries);
          if (queries.some((q) => q.toSQL().sql.includes("outbox_events"))) stopped = true;
          return result;
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
