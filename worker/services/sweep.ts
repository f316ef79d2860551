import type { Env } from "../env";

/**
 * The cron backstop (wrangler.toml [triggers]): settles whatever an alarm gave up on, so no money is ever stuck.
 * Each feature registers its own sweep here.
 */
export async function runScheduledSweep(env: Env): Promise<void> {
  void env;
}
