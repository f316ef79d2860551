import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "./import-cycles";
import { root } from "./local-env";

describe("import cycle detector (scripts/lint.ts)", () => {
  const graphOf = (sources: Record<string, string>) =>
    importGraph(Object.keys(sources), "/virtual", (f) => sources[f], (p) => p.replace(/^\/virtual\//, "") in sources);

  it("finds a circle of value, type-only and inline type imports, and nothing in a tree", () => {
    const graph = graphOf({
      "worker/a.ts": 'import { b } from "./b";',
      "worker/b.ts": 'import type { C } from "./lib/c";',
      "worker/lib/c.ts": 'export type C = import("../a").A;',
      "worker/d.ts": 'import { a } from "./a";\nimport { z } from "zod";',
    });
    expect(importCycles(graph)).toEqual([["worker/a.ts", "worker/b.ts", "worker/lib/c.ts"]]);
    graph.set("worker/lib/c.ts", []);
    expect(importCycles(graph)).toEqual([]);
  });

  it("the repository has none", async () => {
    const { readdirSync, statSync } = await import("node:fs");
    const path = await import("node:path");
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir)).flatMap((name) => {
        if (name === "node_modules" || name === "dist") return [];
        const rel = path.join(dir, name);
        if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
        return /\.(ts|tsx)$/.test(name) ? [rel] : [];
      });
    expect(importCycles(importGraph(["worker", "web", "schema"].flatMap(walk), root))).toEqual([]);
  });
});
