import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestUpstreams } from "../../test/services";
import { smsFault } from "../../providers/sms/types";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { api, balanceOf, createUser, db } from "../../test/helpers";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { putSetting } from "../kernel";
import { smsDeps } from "../../test/services";
import { buySmsNumber } from "./sms-orders";
import { LEARNED_MIN_SAMPLE, upstreamSlots } from "./routing";
import { clearSmsCatalogueCache, smsCountries, smsOffers } from "./sms-catalogue";

// Issue 32: a purchase passes from a down or sold-out upstream to the next configured one, never at a higher price
// without asking; routing learns from our own orders; issue 30: a pool of accounts chosen by free slots.

let primary: ScriptedSmsProvider;
let hero: ScriptedSmsProvider;
let second: ScriptedSmsProvider;

beforeEach(async () => {
  primary = new ScriptedSmsProvider();
  hero = new ScriptedSmsProvider("Swift", [{ countryId: "5", serviceId: "wa", name: "WhatsApp", cost: 0.45, currency: "USD", count: 50 }]);
  hero.buyResult = { upstreamId: "hero-1", number: "15550002222" };
  second = new ScriptedSmsProvider();
  second.buyResult = { upstreamId: "second-1", number: "15550003333" };
  await resetSmsTestState({ provider: primary });
  useTestUpstreams({ smsUpstream: (_env, upstream, account) => (upstream === "herosms" ? hero : upstream === "daisysms" && account === 1 ? second : null) });
  await putSetting(db(), "sms_routes", { Swift: { upstreams: ["daisysms", "herosms"] }, Dynamic: { upstreams: ["smsman"] } });
  await putSetting(db(), "upstream_slot_limits", {});
});
afterEach(async () => {
  useTestUpstreams({ smsUpstream: null });
  restoreSmsProviders();
  await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
});

async function shownPrice(token: string): Promise<number> {
  const res = await api("/api/sms/price?provider=Swift&country=5", { token });
  return res.data.wa.price as number;
}

const orderRow = (id: string) => env.DB.prepare("SELECT upstream, upstream_account, price_kobo, status, upstream_id FROM sms_orders WHERE id = ?").bind(id).first<{ upstream: string; upstream_account: number; price_kobo: number; status: string; upstream_id: string }>();

describe("failover within a purchase", () => {
  it("upstream A down -> served by B at no more than the shown price, and the order says which upstream served it", async () => {
    for (const fault of [smsFault("unavailable", "HTTP 503"), smsFault("no_numbers")]) {
      primary.buyResult = fault;
      hero.calls.length = 0;
      const user = await createUser({ balanceKobo: 500_000 });
      const price = await shownPrice(user.token);
      const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price } });
      expect(res.status).toBe(200);
      expect(res.data.phone.number).toBe("15550002222");
      expect(res.data.price).toBeLessThanOrEqual(price);
      expect(hero.calls).toContain("buy");
      const row = (await orderRow(res.data.phone.request_id))!;
      expect(row).toMatchObject({ upstream: "herosms", upstream_account: 0, status: "waiting", upstream_id: "hero-1" });
      // One debit, at the order's price: what the customer was shown or less.
      expect(await balanceOf(user.id)).toBe(500_000 - row.price_kobo);
      expect(row.price_kobo).toBeLessThanOrEqual(Math.round(price * 100));
      await pollerOf(res.data.phone.request_id).stop();
    }
  });

  it("B dearer than the order: nothing is bought from it without asking (409 with its price), the wallet is whole", async () => {
    primary.buyResult = smsFault("no_numbers");
    hero.offers[0]!.cost = 0.9;
    const user = await createUser({ balanceKobo: 500_000 });
    const price = await shownPrice(user.token);
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price } });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "PRICE_CHANGED", price: expect.any(Number) });
    expect(res.data.price).toBeGreaterThan(price);
    expect(hero.calls).not.toContain("buy");
    expect(await balanceOf(user.id)).toBe(500_000);
  });
});

