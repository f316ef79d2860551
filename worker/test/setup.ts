import { applyD1Migrations, env } from "cloudflare:test";
import { afterAll } from "vitest";
import { installPoolProxyFix } from "./pool-proxy-fix";
import { resetTestServices } from "./services";

// Before any request: keeps the test pool's per-request cost flat (worker/test/pool-proxy-fix.ts says why).
installPoolProxyFix();

// Setup files run outside per-file isolated storage and may run more than once; applyD1Migrations skips applied ones.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);

// Upstreams a test file set for the worker's containers (worker/test/services.ts useTestUpstreams) end with the file.
afterAll(() => resetTestServices());
