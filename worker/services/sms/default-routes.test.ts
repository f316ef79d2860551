import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import type { Env } from "../../config";
import { PRIMARY_UPSTREAM, SMS_UPSTREAMS } from "../../providers/sms/upstreams";
import { sandboxBalance, setSandboxBalance } from "../../sandbox/sms-activations";
import { api, balanceOf, createUser, db } from "../../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { putSetting } from "../kernel";
import { clearSmsCatalogueCache } from "./sms-catalogue";
import { orderedUpstreams } from "./routing";

// Issue 43 ("smaller contract gaps"): the default routes list every upstream behind each provider, so failover works as
// soon as a fallback's key is set, and the sandbox (every upstream simulated) shows it (decision 064).

let daisyBalance = 0;

beforeEach(async () => {
  await resetSmsTestState();
  // What a fresh database holds (resetSmsTestState routes each provider to its own upstream alone).
  await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
  clearSmsCatalogueCache();
  daisyBalance = await sandboxBalance(env, "swift");
});
afterEach(async () => {
  await setSandboxBalance(env, "swift", daisyBalance);
  restoreSmsProviders();
});

const orderRow = (id: string) => env.DB.prepare("SELECT upstream, price_kobo, status FROM sms_orders WHERE id = ?").bind(id).first<{ upstream: string; price_kobo: number; status: string }>();

describe("the default routes", () => {
  it("list the provider's own upstream first, then every other SMS-Activate-family upstream", () => {
    expect(SETTING_DEFAULTS.sms_routes).toEqual({ Swift: { upstreams: ["daisysms", "herosms", "grizzly"] }, Dynamic: { upstreams: ["smsman", "herosms", "grizzly"] } });
    for (const [provider, primary] of Object.entries(PRIMARY_UPSTREAM)) {
      const listed = SETTING_DEFAULTS.sms_routes[provider]!.upstreams;
      expect(listed[0]).toBe(primary);
      // every upstream the code has, but the other provider's own (what that provider sells, beside it in the catalogue)
      expect(new Set(listed)).toEqual(new Set(SMS_UPSTREAMS.filter((u) => u === primary || !Object.values(PRIMARY_UPSTREAM).includes(u))));
    }
  });

  it("in the sandbox, a Swift purchase DaisySMS cannot serve (no balance there) is served by HeroSMS at the price shown", async () => {
    await setSandboxBalance(env, "swift", 0);
    const user = await createUser({ balanceKobo: 500_000 });
    const shown = (await api("/api/sms/price?provider=Swift&country=5", { token: user.token })).data.wa.price as number;
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: shown } });
    expect(res.status).toBe(200);
    const row = (await orderRow(res.data.phone.request_id))!;
    expect(row).toMatchObject({ upstream: "herosms", status: "waiting" });
    expect(row.price_kobo).toBeLessThanOrEqual(Math.round(shown * 100));
    expect(await balanceOf(user.id)).toBe(500_000 - row.price_kobo);
    await pollerOf(res.data.phone.request_id).stop();
  });

  it("an upstream without a key is passed over before anything is read for it; a key added makes it a fallback", async () => {
    const live = (keys: Partial<Env>): Env => ({ ...env, PROVIDERS: "live", SWIFT_API_KEY: "daisy-key", SMSMAN_TOKEN: "smsman-key", HEROSMS_API_KEY: "", GRIZZLY_API_KEY: "", ...keys });
    const order = { userId: "u", provider: "Swift", countryId: "5", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 10_000 };
    const now = Date.now();
    expect(await orderedUpstreams(db(), live({}), order, now)).toEqual(["daisysms"]);
    expect(await orderedUpstreams(db(), live({}), { ...order, provider: "Dynamic" }, now)).toEqual(["smsman"]);
    expect(await orderedUpstreams(db(), live({ GRIZZLY_API_KEY: "g-key" }), order, now)).toEqual(["daisysms", "grizzly"]);
    expect(await orderedUpstreams(db(), live({ HEROSMS_API_KEY: "h-key", GRIZZLY_API_KEY: "g-key" }), { ...order, provider: "Dynamic" }, now)).toEqual(["smsman", "herosms", "grizzly"]);
  });
});
