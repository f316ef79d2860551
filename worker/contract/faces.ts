import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Env, Hono, Schema } from "hono";
import type * as accountSecurity from "./account-security";
import type * as admin from "./admin";
import type * as accounts from "./accounts";
import type * as apiKeys from "./api-keys";
import type * as content from "./content";
import type * as passkeys from "./passkeys";
import type * as rentals from "./rentals";
import type * as sandboxTools from "./sandbox-tools";
import type * as sms from "./sms";
import type * as wallet from "./wallet";

/**
 * The faces' API types, computed from the route definitions alone (docs/decisions/065): what Hono's typed client `hc`
 * needs to type every call the web makes (path, method, parameters, query, body, and each status's answer). The web
 * imports these with `import type` only (scripts/lint.ts), so its bundle holds no worker code and its type check reads
 * this folder (zod, @hono/zod-openapi, schema/) and nothing else of the worker.
 *
 * The type of one route is what `OpenAPIHono.openapi(route, handler)` itself computes, so the client's view and the
 * worker's handlers are held to the same definition: a handler that answers another shape does not compile, and a
 * definition whose answer changes changes what every caller reads.
 */

// A type-only instance (nothing is emitted): `typeof _app.openapi<R>` is the library's own computation of one route's schema.
declare const _app: OpenAPIHono;
type RouteSchema<R extends RouteConfig> = ReturnType<typeof _app.openapi<R>> extends OpenAPIHono<infer _Env, infer S> ? S : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every route definition a contract module exports, as one Hono schema (paths relative to where it is mounted). */
export type SchemaOf<Module> = Intersection<{ [K in keyof Module]: Module[K] extends RouteConfig ? RouteSchema<Module[K]> : never }[keyof Module]>;

/** An app type `hc<...>()` reads: only its schema counts. */
export type ApiOf<S> = S extends Schema ? Hono<Env, S, "/"> : never;

/** The customer's screens: everything app.ts mounts at /api for them (the client's base is /api). */
export type CustomerApi = ApiOf<
  SchemaOf<typeof accounts> &
    SchemaOf<typeof accountSecurity> &
    SchemaOf<typeof passkeys> &
    SchemaOf<typeof content> &
    SchemaOf<typeof wallet> &
    SchemaOf<typeof sms> &
    SchemaOf<typeof rentals> &
    SchemaOf<typeof apiKeys>
>;

/** The operator console: adminRoutes, mounted at /api/admin (the console's client base). */
export type ConsoleApi = ApiOf<SchemaOf<typeof admin>>;

/** The sandbox tools the web calls (only with sandbox providers), mounted at /sandbox/nowpayments. */
export type SandboxToolsApi = ApiOf<SchemaOf<typeof sandboxTools>>;
