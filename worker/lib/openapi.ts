import { z } from "zod";

/**
 * A small registry that turns the zod schemas of schema/api-v1.ts into an OpenAPI 3.1 document with zod 4's own
 * z.toJSONSchema (JSON Schema 2020-12, which OpenAPI 3.1 uses as is), so no generator library is needed and the
 * document is always the schemas the routes validate with (docs/decisions/011-developer-api.md).
 */
export interface OperationDoc {
  method: "get" | "post";
  /** OpenAPI style: /sms/orders/{id} */
  path: string;
  summary: string;
  description?: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  status?: number;
  /** Errors worth naming (the one error body). */
  errors?: number[];
}

export class OpenApiRegistry {
  readonly operations: OperationDoc[] = [];

  /** errorSchema: the one error body, named (it is every error answer's content). */
  constructor(private readonly errorSchema: z.ZodType) {}

  add(op: OperationDoc): void {
    this.operations.push(op);
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
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of this.operations) {
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
    const statuses = new Set(this.operations.flatMap((op) => [401, 429, ...(op.errors ?? [])]));
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
