import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readActivation } from "../../sandbox/sms-activations";
import { api, balanceOf, createUser, db } from "../../test/helpers";
import { pollerOf, resetSmsTestState } from "../../test/sms-fixtures";
import { smsDeps } from "../../test/services";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { putSetting } from "../kernel";
import { numberChoicesFor } from "./number-choice";
import { clearSmsCatalogueCache } from "./sms-catalogue";
import { clearUpstreamHealthCache } from "./upstream-health";
import { smsOffer } from "./sms-offer";
import { pollSmsOrderTick } from "./sms-poll";

// Issue 49: a USA T-Mobile number in area code 212 with the surcharge said first; a purchase that cannot be honoured
// says so before any debit; routing passes over an upstream that cannot honour the choice, and a chain keeps it. Against
// the sandbox's simulators (written from DaisySMS's and the SMS-Activate protocol's documents), over the default routes
// (each provider's own upstream first, then HeroSMS and Grizzly SMS).

beforeEach(async () => {
  await resetSmsTestState();
  await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
  clearSmsCatalogueCache();
});
afterEach(async () => {
  await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
});

const orderRow = (id: string) =>
  env.DB.prepare("SELECT upstream, upstream_id, price_kobo, status, number, number_choice FROM sms_orders WHERE id = ?")
    .bind(id)
    .first<{ upstream: string | null; upstream_id: string; price_kobo: number; status: string; number: string; number_choice: string | null }>();
const buyer = (user: { id: string }) => ({ id: user.id, totalDepositedKobo: 0 });
const ordersOf = async (userId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM sms_orders WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

describe("what may be chosen where", () => {
  it("USA on Swift SMS offers DaisySMS's carriers and area codes at 20% each; Dynamic SMS in Russia the protocol's operator; elsewhere nothing", async () => {
    const user = await createUser();
    const deps = smsDeps(env);
    const usa = await numberChoicesFor(deps, user.id, "Swift", "5");
    expect(usa.carriers).toEqual({ options: [{ value: "tmo", label: "T-Mobile" }, { value: "vz", label: "Verizon" }, { value: "att", label: "AT&T" }], surcharge_percent: 20 });
    expect(usa.areas).toEqual({ max: 10, surcharge_percent: 20 });
    expect(usa.operator).toBeUndefined();
    expect((await numberChoicesFor(deps, user.id, "Dynamic", "1")).operator?.options.map((o) => o.value)).toEqual(["megafon", "mts", "beeline", "tele2", "rostelecom"]);
    // Fields absent (not disabled) where no upstream of the route documents a choice.
    expect(await numberChoicesFor(deps, user.id, "Dynamic", "12")).toEqual({});
    await putSetting(db(), "sms_routes", { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"] } });
    expect(await numberChoicesFor(deps, user.id, "Dynamic", "1")).toEqual({});
  });
});

describe("a USA T-Mobile number in area code 212", () => {
  it("the offer says the surcharge first; the purchase at that price gets a 212 T-Mobile number, charged once", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const deps = smsDeps(env);
    const plain = await smsOffer(deps, buyer(user), { provider: "Swift", country: "5", service: "wa" });
    const chosen = await smsOffer(deps, buyer(user), { provider: "Swift", country: "5", service: "wa", carriers: ["tmo"], areas: ["212"] });
    expect(chosen.surcharge_percent).toBe(40);
    expect(chosen.base_price).toBe(plain.price);
    expect(chosen.price).toBeGreaterThan(plain.price);

    // The plain price is not what this number costs: the server says so (409 with the new price), nothing charged.
    const stale = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: plain.price, carriers: "tmo", areas: "212" } });
    expect(stale.status).toBe(409);
    expect(stale.data).toMatchObject({ code: "PRICE_CHANGED", price: chosen.price });
    expect(await balanceOf(user.id)).toBe(1_000_000);

    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", price: chosen.price, carriers: "tmo", areas: "212" } });
    expect(res.status).toBe(200);
    expect(res.data.phone.number).toMatch(/^1212\d{7}$/);
    const row = (await orderRow(res.data.phone.request_id))!;
    expect(row).toMatchObject({ upstream: "daisysms", status: "waiting" });
    expect(JSON.parse(row.number_choice!)).toEqual({ carriers: ["tmo"], areas: ["212"] });
    expect(row.price_kobo).toBe(Math.round(chosen.price * 100));
    expect(await balanceOf(user.id)).toBe(1_000_000 - row.price_kobo);
    expect((await readActivation(env, row.upstream_id))?.number).toBe(res.data.phone.number);
    await pollerOf(res.data.phone.request_id).stop();
  });

  it("a purchase that cannot be honoured says so before any debit: no order, no ledger row", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const buy = (json: Record<string, unknown>) => api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", ...json } });
    // A carrier DaisySMS does not name.
    const sprint = await buy({ carriers: "sprint" });
    expect(sprint.status).toBe(400);
    expect(sprint.data.message).toBe('Unknown carrier "sprint": choose tmo (T-Mobile), vz (Verizon), att (AT&T).');
    // Not an area code.
    expect((await buy({ areas: "112" })).status).toBe(400);
    expect((await buy({ areas: "212,213,214,215,216,217,218,219,220,221,222" })).status).toBe(400);
    // No upstream of Dynamic SMS's route documents a carrier in the USA, nor an operator there.
    const dynamic = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "5", service: "1", carriers: "tmo" } });
    expect(dynamic.status).toBe(422);
    expect(dynamic.data.message).toBe("Choosing a carrier is not offered for this country and provider.");
    expect((await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", operator: "mts" } })).status).toBe(422);
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await ordersOf(user.id)).toBe(0);
  });

  it("DaisySMS below its balance floor honours nothing: the carrier is not offered and a purchase with one is refused before any debit", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    // The sweep found DaisySMS below its floor and HeroSMS healthy: Swift SMS stays on sale through HeroSMS.
    for (const [provider, status] of [["Swift", "low"], ["herosms", "ok"]]) {
      await env.DB.prepare("INSERT INTO upstream_health (provider, status, balance, currency, balance_usd, floor_usd, checked_at) VALUES (?1, ?2, 0, 'USD', 0, 5, ?3) ON CONFLICT(provider) DO UPDATE SET status = ?2")
        .bind(provider, status, Date.now())
        .run();
    }
    clearUpstreamHealthCache();
    try {
      expect((await numberChoicesFor(smsDeps(env), user.id, "Swift", "5")).carriers).toBeUndefined();
      const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", carriers: "tmo" } });
      expect(res.status).toBe(422);
      expect(await balanceOf(user.id)).toBe(1_000_000);
      expect(await ordersOf(user.id)).toBe(0);
    } finally {
      await env.DB.prepare("DELETE FROM upstream_health WHERE provider IN ('Swift', 'herosms')").run();
      clearUpstreamHealthCache();
    }
  });
});

