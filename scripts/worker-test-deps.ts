/**
 * The packages the worker test project pre-bundles (vitest.config.ts, decision 030): every bare import of worker/ and
 * schema/, tests included. Each worker test file loads the whole worker over the test pool's socket, one module per
 * request; bundled, hono, drizzle-orm, zod and jose are a handful of modules instead of about 300. Vitest does not
 * discover them by itself (its optimizer runs with discovery off), so scripts/lint.ts fails when an import is missing
 * here: left out, a package still works, unbundled, but it would quietly bring the slow start-up back, or load a second
 * copy of a package a bundled one imports.
 */
export const WORKER_TEST_DEPS = [
  "hono",
  "hono/body-limit",
  "hono/cors",
  "hono/factory",
  "hono/html",
  "hono/http-exception",
  "hono/request-id",
  "hono/secure-headers",
  "@hono/zod-validator",
  "@hono/zod-openapi",
  "drizzle-orm",
  "drizzle-orm/batch",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "zod",
  "jose",
  "otpauth",
  "bowser",
  "partyserver",
  "fast-check",
  "standardwebhooks",
  "@simplewebauthn/server",
  "ajv/dist/2020",
  "grammy/web",
  "@block65/webcrypto-web-push",
];

/** Specifiers the runtime or the runner provides, never bundled. */
const PROVIDED = /^(cloudflare:|node:|vitest$)/;

/** The bare value imports of one worker/schema source text that WORKER_TEST_DEPS lacks. */
export function unbundledImports(text: string): string[] {
  const missing: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s+(?!type\b)(?:[^;]*?\s+from\s+)?["']([^"'./][^"']*)["']/g)) {
    const spec = m[1];
    if (PROVIDED.test(spec) || WORKER_TEST_DEPS.includes(spec)) continue;
    missing.push(spec);
  }
  return missing;
}
