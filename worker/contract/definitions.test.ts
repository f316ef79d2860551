import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createApp } from "../app";
import * as accountSecurity from "./account-security";
import * as accounts from "./accounts";
import * as admin from "./admin";
import * as apiKeys from "./api-keys";
import * as content from "./content";
import type { SchemaOf } from "./faces";
import * as legacyClient from "./legacy-client";
import * as notifications from "./notifications";
import * as passkeys from "./passkeys";
import * as rentals from "./rentals";
import * as resellers from "./resellers";
import * as sandboxTools from "./sandbox-tools";
import * as sms from "./sms";
import * as telegram from "./telegram";
import * as wallet from "./wallet";
import * as withdrawals from "./withdrawals";

// Decision 065: the web's client is typed from these definitions alone (faces.ts), so a definition no route serves would
// be a call the web can make and the worker 404s. Each is served, at its face's mount point, with its method; and every
// JSON route the app serves under those mount points has a definition (the developer API's are held by its document's
// test, worker/routes/api-v1.test.ts).
const MOUNTED: [string, object][] = [
  ["/api", accounts],
  ["/api", accountSecurity],
  ["/api", passkeys],
  ["/api", content],
  ["/api", wallet],
  ["/api", withdrawals],
  ["/api", sms],
  ["/api", rentals],
  ["/api", apiKeys],
  ["/api", notifications],
  ["/api", resellers],
  ["/api", telegram],
  ["/api/admin", admin],
  ["/sandbox/nowpayments", sandboxTools],
  ["/sms", legacyClient],
];

const isDefinition = (value: unknown): value is RouteConfig =>
  typeof value === "object" && value !== null && "method" in value && "path" in value && "responses" in value;

describe("the route definitions the faces' types are computed from", () => {
  it("are each served by the app at their face's mount point, and each face's route has one", () => {
    const served = new Set(createApp().routes.map((r) => `${r.method} ${r.path}`));
    const defined = MOUNTED.flatMap(([base, module]) =>
      Object.values(module)
        .filter(isDefinition)
        .map((d) => `${d.method.toUpperCase()} ${base}${d.path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    expect(defined.length).toBeGreaterThan(100);
    expect(defined.filter((route) => !served.has(route)), "defined but not served").toEqual([]);
    // The other way: every route under the faces' prefixes but the provider webhooks, the developer API and the sandbox
    // simulators (which speak other parties' protocols) has a definition.
    const faceRoutes = [...served].filter(
      (route) =>
        /^(GET|POST|PUT|PATCH|DELETE) \/(api|sandbox\/nowpayments|sms)\//.test(route) &&
        !/ \/api\/(v1|webhooks)\//.test(route) &&
        // Telegram's webhook speaks the Bot API's protocol (routes/telegram.ts), like the providers' webhooks.
        route !== "POST /api/telegram/webhook" &&
        !/ \/sandbox\/nowpayments-api\//.test(route),
    );
    expect(faceRoutes.length).toBeGreaterThan(100);
    expect(faceRoutes.filter((route) => !defined.includes(route)), "served without a definition").toEqual([]);
  });
});

// faces.ts writes out what OpenAPIHono.openapi() computes for a definition (so the web's type check need not run the
// library's computation): here, in the worker's check, the library's own result for every definition must equal it.
declare const _app: OpenAPIHono;
type LibrarySchema<R extends RouteConfig> = ReturnType<typeof _app.openapi<R>> extends OpenAPIHono<infer _Env, infer S> ? S : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type LibrarySchemaOf<Module> = Intersection<{ [K in keyof Module]: Module[K] extends RouteConfig ? LibrarySchema<Module[K]> : never }[keyof Module]>;

describe("the faces' types (faces.ts)", () => {
  it("equal what @hono/zod-openapi computes for each definition: inputs, answers, statuses", () => {
    expectTypeOf<SchemaOf<typeof accounts>>().toEqualTypeOf<LibrarySchemaOf<typeof accounts>>();
    expectTypeOf<SchemaOf<typeof accountSecurity>>().toEqualTypeOf<LibrarySchemaOf<typeof accountSecurity>>();
    expectTypeOf<SchemaOf<typeof passkeys>>().toEqualTypeOf<LibrarySchemaOf<typeof passkeys>>();
    expectTypeOf<SchemaOf<typeof content>>().toEqualTypeOf<LibrarySchemaOf<typeof content>>();
    expectTypeOf<SchemaOf<typeof wallet>>().toEqualTypeOf<LibrarySchemaOf<typeof wallet>>();
    expectTypeOf<SchemaOf<typeof sms>>().toEqualTypeOf<LibrarySchemaOf<typeof sms>>();
    expectTypeOf<SchemaOf<typeof rentals>>().toEqualTypeOf<LibrarySchemaOf<typeof rentals>>();
    expectTypeOf<SchemaOf<typeof apiKeys>>().toEqualTypeOf<LibrarySchemaOf<typeof apiKeys>>();
    expectTypeOf<SchemaOf<typeof notifications>>().toEqualTypeOf<LibrarySchemaOf<typeof notifications>>();
    expectTypeOf<SchemaOf<typeof admin>>().toEqualTypeOf<LibrarySchemaOf<typeof admin>>();
    expectTypeOf<SchemaOf<typeof sandboxTools>>().toEqualTypeOf<LibrarySchemaOf<typeof sandboxTools>>();
  });
});
