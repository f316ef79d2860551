import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime } from "../../schema/datetime";
import { loadConfig } from "../config";
import { rentalProviderFor } from "../providers/rent";
import { readSandboxRental } from "../sandbox/rent-simulator";
import { patchSandboxRental } from "../test/rent-fixtures";
import { nextAlarmAt, nextCheckDelayMs, reminderDueAt, RENTAL_REMINDER_BEFORE_MS, rentalOrderRowsQuery, rentalTick, sweepRentals, toRentalOrderRows } from "../services/rent";
import { RentProviderError, type RentalProvider } from "../providers/rent/types";
import { clearSettingsCache, notify, putSetting } from "../services/kernel";
import { rentalDeps } from "../test/services";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { joinOwnRoom } from "../test/sockets";
import { fixedClock, recordingNotify } from "../test/flow-deps";

/**
 * A rental's life, driven through its Durable Object's alarm (runDurableObjectAlarm) against the sandbox rent simulator.
 * The test environment delivers the first sandbox SMS at once (SANDBOX_SMS_DELAY_MS=0); tests that need a quiet number
 * move that SMS far into the future in the simulator's state.
 */

const PRICE_KOBO = 26_880; // USA, 1 hour: $0.12 × 1600 × 1.4
const started: string[] = [];

beforeAll(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  clearSettingsCache();
});

afterEach(async () => {
  for (const id of started.splice(0)) {
    await runInDurableObject(watcher(id), (_obj, state) => state.storage.deleteAlarm());
  }
});

const watcher = (id: string) => env.RENTAL.get(env.RENTAL.idFromName(id));

async function rentUsaHour(opts: { quiet?: boolean } = {}) {
  const user = await createUser({ balanceKobo: 100_000 });
  const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "hour", period: 1 } });
  expect(res.status).toBe(201);
  const id: string = res.data.rental.id;
  started.push(id);
  const row = await env.DB.prepare("SELECT upstream_id FROM rentals WHERE id = ?").bind(id).first<{ upstream_id: string }>();
  const upstreamId = row!.upstream_id;
  if (opts.quiet) await patchSandboxRental(env.DB, upstreamId, { firstSmsAt: Date.now() + 3_600_000 });
  return { user, id, upstreamId };
}

const rentalRow = (id: string) =>
  env.DB.prepare("SELECT status, sms_count, expires_at FROM rentals WHERE id = ?").bind(id).first<{ status: string; sms_count: number; expires_at: number }>();
