import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionUserQuery } from "../services/accounts";
import { eventDeliveryStatements } from "../services/kernel";
import { deliveryChannels } from "../services/notifications";
import { ordersRead } from "../services/rent";
import { db } from "./helpers";

/**
 * Issue 30 (decision 057): the statements a purchase-equivalent sends most often find their rows through an index:
 * SQLite's EXPLAIN QUERY PLAN shows no full SCAN of a table for any of them (scanning a subquery's own rows, as the
 * orders list's UNION ALL does, is not a table scan). Rows read per statement stay the customer's own rows, however
 * many customers the database holds.
 */

type Planned = { toSQL(): { sql: string; params: unknown[] } };

async function planOf(query: Planned): Promise<string[]> {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

const TABLE_SCAN = /^SCAN (users|sessions|sms_orders|rentals|rental_messages|outbox_events|api_keys|ledger|rate_limits)\b/;

describe("hot statements use indexes (EXPLAIN QUERY PLAN)", () => {
  const cases: [string, () => Planned][] = [
    ["the session check of every signed-in request", () => sessionUserQuery(db(), "user-1", "session-1", Date.now())],
    ["the dashboard's orders list (SMS orders and rentals in one statement)", () => ordersRead(db(), "user-1", Date.now()).queries[0] as unknown as Planned],
    ["the outbox claim after a money batch", () => eventDeliveryStatements(db(), "user-1", Date.now())[0]],
    ["the outbox read of what is still pending", () => eventDeliveryStatements(db(), "user-1", Date.now())[1]],
    // Issue 47: production's claim also asks that the customer has no push device nor forwarding (three more lookups).
    ["the outbox claim with the delivery channels' guard", () => eventDeliveryStatements(db(), "user-1", Date.now(), deliveryChannels(env, db()))[0]],
  ];
  for (const [name, build] of cases) {
    it(name, async () => {
      const plan = await planOf(build());
      expect(plan.length, plan.join("\n")).toBeGreaterThan(0);
      expect(plan.filter((line) => TABLE_SCAN.test(line)), plan.join("\n")).toEqual([]);
      expect(plan.some((line) => line.startsWith("SEARCH")), plan.join("\n")).toBe(true);
    });
  }
});
