import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./local-env";
import { contractImports, webWorkerImports } from "./web-imports";

// Decision 065: "web imports worker types only" (it was "web never imports worker"), and the route definitions the web's
// type check reads import nothing else of the worker.
describe("the web takes only types from the worker (scripts/lint.ts)", () => {
  it("allows `import type` of the faces' API types, and refuses a value import, another worker module, a re-export", () => {
    expect(webWorkerImports("web/api/client.ts", 'import type { CustomerApi } from "../../worker/contract/faces";')).toEqual([]);
    expect(webWorkerImports("web/admin/api.ts", 'import type {\n  ConsoleApi,\n} from "../../worker/contract/faces.ts";')).toEqual([]);
    expect(webWorkerImports("web/api/client.ts", 'import { CustomerApi } from "../../worker/contract/faces";')).toHaveLength(1);
    expect(webWorkerImports("web/api/sms.ts", 'import type { SmsDeps } from "../../worker/services/kernel";')).toHaveLength(1);
    expect(webWorkerImports("web/api/sms.ts", 'import type * as sms from "../../worker/contract/sms";')).toHaveLength(1);
    expect(webWorkerImports("web/lib/x.ts", 'export { errorBody } from "../../worker/lib/errors";')).toHaveLength(1);
    expect(webWorkerImports("web/lib/x.ts", 'type T = import("../../worker/app").App;')).toHaveLength(1);
    // schema/ stays the web's to import.
    expect(webWorkerImports("web/api/sms.ts", 'import type { SmsStatusResponse } from "../../schema/sms";')).toEqual([]);
  });

  it("keeps the route definitions to zod, Hono and schema/", () => {
    expect(contractImports("worker/contract/sms.ts", 'import { createRoute } from "@hono/zod-openapi";\nimport { smsOrderRefSchema } from "../../schema/sms";\nimport { answer } from "./kit";')).toEqual([]);
    expect(contractImports("worker/contract/sms.ts", 'import { requireAuth } from "../middleware/auth";')).toHaveLength(1);
    expect(contractImports("worker/contract/sms.ts", 'import { drizzle } from "drizzle-orm/d1";')).toHaveLength(1);
  });

  it("the repository keeps both", () => {
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir)).flatMap((name) => {
        if (name === "node_modules" || name === "dist") return [];
        const rel = path.posix.join(dir, name);
        if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
        return /\.tsx?$/.test(name) ? [rel] : [];
      });
    const read = (f: string) => readFileSync(path.join(root, f), "utf8");
    const web = walk("web");
    expect(web.flatMap((f) => webWorkerImports(f, read(f)))).toEqual([]);
    // It looked at the files that do import the faces' types.
    expect(web.filter((f) => read(f).includes("worker/contract/faces"))).toEqual(expect.arrayContaining(["web/api/client.ts", "web/admin/api.ts"]));
    expect(walk("worker/contract").flatMap((f) => contractImports(f, read(f)))).toEqual([]);
  });
});