const messageCount = async (id: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM rental_messages WHERE rental_id = ?").bind(id).first<{ n: number }>())!.n;
const refundRows = async (id: string) =>
  (await env.DB.prepare("SELECT amount_kobo FROM ledger WHERE key = ?").bind(`rent_refund:${id}`).all()).results;

describe("the rental watcher", () => {
  it("is scheduled when the number is rented and stores each SMS once, however often it polls", async () => {
    const { id } = await rentUsaHour();
    // Polled by the alarm twice and on demand once: the same upstream SMS stays one row.
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    await runInDurableObject(watcher(id), async (obj) => {
      await obj.checkNow(id);
    });
    expect(await messageCount(id)).toBe(1);
    expect((await rentalRow(id))?.sms_count).toBe(1);
    // Still active: the alarm keeps checking.
    await runInDurableObject(watcher(id), async (_obj, state) => {
      expect(await state.storage.getAlarm()).not.toBeNull();
    });
  });

  it("closes the rental upstream at expiry, refunds nothing and stops", async () => {
    const { user, id, upstreamId } = await rentUsaHour({ quiet: true });
    await env.DB.prepare("UPDATE rentals SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, id).run();
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    expect((await rentalRow(id))?.status).toBe("ended");
    expect((await readSandboxRental(env.DB, upstreamId))?.status).toBe("closed");
    expect(await balanceOf(user.id)).toBe(100_000 - PRICE_KOBO);
    expect(await refundRows(id)).toEqual([]);
    // Nothing left to do: no further alarm, and a repeated one changes nothing.
    expect(await runDurableObjectAlarm(watcher(id))).toBe(false);
    await expectLedgerBalanced();
  });

  it("keeps its schedule when the upstream fails instead of throwing (a thrown alarm is retried a few times, then lost)", async () => {
    const { id, upstreamId } = await rentUsaHour({ quiet: true });
    // The simulated upstream no longer knows the rental: get-all-sms answers an error.
    await env.DB.prepare("DELETE FROM sandbox_state WHERE key = ?").bind(`rent:${upstreamId}`).run();
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    await runInDurableObject(watcher(id), async (_obj, state) => {
      expect(await state.storage.getAlarm()).not.toBeNull();
    });
    expect((await rentalRow(id))?.status).toBe("active");
  });

  it("schedules checks often at first, then less often, never past the expiry", async () => {
    expect(nextCheckDelayMs(0)).toBe(5_000);
    expect(nextCheckDelayMs(119_000)).toBe(5_000);
    expect(nextCheckDelayMs(3 * 60_000)).toBe(30_000);
    expect(nextCheckDelayMs(20 * 60_000)).toBe(120_000);
    const { user, id } = await rentUsaHour({ quiet: true });
    const expiresSoon = Date.now() + 2_000;
    await env.DB.prepare("UPDATE rentals SET expires_at = ?, created_at = ? WHERE id = ?").bind(expiresSoon, Date.now() - 30 * 60_000, id).run();
    await runDurableObjectAlarm(watcher(id));
    await runInDurableObject(watcher(id), async (_obj, state) => {
      expect(await state.storage.getAlarm()).toBe(expiresSoon);
    });
    // Leave nothing due behind for the sweep test.
    expect((await api(`/api/rentals/${id}/end`, { token: user.token, json: {} })).status).toBe(200);
  });
});

describe("early cancel", () => {
  it("refunds exactly once when the upstream allows it, and the watcher stops", async () => {
    const { user, id, upstreamId } = await rentUsaHour({ quiet: true });
    const first = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ refunded: true, rental: { status: "cancelled", can_cancel: false } });
    expect(await balanceOf(user.id)).toBe(100_000);
    expect((await readSandboxRental(env.DB, upstreamId))?.status).toBe("cancelled");

    const again = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(again.status).toBe(409);
    expect(await refundRows(id)).toEqual([{ amount_kobo: PRICE_KOBO }]);
    expect(await balanceOf(user.id)).toBe(100_000);
    expect(await runDurableObjectAlarm(watcher(id))).toBe(false);
    await expectLedgerBalanced();
  });

  it("never refunds after an SMS arrived, even one the watcher has not fetched yet", async () => {
    const { user, id } = await rentUsaHour(); // the sandbox SMS is already upstream, not yet stored
    expect(await messageCount(id)).toBe(0);
    const res = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe(
      "This number has already received an SMS, so it can no longer be cancelled for a refund. You can end the rental instead.",
    );
    expect(await messageCount(id)).toBe(1);
    expect((await rentalRow(id))?.status).toBe("active");
    expect(await refundRows(id)).toEqual([]);
    expect(await balanceOf(user.id)).toBe(100_000 - PRICE_KOBO);
    await expectLedgerBalanced();
  });

  it("is refused after the upstream's 20-minute window", async () => {
    const { user, id } = await rentUsaHour({ quiet: true });
    await env.DB.prepare("UPDATE rentals SET created_at = ? WHERE id = ?").bind(Date.now() - 21 * 60_000, id).run();
    const res = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe("A rental can only be cancelled for a refund within 20 minutes. You can end the rental instead.");
    expect(await refundRows(id)).toEqual([]);
  });

  it("is refused when the upstream says no, with nothing refunded", async () => {
    const { user, id, upstreamId } = await rentUsaHour({ quiet: true });
    // The upstream's own clock says the window has passed, though ours does not yet.
    await patchSandboxRental(env.DB, upstreamId, { createdAt: Date.now() - 30 * 60_000 });
    const res = await api(`/api/rentals/${id}/cancel`, { token: user.token, json: {} });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe("The provider did not allow this rental to be cancelled. You can end the rental instead.");
    expect((await rentalRow(id))?.status).toBe("active");
    expect(await refundRows(id)).toEqual([]);
  });
});

describe("ending early", () => {
  it("closes upstream, refunds nothing, and cannot be repeated", async () => {
    const { user, id, upstreamId } = await rentUsaHour({ quiet: true });
    const res = await api(`/api/rentals/${id}/end`, { token: user.token, json: {} });
    expect(res.status).toBe(200);
    expect(res.data.rental).toMatchObject({ status: "ended", can_cancel: false });
    expect((await readSandboxRental(env.DB, upstreamId))?.status).toBe("closed");
    expect(await balanceOf(user.id)).toBe(100_000 - PRICE_KOBO);
    expect((await api(`/api/rentals/${id}/end`, { token: user.token, json: {} })).status).toBe(409);
    expect(await runDurableObjectAlarm(watcher(id))).toBe(false);
    await expectLedgerBalanced();
  });
});

