// @vitest-environment node
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it, vi } from "vitest";

/**
 * The developer API's OpenAPI document (GET /api/v1/openapi.json, generated from the v1 routes' definitions)
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
  const { v1Document } = (await import(/* @vite-ignore */ ROUTES)) as { v1Document(server: string): unknown };
  return JSON.parse(JSON.stringify(v1Document("https://numbers.example.ng/api/v1"))) as Record<string, unknown>;
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
    expect(Object.keys(doc.webhooks as object).sort()).toEqual(["balance.changed", "payment.failed", "rental.ended", "rental.renewing", "rental.sms", "sms.code", "sms.ended", "subaccount.closed", "subaccount.created", "subaccount.frozen", "subaccount.transfer", "subaccount.unfrozen", "withdrawal.failed", "withdrawal.paid", "withdrawal.requested", "withdrawal.reversed"]);
  });

  it("is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator too (the e2e journey checks the served one)", async () => {
    const validator = new Validator();
    const result = await validator.validate(await documentLikeTheWorkers());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has an example on every scalar property and every parameter (issue 44: an outside run counted 72 without one)", async () => {
    const doc = await documentLikeTheWorkers();
    expect(withoutExample(doc)).toEqual([]);
    // It looked at something: the order's fields are among those it checked.
    expect(JSON.stringify(doc)).toContain('"examples":["+15551234567"]');
  });
});

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const hasExample = (s: Json) => "example" in s || "examples" in s;

/** A string, number, integer or boolean (an enum or a const too), possibly "or null": what a client shows as one value. */
function isScalar(schema: Json): boolean {
  if ("$ref" in schema) return false;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== undefined && t !== "null");
  if (types.length === 1 && ["string", "number", "integer", "boolean"].includes(String(types[0]))) return true;
  if ("enum" in schema || "const" in schema) return true;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter((b): b is Json => isObject(b) && b.type !== "null") : [];
  return branches.length === 1 && isScalar(branches[0]);
}

/** Every scalar property anywhere in the document, and every parameter, that carries no example: where it is. */
function withoutExample(doc: Json): string[] {
  const missing: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        if (isObject(property) && isScalar(property) && !hasExample(property)) missing.push(`${at}/properties/${name}`);
      }
    }
    // A parameter (a security scheme names its header too, but says its type).
    if (typeof node.in === "string" && typeof node.name === "string" && !("type" in node) && !hasExample(node) && !(isObject(node.schema) && hasExample(node.schema))) {
      missing.push(`${at} (parameter ${node.name})`);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
  };
  walk(doc, "#");
  return missing;
}
