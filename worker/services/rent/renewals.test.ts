import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { configFor } from "../../config";
import { rentalProviderFor } from "../../providers/rent";
import { RentProviderError, type RentalExtension, type RentalProvider } from "../../providers/rent/types";
import { useTestUpstreams } from "../../test/services";
import { fixedClock, recordingNotify } from "../../test/flow-deps";
import { patchSandboxRental } from "../../test/rent-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { clearSettingsCache, OUTBOX_GRACE_MS, putSetting, sweepOutbox } from "../kernel";
import { stoppingAfterTheEventBatch } from "../../test/fault-seams";
import { rentalDeps } from "../../test/services";
import { rentalTick } from "./rentals";
import { DAY_REMINDER_BEFORE_MS, HOUR_REMINDER_BEFORE_MS, RENEW_BEFORE_END_MS, renewalTick, setAutoRenew } from "./renewals";

/**
 * Rentals that renew (issue 32). sms-man documents no extension, so the sandbox offers no auto-renew (checked over
 * HTTP below); the mechanism runs over the sandbox adapter plus an extension that answers like the SMS-Activate rent
 * protocol's getContinueRentPrice / continueRentNumber (https://sms.online/help/api-docs/continueRentNumber).
 */

const started: string[] = [];
const watcher = (id: string) => env.RENTAL.get(env.RENTAL.idFromName(id));

beforeAll(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  clearSettingsCache();
});

afterEach(async () => {
  useTestUpstreams({ rent: null });
  for (const id of started.splice(0)) await runInDurableObject(watcher(id), (_o, state) => state.storage.deleteAlarm());
});

/** US$0.10 an hour (₦896 for 4 hours at ₦1600 and 40%); `perHour` moves the price, `refuse` answers RENT_DIE. */
function protocolExtension(opts: { perHour?: number; refuse?: boolean } = {}) {
  const calls: { action: string; id: string; hours: number }[] = [];
  const state = { perHour: opts.perHour ?? 0.1, refuse: opts.refuse ?? false };
  const extension: RentalExtension = {
    async price(id, hours) {
      calls.push({ action: "getContinueRentPrice", id, hours });
      return { amount: Math.round(hours * state.perHour * 100) / 100, currency: "USD" };
    },
    async extend(id, hours) {
      calls.push({ action: "continueRentNumber", id, hours });
      if (state.refuse) throw new RentProviderError("refused", "RENT_DIE");
    },
  };
  return { extension, calls, state };
}

function providerWith(extension: RentalExtension): RentalProvider {
  const base = rentalProviderFor(env, configFor(env));
  return Object.assign(Object.create(base), { extension });
}

async function rentWithAutoRenew(extension: RentalExtension, { daysLeft = 3, balanceKobo = 1_000_000 } = {}) {
  const user = await createUser({ balanceKobo });
  const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
  expect(res.status).toBe(201);
  const id: string = res.data.rental.id;
  started.push(id);
  const row = await env.DB.prepare("SELECT upstream_id FROM rentals WHERE id = ?").bind(id).first<{ upstream_id: string }>();
  await patchSandboxRental(env.DB, row!.upstream_id, { firstSmsAt: Date.now() + 30 * 86_400_000 });
  const createdAt = Date.now() - 3_600_000;
  const expiresAt = createdAt + daysLeft * 86_400_000;
  await env.DB.prepare("UPDATE rentals SET created_at = ?, expires_at = ? WHERE id = ?").bind(createdAt, expiresAt, id).run();
  const pushes = recordingNotify();
  const clock = fixedClock(Date.now());
  const deps = { ...rentalDeps(env, configFor(env)), provider: () => providerWith(extension), clock, notify: pushes.notify };
  const customer = { id: user.id, totalDepositedKobo: 0 };
  await setAutoRenew(deps, customer, id, { enabled: true, unit: "hour", period: 4, price: 896 });
  return { user, customer, id, expiresAt, deps, clock, pushes, upstreamId: row!.upstream_id };
}

const renewalRows = async (id: string) =>
  (await env.DB.prepare("SELECT key, amount_kobo, kind FROM ledger WHERE ref = ? AND key LIKE 'rent_renew%' ORDER BY id").bind(id).all()).results;