describe("orders and the sweep", () => {
  it("lists rentals as orders with expiry, SMS count and whether they can be cancelled", async () => {
    const { user, id } = await rentUsaHour();
    await runDurableObjectAlarm(watcher(id));
    const rows = toRentalOrderRows(await rentalOrderRowsQuery(db(), user.id), Date.now());
    expect(rows).toHaveLength(1);
    const [order] = rows;
    expect(order).toMatchObject({
      kind: "rental",
      reference_code: id,
      country: "USA",
      service: "Rental, 1 hour",
      provider: "Dynamic",
      amount: 268.8,
      status: "active",
      balance: (100_000 - PRICE_KOBO) / 100,
      sms_count: 1,
      can_cancel: false,
    });
    expect(order.sms).toMatch(/^\d{6}$/);
    expect(Date.parse(order.expires_at!)).toBeGreaterThan(Date.now());
    // The web's orders table reads SMS orders and rentals in one statement (decision 057): the same row, every field.
    const listed = await api("/api/orders", { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.data.data).toEqual([order]);
    expect(toRentalOrderRows(await rentalOrderRowsQuery(db(), (await createUser()).id), Date.now())).toEqual([]);
  });

  it("expires rentals whose alarm never came and refunds rentals stuck before their number", async () => {
    const { user, id } = await rentUsaHour({ quiet: true });
    await env.DB.prepare("UPDATE rentals SET expires_at = ? WHERE id = ?").bind(Date.now() - 60_000, id).run();
    const stuckId = crypto.randomUUID();
    const old = Date.now() - 10 * 60_000;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO rentals (id, user_id, provider, country_id, country_name, unit, period, price_kobo, status, created_at, updated_at) VALUES (?, ?, 'Dynamic', '5', 'USA', 'day', 1, 5000, 'pending', ?, ?)",
      ).bind(stuckId, user.id, old, old),
      env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref) VALUES (?, ?, -5000, 'rent', 'Rental: USA number, 1 day', ?)").bind(
        user.id,
        `rent:${stuckId}`,
        stuckId,
      ),
    ]);
    const deps = rentalDeps(env, loadConfig(env));
    expect(await sweepRentals(deps)).toEqual({ expired: 1, refunded: 1 });
    expect((await rentalRow(id))?.status).toBe("ended");
    expect((await rentalRow(stuckId))?.status).toBe("failed");
    expect(await refundRows(stuckId)).toEqual([{ amount_kobo: 5000 }]);
    // A second sweep finds nothing and moves no money.
    expect(await sweepRentals(deps)).toEqual({ expired: 0, refunded: 0 });
    expect(await balanceOf(user.id)).toBe(100_000 - PRICE_KOBO);
    await expectLedgerBalanced();
  });
});

