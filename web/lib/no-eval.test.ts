import { describe, expect, it } from "vitest";
import "./no-eval";

describe("zod without eval (decision 021)", () => {
  it("zod reads the no-eval setting web/main.tsx makes before anything else", async () => {
    const { config } = await import("zod/v4/core");
    expect(config().jitless).toBe(true);
    // And a schema built afterwards parses without compiling code: Function is never called.
    const { z } = await import("zod");
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      apply(target, self, args) {
        compiled += 1;
        return Reflect.apply(target, self, args);
      },
      construct(target, args) {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      const schema = z.object({ email: z.string().email(), amount: z.number().min(1) });
      expect(schema.safeParse({ email: "a@example.com", amount: 5 }).success).toBe(true);
      expect(schema.safeParse({ email: "nope", amount: 0 }).success).toBe(false);
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
