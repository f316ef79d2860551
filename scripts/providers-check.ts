import { checkProviders, formatProviderTable, isGreen, type ProvidersCheckEnv } from "../worker/providers/providers-check";

/**
 * `npm run providers:check`: run before switching PROVIDERS=live (README, "Go-live checklist"). Reads the real keys
 * and base URLs from the environment (the same names as the worker's secrets and vars), makes only read-only or free
 * calls to each provider (SMS upstreams: our balance and one price list), prints one row per provider and exits 1
 * unless every row is green.
 *
 *   SQUAD_SECRET_KEY=... NOWPAYMENTS_API_KEY=... RESEND_API_KEY=... SMSMAN_TOKEN=... SMSMAN_CURRENCY=RUB \
 *   SWIFT_API_KEY=... npm run providers:check
 */
const env = process.env as ProvidersCheckEnv;
const rows = await checkProviders({ env, fetchFor: () => (request) => fetch(request), timeoutMs: 15_000 });
console.log(formatProviderTable(rows));
const red = rows.filter((r) => !isGreen(r));
if (red.length > 0) {
  console.error(`\n${red.length} provider(s) not ready: fix what the last column says, then run again.`);
  process.exit(1);
}
console.log("\nEvery provider answered our keys. Next: the first real ₦1,000 deposit (README, go-live checklist).");
