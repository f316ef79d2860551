import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fundedSubaccount, getWithKey, newReseller, postWithKey, putWithKey } from "../test/api-fixtures";
import { api, balanceOf, db, expectLedgerBalanced } from "../test/helpers";
import { patchSandboxRental } from "../test/rent-fixtures";
import { rentalDeps } from "../test/services";
import { clearSettingsCache, putSetting } from "../services/kernel";
import { settleRentalNow, sweepRentals } from "../services/rent";

/**
 * Issue 46, markups on rentals (docs/decisions/076): a sub-account renting (X-Subaccount) is quoted and charged the
 * reseller's rental price plus its flat markup; the margin is credited to the reseller by the move that keeps the rental
 * for good (ended by the bot, or expired), never while it can still be refunded, and never for a rental cancelled for a
 * refund. Against the sandbox rent simulator (USA = country 5, one hour: ₦268.80 at these settings).
 */

vi.setConfig({ testTimeout: 60_000 });
const rented: string[] = [];

beforeAll(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  clearSettingsCache();
});

// Durable Object alarms outlive a test: every watcher a test started is silenced before the next.
afterEach(async () => {
  for (const id of rented.splice(0)) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
  }
});


const HOUR = { country: "5", duration: "hour", period: 1 };
const quoteOf = async (secret: string, extra: Record<string, string> = {}) => (await getWithKey("/api/v1/rentals/quote?country=5&duration=hour&period=1", secret, extra)).data.price as number;

/** Rents as the sub-account; its sandbox number gets no SMS for a while (so a cancel is refunded). */
async function rentAs(r: { secret: string }, sub: string, maxPrice?: number) {
  const res = await postWithKey("/api/v1/rentals", r.secret, { ...HOUR, ...(maxPrice === undefined ? {} : { max_price: maxPrice }) }, { "x-subaccount": sub });
  if (res.status === 201) {
    rented.push(res.data.id);
    const row = await env.DB.prepare("SELECT upstream_id FROM rentals WHERE id = ?").bind(res.data.id).first<{ upstream_id: string }>();
    await patchSandboxRental(env.DB, row!.upstream_id, { firstSmsAt: Date.now() + 3_600_000 });
  }
  return res;
}

const ledgerOf = async (ref: string) =>
  (await env.DB.prepare("SELECT user_id, amount_kobo, key, kind FROM ledger WHERE ref = ? ORDER BY id").bind(ref).all<{ user_id: string; amount_kobo: number; key: string; kind: string }>()).results;

