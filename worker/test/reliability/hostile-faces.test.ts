import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../app";
import { createKey } from "../api-fixtures";
import { api, createUser, type TestUser } from "../helpers";
import { makeOperator } from "../operators";
import { tableCounts } from "./invariants";

/**
 * The two faces hostile-input.test.ts leaves out, fed the same way: every POST, PATCH and PUT route of the operator
 * console (as an operator with two-factor on, so the body reaches the handler) and of the developer API (with a live
 * key and a fresh Idempotency-Key). Never a 5xx; a refusal is a 4xx with the one error body and writes nothing (the
 * console's audit log included). Routes come from createApp().routes, so a new one is fed without being listed.
 */

const SOME_ID = "00000000-0000-4000-8000-000000000000";

function bodyRoutes(prefix: string): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of createApp().routes) {
    if (!["POST", "PATCH", "PUT"].includes(r.method) || !r.path.startsWith(prefix)) continue;
    const path = r.path.replace(/:\w+/g, SOME_ID);
    if (seen.has(`${r.method} ${path}`)) continue;
    seen.add(`${r.method} ${path}`);
    out.push({ method: r.method, path });
  }
  return out;
}

// Field names the two faces read, so generated bodies often have the right keys with the wrong values.
const FIELDS = [
  "reason", "amount", "action", "value", "message", "subject", "body", "group", "tier", "inactive_days", "user_id", "email",
  "provider", "country", "service", "max_price", "price", "next_route", "cap", "routes", "duration", "period", "countryId", "status",
];
const nastyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e308, -1, 0, 0.001, Number.MAX_SAFE_INTEGER, "1e9", "NaN", "", null, true, [], {}, "credit", "refuse", "all", "Swift", "5", "wa"),
  fc.constantFrom("<script>alert(1)</script>", "' OR 1=1 --", "\u0000\u202e", "x".repeat(5000)),
  fc.string({ maxLength: 40 }),
);
const bodyArb = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), nastyValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 120 }),
  fc.constantFrom('{"a":', "[", "\u0000", '{"__proto__":{"role":"operator"}}', "[".repeat(2000), '{"amount":1e999}', "null"),
);

/** The shared test client (../helpers.ts api), with the body sent as given: raw text, not re-encoded JSON. */
const send = (method: string, path: string, body: string, headers: Record<string, string>) =>
  api(path, { method, body: method === "GET" ? undefined : body, headers: { "content-type": "application/json", ...headers } });

let operator: TestUser;
let apiSecret: string;
beforeAll(async () => {
  operator = await makeOperator();
  apiSecret = (await createKey(await createUser(), "live")).secret;
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterAll(() => vi.restoreAllMocks());

const faces = [
  { name: "operator console", prefix: "/api/admin/", door: "/api/admin/me", headers: () => ({ authorization: `Bearer ${operator.token}` }) },
  { name: "developer API", prefix: "/api/v1/", door: "/api/v1/balance", headers: () => ({ authorization: `Bearer ${apiSecret}`, "idempotency-key": crypto.randomUUID() }) },
];

describe.each(faces)("random and hostile JSON on the $name", ({ prefix, door, headers }) => {
  it("has body routes to feed (read from the app), and the caller is let in", async () => {
    expect(bodyRoutes(prefix).length).toBeGreaterThan(2);
    expect((await send("GET", door, "", headers())).status).toBe(200);
  });

  it("every POST, PATCH and PUT route: a 4xx with the error body, never a 500, nothing written on a refusal", { timeout: 120_000 }, async () => {
    const refusals = new Set<number>();
    for (const { method, path } of bodyRoutes(prefix)) {
      await fc.assert(
        fc.asyncProperty(bodyArb, async (body) => {
          const before = await tableCounts();
          const res = await send(method, path, body, headers());
          const label = `${method} ${path} ${body.slice(0, 80)} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 200)}`;
          expect(res.status, label).toBeLessThan(500);
          if (res.status >= 400) {
            refusals.add(res.status);
            expect(res.data, label).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), error: expect.any(String) }));
            expect(await tableCounts(), label).toEqual(before);
          }
        }),
        { numRuns: 8 },
      );
    }
    // The bodies reached the handlers' validation, not only the door's 401/404.
    expect([...refusals]).toContain(400);
  });
});