describe("routing with a choice", () => {
  it("Dynamic SMS in Russia with operator mts: sms-man (no operator documented) is passed over, HeroSMS serves it with operator=mts", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const offer = await smsOffer(smsDeps(env), buyer(user), { provider: "Dynamic", country: "1", service: "2", operator: "mts" });
    expect(offer.surcharge_percent).toBe(0);
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "1", service: "2", price: offer.price, operator: "mts" } });
    expect(res.status).toBe(200);
    const row = (await orderRow(res.data.phone.request_id))!;
    expect(row.upstream).toBe("herosms");
    expect(JSON.parse(row.number_choice!)).toEqual({ operator: "mts" });
    // Without a choice the provider's own upstream serves, as before.
    const plain = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "1", service: "2", price: offer.price } });
    expect((await orderRow(plain.data.phone.request_id))!.upstream).toBe("smsman");
    await pollerOf(res.data.phone.request_id).stop();
    await pollerOf(plain.data.phone.request_id).stop();
  });

  it("the chain's next route keeps the choice: after Russia gets no code, Ukraine is bought with operator=mts too", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const offer = await smsOffer(smsDeps(env), buyer(user), { provider: "Dynamic", country: "1", service: "2", operator: "mts" });
    const res = await api("/api/sms/get-number", {
      token: user.token,
      json: { provider: "Dynamic", country: "1", service: "2", price: offer.price, operator: "mts", next_route: { cap: offer.price * 3, routes: [{ provider: "Dynamic", country: "2" }, { provider: "Dynamic", country: "12" }] } },
    });
    expect(res.status).toBe(200);
    const first = res.data.phone.request_id as string;
    const firstRow = (await orderRow(first))!;
    // HeroSMS ends the first activation without a code (cancelled upstream): the order is refunded and the chain moves on.
    const activation = (await readActivation(env, firstRow.upstream_id))!;
    await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?").bind(JSON.stringify({ ...activation, status: "cancelled" }), `sms-activation:${activation.id}`).run();
    await pollSmsOrderTick(smsDeps(env), first);
    const next = await env.DB.prepare("SELECT id, country_id, upstream, number_choice FROM sms_orders WHERE chain_id = ? AND chain_step = 2").bind(first).first<{ id: string; country_id: string; upstream: string; number_choice: string }>();
    // Nigeria is cheaper or not, it has no documented operator: only Ukraine can honour mts.
    expect(next).toMatchObject({ country_id: "2", upstream: "herosms" });
    expect(JSON.parse(next!.number_choice)).toEqual({ operator: "mts" });
    await pollerOf(next!.id).stop();
  });
});
