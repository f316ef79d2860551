import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_EXTENDABLE_RENT_MESSAGE, RENT_UNIT_MS } from "../../../schema/rentals";
import type { Env } from "../../config";
import { buildServices } from "../../container";
import { rentUpstreamFor } from "../../providers/rent";
import { readHeroRental, writeHeroRental } from "../../sandbox/herosms-rent";
import { createKey } from "../../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { clearSettingsCache, pricingContext, putSetting, rentPriceKobo, toUsd, getSetting } from "../kernel";
import { clearUpstreamHealthCache } from "../sms";

/**
 * Rent Number over two upstreams (issue 49, decision 068): sms-man first, HeroSMS (the SMS-Activate rent protocol, whose
 * documents define continueRentNumber) beside it. Against both sandbox simulators over HTTP: the quote says before
 * purchase whether the number can be extended and offers an extendable one at its own price; a rental asked to be
 * extendable is rented, extended, renewed and cancelled at HeroSMS; the health floor and the price guard pass an
 * upstream over; a choice HeroSMS cannot rent is refused before any debit.
 */

const started: string[] = [];

beforeEach(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  clearSettingsCache();
});

afterEach(async () => {
  await env.DB.prepare("DELETE FROM upstream_health WHERE provider IN ('Dynamic-rent', 'herosms')").run();
  clearUpstreamHealthCache();
  for (const id of started.splice(0)) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
  }
});

async function setHealth(provider: string, status: "ok" | "low") {
  await env.DB.prepare(
    "INSERT INTO upstream_health (provider, status, balance, currency, balance_usd, floor_usd, checked_at) VALUES (?1, ?2, 0, 'USD', 0, 2, ?3) ON CONFLICT(provider) DO UPDATE SET status = ?2",
  )
    .bind(provider, status, Date.now())
    .run();
  clearUpstreamHealthCache();
}

/** What HeroSMS's simulator asks for this choice, priced for a starter customer by the one formula (kernel pricing). */
async function heroPriceKobo(countryId: string, unit: "hour" | "day" | "week", period: number): Promise<number> {
  const [limit] = await rentUpstreamFor(env, "herosms", true).limits({ countryId, unit, period });
  const costUsd = toUsd({ amount: limit!.cost, currency: limit!.currency }, await getSetting(db(), "upstream_rates"));
  return rentPriceKobo(costUsd!, await pricingContext(db(), { totalDepositedKobo: 0, wholesaleVolumeKobo: null }));
}

const rentalRow = (id: string) =>
  env.DB.prepare("SELECT upstream, upstream_id, price_kobo, status, expires_at FROM rentals WHERE id = ?")
    .bind(id)
    .first<{ upstream: string; upstream_id: string; price_kobo: number; status: string; expires_at: number }>();
const rentalCount = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM rentals WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n;

async function rent(token: string, body: Record<string, unknown>) {
  const res = await api("/api/rent-number", { token, json: body });
  if (res.status === 201) started.push(res.data.rental.id);
  return res;
}

describe("the quote says before purchase whether the number can be extended", () => {
  it("sms-man's number is quoted first and said not extendable, with HeroSMS's extendable one at its own price", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const quote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    expect(quote.status).toBe(200);
    // sms-man's simulator: USA $0.90 a day × ₦1600 × 1.4.
    expect(quote.data).toMatchObject({ price: 2016, in_stock: true, extendable: false, extendable_offer: { price: (await heroPriceKobo("5", "day", 1)) / 100 } });

    const asked = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1, extendable: true } });
    expect(asked.data).toMatchObject({ price: (await heroPriceKobo("5", "day", 1)) / 100, in_stock: true, extendable: true });
    expect(asked.data.extendable_offer).toBeUndefined();
  });

  it("an extendable number HeroSMS cannot rent (an hour: its documented floor is 4) is said so, and refused before any debit", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const quote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "hour", period: 1 } });
    expect(quote.data).toMatchObject({ price: 268.8, in_stock: true, extendable: false });
    expect(quote.data.extendable_offer).toBeUndefined();
    const asked = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "hour", period: 1, extendable: true } });
    expect(asked.data).toMatchObject({ price: null, in_stock: false, message: NO_EXTENDABLE_RENT_MESSAGE });

    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 1, extendable: true });
    expect(res.status).toBe(503);
    expect(res.data).toMatchObject({ code: "NO_NUMBERS", message: NO_EXTENDABLE_RENT_MESSAGE });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await rentalCount(user.id)).toBe(0);
  });

  it("refuses an extendable that is not true or false with a 400 naming it", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await rent(user.token, { countryId: "5", duration: "day", period: 1, extendable: "yes", price: 2016 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.data)).toContain("extendable must be true or false.");
    expect(await rentalCount(user.id)).toBe(0);
  });
});

