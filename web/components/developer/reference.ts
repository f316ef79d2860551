/**
 * Reads the OpenAPI 3.1 document the worker generates (GET /api/v1/openapi.json) into what the reference page shows,
 * and writes the copyable curl and JavaScript examples for each operation. Pure functions: tested without a browser.
 */

type Json = Record<string, unknown>;

export interface Param {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  type: string;
}

export type Method = "get" | "post" | "put" | "delete";
const METHODS: readonly string[] = ["get", "post", "put", "delete"];

export interface Operation {
  id: string;
  method: Method;
  path: string;
  summary: string;
  description?: string;
  params: Param[];
  /** The request body's fields (JSON), when there is one. */
  body: { name: string; required: boolean; type: string; description?: string }[] | null;
  responses: { status: string; description: string }[];
  /** The smallest working body, for the examples. */
  example: Json | null;
}

export interface Reference {
  title: string;
  description: string;
  baseUrl: string;
  operations: Operation[];
}

function typeOf(schema: Json | undefined): string {
  if (!schema) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(" | ");
  // OpenAPI 3.1 writes "or null" as a list of types: ["string", "null"].
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return typeof schema.type === "string" ? schema.type : "object";
}

function deref(doc: Json, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema;
  const parts = ref.replace(/^#\//, "").split("/");
  let node: unknown = doc;
  for (const p of parts) node = (node as Json | undefined)?.[p];
  return node as Json | undefined;
}

export function readReference(doc: Json): Reference {
  const info = (doc.info ?? {}) as Json;
  const servers = (doc.servers ?? []) as Json[];
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.includes(method)) continue;
      const bodySchema = deref(doc, ((op.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined);
      const schema = deref(doc, bodySchema?.schema as Json | undefined);
      const required = new Set((schema?.required as string[] | undefined) ?? []);
      const properties = (schema?.properties ?? {}) as Record<string, Json>;
      operations.push({
        id: String(op.operationId ?? `${method}${path}`),
        method: method as Method,
        path,
        summary: String(op.summary ?? ""),
        description: typeof op.description === "string" ? op.description : undefined,
        params: ((op.parameters ?? []) as Json[]).map((p) => ({
          name: String(p.name),
          in: p.in as Param["in"],
          required: Boolean(p.required),
          description: typeof p.description === "string" ? p.description : undefined,
          type: typeOf(p.schema as Json | undefined),
        })),
        body: schema
          ? Object.entries(properties).map(([name, s]) => ({
              name,
              required: required.has(name),
              type: typeOf(s),
              description: typeof s.description === "string" ? s.description : undefined,
            }))
          : null,
        responses: Object.entries((op.responses ?? {}) as Record<string, Json>).map(([status, r]) => ({
          status,
          description: String(deref(doc, r)?.description ?? ""),
        })).sort((a, b) => a.status.localeCompare(b.status)),
        example: schema ? exampleBody(schema) : null,
      });
    }
  }
  return {
    title: String(info.title ?? "API reference"),
    description: String(info.description ?? ""),
    baseUrl: String(servers[0]?.url ?? "/api/v1"),
    operations,
  };
}

/** The smallest body that works: the required fields, each with its documented example or a plausible value. */
function exampleBody(schema: Json): Json {
  const out: Json = {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    if (!required.has(name)) continue;
    const examples = s.examples as unknown[] | undefined;
    if (examples?.length) out[name] = examples[0];
    else if (Array.isArray(s.enum)) out[name] = s.enum[0];
    else if (s.type === "integer" || s.type === "number") out[name] = typeof s.minimum === "number" ? s.minimum : 1;
    else if (s.type === "boolean") out[name] = true;
    else out[name] = name;
  }
  return out;
}

const PATH_PLACEHOLDER: Record<string, string> = { id: "ORDER_ID" };

function concretePath(op: Operation): string {
  const rentals = op.path.startsWith("/rentals");
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (rentals && name === "id" ? "RENTAL_ID" : (PATH_PLACEHOLDER[name] ?? name.toUpperCase())));
}

/** Methods that send a JSON body (POST always, with an Idempotency-Key; PUT with its own). */
const sendsBody = (op: Operation) => op.method === "post" || (op.method === "put" && op.example !== null);

/** curl, with the key from $VNUM_KEY and a fresh Idempotency-Key on POSTs. */
export function curlExample(ref: Reference, op: Operation): string {
  const body = op.example;
  const verb = op.method === "get" ? "" : ` -X ${op.method.toUpperCase()}`;
  const lines = [`curl${verb} "${ref.baseUrl}${concretePath(op)}"`, `  -H "Authorization: Bearer $VNUM_KEY"`];
  if (op.method === "post") lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
  if (sendsBody(op)) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d '${JSON.stringify(body ?? {})}'`);
  }
  return lines.join(" \\\n");
}

/** fetch() from Node 18+ or a browser extension; the key from process.env.VNUM_KEY. */
export function jsExample(ref: Reference, op: Operation): string {
  const body = op.example;
  const headers = ['    Authorization: `Bearer ${process.env.VNUM_KEY}`,'];
  if (op.method === "post") headers.push('    "Idempotency-Key": crypto.randomUUID(), // reuse it when you retry this same request');
  if (sendsBody(op)) headers.push('    "Content-Type": "application/json",');
  return [
    `const res = await fetch("${ref.baseUrl}${concretePath(op)}", {`,
    ...(op.method !== "get" ? [`  method: "${op.method.toUpperCase()}",`] : []),
    "  headers: {",
    ...headers,
    "  },",
    ...(sendsBody(op) ? [`  body: JSON.stringify(${JSON.stringify(body ?? {})}),`] : []),
    "});",
    "const data = await res.json();",
    "if (!res.ok) throw new Error(`${data.code}: ${data.message}`);",
  ].join("\n");
}
