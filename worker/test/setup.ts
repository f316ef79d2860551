import { applyD1Migrations, env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { clearEveryCache } from "../lib/cache";
import { stopRunMetrics } from "../lib/run-metrics";
import { markFileStart } from "./file-scope";
import { installPoolProxyFix } from "./pool-proxy-fix";
import { resetTestServices } from "./services";

// Before any request: keeps the test pool's per-request cost flat (worker/test/pool-proxy-fix.ts says why).
installPoolProxyFix();

// Setup files run outside per-file isolated storage and may run more than once; applyD1Migrations skips applied ones.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);

// The worker project runs with isolate=false (vitest.config.ts, decision 054): one workerd, one isolate and one module
// graph serve every file of a lane in turn, so module-level state would otherwise flow from one file into the next.
// This file runs before each test file; these hooks hand every file (and every test) the state a fresh isolate had.
function freshIsolateState(): void {
  // No upstream, clock or notify replaced: each file hands the worker's containers what it wants (worker/test/services.ts
  // useTestServices, in its beforeAll/beforeEach) and finds none left over.
  resetTestServices();
  // No price, setting, status or health reading cached by another test (lib/cache.ts knows every TtlCache).
  clearEveryCache();
  // No D1 counting turned on by an earlier file's D1_METRICS=true request (lib/run-metrics.ts).
  stopRunMetrics();
}

// The objects an earlier file's start already disarmed (kept on globalThis: this setup file runs again for each file),
// so each start visits only the objects made since and stays well inside the hook's time.
const alarmsDisarmed: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for("virtual-numbers.alarms-disarmed")] ??= new Set());

/**
 * Durable Object alarms outlive the file that armed them: under isolate=true that file's workerd stopped with it, so an
 * order's poll, a rental's watch or a webhook's retry never fired into the next file. Disarming them at each file's
 * start keeps it so (a retry would otherwise reach a seam the next file set, or count as its own upstream call).
 */
async function disarmEarlierFilesAlarms(): Promise<void> {
  for (const namespace of [env.SMS_ORDER, env.RENTAL, env.INVOICE, env.NotificationRoom] as unknown as DurableObjectNamespace[]) {
    const fresh = (await listDurableObjectIds(namespace)).filter((id) => !alarmsDisarmed.has(id.toString()));
    await Promise.all(fresh.map((id) => runInDurableObject(namespace.get(id), (_instance, state) => state.storage.deleteAlarm())));
    for (const id of fresh) alarmsDisarmed.add(id.toString());
  }
}

/**
 * The operator's configuration and the sandbox upstreams' world, as a fresh database had them: no setting changed, no
 * simulator state (balances, slot limits, scripted outcomes, activations), no upstream health reading or remembered
 * price (the jump guard), no rate-limit window and no status incident. These are global, not any user's rows, so a file
 * cannot scope them to itself; an earlier file that raised a price or drained an upstream's balance must not decide
 * what this file's purchases do. Customers' rows stay: tests scope to their own (worker/test/file-scope.ts).
 */
const WORLD_TABLES = ["settings", "sandbox_state", "upstream_health", "upstream_prices", "rate_limits", "status_incidents"];
async function resetWorldState(): Promise<void> {
  await env.DB.batch([
    ...WORLD_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)),
    // The earlier files' orders still waiting would never settle (their alarms are disarmed above) and would hold the
    // upstreams' slots: routing counts every waiting order against an account's limit (services/sms/routing.ts
    // slotsInUse). Their window is over, as their file's whole database was under isolate=true.
    env.DB.prepare("UPDATE sms_orders SET status = 'timeout' WHERE status IN ('waiting', 'pending')"),
    // Every statistic over "the last 7 (or 30) days of everyone's orders" (routing's learned success rates, the compare
    // view, the public status page) and the console's review queue (newest first, 50 to a page) read a fresh
    // database's rows only, so the earlier files' recent orders, held crypto arrivals and transfers into accounts we do
    // not know (the queue's unknown-account items; no sweep reads them) move a year back, out of every
    // window and behind this file's rows. A row a test dated ahead with its own clock (2030 in
    // worker/test/services.test.ts) moves to a year before now, not a year before its date. Their money is untouched
    // and no later file reads them as its own. Only rows of the last 60 days (or dated ahead) move, so a row is moved
    // once, not once per file. Payments and the other bank transfers stay where they are: the sweeps take the oldest
    // first, a bounded number per run, and a year-old backlog would crowd out the file's own (wallet.squad-refs.test.ts).
    ...(
      [
        ["sms_orders", "created_at", "updated_at", ""],
        ["payment_reviews", "created_at", "updated_at", ""],
        ["transfer_deposits", "received_at", "updated_at", " AND state = 'unmatched'"],
      ] as const
    ).map(([table, at, updated, only]) =>
      env.DB.prepare(`UPDATE ${table} SET ${at} = MIN(${at}, ?3) - ?1, ${updated} = MIN(${updated}, ?3) - ?1 WHERE ${at} > ?2${only}`).bind(
        365 * 86_400_000,
        Date.now() - 60 * 86_400_000,
        Date.now(),
      ),
    ),
  ]);
}

beforeAll(async () => {
  freshIsolateState();
  await disarmEarlierFilesAlarms();
  await resetWorldState();
  // Checks over "this file's rows" (worker/test/file-scope.ts) start here.
  await markFileStart();
});
// Caches also between tests: a test that changes a setting or an upstream's health through D1 must not find the
// previous test's cached reading.
afterEach(clearEveryCache);
afterAll(() => {
  freshIsolateState();
  // Spies, fake clocks and stubbed globals a file forgot to undo must not reach the next file's isolate.
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
