import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { configFor, type Env } from "../../config";
import { AppError } from "../../lib/errors";
import { rentalProviderFor } from "../../providers/rent";
import { RentProviderError, type RentalExtension, type RentalProvider } from "../../providers/rent/types";
import { useTestUpstreams } from "../../test/services";
import { createKey } from "../../test/api-fixtures";
import { patchSandboxRental } from "../../test/rent-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { extendOptions, extendRental } from "./rental-extension";
import { clearSettingsCache, putSetting } from "../kernel";
import { rentalDeps } from "../../test/services";
import { cancelRental, rentNumber } from "./rentals";

/**
 * Extending a rental (decision 019). sms-man, our rent upstream, documents no extension, so the real sandbox offers
 * none (tested over HTTP below). The mechanism is tested with the sandbox adapter plus an extension capability that
 * answers like the SMS-Activate rent protocol documents continueRentNumber / getContinueRentPrice
 * (https://sms.online/help/api-docs/continueRentNumber): a price for rent_time hours, then success or an error word.
 */

const started: string[] = [];
const watcher = (id: string) => env.RENTAL.get(env.RENTAL.idFromName(id));

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

/** The protocol's prolongation: US$0.10 per hour; `refuse` answers the protocol's RENT_DIE-style refusal. */
function protocolExtension(opts: { refuse?: boolean } = {}) {
  const calls: { action: string; id: string; hours: number }[] = [];
  const extension: RentalExtension = {
    async price(id, hours) {
      calls.push({ action: "getContinueRentPrice", id, hours });
      return { amount: Math.round(hours * 0.1 * 100) / 100, currency: "USD" };
    },
    async extend(id, hours) {
      calls.push({ action: "continueRentNumber", id, hours });
      if (opts.refuse) throw new RentProviderError("refused", "RENT_DIE");
    },
  };
  return { extension, calls };
}

function depsWith(extension?: RentalExtension) {
  const base = rentalProviderFor(env, configFor(env));
  const provider: RentalProvider = extension ? Object.assign(Object.create(base), { extension }) : base;
  return { ...rentalDeps(env, configFor(env)), provider: () => provider };
}

async function rentDay() {
  const user = await createUser({ balanceKobo: 1_000_000 });
  const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "day", period: 1 } });
  expect(res.status).toBe(201);
  const id: string = res.data.rental.id;
  started.push(id);
  const row = await env.DB.prepare("SELECT upstream_id, expires_at FROM rentals WHERE id = ?").bind(id).first<{ upstream_id: string; expires_at: number }>();
  // A quiet number: the simulated SMS comes much later.
  await patchSandboxRental(env.DB, row!.upstream_id, { firstSmsAt: Date.now() + 86_400_000 });
  return { user: { ...user, totalDepositedKobo: 0 }, id, upstreamId: row!.upstream_id, expiresAt: row!.expires_at };
}

const extensionRows = async (id: string) =>
  (await env.DB.prepare("SELECT key, amount_kobo, kind FROM ledger WHERE ref = ? AND key LIKE 'rent_extend%' ORDER BY id").bind(id).all()).results;

