import { applyD1Migrations, env } from "cloudflare:test";
import { installPoolProxyFix } from "./pool-proxy-fix";

// Before any request: keeps the test pool's per-request cost flat (worker/test/pool-proxy-fix.ts says why).
installPoolProxyFix();

// Setup files run outside per-file isolated storage and may run more than once; applyD1Migrations skips applied ones.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