describe("rentalTick: the one retry policy (services/tick.ts)", () => {
  const failingWith = (err: Error): RentalProvider =>
    Object.assign(Object.create(rentalProviderFor(env, loadConfig(env))), { getAllSms: async () => Promise.reject(err) });

  it("an upstream fault is the tick's own: logged, and it asks to look again; anything else throws for the runtime to retry", async () => {
    const { id } = await rentUsaHour({ quiet: true });
    const before = Date.now();
    const blip = await rentalTick({ ...rentalDeps(env, loadConfig(env)), provider: () => failingWith(new RentProviderError("unavailable", "HTTP 502")) }, id);
    expect(blip.again).toBe(true);
    expect(blip.wakeAt).toBeGreaterThan(before);
    await expect(rentalTick({ ...rentalDeps(env, loadConfig(env)), provider: () => failingWith(new Error("D1 went away")) }, id)).rejects.toThrow("D1 went away");
    expect((await rentalRow(id))?.status).toBe("active");
  });

  it("stops once the rental is over: expired at its time, nothing to do after", async () => {
    const { id } = await rentUsaHour({ quiet: true });
    await env.DB.prepare("UPDATE rentals SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, id).run();
    const deps = rentalDeps(env, loadConfig(env));
    expect(await rentalTick(deps, id)).toEqual({ again: false, wakeAt: 0 });
    expect((await rentalRow(id))?.status).toBe("ended");
    expect(await rentalTick(deps, id)).toEqual({ again: false, wakeAt: 0 });
  });
});

describe("rentalTick with the injected clock and notify (services/deps.ts)", () => {
  it("decides the next look from the clock's time, and at the clock's expiry ends the rental and pushes rental.ended through the injected notify", async () => {
    const { user, id } = await rentUsaHour({ quiet: true });
    const row = await env.DB.prepare("SELECT created_at, expires_at FROM rentals WHERE id = ?").bind(id).first<{ created_at: number; expires_at: number }>();
    const clock = fixedClock(row!.created_at + 30 * 60_000);
    const pushes = recordingNotify();
    const deps = { ...rentalDeps(env, loadConfig(env)), clock, notify: pushes.notify };

    // Half an hour old by this clock: checks every 2 minutes (nextCheckDelayMs), the expiry still further off.
    expect(await rentalTick(deps, id)).toEqual({ again: true, wakeAt: row!.created_at + 30 * 60_000 + 120_000 });
    const checked = await env.DB.prepare("SELECT status, last_checked_at FROM rentals WHERE id = ?").bind(id).first<{ status: string; last_checked_at: number }>();
    expect(checked).toEqual({ status: "active", last_checked_at: row!.created_at + 30 * 60_000 });
    expect(pushes.sent).toEqual([]);

    clock.set(row!.expires_at);
    expect(await rentalTick(deps, id)).toEqual({ again: false, wakeAt: 0 });
    const ended = await env.DB.prepare("SELECT status, updated_at FROM rentals WHERE id = ?").bind(id).first<{ status: string; updated_at: number }>();
    expect(ended).toEqual({ status: "ended", updated_at: row!.expires_at });
    expect(pushes.sent).toEqual([{ userId: user.id, message: { kind: "rental.ended", rentalId: id, status: "ended", refunded: false } }]);
    await expectLedgerBalanced();
  });
});

describe("the 1-hour reminder", () => {
  const outboxFor = async (email: string) =>
    (await env.DB.prepare("SELECT subject, body FROM email_outbox WHERE \"to\" = ? AND subject LIKE 'Your rented number%' ORDER BY id").bind(email).all<{ subject: string; body: string }>()).results;

  it("toasts and e-mails once per rental, however many alarms run, and never for a rental no longer than the hour", async () => {
    const { user, id } = await rentUsaHour({ quiet: true });
    const socket = await joinOwnRoom(user);
    // A 1-hour rental owes no reminder (it would come at purchase): the alarm sends nothing.
    await runDurableObjectAlarm(watcher(id));
    expect(await outboxFor(user.email)).toEqual([]);

    // Make it a day's rental that ends in 40 minutes: the reminder is due.
    const expiresAt = Date.now() + 40 * 60_000;
    await env.DB.prepare("UPDATE rentals SET expires_at = ?, created_at = ? WHERE id = ?").bind(expiresAt, expiresAt - 86_400_000, id).run();
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    await runInDurableObject(watcher(id), async (obj) => {
      await obj.checkNow(id);
    });
    const mails = await outboxFor(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Your rented number \+\d+ ends in about an hour$/);
    // Issue 43: the e-mail says the time in the app's one clock (Lagos, labelled), not the server's UTC text.
    expect(mails[0].body).toContain(formatDateTime(expiresAt, { year: "always" }));
    expect(mails[0].body).toMatch(/ \d{1,2}:\d{2} [AP]M WAT/);
    const toast = await socket.next();
    expect(toast).toMatchObject({ kind: "toast", type: "warning" });
    expect(toast.kind === "toast" && toast.message).toMatch(/^Your rented number \+\d+ ends in (39|40) minutes\./);
    // Issue 47: then its outbox event (Web Push and forwarding carry it), once.
    expect(await socket.next()).toEqual({ kind: "rental.ending", rentalId: id, endsAt: new Date(expiresAt).toISOString() });
    // The next thing on the socket is our sentinel, not a second reminder.
    await notify(env, user.id, { kind: "toast", type: "info", message: "sentinel" });
    expect(await socket.next()).toEqual({ kind: "toast", type: "info", message: "sentinel" });
    const row = await env.DB.prepare("SELECT reminded_at FROM rentals WHERE id = ?").bind(id).first<{ reminded_at: number | null }>();
    expect(row?.reminded_at).not.toBeNull();
  });

  it("wakes the watcher for the reminder when it comes before the next check, never past the expiry", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    const base = { status: "active" as const, remindedAt: null, createdAt: now - 86_400_000 };
    // Due in 10 s, before the next 2-minute check: the alarm is set for it.
    const expiresAt = now + RENTAL_REMINDER_BEFORE_MS + 10_000;
    expect(reminderDueAt({ ...base, expiresAt })).toBe(now + 10_000);
    expect(nextAlarmAt({ ...base, expiresAt }, now)).toBe(now + 10_000);
    // Already sent: the ordinary schedule.
    expect(nextAlarmAt({ ...base, expiresAt, remindedAt: now - 1 }, now)).toBe(now + 120_000);
    // Reminder time already passed but unsent: the next check sends it; the expiry still bounds the alarm.
    expect(nextAlarmAt({ ...base, expiresAt: now + 30_000 }, now)).toBe(now + 30_000);
  });
});