describe("extending a rental where the upstream documents it", () => {
  it("charges once for a double click, moves the expiry, owes the reminder again and re-arms the watcher", async () => {
    const { user, id, upstreamId, expiresAt } = await rentDay();
    const { extension, calls } = protocolExtension();
    const deps = depsWith(extension);
    // 4 hours × $0.10 = $0.40 × ₦1600 × 1.4 = ₦896.
    expect(await extendOptions(deps, user, id)).toEqual([
      { unit: "hour", period: 4, duration: "4 hours", price: 896 },
      { unit: "day", period: 1, duration: "1 day", price: 5376 },
      { unit: "week", period: 1, duration: "1 week", price: 37632 },
    ]);
    await env.DB.prepare("UPDATE rentals SET reminded_at = ? WHERE id = ?").bind(Date.now(), id).run();
    const before = await balanceOf(user.id);

    const results = await Promise.allSettled([
      extendRental(deps, user, id, { unit: "hour", period: 4, clientPrice: 896 }),
      extendRental(deps, user, id, { unit: "hour", period: 4, clientPrice: 896 }),
    ]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toBeInstanceOf(AppError);
    expect((refused[0].reason as AppError).code).toBe("CONFLICT");
    // Charged once, through the ledger; the upstream was asked to extend once.
    expect(await extensionRows(id)).toEqual([{ key: `rent_extend:${id}:1`, amount_kobo: -89_600, kind: "rent" }]);
    expect(await balanceOf(user.id)).toBe(before - 89_600);
    expect(calls.filter((c) => c.action === "continueRentNumber")).toEqual([{ action: "continueRentNumber", id: upstreamId, hours: 4 }]);

    const row = await env.DB.prepare("SELECT expires_at, reminded_at, extended_count, status FROM rentals WHERE id = ?").bind(id).first();
    expect(row).toEqual({ expires_at: expiresAt + 4 * 3_600_000, reminded_at: null, extended_count: 1, status: "active" });

    // Re-armed: an alarm is set, and a wake-up after the OLD expiry keeps the rental running until the new one.
    await runInDurableObject(watcher(id), async (_obj, state) => {
      const alarm = await state.storage.getAlarm();
      expect(alarm).not.toBeNull();
      expect(alarm!).toBeLessThanOrEqual(expiresAt + 4 * 3_600_000);
    });
    await env.DB.prepare("UPDATE rentals SET expires_at = ? WHERE id = ?").bind(Date.now() + 4 * 3_600_000 - 1000, id).run();
    expect(await runDurableObjectAlarm(watcher(id))).toBe(true);
    expect((await env.DB.prepare("SELECT status FROM rentals WHERE id = ?").bind(id).first())?.status).toBe("active");

    // A second, separate extension is its own charge (key n = 2).
    await extendRental(deps, user, id, { unit: "hour", period: 4 });
    expect((await extensionRows(id)).map((r) => r.key)).toEqual([`rent_extend:${id}:1`, `rent_extend:${id}:2`]);
    await expectLedgerBalanced();
  });

  it("refunds at once, exactly once, when the upstream refuses, and leaves the expiry alone", async () => {
    const { user, id, expiresAt } = await rentDay();
    const deps = depsWith(protocolExtension({ refuse: true }).extension);
    const before = await balanceOf(user.id);
    await expect(extendRental(deps, user, id, { unit: "day", period: 1 })).rejects.toMatchObject({
      code: "INVALID_STATE",
      message: "The provider did not allow this rental to be extended. You were not charged.",
    });
    expect(await extensionRows(id)).toEqual([
      { key: `rent_extend:${id}:1`, amount_kobo: -537_600, kind: "rent" },
      { key: `rent_extend_refund:${id}:1`, amount_kobo: 537_600, kind: "rent_refund" },
    ]);
    expect(await balanceOf(user.id)).toBe(before);
    expect((await env.DB.prepare("SELECT expires_at FROM rentals WHERE id = ?").bind(id).first())?.expires_at).toBe(expiresAt);
    await expectLedgerBalanced();
  });

  it("answers the new price instead of charging a changed one, and refuses a choice it does not offer", async () => {
    const { user, id } = await rentDay();
    const deps = depsWith(protocolExtension().extension);
    await expect(extendRental(deps, user, id, { unit: "hour", period: 4, clientPrice: 800 })).rejects.toMatchObject({ code: "PRICE_CHANGED" });
    await expect(extendRental(deps, user, id, { unit: "month", period: 1 })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await extensionRows(id)).toEqual([]);
  });
});

describe("sms-man rentals (no documented extension)", () => {
  it("offer no Extend and refuse one with a clear 409, charging nothing; another customer's rental is 404", async () => {
    const { user, id } = await rentDay();
    const options = await api(`/api/rentals/${id}/extend-options`, { token: user.token });
    expect(options.status).toBe(200);
    expect(options.data).toEqual({ extendable: false, options: [] });
    const before = await balanceOf(user.id);
    const res = await api(`/api/rentals/${id}/extend`, { token: user.token, json: { duration: "hour", period: 4 } });
    expect(res.status).toBe(409);
    expect(res.data.message).toBe("This number's provider does not allow extending a rental. Rent a new number before this one ends.");
    expect(await balanceOf(user.id)).toBe(before);
    const other = await createUser();
    expect((await api(`/api/rentals/${id}/extend-options`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/rentals/${id}/extend`, { token: other.token, json: { duration: "hour", period: 4 } })).status).toBe(404);
  });
});

describe("a sandbox account's rental on a live deployment", () => {
  it("is extended and cancelled by the simulator; the configured live upstream is never called", async () => {
    const refuse = () => {
      throw new Error("the live rental upstream was called for a sandbox account");
    };
    const liveExtension: RentalExtension = { price: refuse, extend: refuse };
    const liveRent = { countries: refuse, limits: refuse, getNumber: refuse, getAllSms: refuse, setStatus: refuse, extension: liveExtension } as unknown as RentalProvider;
    // The simulator's adapter, given the protocol's extension so that the sandbox account has something to extend with.
    const { extension, calls } = protocolExtension();
    const simulator: RentalProvider = Object.assign(Object.create(rentalProviderFor(env, { providers: "sandbox" })), { extension });
    const modes: string[] = [];
    useTestUpstreams({
      rent: (_e, mode) => {
        modes.push(mode);
        return mode === "live" ? liveRent : simulator;
      },
    });
    try {
      const owner = await createUser({ balanceKobo: 0 });
      await createKey(owner, "test");
      expect((await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 5000 } })).status).toBeLessThan(300);
      const sandbox = { id: `sbx_${owner.id}`, totalDepositedKobo: 0 };
      const liveEnv: Env = { ...env, PROVIDERS: "live" };
      const deps = rentalDeps(liveEnv, { providers: "live" });

      const rental = await rentNumber(deps, sandbox, { countryId: "5", unit: "hour", period: 4 });
      started.push(rental.id);
      await patchSandboxRental(env.DB, rental.upstreamId!, { firstSmsAt: Date.now() + 86_400_000 });
      expect(rental.status).toBe("active");

      // Extension: priced and extended by the simulator's adapter, charged to the test wallet only.
      const { charged } = await extendRental(deps, sandbox, rental.id, { unit: "hour", period: 4 });
      expect(charged).toBe(896);
      expect(calls.map((c) => c.action)).toEqual(["getContinueRentPrice", "continueRentNumber"]);
      expect(await extensionRows(rental.id)).toEqual([{ key: `rent_extend:${rental.id}:1`, amount_kobo: -89_600, kind: "rent" }]);

      // Cancel: the simulator confirms it and the rental is refunded to the test wallet.
      const { rental: cancelled, refunded } = await cancelRental(deps, sandbox.id, rental.id);
      expect(cancelled.status).toBe("cancelled");
      expect(refunded).toBe(true);
      expect(new Set(modes)).toEqual(new Set(["sandbox"]));
      expect(await balanceOf(owner.id)).toBe(0);
      await expectLedgerBalanced();
    } finally {
      useTestUpstreams({ rent: null });
    }
  });
});
