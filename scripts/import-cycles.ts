import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Import cycles among the project's own modules (relative imports, `import type` and inline `import("…")` types
 * included: a type-only circle still ties the modules' meaning together). Tarjan's strongly connected components over
 * the import graph; every component of two or more files, or a file importing itself, is one cycle to report.
 * Small on purpose (docs/decisions/009-linting.md): madge or dependency-cruiser would pull in a parser for this.
 */
const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** The project file a relative import names (its .ts/.tsx, or its folder's index), or undefined for anything else. */
export function resolve(fromFile: string, spec: string, root: string, exists: (p: string) => boolean): string | undefined {
  const base = path.join(path.dirname(path.join(root, fromFile)), spec);
  const stripped = base.replace(/\.(js|ts|tsx)$/, "");
  for (const candidate of [base, `${stripped}.ts`, `${stripped}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (/\.(ts|tsx)$/.test(candidate) && exists(candidate)) return path.relative(root, candidate);
  }
  return undefined;
}

/** The import graph of `files` (paths relative to root): file -> the project files it imports. */
export function importGraph(
  files: string[],
  root: string,
  read = (f: string) => readFileSync(path.join(root, f), "utf8"),
  exists: (p: string) => boolean = existsSync,
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of read(file).matchAll(importPattern)) {
      const target = resolve(file, match[1], root, exists);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every cycle as the sorted files of one strongly connected component. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