describe("auto-renew", () => {
  it("is offered only where the upstream extends rentals, and turns on only at the price the customer confirmed", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
    started.push(res.data.rental.id);
    const noExtension = await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: user.token, json: { enabled: true, duration: "hour", period: 4, price: 896 } });
    expect(noExtension.status).toBe(409);
    expect(noExtension.data.message).toMatch(/does not allow renewing/);
    const stranger = await createUser();
    expect((await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: stranger.token, json: { enabled: false } })).status).toBe(404);
    expect((await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: user.token, json: { enabled: "yes" } })).status).toBe(400);

    const extending = providerWith(protocolExtension().extension);
    useTestUpstreams({ rent: () => extending });
    const wrong = await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: user.token, json: { enabled: true, duration: "hour", period: 4, price: 500 } });
    expect(wrong.status).toBe(409);
    expect(wrong.data).toMatchObject({ code: "PRICE_CHANGED", price: 896 });
    const on = await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: user.token, json: { enabled: true, duration: "hour", period: 4, price: 896 } });
    expect(on.status).toBe(200);
    expect(on.data.rental.auto_renew).toMatchObject({ duration: "4 hours", price: 896, paused: null });
    const off = await api(`/api/rentals/${res.data.rental.id}/auto-renew`, { token: user.token, json: { enabled: false } });
    expect(off.data.rental.auto_renew).toBeNull();
  });

  it("reminds 24 hours and 1 hour before (toast and rental.renewing, once each), telling a short wallet early", async () => {
    const { extension } = protocolExtension();
    const { user, id, expiresAt, deps, clock, pushes } = await rentWithAutoRenew(extension, { balanceKobo: 1_000_000 });
    const renewsAt = expiresAt - RENEW_BEFORE_END_MS;
    clock.set(renewsAt - DAY_REMINDER_BEFORE_MS + 1000);
    await Promise.all([renewalTick(deps, id), renewalTick(deps, id)]);
    const kinds = () => pushes.sent.map((p) => p.message.kind);
    expect(kinds()).toEqual(["toast", "rental.renewing"]);
    expect(pushes.sent[0].message).toMatchObject({ type: "info", message: expect.stringContaining("renews in 24 hours for ₦896.00") });
    expect(pushes.sent[1].message).toMatchObject({ rentalId: id, renewsAt: new Date(renewsAt).toISOString(), price: 896, funded: true });

    // The wallet empties before the last reminder: it says so, with the shortfall.
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, created_at) VALUES (?, ?, ?, 'admin', 'test', ?)").bind(user.id, `test:drain:${id}`, -(await balanceOf(user.id)) + 10_000, Date.now()).run();
    clock.set(renewsAt - HOUR_REMINDER_BEFORE_MS + 1000);
    await renewalTick(deps, id);
    await renewalTick(deps, id);
    expect(kinds()).toEqual(["toast", "rental.renewing", "toast", "rental.renewing"]);
    expect(pushes.sent[2].message).toMatchObject({ type: "warning", message: expect.stringContaining("₦796.00 short") });
    expect(pushes.sent[3].message).toMatchObject({ funded: false });
    expect(await renewalRows(id)).toEqual([]);

    // At the renewal the wallet is still short: paused and told; the rental runs to its end, then lapses.
    clock.set(renewsAt + 1000);
    await renewalTick(deps, id);
    expect(await renewalRows(id)).toEqual([]);
    expect(pushes.sent.at(-1)!.message).toMatchObject({ kind: "toast", message: expect.stringContaining("did not hold the ₦896.00") });
    const row = await env.DB.prepare("SELECT status, auto_renew_paused, expires_at FROM rentals WHERE id = ?").bind(id).first();
    expect(row).toEqual({ status: "active", auto_renew_paused: "funds", expires_at: expiresAt });
    await expectLedgerBalanced();
  });

  it("a worker stopped right after the renewal's charge loses no event: the charge and its balance.changed were one batch, and the sweep tells it once (issue 42)", async () => {
    const { extension } = protocolExtension();
    const { user, id, expiresAt, deps, clock, pushes } = await rentWithAutoRenew(extension);
    // Both reminders went out already: this tick is the renewal.
    await env.DB.prepare("UPDATE rentals SET reminded_at = 1, reminded_day_at = 1 WHERE id = ?").bind(id).run();
    const renewsAt = expiresAt - RENEW_BEFORE_END_MS;
    clock.set(renewsAt + 1000);
    const dying = { ...deps, db: stoppingAfterTheEventBatch(deps.db) };
    await expect(renewalTick(dying, id)).rejects.toThrow("the worker was stopped");
    expect((await renewalRows(id)).map((r) => r.kind)).toEqual(["rent"]);
    const pending = await env.DB.prepare("SELECT kind FROM outbox_events WHERE user_id = ? AND delivered_at IS NULL").bind(user.id).all();
    expect(pending.results).toEqual([{ kind: "balance.changed" }]);
    expect(pushes.sent.filter((p) => p.message.kind === "balance.changed")).toEqual([]);

    const later = { env, db: db(), notify: pushes.notify, clock: fixedClock(renewsAt + 1000 + OUTBOX_GRACE_MS + 1) };
    await Promise.all([sweepOutbox(later), sweepOutbox(later)]);
    expect(pushes.sent.filter((p) => p.userId === user.id && p.message.kind === "balance.changed")).toEqual([{ userId: user.id, message: { kind: "balance.changed", balance: (await balanceOf(user.id)) / 100 } }]);
    await expectLedgerBalanced();
  });

  it("charges the agreed price once even when two alarms race the renewal, and moves the expiry once", async () => {
    const { extension, calls } = protocolExtension();
    const provider = providerWith(extension);
    useTestUpstreams({ rent: () => provider });
    const { user, id, expiresAt, deps } = await rentWithAutoRenew(extension, { daysLeft: 1 });
    // Real time now sits inside the renewal window (the Durable Object's alarm reads the real clock).
    const end = Date.now() + RENEW_BEFORE_END_MS - 60_000;
    await env.DB.prepare("UPDATE rentals SET expires_at = ?, reminded_at = ?, reminded_day_at = ? WHERE id = ?").bind(end, Date.now(), Date.now(), id).run();
    const before = await balanceOf(user.id);
    const realDeps = { ...deps, clock: { now: () => Date.now() } };

    await Promise.all([runDurableObjectAlarm(watcher(id)), rentalTick(realDeps, id), rentalTick(realDeps, id)]);

    expect(await renewalRows(id)).toEqual([{ key: `rent_renew:${id}:${end}`, amount_kobo: -89_600, kind: "rent" }]);
    expect(await balanceOf(user.id)).toBe(before - 89_600);
    expect(calls.filter((c) => c.action === "continueRentNumber")).toHaveLength(1);
    const row = await env.DB.prepare("SELECT expires_at, renewed_expiry, reminded_at, reminded_day_at FROM rentals WHERE id = ?").bind(id).first();
    expect(row).toEqual({ expires_at: end + 4 * 3_600_000, renewed_expiry: end, reminded_at: null, reminded_day_at: null });
    expect(expiresAt).not.toBe(end);
    await expectLedgerBalanced();
  });

  it("asks before a higher price (pauses, charges nothing) and refunds once when the provider refuses", async () => {
    const dear = protocolExtension();
    const a = await rentWithAutoRenew(dear.extension);
    dear.state.perHour = 0.2;
    a.clock.set(a.expiresAt - RENEW_BEFORE_END_MS + 1000);
    await renewalTick(a.deps, a.id);
    expect(await renewalRows(a.id)).toEqual([]);
    expect(dear.calls.some((c) => c.action === "continueRentNumber")).toBe(false);
    expect(a.pushes.sent.at(-1)!.message).toMatchObject({ kind: "toast", message: expect.stringContaining("now costs ₦1,792.00, more than the ₦896.00 you agreed") });
    const view = await api(`/api/rentals/${a.id}`, { token: a.user.token });
    expect(view.data.rental.auto_renew).toMatchObject({ paused: "price", renews_at: null });

    const refusing = protocolExtension({ refuse: true });
    const b = await rentWithAutoRenew(refusing.extension);
    b.clock.set(b.expiresAt - RENEW_BEFORE_END_MS + 1000);
    const before = await balanceOf(b.user.id);
    await Promise.all([renewalTick(b.deps, b.id), renewalTick(b.deps, b.id)]);
    expect(await renewalRows(b.id)).toEqual([
      { key: `rent_renew:${b.id}:${b.expiresAt}`, amount_kobo: -89_600, kind: "rent" },
      { key: `rent_renew_refund:${b.id}:${b.expiresAt}`, amount_kobo: 89_600, kind: "rent_refund" },
    ]);
    expect(await balanceOf(b.user.id)).toBe(before);
    // The charge and its refund each tell developer webhooks, once, through the outbox (decision 040).
    const events = await env.DB.prepare("SELECT dedupe_key FROM outbox_events WHERE user_id = ? AND kind = 'balance.changed' ORDER BY dedupe_key").bind(b.user.id).all<{ dedupe_key: string }>();
    expect(events.results.map((e) => e.dedupe_key)).toEqual([`balance.changed:rent_renew:${b.id}:${b.expiresAt}`, `balance.changed:rent_renew_refund:${b.id}:${b.expiresAt}`]);
    expect((await env.DB.prepare("SELECT auto_renew_paused FROM rentals WHERE id = ?").bind(b.id).first())?.auto_renew_paused).toBe("provider");
    await expectLedgerBalanced();
  });
});
