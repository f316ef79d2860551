import type { Env, Hono, Schema } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import type { z } from "zod";
import type * as accountSecurity from "./account-security";
import type * as admin from "./admin";
import type * as accounts from "./accounts";
import type * as apiKeys from "./api-keys";
import type * as content from "./content";
import type * as notifications from "./notifications";
import type * as passkeys from "./passkeys";
import type * as rentals from "./rentals";
import type * as resellers from "./resellers";
import type * as sandboxTools from "./sandbox-tools";
import type * as sms from "./sms";
import type * as telegram from "./telegram";
import type * as wallet from "./wallet";
import type * as withdrawals from "./withdrawals";

/**
 * The faces' API types, computed from the route definitions alone (docs/decisions/065): what Hono's typed client `hc`
 * needs to type every call the web makes (path, method, parameters, query, body, and each status's answer). The web
 * imports these with `import type` only (scripts/lint.ts), so its bundle holds no worker code and its type check reads
 * this folder (zod, Hono's types, schema/) and nothing else of the worker.
 *
 * A route's endpoint is what `OpenAPIHono.openapi(route, handler)` computes for it (its input as the validators take
 * it, its answer per declared status as the handler's `c.json()` must type it), written out here directly:
 * the library's own computation re-checks every definition against its RouteConfig type, which made the web's type
 * check about twice as long. worker/contract/definitions.test.ts holds the two equal for every definition.
 */

/** A definition's path as Hono routes it: /sms/status/{request_id} is /sms/status/:request_id. */
type RoutedPath<P extends string> = P extends `${infer Head}{${infer Name}}${infer Tail}` ? `${Head}:${Name}${RoutedPath<Tail>}` : P;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Hono's own "no input" ({} intersects away)
type Nothing = {};
type Validated<R, Part extends string, Target extends string> = R extends { request: { [K in Part]: infer S extends z.ZodType } } ? { [T in Target]: z.input<S> } : Nothing;
type JsonBody<R> = R extends { request: { body: { content: { "application/json": { schema: infer S extends z.ZodType } } } } } ? { json: z.input<S> } : Nothing;
/** What a call sends: path parameters, query and JSON body, each as its schema's input. */
export type InputOf<R> = Validated<R, "params", "param"> & Validated<R, "query", "query"> & JsonBody<R>;
/**
 * One endpoint per declared status: a JSON answer as the handler's c.json() types it; a file (the CSV exports) or a page
 * is a built Response, whatever its status, and the web reads its text.
 */
export type EndpointsOf<R> = R extends { responses: infer Statuses }
  ? {
      [S in keyof Statuses & number]: Statuses[S] extends { content: { "application/json": { schema: infer A extends z.ZodType } } }
        ? { input: InputOf<R>; output: JSONParsed<z.output<A>>; outputFormat: "json"; status: S }
        : { input: InputOf<R>; output: Response; outputFormat: "json"; status: StatusCode };
    }[keyof Statuses & number]
  : never;
type RouteSchema<R> = R extends { method: infer M extends string; path: infer P extends string } ? { [Path in RoutedPath<P>]: { [Method in `$${M}`]: EndpointsOf<R> } } : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every route definition a contract module exports, as one Hono schema (paths relative to where it is mounted). */
export type SchemaOf<Module> = Intersection<{ [K in keyof Module]: Module[K] extends { method: string; path: string; responses: object } ? RouteSchema<Module[K]> : never }[keyof Module]>;

/** An app type `hc<...>()` reads: only its schema counts. */
export type ApiOf<S> = S extends Schema ? Hono<Env, S, "/"> : never;

/** The customer's screens: everything app.ts mounts at /api for them (the client's base is /api). */
export type CustomerApi = ApiOf<
  SchemaOf<typeof accounts> &
    SchemaOf<typeof accountSecurity> &
    SchemaOf<typeof passkeys> &
    SchemaOf<typeof content> &
    SchemaOf<typeof wallet> &
    SchemaOf<typeof withdrawals> &
    SchemaOf<typeof sms> &
    SchemaOf<typeof rentals> &
    SchemaOf<typeof apiKeys> &
    SchemaOf<typeof telegram> &
    SchemaOf<typeof notifications> &
    SchemaOf<typeof resellers>
>;

/** The operator console: adminRoutes, mounted at /api/admin (the console's client base). */
export type ConsoleApi = ApiOf<SchemaOf<typeof admin>>;

/** The sandbox tools the web calls (only with sandbox providers), mounted at /sandbox/nowpayments. */
export type SandboxToolsApi = ApiOf<SchemaOf<typeof sandboxTools>>;
