// @vitest-environment node
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it, vi } from "vitest";

/**
 * The developer API's OpenAPI document (GET /api/v1/openapi.json, built by worker/lib/openapi.ts from the v1 routes)
 * linted with Redocly's recommended ruleset, as an outside client's tool chain lints it (issue 27): no errors and no
 * warnings. Redocly needs Node (it does not load in workerd), so the document is built here in Node from the same
 * routes. Building it runs no route; the two runtime-only modules the route files import (Durable Object base class,
 * realtime rooms) are stood in for, since nothing here constructs an object or opens a room.
 */
vi.mock("cloudflare:workers", () => ({ DurableObject: class {}, env: {} }));
vi.mock("partyserver", () => ({
  Server: class {},
  getServerByName: () => {
    throw new Error("no realtime rooms while building a document");
  },
  routePartykitRequest: () => null,
}));

// Building the document loads the v1 routes' module graph in Node: since issue 29 they import whole domain rooms
// through their index.ts, several seconds on a loaded 2-core machine before the first assertion.
vi.setConfig({ testTimeout: 30_000 });

// A path the node typecheck does not follow: the worker's modules are typed by the worker's own tsconfig (Cloudflare
// types), not this one.
const ROUTES = "../worker/routes/api-v1";

async function documentLikeTheWorkers(): Promise<Record<string, unknown>> {
  const { openapi } = (await import(/* @vite-ignore */ ROUTES)) as {
    openapi: { document(info: { title: string; version: string; description: string }, server: string): Record<string, unknown> };
  };
  return JSON.parse(JSON.stringify(openapi.document({ title: "VirtualNum developer API", version: "1.0.0", description: "D" }, "https://numbers.example.ng/api/v1")));
}

describe("the OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors and no warnings", async () => {
    const doc = await documentLikeTheWorkers();
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location?.[0]?.pointer ?? ""}: ${p.message}`);
    expect(lines).toEqual([]);
    // It did lint something: every path and every webhook.
    expect(Object.keys(doc.paths as object).length).toBeGreaterThan(10);
    expect(Object.keys(doc.webhooks as object).sort()).toEqual(["balance.changed", "payment.failed", "rental.ended", "rental.renewing", "rental.sms", "sms.code", "sms.ended"]);
  });

  it("is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator too (the e2e journey checks the served one)", async () => {
    const validator = new Validator();
    const result = await validator.validate(await documentLikeTheWorkers());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
