import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RENT_PRICE_REFUSED_MESSAGE } from "../../schema/rentals";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { clearSettingsCache, postEntry, putSetting, sandboxUserIdFor } from "../services/kernel";
import { createKey } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";

/**
 * Rentals pass the same price guard as SMS buys (setting sms_price_guard, upstream-money.ts refusedUpstreamPrice): a
 * naira ceiling (per day the rental lasts) and a jump guard against the last accepted cost of the same country, unit
 * and period. Against the sandbox rent simulator: USA (country 5) costs $0.12 an hour, $0.90 a day, $3.50 a week;
 * × ₦1600 × 1.4 that is ₦268.80 an hour, ₦2,016 a day, ₦7,840 a week.
 */

const rented: string[] = [];

beforeEach(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  await putSetting(db(), "sms_price_guard", SETTING_DEFAULTS.sms_price_guard);
  await env.DB.prepare("DELETE FROM upstream_prices WHERE service_id LIKE 'rent:%'").run();
  clearSettingsCache();
});

afterEach(async () => {
  for (const id of rented.splice(0)) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
  }
});

async function rent(token: string, body: Record<string, unknown>) {
  const res = await api("/api/rent-number", { token, json: body });
  if (res.status === 201) rented.push(res.data.rental.id);
  return res;
}

const rentalCount = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM rentals WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n;
const ledgerCount = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND kind <> 'admin'").bind(userId).first<{ n: number }>())?.n;
const storedCost = async (key: string) =>
  (await env.DB.prepare("SELECT cost_usd FROM upstream_prices WHERE provider = 'Dynamic' AND country_id = '5' AND service_id = ?").bind(key).first<{ cost_usd: number }>())?.cost_usd;

describe("the rental price guard: the ceiling", () => {
  it("a rental priced above the ceiling per day it lasts is refused with 409, and nothing is charged or written", async () => {
    await putSetting(db(), "sms_price_guard", { ...SETTING_DEFAULTS.sms_price_guard, service_ceilings: { "Dynamic:rent": 2500 } });
    clearSettingsCache();
    const user = await createUser({ balanceKobo: 1_000_000 });

    // 24 hours cost ₦6,451.20: above ₦2,500 for its one day. The quote says so instead of offering it.
    const quote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "hour", period: 24 } });
    expect(quote.status).toBe(200);
    expect(quote.data).toMatchObject({ price: null, in_stock: false, message: RENT_PRICE_REFUSED_MESSAGE });
    expect(quote.data.data.limits[0]).toMatchObject({ country_id: "5", count: 0 });

    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 24, price: 6451.2 });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "CONFLICT", message: RENT_PRICE_REFUSED_MESSAGE });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await rentalCount(user.id)).toBe(0);
    expect(await ledgerCount(user.id)).toBe(0);
    expect(await storedCost("rent:hour:24")).toBeUndefined(); // a refused price is never remembered

    // The ceiling is per day: a week at ₦7,840 is under 7 × ₦2,500 and is rented.
    const week = await rent(user.token, { countryId: "5", duration: "week", period: 1, price: 7840 });
    expect(week.status).toBe(201);
    expect(await balanceOf(user.id)).toBe(1_000_000 - 784_000);
    await expectLedgerBalanced();
  });

  it("without a rental ceiling of its own, ceiling_naira applies per day", async () => {
    await putSetting(db(), "sms_price_guard", { ...SETTING_DEFAULTS.sms_price_guard, ceiling_naira: 2000 });
    clearSettingsCache();
    const user = await createUser({ balanceKobo: 1_000_000 });
    const day = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    expect(day.data).toMatchObject({ price: null, in_stock: false, message: RENT_PRICE_REFUSED_MESSAGE }); // ₦2,016 > ₦2,000
    const hour = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "hour", period: 1 } });
    expect(hour.data).toMatchObject({ price: 268.8, in_stock: true });
  });
});

describe("the rental price guard: the jump guard", () => {
  it("a cost more than max_jump times the last accepted one is refused (409, nothing charged) and does not become the new normal", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    // A first quote records the accepted cost of 2 days in USA: $1.80.
    const first = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 2 } });
    expect(first.data).toMatchObject({ price: 4032, in_stock: true });
    expect(await storedCost("rent:day:2")).toBeCloseTo(1.8, 9);

    // The last accepted cost was $0.50: $1.80 is 3.6 times that, beyond max_jump 3.
    await env.DB.prepare("UPDATE upstream_prices SET cost_usd = 0.5 WHERE provider = 'Dynamic' AND country_id = '5' AND service_id = 'rent:day:2'").run();
    const res = await rent(user.token, { countryId: "5", duration: "day", period: 2, price: 4032 });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "CONFLICT", message: RENT_PRICE_REFUSED_MESSAGE });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await rentalCount(user.id)).toBe(0);
    expect(await ledgerCount(user.id)).toBe(0);
    expect(await storedCost("rent:day:2")).toBe(0.5);

    // Within the ratio (2x from $0.90) the rental goes through at the server's price and the new cost is recorded.
    await env.DB.prepare("UPDATE upstream_prices SET cost_usd = 0.9 WHERE provider = 'Dynamic' AND country_id = '5' AND service_id = 'rent:day:2'").run();
    const ok = await rent(user.token, { countryId: "5", duration: "day", period: 2, price: 4032 });
    expect(ok.status).toBe(201);
    expect(await balanceOf(user.id)).toBe(1_000_000 - 403_200);
    expect(await storedCost("rent:day:2")).toBeCloseTo(1.8, 9);
    await expectLedgerBalanced();
  });
});

describe("the rental price guard on /api/v1", () => {
  it("a refused price is a 409 for the developer API too, and a sandbox key's simulated prices never touch the live history", async () => {
    await putSetting(db(), "sms_price_guard", { ...SETTING_DEFAULTS.sms_price_guard, service_ceilings: { "Dynamic:rent": 100 } });
    clearSettingsCache();
    const user = await createUser({ balanceKobo: 1_000_000 });
    const live = await createKey(user, "live");
    const res = await api("/api/v1/rentals", {
      method: "POST",
      headers: { authorization: `Bearer ${live.secret}`, "idempotency-key": crypto.randomUUID() },
      json: { country: "5", duration: "hour", period: 1 },
    });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "CONFLICT", message: RENT_PRICE_REFUSED_MESSAGE });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await rentalCount(user.id)).toBe(0);

    await putSetting(db(), "sms_price_guard", SETTING_DEFAULTS.sms_price_guard);
    clearSettingsCache();
    const test = await createKey(user, "test");
    await postEntry(db(), { at: Date.now(), userId: sandboxUserIdFor(user.id), key: `test:seed:sbx:${user.id}`, amountKobo: 1_000_000, kind: "admin", note: "Test funding" });
    const sandbox = await api("/api/v1/rentals", {
      method: "POST",
      headers: { authorization: `Bearer ${test.secret}`, "idempotency-key": crypto.randomUUID() },
      json: { country: "5", duration: "day", period: 3 },
    });
    if (sandbox.status === 201) rented.push(sandbox.data.id);
    expect(sandbox.status).toBe(201);
    expect(await storedCost("rent:day:3")).toBeUndefined();
  });
});
