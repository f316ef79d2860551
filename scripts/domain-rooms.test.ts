import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { roomCrossings } from "./domain-rooms";
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

  it("the repository keeps it", () => {
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir)).flatMap((name) => {
        if (name === "node_modules" || name === "dist") return [];
        const rel = path.join(dir, name);
        if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
        return /\.(ts|tsx)$/.test(name) ? [rel] : [];
      });
    expect(roomCrossings(["worker", "scripts", "bench", "e2e"].flatMap(walk), root)).toEqual([]);
  });
});
