import type { Hono } from "hono";
import type { MergeSchemaPath, Schema } from "hono/types";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { AdminApi } from "../../schema/admin-api";
import type { SandboxApi, WebApi } from "../../schema/web-api";
import type { nowPaymentsSandboxRoutes } from "../sandbox/nowpayments";
import type { accountSecurityRoutes } from "./account-security";
import type { accountRoutes } from "./accounts";
import type { adminRoutes } from "./admin";
import type { apiKeyRoutes } from "./api-keys";
import type { contentRoutes } from "./content";
import type { exportRoutes } from "./exports";
import type { healthRoutes } from "./health";
import type { orderRoutes } from "./orders";
import type { passkeyRoutes } from "./passkeys";
import type { realtimeRoutes } from "./realtime";
import type { rentalRoutes } from "./rentals";
import type { smsRoutes } from "./sms";
import type { statusRoutes } from "./status";
import type { transferRoutes } from "./transfers";
import type { walletRoutes } from "./wallet";

/**
 * The web's contract checked against the worker's own routes at compile time (issue 29, decision 043). Types only:
 * this module has no runtime code and nothing imports it; `tsc -b` (tsconfig.worker.json) checks it.
 *
 * `CustomerApi` is the schema Hono infers from the chained sub-apps app.ts mounts under /api for the customer's screens
 * (the path, the method, what `validate()` accepts, and every `c.json(...)` answer with its status). For each entry of
 * schema/web-api.ts `WebApi` it must hold that: the route exists with that method; its success answers (2xx JSON, or
 * a file's text is not typed by Hono) fit the declared `answer`, so the web reads no field the server does not send
 * with that type (a message the server types as its literal text fits `string`); the answer is a shape, never
 * `unknown`; a declared `body` (and `query`, where the route validates one) is what the route's validator accepts, and
 * a route that validates a JSON body has it declared.
 * A failure names the route: "Type 'true' is not assignable to type '"GET /api/x: ..."'".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Env: only the schema is read
type At<App, Base extends string = "/api"> = App extends Hono<any, infer S extends Schema, "/"> ? MergeSchemaPath<S, Base> : never;
export type CustomerApi = At<typeof healthRoutes> &
  At<typeof accountRoutes> &
  At<typeof accountSecurityRoutes> &
  At<typeof passkeyRoutes> &
  At<typeof contentRoutes> &
  At<typeof walletRoutes> &
  At<typeof transferRoutes> &
  At<typeof smsRoutes> &
  At<typeof statusRoutes> &
  At<typeof orderRoutes> &
  At<typeof rentalRoutes> &
  At<typeof exportRoutes> &
  At<typeof realtimeRoutes> &
  At<typeof apiKeyRoutes>;

/** The operator console's routes (app.ts mounts adminRoutes at /api/admin), checked against schema/admin-api.ts (decision 053). */
export type ConsoleApi = At<typeof adminRoutes, "/api/admin">;
/** The sandbox tool the web calls (only with sandbox providers): the simulated NOWPayments' own routes. */
type SandboxToolsApi = At<typeof nowPaymentsSandboxRoutes, "/sandbox/nowpayments">;

type Method<K> = K extends `${infer M} ${string}` ? `$${Lowercase<M>}` : never;
type PathOf<K> = K extends `${string} ${infer P}` ? P : never;

/** The worker's endpoint for a contract entry, or never when the path or the method is missing. */
type Endpoint<Api, K extends string> = PathOf<K> extends keyof Api ? (Method<K> extends keyof Api[PathOf<K>] ? Api[PathOf<K>][Method<K>] : never) : never;

/** What the route answers when it succeeds: its 2xx JSON (or text, for a file) outputs. */
type ServerAnswer<Api, K extends string> = Answered<Endpoint<Api, K>>;
// A `c.json(x)` without a status is typed with every status that has content, so "may be 2xx" is what counts.
type Answered<E> = E extends { status: infer S; outputFormat: "json" | "text"; output: infer O } ? ([Extract<S, SuccessStatusCode>] extends [never] ? never : O) : never;
type ServerBody<Api, K extends string> = Endpoint<Api, K> extends { input: { json: infer B } } ? B : never;
type ServerQuery<Api, K extends string> = Endpoint<Api, K> extends { input: { query: infer Q } } ? Q : never;

/** What the web sends must be what the route validates; a body the route validates must be declared. */
type RequestProblem<C extends Contract<C>, Api, K extends keyof C & string> = C[K] extends { body: infer Body }
  ? [Body] extends [ServerBody<Api, K>]
    ? QueryProblem<C, Api, K>
    : `${K}: the declared body is not what the route validates`
  : [ServerBody<Api, K>] extends [never]
    ? QueryProblem<C, Api, K>
    : `${K}: the route validates a JSON body the contract does not declare`;
// A query the route does not validate is the spec's ignored parameter (GET /api/level's user_id): only a validated one is compared.
type QueryProblem<C extends Contract<C>, Api, K extends keyof C & string> = C[K] extends { query: infer Query }
  ? [ServerQuery<Api, K>] extends [never]
    ? never
    : [Query] extends [ServerQuery<Api, K>]
      ? never
      : `${K}: the declared query is not what the route validates`
  : never;

type Problem<C extends Contract<C>, Api, K extends keyof C & string> = [Endpoint<Api, K>] extends [never]
  ? `${K}: no such route on the worker`
  : unknown extends C[K]["answer"]
    ? `${K}: the declared answer must be a shape, not unknown`
    : C[K] extends { text: true }
      ? RequestProblem<C, Api, K> // a file (text/csv) built as a Response: Hono does not type its text
      : [ServerAnswer<Api, K>] extends [C[K]["answer"]]
        ? RequestProblem<C, Api, K>
        : `${K}: the worker's answer is not the declared answer`;

/** A route map like schema/web-api.ts WebApi: each entry has its answer, and may have a body, a query, `text`. */
export type Contract<C> = { [K in keyof C]: { answer: unknown; body?: unknown; query?: unknown; text?: true } };

/**
 * The entries of a contract that do not hold against the worker's routes `Api` (the customer's by default), each with
 * what is wrong ({} when all hold).
 */
export type ContractProblems<C extends Contract<C>, Api = CustomerApi> = {
  [K in keyof C & string as [Problem<C, Api, K>] extends [never] ? never : K]: Problem<C, Api, K>;
};

/** Compiles only while every entry of the web's contract holds: the error lists each route that does not, and why. */
export const webContractHolds: ContractProblems<WebApi> = {};

/** The same for the operator console's contract against adminRoutes (decision 053). */
export const consoleContractHolds: ContractProblems<AdminApi, ConsoleApi> = {};
export const sandboxContractHolds: ContractProblems<SandboxApi, SandboxToolsApi> = {};
