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

export type OperationMethod = "get" | "post" | "put" | "delete";

export interface OperationDoc extends RouteDoc {
  method: OperationMethod;
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
    if (!["GET", "POST", "PUT", "DELETE"].includes(method)) throw new Error(`OpenAPI: ${method} ${path} is not a documented method`);
    const checks = handlers.map((r) => validatesOf(r.handler)).filter((v) => v !== undefined);
    const schemaOf = (target: string) => checks.find((v) => v.target === target)?.schema;
    operations.push({
      ...doc,
      method: method.toLowerCase() as OperationMethod,
      path: path.replace(/:(\w+)/g, "{$1}"),
      query: schemaOf("query") as z.ZodObject | undefined,
      params: schemaOf("param") as z.ZodObject | undefined,
      body: schemaOf("json"),
    });
  }
  return operations;
}

/** The error bodies: the one error body, and the shapes of the codes that carry typed extra fields. */
export interface ErrorSchemas {
  /** Every error answer's body unless named below. */
  error: z.ZodType;
  /** 409: PRICE_CHANGED with price, INVALID_STATE with status. */
  conflict: z.ZodType;
  /** 429: retry_after. */
  rateLimited: z.ZodType;
}

/** The document's webhooks section: each event's body (OpenAPI 3.1 `webhooks`). */
export type WebhookDocs = Record<string, z.ZodType>;

export class OpenApiRegistry {
  /** errors: the error bodies (every error answer's content); routes: the app's, read when asked; webhooks: the events. */
  constructor(
    private readonly errors: ErrorSchemas,
    private readonly routes: () => readonly RouterRoute[],
    private readonly webhooks: WebhookDocs = {},
  ) {}

  get operations(): OperationDoc[] {
    return operationsOf(this.routes());
  }

