import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_WHOLESALE_TIERS } from "../../schema/settings";
import { WHOLESALE_WINDOW_MS } from "../db/wholesale-volume";
import { buyerOf, clearSettingsCache, getSetting, postEntry } from "../services/kernel";
import { refreshWholesaleVolumes, WHOLESALE_REFRESH_BATCH, WHOLESALE_REFRESH_MS } from "../services/resellers";
import { createKey, getWithKey, handler, keyAuth, newReseller, postWithKey } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { makeOperator } from "../test/operators";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

/**
 * Issue 46, wholesale tiers (docs/decisions/074): a reseller's price falls with its last-30-day spend (its own and its
 * sub-accounts' kept purchases and rentals, at our price), kept as a stored figure refreshed on the grant and by the
 * cron, cleared on revocation. The discount is the better of the deposit tier and the wholesale tier; the price shown
 * (GET prices, the SMS-Activate getPrices, the web's list) is the price charged.
 */

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const DAY = 24 * 3600 * 1000;

const volumeOf = async (id: string) => (await env.DB.prepare("SELECT wholesale_volume_kobo AS v, wholesale_volume_at AS at FROM users WHERE id = ?").bind(id).first<{ v: number | null; at: number | null }>())!;
const setVolume = (id: string, kobo: number | null) => env.DB.prepare("UPDATE users SET wholesale_volume_kobo = ?, wholesale_volume_at = ? WHERE id = ?").bind(kobo, Date.now(), id).run();
const entry = (userId: string, kind: "buy" | "refund" | "rent" | "rent_refund" | "margin" | "transfer" | "fund", amountKobo: number, at: number) =>
  postEntry(db(), { at, userId, key: `test:${kind}:${crypto.randomUUID()}`, amountKobo, kind, note: "test row" });
const v1Price = async (secret: string, extra: Record<string, string> = {}) =>
  ((await getWithKey("/api/v1/prices?provider=Swift&country=5", secret, extra)).data.data as { service: string; price: number }[]).find((p) => p.service === "wa")!.price;

/**
 * The cron's refresh run as often as the backlog needs at `now` (each run takes at most WHOLESALE_REFRESH_BATCH, the
 * stalest first): other files' resellers share this database, so one run may not reach this test's. How many it refreshed.
 */
async function refreshUntilCurrent(now: number): Promise<number> {
  let total = 0;
  for (let run = 0; run < 100; run++) {
    const refreshed = await refreshWholesaleVolumes(db(), now);
    total += refreshed;
    if (refreshed < WHOLESALE_REFRESH_BATCH) return total;
  }
  throw new Error("the refresh never caught up");
}

describe("a reseller's 30-day volume", () => {
  it("counts its own and its sub-accounts' purchases and rentals net of refunds and margins, not older than 30 days, not another's", async () => {
    const r = await newReseller(5_000_000);
    const sub = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Ada", external_id: "tg-1" });
    expect((await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, r.secret, { amount: 10_000 })).status).toBe(201);
    const subId = sub.data.id as string;
    const other = await newReseller(1_000_000);
    const now = Date.now();

    await entry(r.id, "buy", -100_000, now - DAY); // ₦1,000 own purchase
    await entry(r.id, "rent", -300_000, now - 2 * DAY); // ₦3,000 rental
    await entry(r.id, "rent_refund", 300_000, now - 2 * DAY + 60_000); // … refunded
    await entry(subId, "buy", -55_000, now - 3 * DAY); // the sub-account's ₦550 (₦500 ours + ₦50 markup)
    await entry(r.id, "margin", 5_000, now - 3 * DAY + 60_000); // the reseller's margin: not volume
    await entry(subId, "buy", -20_000, now - 4 * DAY); // a ₦200 purchase…
    await entry(subId, "refund", 20_000, now - 4 * DAY + 60_000); // … refunded
    await entry(r.id, "buy", -400_000, now - WHOLESALE_WINDOW_MS - DAY); // older than 30 days
    await entry(other.id, "buy", -700_000, now - DAY); // another reseller's

    // Both were computed (as 0) when they became resellers: the cron recomputes them once that figure is an hour old.
    const later = now + WHOLESALE_REFRESH_MS + 1;
    expect(await refreshUntilCurrent(later)).toBeGreaterThanOrEqual(2);
    // ₦1,000 + ₦500 = ₦1,500: the transfer into the sub-account is not spend either.
    expect(await volumeOf(r.id)).toEqual({ v: 150_000, at: later });
    expect((await volumeOf(other.id)).v).toBe(700_000);
    // Not a reseller: no figure.
    const plain = await createUser({ balanceKobo: 100_000 });
    await entry(plain.id, "buy", -50_000, now);
    await refreshUntilCurrent(later + WHOLESALE_REFRESH_MS);
    expect((await volumeOf(plain.id)).v).toBeNull();
    await expectLedgerBalanced();
  });

  it("is refreshed at most hourly by the cron, and at once on becoming a reseller", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    await entry(user.id, "buy", -80_000, Date.now() - DAY);
    expect((await volumeOf(user.id)).v).toBeNull();
    // Accepting the terms computes it in the same batch as the role.
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).status).toBe(200);
    expect((await volumeOf(user.id)).v).toBe(80_000);

    await entry(user.id, "buy", -20_000, Date.now());
    const at = (await volumeOf(user.id)).at!;
    await refreshUntilCurrent(at + WHOLESALE_REFRESH_MS - 1);
    expect((await volumeOf(user.id)).v).toBe(80_000); // less than an hour old: left
    await refreshUntilCurrent(at + WHOLESALE_REFRESH_MS + 1);
    expect(await volumeOf(user.id)).toEqual({ v: 100_000, at: at + WHOLESALE_REFRESH_MS + 1 });
  });

  it("a revoked reseller loses it (and its wholesale price) in the revocation's batch; the cron does not bring it back", async () => {
    const r = await newReseller(2_000_000);
    await setVolume(r.id, 100_000_000); // ₦1,000,000: Wholesale 10
    expect(await v1Price(r.secret)).toBe(1080);
    const operator = await makeOperator();
    const revoke = await api("/api/admin/resellers", { token: operator.token, json: { email: r.email, grant: false, reason: "abuse" } });
    expect(revoke.status).toBe(200);
    expect(await volumeOf(r.id)).toEqual({ v: null, at: null });
    await refreshUntilCurrent(Date.now() + 2 * WHOLESALE_REFRESH_MS);
    expect((await volumeOf(r.id)).v).toBeNull();
    const retail = await createUser();
    expect((await api("/api/sms/price?id=5&provider=Swift", { token: r.token })).data.wa.price).toBe(1200);
    expect((await api("/api/sms/price?id=5&provider=Swift", { token: retail.token })).data.wa.price).toBe(1200);
    expect((await api("/api/reseller", { token: r.token })).data.wholesale).toBeNull();
  });
});

