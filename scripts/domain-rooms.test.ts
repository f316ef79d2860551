import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { honoInServices, roomCrossings } from "./domain-rooms";
import { root } from "./local-env";

describe("domain rooms rule (scripts/lint.ts)", () => {
  const crossingsOf = (sources: Record<string, string>) =>
    roomCrossings(Object.keys(sources), "/virtual", (f) => sources[f], (p) => p.replace(/^\/virtual\//, "") in sources);

  it("lets siblings import each other and everyone else import a room's index, value, type and inline type imports alike", () => {
    expect(
      crossingsOf({
        "worker/services/kernel/index.ts": 'export { postEntry } from "./ledger";',
        "worker/services/kernel/ledger.ts": 'import { getDb } from "../../db/client";',
        "worker/services/sms/index.ts": 'export { buy } from "./orders";',
        "worker/services/sms/orders.ts": 'import { postEntry } from "../kernel";\nimport type { Row } from "./views";',
        "worker/services/sms/views.ts": "export type Row = { id: string };",
        "worker/routes/sms.ts": 'import { buy } from "../services/sms";\ntype T = import("../services/kernel").X;',
        "worker/db/client.ts": "export const getDb = 1;",
      }),
    ).toEqual([]);
  });

  it("each room owns its tables: the schema's re-export and a foreign key read table files; a service reads its own and asks other rooms (issue 42)", () => {
    const sources = {
      "worker/db/tables.ts": 'export * from "../services/kernel/tables";\nexport * from "../services/funding/tables";',
      "worker/services/kernel/index.ts": 'export { users } from "./tables";',
      "worker/services/kernel/tables.ts": "export const users = 1;",
      "worker/services/funding/index.ts": 'export { listDeposits } from "./views";',
      "worker/services/funding/tables.ts": 'import { users } from "../kernel/tables";\nexport const payments = users;',
      "worker/services/funding/views.ts": 'import { payments } from "./tables";\nimport { users } from "../kernel";',
      "worker/services/console/overview.ts": 'import { payments } from "../funding/tables";\nimport { users } from "../../db/tables";\nimport { listDeposits } from "../funding";',
      "worker/services/console/overview.test.ts": 'import { payments } from "../../db/tables";',
    };
    expect(crossingsOf(sources)).toEqual([
      'worker/services/console/overview.ts: imports worker/services/funding/tables.ts, past the funding room\'s index (import "worker/services/funding" and export what you need from its index.ts)',
      "worker/services/console/overview.ts: imports worker/db/tables.ts; a room reads its own tables (./tables) and the kernel's (its index), and asks another room through that room's index (decision 062)",
    ]);
  });

  it("refuses a deep import from another room, from outside the rooms, a room importing its own index, and a loose service", () => {
    expect(
      crossingsOf({
        "worker/services/kernel/index.ts": 'export { postEntry } from "./ledger";',
        "worker/services/kernel/ledger.ts": "export const postEntry = 1;",
        "worker/services/sms/index.ts": 'export { buy } from "./orders";',
        "worker/services/sms/orders.ts": 'import {\n  postEntry,\n} from "../kernel/ledger";\nimport { buy } from ".";',
        "worker/routes/sms.ts": 'import type { Row } from "../services/sms/orders";',
        "worker/test/helpers.ts": 'export { postEntry } from "../services/kernel/ledger";',
        "worker/services/loose.ts": "export const x = 1;",
      }),
    ).toEqual([
      'worker/services/sms/orders.ts: imports worker/services/kernel/ledger.ts, past the kernel room\'s index (import "worker/services/kernel" and export what you need from its index.ts)',
      "worker/services/sms/orders.ts: imports its own room's index; a file inside sms/ imports its siblings directly",
      'worker/routes/sms.ts: imports worker/services/sms/orders.ts, past the sms room\'s index (import "worker/services/sms" and export what you need from its index.ts)',
      'worker/test/helpers.ts: imports worker/services/kernel/ledger.ts, past the kernel room\'s index (import "worker/services/kernel" and export what you need from its index.ts)',
      "worker/services/loose.ts: a service lives in its domain's room (worker/services/<room>/), not loose in services/",
    ]);
  });

  it("allows app-env.ts its type-only names and the node CLI a runtime-free file, and nothing more", () => {
    const sources = {
      "worker/services/accounts/sessions.ts": 'import { getDb } from "../../db/client";\nexport type SignedInUser = { id: string };',
      "worker/services/sms/stats.ts": 'import { REFUNDED } from "../../../schema/constants";\nimport type { Env } from "../../config";',
      "worker/services/sms/orders.ts": 'import { getDb } from "../../db/client";',
      "worker/app-env.ts": 'import type { SignedInUser } from "./services/accounts/sessions";',
      "scripts/admin.ts": 'import { summarise } from "../worker/services/sms/stats";\nimport { buy } from "../worker/services/sms/orders";',
      "worker/middleware/auth.ts": 'import type { SignedInUser } from "../services/accounts/sessions";',
      "worker/db/client.ts": "export const getDb = 1;",
      "worker/config.ts": "export type Env = object;",
      "schema/constants.ts": "export const REFUNDED = [];",
    };
    expect(crossingsOf(sources)).toEqual([
      expect.stringMatching(/^scripts\/admin\.ts: imports worker\/services\/sms\/orders\.ts, past the sms room's index/),
      expect.stringMatching(/^worker\/middleware\/auth\.ts: imports worker\/services\/accounts\/sessions\.ts, past the accounts room's index/),
    ]);
    expect(crossingsOf({ ...sources, "worker/app-env.ts": 'import { SignedInUser } from "./services/accounts/sessions";' })).toContainEqual(
      expect.stringMatching(/^worker\/app-env\.ts: imports worker\/services\/accounts\/sessions\.ts/),
    );
  });

  describe("no service imports hono (decision 056)", () => {
    const honoOf = (sources: Record<string, string>) =>
      honoInServices(Object.keys(sources), "/virtual", (f) => sources[f], (p) => p.replace(/^\/virtual\//, "") in sources);

    it("refuses hono under worker/services/: values, types, subpaths, @hono/ packages, re-exports, inline types and app-env.ts", () => {
      expect(
        honoOf({
          "worker/services/accounts/accounts.ts": 'import type { Context } from "hono";\nexport const a = 1;',
          "worker/services/accounts/sign-in.ts": 'import {\n  HTTPException,\n} from "hono/http-exception";',
          "worker/services/console/commands.ts": 'import { createFactory } from "hono/factory";\nimport { zValidator } from "@hono/zod-validator";',
          "worker/services/console/index.ts": 'export type { Context } from "hono";',
          "worker/services/kernel/deps.ts": 'type C = import("hono").Context;\nconst lazy = () => import("hono/cookie");',
          "worker/services/sms/orders.test.ts": 'import { Hono } from "hono";',
          "worker/services/rent/rentals.ts": 'import type { AppEnv } from "../../app-env";',
          "worker/app-env.ts": "export type AppEnv = object;",
        }),
      ).toEqual([
        'worker/services/accounts/accounts.ts: imports "hono"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/accounts/sign-in.ts: imports "hono/http-exception"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/console/commands.ts: imports "hono/factory"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/console/commands.ts: imports "@hono/zod-validator"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/console/index.ts: imports "hono"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/kernel/deps.ts: imports "hono"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/kernel/deps.ts: imports "hono/cookie"; a service takes plain inputs and its route does the Hono part (decision 056)',
        'worker/services/sms/orders.test.ts: imports "hono"; a service takes plain inputs and its route does the Hono part (decision 056)',
        "worker/services/rent/rentals.ts: imports worker/app-env.ts (Hono's environment); a service takes plain inputs and its route does the Hono part (decision 056)",
      ]);
    });

    it("leaves routes, middleware and app-env.ts their Hono, and a service its look-alike names", () => {
      expect(
        honoOf({
          "worker/routes/accounts.ts": 'import { Hono, type Context } from "hono";\nimport type { AppEnv } from "../app-env";',
          "worker/middleware/auth.ts": 'import { createMiddleware } from "hono/factory";',
          "worker/routes/flow-deps.ts": 'import type { Context } from "hono";',
          "worker/app-env.ts": 'import type { Env } from "./config";',
          "worker/config.ts": "export type Env = object;",
          "worker/services/kernel/request-deps.ts": 'import type { Env } from "../../config";\n// The route (which imports hono) builds this.',
          "worker/services/sms/orders.ts": 'import { honor } from "./hono-ish";\nimport { x } from "honorific";\nconst s = "hono";',
          "worker/services/sms/hono-ish.ts": "export const honor = 1;",
        }),
      ).toEqual([]);
    });
  });

  it("the repository keeps it", () => {
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir)).flatMap((name) => {
        if (name === "node_modules" || name === "dist") return [];
        const rel = path.join(dir, name);
        if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
        return /\.(ts|tsx)$/.test(name) ? [rel] : [];
      });
    expect(roomCrossings(["worker", "scripts", "bench", "e2e"].flatMap(walk), root)).toEqual([]);
    expect(honoInServices(walk("worker/services"), root)).toEqual([]);
  });
});