describe("an extendable rental at HeroSMS", () => {
  it("is rented there at the price quoted, then extended (charged once), renewed automatically and its health read", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const price = (await heroPriceKobo("5", "day", 1)) / 100;
    const res = await rent(user.token, { countryId: "5", duration: "day", period: 1, extendable: true, price });
    expect(res.status).toBe(201);
    expect(res.data.rental).toMatchObject({ extendable: true, status: "active" });
    const id: string = res.data.rental.id;
    const row = (await rentalRow(id))!;
    expect(row).toMatchObject({ upstream: "herosms", price_kobo: Math.round(price * 100), status: "active" });
    expect(await readHeroRental(env, row.upstream_id)).toMatchObject({ status: "active" });
    expect(await balanceOf(user.id)).toBe(1_000_000 - row.price_kobo);

    // Extend: the options are HeroSMS's getContinueRentPriceNumber prices; one extension moves the expiry upstream and here.
    const options = await api(`/api/rentals/${id}/extend-options`, { token: user.token });
    expect(options.data.extendable).toBe(true);
    const fourHours = options.data.options.find((o: { unit: string; period: number }) => o.unit === "hour" && o.period === 4);
    expect(fourHours.price).toBeGreaterThan(0);
    const endsUpstream = (await readHeroRental(env, row.upstream_id))!.endsAt;
    const extended = await api(`/api/rentals/${id}/extend`, { token: user.token, json: { duration: "hour", period: 4, price: fourHours.price } });
    expect(extended.status).toBe(200);
    expect(extended.data.charged).toBe(fourHours.price);
    expect((await rentalRow(id))!.expires_at).toBe(row.expires_at + 4 * RENT_UNIT_MS.hour);
    expect((await readHeroRental(env, row.upstream_id))!.endsAt).toBe(endsUpstream + 4 * RENT_UNIT_MS.hour);
    expect(await balanceOf(user.id)).toBe(1_000_000 - row.price_kobo - Math.round(fourHours.price * 100));

    // Auto-renew turns on at the price shown (renewals.ts charges it before the end, as for any extendable rental).
    const renew = await api(`/api/rentals/${id}/auto-renew`, { token: user.token, json: { enabled: true, duration: "day", period: 1, price: options.data.options.find((o: { unit: string }) => o.unit === "day").price } });
    expect(renew.status).toBe(200);
    expect(renew.data.rental.auto_renew).toMatchObject({ unit: "day", period: 1, paused: null });

    // The number's health: once HeroSMS's getRentStatus has a message, the inbox says when it last received one.
    const hero = (await readHeroRental(env, row.upstream_id))!;
    await writeHeroRental(env, { ...hero, firstSmsAt: Date.now() - 60_000 });
    const inbox = await api(`/api/rentals/${id}`, { token: user.token });
    expect(inbox.data.messages.length).toBeGreaterThan(0);
    expect(inbox.data.rental.last_message_at).toBe(inbox.data.messages[0].received_at);
    await expectLedgerBalanced();
  });

  it("is cancelled for a refund at HeroSMS (setRentStatus 2) within the window, before any message", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const price = (await heroPriceKobo("5", "day", 1)) / 100;
    const res = await rent(user.token, { countryId: "5", duration: "day", period: 1, extendable: true, price });
    const id: string = res.data.rental.id;
    const row = (await rentalRow(id))!;
    const hero = (await readHeroRental(env, row.upstream_id))!;
    await writeHeroRental(env, { ...hero, firstSmsAt: Date.now() + 86_400_000 });
    const cancelled = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.data).toMatchObject({ refunded: true, rental: { status: "cancelled" } });
    expect((await readHeroRental(env, row.upstream_id))!.status).toBe("cancelled");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });
});

