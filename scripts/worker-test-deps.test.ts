import { describe, expect, it } from "vitest";
import { unbundledImports, WORKER_TEST_DEPS } from "./worker-test-deps";

describe("unbundledImports (the lint that keeps the worker tests' pre-bundled packages whole)", () => {
  it("names a package import the list lacks, whatever the import's shape", () => {
    const text = [
      `import { Hono } from "hono";`,
      `import Bowser from "bowser";`,
      `import * as left from "left-pad";`,
      `import "side-effect-only";`,
      `export { thing } from "re-exported";`,
      `import {\n  a,\n  b,\n} from "multi-line/sub";`,
    ].join("\n");
    expect(unbundledImports(text)).toEqual(["left-pad", "side-effect-only", "re-exported", "multi-line/sub"]);
  });

  it("passes type-only imports, relative paths, the runtime's modules and vitest", () => {
    const text = [
      `import type { Context } from "not-listed";`,
      `import { x } from "./local";`,
      `import { y } from "../../schema/money";`,
      `import { env } from "cloudflare:workers";`,
      `import { Buffer } from "node:buffer";`,
      `import { it } from "vitest";`,
    ].join("\n");
    expect(unbundledImports(text)).toEqual([]);
  });

  it("lists each package once", () => {
    expect(new Set(WORKER_TEST_DEPS).size).toBe(WORKER_TEST_DEPS.length);
  });
});
