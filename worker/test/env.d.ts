import type { Secrets } from "../config";

// cloudflare:test's `env` is Cloudflare.Env: the generated bindings (../../worker-configuration.d.ts), the secrets the
// tests set in vitest.config.ts, and the migrations they apply.
declare global {
  namespace Cloudflare {
    interface Env extends Secrets {
      TEST_MIGRATIONS?: import("cloudflare:test").D1Migration[];
    }
  }
}
