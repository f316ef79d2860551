// @vitest-environment node
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "./local-env";

// Decision 065 (after 043 and 053): the web reads answers only as the routes' definitions type them, through Hono's typed
// client. eslint.config.js holds that in web/ (no cast to a promise, no double cast, no type argument on a request's
// reading or a query hook) and, in the data layers web/api and web/admin, no type assertion at all. These run the
// project's own config on small sources placed in those folders.
const eslint = new ESLint({ cwd: root });
async function findings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.line}`);
}

describe("the web's typed-client rules (eslint.config.js)", () => {
  // Loading the config, its plugins and the TypeScript parser is setup (seconds on a busy machine), not what is tested.
  beforeAll(() => findings("web/api/warm-up.ts", "export {};\n"), 60_000);

  it("refuses the old unchecked shapes anywhere in web/: a cast answer, a double cast, an answer named at the call", async () => {
    const code = [
      'import { useQuery } from "@tanstack/react-query";',
      "declare function request(path: string): Promise<unknown>;",
      "export const get = <T,>(path: string) => request(path) as Promise<T>;",
      "export const odd = (v: string) => v as unknown as number;",
      'export const useThing = () => useQuery<{ data: string[] }>({ queryKey: ["thing"], queryFn: () => get<{ data: string[] }>("/api/thing") });',
      "",
    ].join("\n");
    expect(await findings("web/components/probe.tsx", code)).toEqual(["no-restricted-syntax: 3", "no-restricted-syntax: 4", "no-restricted-syntax: 5"]);
  });

  it("refuses any type assertion in the console's and the customer's data layers, and allows `as const`", async () => {
    const code = [
      "declare const answer: unknown;",
      "export const row = answer as { id: string };",
      'export const kinds = ["a", "b"] as const;',
      "",
    ].join("\n");
    expect(await findings("web/admin/pages/probe.tsx", code)).toEqual(["@typescript-eslint/consistent-type-assertions: 2"]);
    expect(await findings("web/api/probe.ts", code)).toEqual(["@typescript-eslint/consistent-type-assertions: 2"]);
  });

  it("refuses an answer type named on its reading", async () => {
    const code = ['import { json, signedIn } from "./client";', "export const balance = () => signedIn.orders.$get().then(json<{ balance: number }>);", ""].join("\n");
    expect(await findings("web/api/probe.ts", code)).toEqual(["no-restricted-syntax: 2"]);
  });

  it("accepts a call through the typed client with no type named", async () => {
    const code = [
      'import { json, pathParams } from "../../api/client";',
      'import { admin } from "../api";',
      'export const load = (id: string) => admin.reviews[":id"].$get({ param: pathParams({ id }) }).then(json).then((r) => r.review.status);',
      "",
    ].join("\n");
    expect(await findings("web/admin/pages/probe.tsx", code)).toEqual([]);
  });
});