  /** The error statuses an operation answers: the ones it names, plus those every such route gives. */
  static errorStatuses(op: OperationDoc): number[] {
    const sendsBody = op.method === "post" || op.method === "put";
    const validates = sendsBody || op.query !== undefined || op.params !== undefined || op.body !== undefined;
    // 400: a parameter or body its validate() refuses, or a POST without its Idempotency-Key; 413: a body over 32 KB
    // (app.ts bodyLimit); 401 and 429 on every route behind the key.
    const all = new Set([401, 429, ...(validates ? [400] : []), ...(sendsBody ? [413] : []), ...(op.errors ?? [])]);
    return [...all].sort((a, b) => a - b);
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
      // A schema that is itself named comes back whole (with its id): it becomes a component too, referenced here.
      if (typeof json.id === "string") {
        const name = json.id;
        delete json.id;
        schemas[name] = json;
        return { $ref: `#/components/schemas/${name}` };
      }
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
      const replayable = op.method === "post";
      const responses: Record<string, unknown> = {
        [String(op.status ?? 200)]: {
          description: "OK",
          ...(replayable ? { headers: { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } } } : {}),
          content: { "application/json": { schema: toSchema(op.response, "output") } },
        },
      };
      for (const status of OpenApiRegistry.errorStatuses(op)) {
        responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
      }
      const idempotency = replayable
        ? [
            {
              name: "Idempotency-Key",
              in: "header",
              required: true,
              description: "Same key + same body: the first answer again (never a second charge); same key + another body: 422.",
              schema: { type: "string", minLength: 1, maxLength: 255 },
              example: "5f0c6f7e-3b1a-4c2d-9e8f-1a2b3c4d5e6f",
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
    const statuses = new Set(operations.flatMap((op) => OpenApiRegistry.errorStatuses(op)));
    const errorRef = toSchema(this.errors.error, "output");
    const conflictRef = toSchema(this.errors.conflict, "output");
    const rateLimitedRef = toSchema(this.errors.rateLimited, "output");
    const responses = Object.fromEntries(
      [...statuses]
        .sort((a, b) => a - b)
        .map((s) => {
          const example = ERROR_EXAMPLE[s] ?? { code: "INTERNAL", message: "Something went wrong on our side. Please try again." };
          return [
            `Error${s}`,
            {
              description: ERROR_TEXT[s] ?? "Error",
              ...(s === 429 ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {}),
              content: {
                "application/json": {
                  schema: s === 409 ? conflictRef : s === 429 ? rateLimitedRef : errorRef,
                  example: { ...example, error: example.message },
                },
              },
            },
          ];
        }),
    );
    const webhooks = Object.fromEntries(
      Object.entries(this.webhooks).map(([type, schema]) => [
        type,
        {
          post: {
            operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}`,
            summary: `The ${type} event`,
            description:
              "POSTed to the key's webhook URL, signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>); retried for 24 hours until a 2xx.",
            security: [],
            parameters: [
              { name: "webhook-id", in: "header", required: true, description: "The event id (dedupe by it)", schema: { type: "string" }, example: "evt_0f8fad5bd9cb469fa16570867728950e" },
              { name: "webhook-timestamp", in: "header", required: true, description: "Unix seconds", schema: { type: "string" }, example: "1795356339" },
              {
                name: "webhook-signature",
                in: "header",
                required: true,
                description: "v1,<base64 HMAC-SHA256>",
                schema: { type: "string" },
                example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
              },
            ],
            requestBody: { required: true, content: { "application/json": { schema: toSchema(schema, "output") } } },
            responses: {
              "2XX": { description: "Delivered: any 2xx within 10 seconds" },
              "4XX": { description: "Not delivered: retried (after 1, 5, 15, 30 minutes, then 1, 2, 4, 8, 8 hours)" },
            },
          },
        },
      ]),
    );
    return {
      openapi: "3.1.0",
      info: { ...info, license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } },
      servers: [{ url: serverUrl }],
      // Either header carries the key (middleware/api-key.ts): Authorization: Bearer sk_... or X-API-Key: sk_...
      security: [{ bearerKey: [] }, { headerKey: [] }],
      paths,
      webhooks,
      components: {
        securitySchemes: {
          bearerKey: { type: "http", scheme: "bearer", description: "Authorization: Bearer sk_live_... or sk_test_..." },
          headerKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "The same key in an X-API-Key header" },
        },
        headers: {
          RetryAfter: { description: "Seconds to wait before trying again (the body's retry_after)", schema: { type: "integer", minimum: 0 }, example: 42 },
          IdempotentReplayed: {
            description: "true when this is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again)",
            schema: { type: "string", enum: ["true"] },
            example: "true",
          },
        },
        schemas,
        responses,
      },
    };
  }
}

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (VALIDATION_FAILED, with the field), a body that is not JSON (BAD_JSON), or a POST without Idempotency-Key",
  401: "Missing, unknown or revoked API key (UNAUTHORIZED)",
  402: "Insufficient balance (INSUFFICIENT_BALANCE)",
  404: "Not found, or not yours (NOT_FOUND)",
  409: "Price changed (PRICE_CHANGED, with price), wrong state (INVALID_STATE, CONFLICT), or the same Idempotency-Key still running",
  413: "Request body over 32 KB (PAYLOAD_TOO_LARGE)",
  422: "Idempotency-Key reused with another body, or not supported (UNPROCESSABLE)",
  429: "Rate limited (RATE_LIMITED, with retry_after and Retry-After)",
  502: "Upstream unavailable (the money is back already)",
  503: "No numbers in stock (NO_NUMBERS)",
  504: "Upstream timeout (the money is back already)",
};

/** One real answer per status, as the server words it (the document's examples). */
const ERROR_EXAMPLE: Record<number, { code: string; message: string; [k: string]: unknown }> = {
  400: { code: "VALIDATION_FAILED", message: "service is required", field: "service" },
  401: { code: "UNAUTHORIZED", message: "This API key is not valid or has been revoked." },
  402: { code: "INSUFFICIENT_BALANCE", message: "Insufficient balance. Please fund your wallet." },
  404: { code: "NOT_FOUND", message: "Order not found." },
  409: { code: "PRICE_CHANGED", message: "The price is ₦1450.00, above your max_price.", price: 1450 },
  413: { code: "PAYLOAD_TOO_LARGE", message: "Request body is too large (limit 32 KB)." },
  422: { code: "UNPROCESSABLE", message: "This Idempotency-Key was already used with a different request. Use a new key for a new request." },
  429: { code: "RATE_LIMITED", message: "Too many attempts. Please try again in 1 minute.", retry_after: 42 },
  502: { code: "UPSTREAM_UNAVAILABLE", message: "This provider is temporarily unavailable." },
  503: { code: "NO_NUMBERS", message: "No numbers available right now. Please try another service or country." },
  504: { code: "UPSTREAM_TIMEOUT", message: "The provider did not answer in time. Your money is back in your wallet." },
};
