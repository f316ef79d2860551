import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";

/**
 * The pieces every route definition is made of (docs/decisions/065-route-definitions-and-typed-client.md). A definition is a
 * `createRoute({...})` of @hono/zod-openapi: method, path, the zod schemas of what the route takes (validated before its
 * handler runs) and what it answers per status. The routes (worker/routes/*.ts) attach a handler to each with
 * `.openapi(definition, handler)`, which refuses at compile time an answer the definition does not declare; the web
 * types its calls from the same definitions (worker/contract/faces.ts). This folder imports zod, @hono/zod-openapi and
 * schema/ only, so the web's type check reads it without any worker code (scripts/lint.ts).
 */

/** What a definition is made of, as far as this folder needs to know (the library's RouteConfig says the rest). */
interface RouteShape {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  request?: object;
  responses: object;
}

/**
 * `createRoute` of @hono/zod-openapi (the same function: it adds `getRoutingPath()`), with a lighter type. Its own type
 * checks every definition against the library's RouteConfig where it is written, and the web's type check reads this
 * folder too: comparing each zod schema with RouteConfig's ZodType doubled the web's check time. A definition is still
 * checked against RouteConfig once, where the worker attaches its handler (`.openapi(definition, handler)`).
 */
export const route = createRoute as unknown as <const R extends RouteShape>(definition: R) => R & { getRoutingPath(): string };

/** A JSON body the route validates (required: a body that is not JSON, or absent, is refused, never read as `{}` silently). */
export function jsonBody<S extends z.ZodType>(schema: S, description?: string) {
  return { required: true, ...(description ? { description } : {}), content: { "application/json": { schema } } };
}

/**
 * A JSON answer typed `T`, a schema/ interface the worker builds (view return types, `satisfies`) and the web reads.
 * The customer's and the operator's faces describe their answers this way: their shape is a TypeScript type, not a
 * published document (the developer API's answers are zod schemas with examples: worker/contract/api-v1.ts).
 */
export function answer<T>(description = "OK") {
  return { description, content: { "application/json": { schema: z.custom<T>() } } };
}

/** A file answered as its text (the CSV exports): the handler builds the Response, the web reads its text. */
export function csvAnswer(description: string) {
  return { description, content: { "text/csv": { schema: z.string() } } };
}