describe("markups on a sub-account's rentals", () => {
  it("the quote is the price charged; the margin is credited when the bot ends the rental, once, and told", async () => {
    const r = await newReseller();
    const sub = await fundedSubaccount(r);
    const baseKobo = Math.round((await quoteOf(r.secret)) * 100);
    // Rentals sell no one service: the flat markup applies, a per-service one does not.
    expect((await putWithKey("/api/v1/markups", r.secret, { percent: 12.5, services: { wa: 50 } })).status).toBe(200);
    const marginKobo = Math.floor((baseKobo * 1250) / 10_000);
    expect(Math.round((await quoteOf(r.secret)) * 100)).toBe(baseKobo); // the reseller's own price is unchanged
    const shown = await quoteOf(r.secret, { "x-subaccount": sub });
    expect(Math.round(shown * 100)).toBe(baseKobo + marginKobo);

    // A price shown without the markup is below what is charged: refused, nothing moved.
    const stale = await rentAs(r, sub, baseKobo / 100);
    expect(stale.status).toBe(409);
    expect(await balanceOf(sub)).toBe(500_000);

    const parentBefore = await balanceOf(r.id);
    const bought = await rentAs(r, sub, shown);
    expect(bought.status).toBe(201);
    expect(bought.data).toMatchObject({ amount: shown, subaccount_id: sub });
    expect(await balanceOf(sub)).toBe(500_000 - (baseKobo + marginKobo));
    // Still refundable (cancel window, no SMS): no margin yet.
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`rent:${bought.data.id}`]);
    expect(await balanceOf(r.id)).toBe(parentBefore);

    const ended = await postWithKey(`/api/v1/rentals/${bought.data.id}/end`, r.secret, {}, { "x-subaccount": sub });
    expect(ended.data.status).toBe("ended");
    expect(await ledgerOf(bought.data.id)).toEqual([
      { user_id: sub, amount_kobo: -(baseKobo + marginKobo), key: `rent:${bought.data.id}`, kind: "rent" },
      { user_id: r.id, amount_kobo: marginKobo, key: `rent_margin:${bought.data.id}`, kind: "margin" },
    ]);
    expect(await balanceOf(r.id)).toBe(parentBefore + marginKobo);
    const told = await env.DB.prepare("SELECT user_id, kind FROM outbox_events WHERE dedupe_key = ?").bind(`balance.changed:rent_margin:${bought.data.id}`).first();
    expect(told).toEqual({ user_id: r.id, kind: "balance.changed" });
    // Ending again moves nothing; the partner figures count the rental's margin and spend.
    expect((await postWithKey(`/api/v1/rentals/${bought.data.id}/end`, r.secret, {}, { "x-subaccount": sub })).status).toBe(409);
    expect((await ledgerOf(bought.data.id)).length).toBe(2);
    expect((await api("/api/reseller", { token: r.token })).data).toMatchObject({ margin_earned: marginKobo / 100, subaccount_spend: (baseKobo + marginKobo) / 100 });
    await expectLedgerBalanced();
  });

  it("a rental cancelled for a refund never credits a margin: the sub-account gets back all it paid", async () => {
    const r = await newReseller();
    const sub = await fundedSubaccount(r);
    await putWithKey("/api/v1/markups", r.secret, { percent: 40 });
    const parentBefore = await balanceOf(r.id);
    const bought = await rentAs(r, sub);
    expect(bought.status).toBe(201);
    const cancelled = await postWithKey(`/api/v1/rentals/${bought.data.id}/cancel`, r.secret, {}, { "x-subaccount": sub });
    expect(cancelled.data.status).toBe("cancelled");
    expect(await balanceOf(sub)).toBe(500_000);
    expect(await balanceOf(r.id)).toBe(parentBefore);
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`rent:${bought.data.id}`, `rent_refund:${bought.data.id}`]);
    // The margin recorded on the row is never credited after: nothing else moves a cancelled rental.
    await expect(settleRentalNow(rentalDeps(env), bought.data.id, Date.now() + 2 * 3_600_000)).rejects.toMatchObject({ code: "INVALID_STATE" });
    expect((await ledgerOf(bought.data.id)).some((x) => x.kind === "margin")).toBe(false);
    await expectLedgerBalanced();
  });

  it("an expired rental credits its margin (the watcher or the sweep), once; the reseller's own rentals carry none", async () => {
    const r = await newReseller();
    const sub = await fundedSubaccount(r);
    await putWithKey("/api/v1/markups", r.secret, { percent: 10 });
    const bought = await rentAs(r, sub);
    expect(bought.status).toBe(201);
    const row = await env.DB.prepare("SELECT price_kobo, margin_kobo, margin_user_id FROM rentals WHERE id = ?").bind(bought.data.id).first<{ price_kobo: number; margin_kobo: number; margin_user_id: string }>();
    expect(row!.margin_user_id).toBe(r.id);
    expect(row!.margin_kobo).toBe(Math.floor(((row!.price_kobo - row!.margin_kobo) * 1000) / 10_000));
    const parentBefore = await balanceOf(r.id);
    const later = Date.now() + 2 * 3_600_000;
    // The sweep twice at once (as a late watcher alarm would race it): one ends it.
    await Promise.all([sweepRentals(rentalDeps(env), later), sweepRentals(rentalDeps(env), later)]);
    expect((await env.DB.prepare("SELECT status FROM rentals WHERE id = ?").bind(bought.data.id).first())?.status).toBe("ended");
    expect(await balanceOf(r.id)).toBe(parentBefore + row!.margin_kobo);
    expect((await ledgerOf(bought.data.id)).filter((x) => x.key === `rent_margin:${bought.data.id}`)).toHaveLength(1);

    // The reseller renting for itself: its own price, no margin row.
    const own = await postWithKey("/api/v1/rentals", r.secret, HOUR);
    expect(own.status).toBe(201);
    rented.push(own.data.id);
    expect(Math.round(own.data.amount * 100)).toBe(row!.price_kobo - row!.margin_kobo);
    expect((await postWithKey(`/api/v1/rentals/${own.data.id}/end`, r.secret, {})).data.status).toBe("ended");
    expect((await ledgerOf(own.data.id)).some((x) => x.kind === "margin")).toBe(false);
    await expectLedgerBalanced();
  });
});