describe("routing learns", () => {
  async function seed(upstream: string, n: number, used: number) {
    const user = await createUser();
    const now = Date.now();
    for (let i = 0; i < n; i += 1) {
      await env.DB.prepare(
        "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, upstream, created_at, updated_at) VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 100, '1555', ?, ?, ?, ?)",
      )
        .bind(crypto.randomUUID(), user.id, i < used ? "used" : "timeout", upstream, now - 3600_000, now - 3600_000 + 20_000)
        .run();
    }
  }

  it("the upstream with the best recent success rate is tried first once it has the minimum sample, not before", async () => {
    await seed("daisysms", LEARNED_MIN_SAMPLE, 10);
    await seed("herosms", LEARNED_MIN_SAMPLE - 1, LEARNED_MIN_SAMPLE - 1);
    const user = await createUser({ balanceKobo: 500_000 });
    const first = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(first.status).toBe(200);
    expect((await orderRow(first.data.phone.request_id))!.upstream).toBe("daisysms"); // 29 orders: not trusted yet
    await pollerOf(first.data.phone.request_id).stop();
    await seed("herosms", 1, 1);
    // A minute later: the ranking is read at most once a minute per service (routing.ts LEARNED_CACHE_MS).
    clearSmsCatalogueCache();
    primary.calls.length = 0;
    const second = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(second.status).toBe(200);
    expect((await orderRow(second.data.phone.request_id))!.upstream).toBe("herosms");
    expect(primary.calls).not.toContain("buy");
    await pollerOf(second.data.phone.request_id).stop();
  });

  it("the learned best is passed over when it costs more than the customer's price", async () => {
    await seed("herosms", LEARNED_MIN_SAMPLE, LEARNED_MIN_SAMPLE);
    hero.offers[0]!.cost = 0.9;
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(res.status).toBe(200);
    expect((await orderRow(res.data.phone.request_id))!.upstream).toBe("daisysms");
    expect(hero.calls).not.toContain("buy");
    await pollerOf(res.data.phone.request_id).stop();
  });
});

describe("a pool of accounts per upstream (issue 30)", () => {
  it("two accounts, the first full -> the second serves; all full -> busy, nothing bought; slots per account", async () => {
    await putSetting(db(), "sms_routes", { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"] } });
    await putSetting(db(), "upstream_slot_limits", { daisysms: 1 });
    // Earlier tests' numbers are over: every slot starts free.
    await env.DB.prepare("UPDATE sms_orders SET status = 'cancelled' WHERE status = 'waiting'").run();
    const deps = smsDeps({ ...env, SWIFT_API_KEY: "key-one,key-two" });
    const user = await createUser({ balanceKobo: 500_000 });
    const signedIn = { id: user.id, totalDepositedKobo: 0 } as Parameters<typeof buySmsNumber>[1];
    const a = await buySmsNumber(deps, signedIn, { provider: "Swift", country: "5", service: "wa" });
    expect((await orderRow(a.phone.request_id))).toMatchObject({ upstream: "daisysms", upstream_account: 0 });
    const b = await buySmsNumber(deps, signedIn, { provider: "Swift", country: "5", service: "wa" });
    expect((await orderRow(b.phone.request_id))).toMatchObject({ upstream: "daisysms", upstream_account: 1, upstream_id: "second-1" });
    expect(await upstreamSlots(deps)).toEqual(expect.arrayContaining([
      { upstream: "daisysms", account: 0, inUse: 1, limit: 1 },
      { upstream: "daisysms", account: 1, inUse: 1, limit: 1 },
    ]));
    primary.calls.length = 0;
    second.calls.length = 0;
    await expect(buySmsNumber(deps, signedIn, { provider: "Swift", country: "5", service: "wa" })).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    expect([...primary.calls, ...second.calls]).not.toContain("buy");
    for (const id of [a.phone.request_id, b.phone.request_id]) await pollerOf(id).stop();
  });

  it("the catalogue is hidden only when every account is full, with the busy message, and shown again when one frees", async () => {
    await putSetting(db(), "sms_routes", { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"] } });
    await putSetting(db(), "upstream_slot_limits", { daisysms: 1 });
    await env.DB.prepare("UPDATE sms_orders SET status = 'cancelled' WHERE status = 'waiting'").run();
    const pooled = { ...env, SWIFT_API_KEY: "key-one,key-two" };
    const deps = smsDeps(pooled);
    const user = await createUser({ balanceKobo: 500_000 });
    const signedIn = { id: user.id, totalDepositedKobo: 0 } as Parameters<typeof buySmsNumber>[1];
    const shown = async () => {
      clearSmsCatalogueCache();
      return smsOffers(deps, "Swift", "5").then((offers) => offers.length > 0, (err: { code?: string; message?: string }) => `${err.code}: ${err.message}`);
    };
    const a = await buySmsNumber(deps, signedIn, { provider: "Swift", country: "5", service: "wa" });
    expect(await shown()).toBe(true); // account 0 full, account 1 free: on sale
    const b = await buySmsNumber(deps, signedIn, { provider: "Swift", country: "5", service: "wa" });
    const busy = "UPSTREAM_UNAVAILABLE: This provider is busy right now. Please try again in a few minutes or try another provider.";
    expect(await shown()).toBe(busy); // every account full: hidden
    await expect(smsCountries(deps, "Swift")).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    // sms-man documents no slot limit: Dynamic stays on sale whatever Swift's accounts hold.
    expect((await smsOffers(deps, "Dynamic", "5")).length).toBeGreaterThan(0);
    await cancelWaiting(a.phone.request_id);
    expect(await shown()).toBe(true); // one slot free again: shown
    for (const id of [a.phone.request_id, b.phone.request_id]) await pollerOf(id).stop();
  });
});

async function cancelWaiting(orderId: string) {
  await env.DB.prepare("UPDATE sms_orders SET status = 'cancelled' WHERE id = ?").bind(orderId).run();
}