describe("routing beside sms-man", () => {
  it("sms-man below its balance floor: HeroSMS rents without being asked; both below: 502 before any debit", async () => {
    await setHealth("Dynamic-rent", "low");
    const user = await createUser({ balanceKobo: 1_000_000 });
    const quote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    const price = (await heroPriceKobo("5", "day", 1)) / 100;
    expect(quote.data).toMatchObject({ price, in_stock: true, extendable: true });
    const res = await rent(user.token, { countryId: "5", duration: "day", period: 1, price });
    expect(res.status).toBe(201);
    expect((await rentalRow(res.data.rental.id))!.upstream).toBe("herosms");

    await setHealth("herosms", "low");
    const before = await balanceOf(user.id);
    const refused = await rent(user.token, { countryId: "5", duration: "day", period: 1, price });
    expect(refused.status).toBe(502);
    expect(refused.data).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", message: "Number rental is temporarily unavailable. Please try another provider or try again later." });
    expect(await balanceOf(user.id)).toBe(before);
    expect(await rentalCount(user.id)).toBe(1);
  });

  it("a price sms-man's guard refuses passes to HeroSMS, whose own ceiling (herosms:rent) applies to it", async () => {
    const { SETTING_DEFAULTS } = await import("../../../schema/settings");
    await putSetting(db(), "sms_price_guard", { ...SETTING_DEFAULTS.sms_price_guard, service_ceilings: { "Dynamic:rent": 100 } });
    clearSettingsCache();
    const user = await createUser({ balanceKobo: 1_000_000 });
    const quote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    expect(quote.data).toMatchObject({ price: (await heroPriceKobo("5", "day", 1)) / 100, in_stock: true, extendable: true });

    await putSetting(db(), "sms_price_guard", { ...SETTING_DEFAULTS.sms_price_guard, service_ceilings: { "Dynamic:rent": 100, "herosms:rent": 100 } });
    clearSettingsCache();
    const both = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    expect(both.data).toMatchObject({ price: null, in_stock: false });
    await putSetting(db(), "sms_price_guard", SETTING_DEFAULTS.sms_price_guard);
    clearSettingsCache();
  });

  it("a live deployment without a HeroSMS key rents from sms-man only (nothing extendable); with one, from both", () => {
    const rentUpstreams = (bindings: Partial<Env>) => buildServices({ ...env, PROVIDERS: "live", SMSMAN_TOKEN: "t", ...bindings } as Env, { defer: () => undefined }).rent.rentUpstreams(null);
    expect(rentUpstreams({ HEROSMS_API_KEY: "" })).toEqual(["smsman"]);
    expect(rentUpstreams({ HEROSMS_API_KEY: "hero-key" })).toEqual(["smsman", "herosms"]);
  });
});

describe("/api/v1 rentals", () => {
  it("the quote says extendable and extendable_price; a rental asked extendable is HeroSMS's and says so; a bad extendable is a 400", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const headers = { authorization: `Bearer ${secret}` };
    const heroPrice = (await heroPriceKobo("5", "day", 1)) / 100;
    const quote = await api("/api/v1/rentals/quote?country=5&duration=day&period=1", { headers });
    expect(quote.status).toBe(200);
    expect(quote.data).toMatchObject({ price: 2016, in_stock: true, extendable: false, extendable_price: heroPrice });
    const asked = await api("/api/v1/rentals/quote?country=5&duration=day&period=1&extendable=true", { headers });
    expect(asked.data).toMatchObject({ price: heroPrice, in_stock: true, extendable: true, extendable_price: null });
    expect((await api("/api/v1/rentals/quote?country=5&duration=day&period=1&extendable=yes", { headers })).status).toBe(400);

    const res = await api("/api/v1/rentals", { method: "POST", headers: { ...headers, "idempotency-key": crypto.randomUUID() }, json: { country: "5", duration: "day", period: 1, extendable: true } });
    expect(res.status).toBe(201);
    started.push(res.data.id);
    expect(res.data).toMatchObject({ extendable: true, amount: heroPrice });
    expect((await rentalRow(res.data.id))!.upstream).toBe("herosms");
    expect(await balanceOf(user.id)).toBe(1_000_000 - Math.round(heroPrice * 100));
  });
});