describe("the wholesale price", () => {
  // WhatsApp in the USA costs the sandbox $0.50: ₦800 base × 1.5 = ₦1,200 at the starter tier (decision 018).
  const tiers: [number, number][] = [
    [0, 1200], // Partner: 0%
    [25_000_000, 1140], // ₦250,000: 5%
    [100_000_000, 1080], // ₦1,000,000: 10%
    [500_000_000, 1020], // ₦5,000,000: 15%
  ];

  it("at each tier: GET prices, the web's list, getPrices and the purchase all say and charge the same", async () => {
    for (const [volumeKobo, naira] of tiers) {
      const r = await newReseller(2_000_000);
      await setVolume(r.id, volumeKobo);
      expect(await v1Price(r.secret)).toBe(naira);
      expect((await api("/api/sms/price?id=5&provider=Swift", { token: r.token })).data.wa.price).toBe(naira);
      const usa = (await handler({ api_key: r.secret, action: "getPrices", country: 187, service: "wa" })).json as Record<string, Record<string, { cost: number }>>;
      expect(usa["187"].wa.cost).toBe(naira);
      const before = await balanceOf(r.id);
      const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa", max_price: naira });
      expect(bought.status).toBe(201);
      expect(bought.data.price).toBe(naira);
      await pollerOf(bought.data.id).stop();
      expect(before - (await balanceOf(r.id))).toBe(naira * 100);
    }
    await expectLedgerBalanced();
  });

  it("the web's quote and purchase at a wholesale tier; a rental's quote and charge too", async () => {
    const r = await newReseller(5_000_000);
    await setVolume(r.id, 25_000_000);
    // The buy form's offer (the quote the web shows before the tap), then the purchase at it.
    expect((await api("/api/sms/offer?provider=Swift&country=5&service=wa", { token: r.token })).data.price).toBe(1140);
    const bought = await api("/api/sms/get-number", { token: r.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(bought.status).toBe(200);
    expect(bought.data.price).toBe(1140);
    await pollerOf(bought.data.phone.request_id).stop();

    // A rental: the quote at 5% off the starter quote, and the charge equals the quote.
    const starter = await createKey(await createUser(), "live");
    const starterQuote = (await getWithKey("/api/v1/rentals/quote?country=5&duration=hour&period=1", starter.secret)).data;
    const quote = (await getWithKey("/api/v1/rentals/quote?country=5&duration=hour&period=1", r.secret)).data;
    expect(Math.abs(quote.price - Math.round(starterQuote.price * 95) / 100)).toBeLessThanOrEqual(0.01);
    const before = await balanceOf(r.id);
    const rented = await postWithKey("/api/v1/rentals", r.secret, { country: "5", duration: "hour", period: 1, max_price: quote.price });
    expect(rented.status).toBe(201);
    expect(before - (await balanceOf(r.id))).toBe(Math.round(quote.price * 100));
  });

  it("is the better of the deposit tier and the wholesale tier, never both", async () => {
    const r = await newReseller(2_000_000);
    await postEntry(db(), { at: Date.now(), userId: r.id, key: `fund:squad:elite-${r.id}`, amountKobo: 200_000_000, kind: "fund", note: "Wallet deposit (card)" });
    await setVolume(r.id, 25_000_000); // wholesale 5%, deposits Elite 10%: 10% wins
    expect(await v1Price(r.secret)).toBe(1080);
    await setVolume(r.id, 500_000_000); // wholesale 15% beats Elite: 15%, not 25%
    expect(await v1Price(r.secret)).toBe(1020);
  });

  it("a sub-account is priced at its reseller's wholesale tier plus the markup; a test key's sandbox wallet like the live one", async () => {
    const r = await newReseller(2_000_000);
    await setVolume(r.id, 100_000_000); // 10%: ₦1,080
    const sub = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Ada", external_id: "tg-2" });
    expect((await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, r.secret, { amount: 5_000 })).status).toBe(201);
    expect((await api("/api/v1/markups", { method: "PUT", headers: keyAuth(r.secret), json: { percent: 10 } })).status).toBe(200);
    const marked = await v1Price(r.secret, { "x-subaccount": sub.data.id });
    expect(marked).toBe(1188); // ₦1,080 + floor(10%) = ₦108
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa", max_price: marked }, { "x-subaccount": sub.data.id });
    expect(bought.status).toBe(201);
    expect(await balanceOf(sub.data.id)).toBe(500_000 - 118_800);
    const test = await createKey(r, "test");
    expect(await v1Price(test.secret)).toBe(1080);
    // Outside a request (a chain's next route, a renewal), a sub-account's wallet is priced with its reseller's figures.
    expect(await buyerOf(db(), sub.data.id)).toEqual({ totalDepositedKobo: 0, wholesaleVolumeKobo: 100_000_000 });
    expect(await buyerOf(db(), "no-such-wallet")).toEqual({ totalDepositedKobo: 0, wholesaleVolumeKobo: null });
  });
});

describe("the wholesale_tiers setting", () => {
  it("is public, and the console's change is validated (bad tiers 400, nothing written) and audited", async () => {
    const listed = await api("/api/wholesale-tiers");
    expect(listed.status).toBe(200);
    expect(listed.data.data).toEqual(DEFAULT_WHOLESALE_TIERS);

    const operator = await makeOperator();
    const change = (value: unknown) => api("/api/admin/settings/wholesale_tiers", { method: "PATCH", token: operator.token, json: { value, reason: "volume pricing" } });
    for (const [value, message] of [
      [[{ name: "Big", threshold: 100, percentage: 5 }], /starts at ₦0/],
      [[{ name: "A", threshold: 0, percentage: 0 }, { name: "B", threshold: 0, percentage: 5 }], /Two wholesale tiers start at ₦0/],
      [[{ name: "A", threshold: 0, percentage: 5 }, { name: "B", threshold: 1000, percentage: 2 }], /gives less off/],
      [[{ name: "A", threshold: 0, percentage: 60 }], /at most 50%/],
      [[{ name: "A", threshold: -1, percentage: 0 }], /at least ₦0/],
      [[{ name: " ", threshold: 0, percentage: 0 }], /Name each/],
      [[{ name: "A", threshold: 0, percentage: 0 }, { name: "a", threshold: 10, percentage: 1 }], /its own name/],
      [[], /at least one/],
    ] as const) {
      const res = await change(value);
      expect(res.status).toBe(400);
      expect(res.data.message).toMatch(message);
    }
    clearSettingsCache();
    expect(await getSetting(db(), "wholesale_tiers")).toEqual(DEFAULT_WHOLESALE_TIERS);
    const history = (await api("/api/admin/settings", { token: operator.token })).data.history as { subject: string }[];
    expect(history.filter((h) => h.subject === "wholesale_tiers")).toEqual([]);

    const next = [
      { name: "Start", threshold: 0, percentage: 0 },
      { name: "Volume", threshold: 100_000, percentage: 8 },
    ];
    const saved = await change(next);
    expect(saved.status).toBe(200);
    clearSettingsCache();
    expect((await api("/api/wholesale-tiers")).data.data).toEqual(next);
    expect((await api("/api/admin/settings", { token: operator.token })).data.history[0]).toMatchObject({ subject: "wholesale_tiers", reason: "volume pricing" });
    // The new tiers price at once: ₦100,000 of spend earns 8% (₦1,104).
    const r = await newReseller(2_000_000);
    await setVolume(r.id, 10_000_000);
    expect(await v1Price(r.secret)).toBe(1104);
    expect((await api("/api/reseller", { token: r.token })).data.wholesale).toMatchObject({ spend_30d: 100_000, tier: { name: "Volume", percentage: 8 }, next: null });
    await change(DEFAULT_WHOLESALE_TIERS);
    clearSettingsCache();
  });

  it("the partner dashboard's figure: the tier, the 30-day spend and what the next tier needs", async () => {
    const r = await newReseller(2_000_000);
    await setVolume(r.id, 30_000_000); // ₦300,000
    expect((await api("/api/reseller", { token: r.token })).data.wholesale).toMatchObject({
      spend_30d: 300_000,
      tier: { name: "Wholesale 5", threshold: 250_000, percentage: 5 },
      next: { name: "Wholesale 10", threshold: 1_000_000, percentage: 10, remaining: 700_000 },
    });
    const customer = await createUser();
    expect((await api("/api/reseller", { token: customer.token })).data.wholesale).toBeNull();
  });
});
