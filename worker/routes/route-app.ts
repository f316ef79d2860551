import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { refuseInvalid } from "../lib/validate";

/**
 * A resource's sub-app: routes are attached to their definitions (worker/contract/) with `.openapi(definition,
 * handler)`, which validates what the definition declares before the handler runs (bad input: 400 in the one error
 * body, lib/validate.ts) and refuses at compile time an answer the definition does not declare.
 */
/**
 * A resource's routes as app.ts mounts them. Their schema type is not carried out of their module: nothing reads it
 * (the web's types come from the definitions, worker/contract/faces.ts), and merging every sub-app's schema into the
 * app's was the most expensive part of the worker's type check.
 */
export type RouteApp = OpenAPIHono<AppEnv>;

export function routeApp() {
  return new OpenAPIHono<AppEnv>({ defaultHook: refuseInvalid });
}

/**
 * A definition with the middleware that runs before its validation (sign-in, a rate limit): the contract says what a
 * route takes and answers, the route module how it is guarded. `.openapi(guarded(def, requireAuth), handler)`.
 */
export function guarded<R extends object>(definition: R, ...middleware: MiddlewareHandler<AppEnv>[]): R & { middleware: MiddlewareHandler<AppEnv>[] } {
  return { ...definition, middleware };
}
