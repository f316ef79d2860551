import type { MiddlewareHandler } from "hono";
import type { RouterRoute } from "hono/types";
import { z } from "zod";
import { validatesOf } from "./validate";

/**
 * An OpenAPI 3.1 document read from a Hono app's own routes, with zod 4's z.toJSONSchema (JSON Schema 2020-12, which
 * OpenAPI 3.1 uses as is), so no generator library is needed (docs/decisions/011-developer-api.md). The pattern is
 * hono-openapi's (github.com/rhinobase/hono-openapi): a route says what it is with a pass-through `describeRoute(...)`
 * middleware, and the document walks `app.routes` for it. Method and path come from the route itself, and query, path
 * parameters and body from the route's own `validate()` middlewares (lib/validate.ts), so the document is always the
 * schemas the routes validate with and a route cannot be served undocumented by a typo (docs/decisions/029).
 */

/** What a route says about itself; the rest of its entry is read from the route. */
export interface RouteDoc {
  summary: string;
  description?: string;
  response: z.ZodType;
  status?: number;
  /** Errors worth naming (the one error body). */
  errors?: number[];
}

export interface OperationDoc extends RouteDoc {
  method: "get" | "post";
  /** OpenAPI style: /sms/orders/{id} */
  path: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
}

const described = new WeakMap<object, RouteDoc>();

/** A pass-through middleware carrying the route's entry: `.get("/balance", describeRoute({...}), handler)`. */
export function describeRoute(doc: RouteDoc): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  described.set(middleware, doc);
  return middleware;
}

/**
 * Every described route of an app, in the order it was registered. A sub-app mounted with `.route()` keeps its handlers
 * as they are (as long as it sets no onError of its own), so a parent app lists its sub-apps' routes too.
 */
export function operationsOf(routes: readonly RouterRoute[]): OperationDoc[] {
  const byRoute = new Map<string, RouterRoute[]>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    byRoute.set(key, [...(byRoute.get(key) ?? []), route]);
  }
  const operations: OperationDoc[] = [];
  for (const handlers of byRoute.values()) {
    const doc = handlers.map((r) => described.get(r.handler)).find((d) => d !== undefined);
    if (!doc) continue;
    const { method, path } = handlers[0];
    if (method !== "GET" && method !== "POST") throw new Error(`OpenAPI: ${method} ${path} is not a documented method`);
    const checks = handlers.map((r) => validatesOf(r.handler)).filter((v) => v !== undefined);
    const schemaOf = (target: string) => checks.find((v) => v.target === target)?.schema;
    operations.push({
      ...doc,
      method: method === "GET" ? "get" : "post",
      path: path.replace(/:(\w+)/g, "{$1}"),
      query: schemaOf("query") as z.ZodObject | undefined,
      params: schemaOf("param") as z.ZodObject | undefined,
      body: schemaOf("json"),
    });
  }
  return operations;
}

export class OpenApiRegistry {
  /** errorSchema: the one error body, named (it is every error answer's content); routes: the app's, read when asked. */
  constructor(
    private readonly errorSchema: z.ZodType,
    private readonly routes: () => readonly RouterRoute[],
  ) {}

  get operations(): OperationDoc[] {
    return operationsOf(this.routes());
  }

  document(info: { title: string; version: string; description: string }, serverUrl: string) {
    const schemas: Record<string, unknown> = {};
    // zod puts schemas that carry an id (.meta({ id })) in $defs: they become named components, refs rewritten to match.
    const toSchema = (schema: z.ZodType, io: "input" | "output"): Record<string, unknown> => {
      const raw = JSON.stringify(z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }));
      const json = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
      const defs = (json.$defs ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, def] of Object.entries(defs)) {
        delete def.id;
        schemas[name] = def;
      }
      delete json.$defs;
      delete json.$schema;
      return json;
    };
    const parameters = (obj: z.ZodObject | undefined, where: "query" | "path") => {
      if (!obj) return [];
      const json = z.toJSONSchema(obj, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as {
        properties?: Record<string, Record<string, unknown>>;
        required?: string[];
      };
      return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        ...(typeof schema.description === "string" ? { description: schema.description } : {}),
        schema,
      }));
    };
    const operations = this.operations;
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of operations) {
      const responses: Record<string, unknown> = {
        [String(op.status ?? 200)]: { description: "OK", content: { "application/json": { schema: toSchema(op.response, "output") } } },
      };
      for (const status of [401, 429, ...(op.errors ?? [])]) {
        responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
      }
      const idempotency =
        op.method === "post"
          ? [
              {
                name: "Idempotency-Key",
                in: "header",
                required: true,
                description: "Same key + same body: the first answer again (never a second charge); same key + another body: 422.",
                schema: { type: "string", minLength: 1, maxLength: 255 },
              },
            ]
          : [];
      paths[op.path] ??= {};
      paths[op.path][op.method] = {
        operationId: `${op.method}${op.path.replace(/[{}]/g, "").replace(/(^|[/_-])(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}`,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        parameters: [...parameters(op.params, "path"), ...parameters(op.query, "query"), ...idempotency],
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.body, "input") } } } } : {}),
        responses,
      };
    }
    const statuses = new Set(operations.flatMap((op) => [401, 429, ...(op.errors ?? [])]));
    const errorRef = toSchema(this.errorSchema, "output");
    const responses = Object.fromEntries(
      [...statuses].sort().map((s) => [`Error${s}`, { description: ERROR_TEXT[s] ?? "Error", content: { "application/json": { schema: errorRef } } }]),
    );
    return {
      openapi: "3.1.0",
      info,
      servers: [{ url: serverUrl }],
      security: [{ apiKey: [] }],
      paths,
      components: {
        securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "Your sk_live_... or sk_test_... key" } },
        schemas,
        responses,
      },
    };
  }
}

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (VALIDATION_FAILED)",
  401: "Missing, unknown or revoked API key (UNAUTHORIZED)",
  402: "Insufficient balance (INSUFFICIENT_BALANCE)",
  404: "Not found, or not yours (NOT_FOUND)",
  409: "Price changed, wrong state, or the same Idempotency-Key still running",
  422: "Idempotency-Key reused with another body, or not supported (UNPROCESSABLE)",
  429: "Rate limited (RATE_LIMITED, with retry_after and Retry-After)",
  502: "Upstream unavailable (the money is back already)",
  503: "No numbers in stock (NO_NUMBERS)",
  504: "Upstream timeout (the money is back already)",
};
