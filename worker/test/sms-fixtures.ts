import { env } from "cloudflare:workers";
import { SETTING_DEFAULTS } from "../../schema/settings";
import type { SmsProvider } from "../providers/sms/types";
import { clearSettingsCache, putSetting } from "../services/kernel";
import { clearSmsCatalogueCache, clearUpstreamHealthCache } from "../services/sms";
import { db } from "./helpers";
import { useTestUpstreams } from "./services";

/** The Durable Object that polls one order (keyed by the order id, which is the spec's request_id). */
export const pollerOf = (orderId: string) => env.SMS_ORDER.get(env.SMS_ORDER.idFromName(orderId));

/** Each provider served by its own upstream alone: an install with only the primaries' keys (decision 064). */
export const PRIMARY_ROUTES_ONLY = { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"] } } satisfies (typeof SETTING_DEFAULTS)["sms_routes"];

/** Routes each provider to its own upstream alone, so a scripted or faulty primary is the whole story of a purchase. */
export async function routeToPrimariesOnly(): Promise<void> {
  await putSetting(db(), "sms_routes", PRIMARY_ROUTES_ONLY);
  clearSmsCatalogueCache();
}

/**
 * How every Receive-SMS test starts: default prices, a poll interval long enough that alarms never fire on their own
 * (tests drive them with runDurableObjectAlarm), fresh caches, and either the sandbox upstream through the real adapter
 * (provider null) or a scripted one. Each provider is served by its own upstream alone (as an install with only the
 * primaries' keys): the default routes would pass a purchase the test's upstream refuses to the HeroSMS and Grizzly
 * simulators. Tests of routing set their own routes (services/sms/routing.test.ts, default-routes.test.ts).
 */
export async function resetSmsTestState(opts: { maxAttempts?: number; provider?: SmsProvider | null } = {}): Promise<void> {
  clearSettingsCache();
  await putSetting(db(), "sms_routes", PRIMARY_ROUTES_ONLY);
  await putSetting(db(), "sms_poll", { interval_ms: 600_000, max_attempts: opts.maxAttempts ?? 15 });
  await putSetting(db(), "exchange_rate", SETTING_DEFAULTS.exchange_rate);
  await putSetting(db(), "costs", SETTING_DEFAULTS.costs);
  await putSetting(db(), "upstream_rates", SETTING_DEFAULTS.upstream_rates);
  await putSetting(db(), "sms_price_guard", SETTING_DEFAULTS.sms_price_guard);
  clearUpstreamHealthCache();
  const provider = opts.provider ?? null;
  useTestUpstreams({ sms: provider ? () => provider : null });
  clearSmsCatalogueCache();
}

/** Back to the sandbox upstream after a test that scripted one. */
export function restoreSmsProviders(): void {
  useTestUpstreams({ sms: null });
  clearSmsCatalogueCache();
}
