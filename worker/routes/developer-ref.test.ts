import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKey, handler, keyAuth, pollOnce, postWithKey } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../test/helpers";
import { clearSettingsCache, putSetting } from "../services/kernel";
import { naira } from "../../schema/money";
import { sweepRentals } from "../services/rent";
import { patchSandboxRental } from "../test/rent-fixtures";
import { rentalDeps } from "../test/services";
import { makeOperator } from "../test/operators";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

/**
 * Issue 46, the developers' `ref` share (docs/decisions/075): an API purchase naming a developer's code earns the
 * developer `developer_ref.percent` (5 by default) of our price when the order is kept, never before; an operator's
 * refund of the kept order reverses it once (or, when the developer's wallet no longer holds it, refunds the customer
 * anyway); self-dealing and unknown codes are refused on /api/v1 (400 `ref`, nothing written) and ignored on the
 * SMS-Activate protocol. A rental rented through /api/v1 with a `ref` earns the share when it is kept for good (ended or
 * expired), never when cancelled for a refund.
 */

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);


const codeOf = async (userId: string) => (await env.DB.prepare("SELECT referral_code FROM users WHERE id = ?").bind(userId).first<{ referral_code: string }>())!.referral_code;
const ledgerOf = async (ref: string) =>
  (await env.DB.prepare("SELECT user_id, amount_kobo, key, kind FROM ledger WHERE ref = ? ORDER BY id").bind(ref).all<{ user_id: string; amount_kobo: number; key: string; kind: string }>()).results;
const orderRow = (id: string) => env.DB.prepare("SELECT price_kobo, ref_share_kobo, ref_user_id FROM sms_orders WHERE id = ?").bind(id).first<{ price_kobo: number; ref_share_kobo: number; ref_user_id: string | null }>();
const ordersOf = async (userId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

async function buyer(balanceKobo = 1_000_000, mode: "live" | "test" = "live"): Promise<TestUser & { secret: string }> {
  const user = await createUser({ balanceKobo });
  return { ...user, secret: (await createKey(user, mode)).secret };
}

describe("the developers' ref share", () => {
  it("v1: the share is recorded at purchase, credited only when the order is kept, told, and shown on the developer page", async () => {
    const dev = await createUser();
    const b = await buyer();
    const quote = ((await api("/api/v1/prices?provider=Swift&country=5", { headers: keyAuth(b.secret) })).data.data as { service: string; price: number }[]).find((p) => p.service === "wa")!.price;
    const bought = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref: (await codeOf(dev.id)).toLowerCase(), max_price: quote });
    expect(bought.status).toBe(201);
    // The customer pays the same price; the share is 5% of it, rounded down to the kobo, from our revenue.
    expect(bought.data.price).toBe(quote);
    const priceKobo = Math.round(quote * 100);
    const share = Math.floor((priceKobo * 500) / 10_000);
    expect(share).toBeGreaterThan(0);
    expect(await orderRow(bought.data.id)).toEqual({ price_kobo: priceKobo, ref_share_kobo: share, ref_user_id: dev.id });
    expect(await balanceOf(b.id)).toBe(1_000_000 - priceKobo);
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`buy:${bought.data.id}`]);
    expect(await balanceOf(dev.id)).toBe(0);

    await pollOnce(bought.data.id);
    expect(await ledgerOf(bought.data.id)).toEqual([
      { user_id: b.id, amount_kobo: -priceKobo, key: `buy:${bought.data.id}`, kind: "buy" },
      { user_id: dev.id, amount_kobo: share, key: `ref-share:${bought.data.id}`, kind: "ref_share" },
    ]);
    expect(await balanceOf(dev.id)).toBe(share);
    const told = await env.DB.prepare("SELECT kind FROM outbox_events WHERE user_id = ? AND dedupe_key = ?").bind(dev.id, `balance.changed:ref-share:${bought.data.id}`).first<{ kind: string }>();
    expect(told?.kind).toBe("balance.changed");
    // A second poll (the code stored already) credits nothing more.
    await pollOnce(bought.data.id);
    expect(await balanceOf(dev.id)).toBe(share);

    // Spendable, not withdrawable (a reward, as the referral reward is): the cash-out screen says why.
    const cashOut = await api("/api/withdrawals/available", { token: dev.token });
    expect(cashOut.data).toMatchObject({ balance: share / 100, available: 0 });
    expect(cashOut.data.reasons).toContain(`₦${(share / 100).toFixed(2)} of rewards and credits can be spent, not withdrawn.`);

    const page = await api("/api/keys/ref-share", { token: dev.token });
    expect(page.status).toBe(200);
    expect(page.data).toEqual({ code: await codeOf(dev.id), percent: 5, earned: share / 100, orders: 1, last_30_days: { earned: share / 100, orders: 1 }, currency: "NGN" });
    expect((await api("/api/keys/ref-share")).status).toBe(401);
    await expectLedgerBalanced();
  });

  it("a cancel or a timeout before the code credits nothing; an order without ref records no share", async () => {
    const dev = await createUser();
    const b = await buyer();
    const ref = await codeOf(dev.id);
    const cancelled = await postWithKey("/api/v1/sms/orders", b.secret, { country: "5", service: "sbxnosms", ref });
    expect(cancelled.status).toBe(201);
    expect((await orderRow(cancelled.data.id))!.ref_share_kobo).toBeGreaterThan(0);
    expect((await postWithKey(`/api/v1/sms/orders/${cancelled.data.id}/cancel`, b.secret, {})).data.refunded).toBe(true);
    expect((await ledgerOf(cancelled.data.id)).map((x) => x.key)).toEqual([`buy:${cancelled.data.id}`, `refund:${cancelled.data.id}`]);

    const timedOut = await postWithKey("/api/v1/sms/orders", b.secret, { country: "5", service: "sbxnosms", ref });
    await env.DB.prepare("UPDATE sms_orders SET attempts = 1000 WHERE id = ?").bind(timedOut.data.id).run();
    await pollOnce(timedOut.data.id);
    expect((await api(`/api/v1/sms/orders/${timedOut.data.id}`, { headers: keyAuth(b.secret) })).data.status).toBe("timeout");
    expect((await ledgerOf(timedOut.data.id)).map((x) => x.key)).toEqual([`buy:${timedOut.data.id}`, `refund:${timedOut.data.id}`]);
    expect(await balanceOf(dev.id)).toBe(0);

    const plain = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa" });
    expect(await orderRow(plain.data.id)).toMatchObject({ ref_share_kobo: 0, ref_user_id: null });
    expect((await api("/api/keys/ref-share", { token: dev.token })).data).toMatchObject({ earned: 0, orders: 0 });
  });

  it("an operator's refund of the kept order reverses the share once; a developer who spent it does not hold back the refund, and the operator is told", async () => {
    const dev = await createUser();
    const b = await buyer();
    const ref = await codeOf(dev.id);
    const operator = await makeOperator();

    const kept = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref });
    await pollOnce(kept.data.id);
    const share = (await orderRow(kept.data.id))!.ref_share_kobo;
    const buyerKept = await balanceOf(b.id);
    // The console's order list shows the share beside the margin.
    const listed = (await api(`/api/admin/orders?user=${b.id}`, { token: operator.token })).data.data.find((o: { id: string }) => o.id === kept.data.id);
    expect(listed).toMatchObject({ margin: 0, refShare: share / 100, refundedAfterCodeAt: null });
    const refunded = await api(`/api/admin/orders/${kept.data.id}/refund`, { token: operator.token, json: { reason: "wrong code" } });
    expect(refunded.status).toBe(200);
    expect(refunded.data).toMatchObject({ from: "used", status: "refunded", settled: true, refShareKept: 0 });
    expect(refunded.data.message).toBe(`Refunded ${naira(kept.data.price)} to the wallet that paid. The developer's ref share (${naira(share / 100)}) was taken back.`);
    expect(await balanceOf(b.id)).toBe(buyerKept + Math.round(kept.data.price * 100));
    expect(await balanceOf(dev.id)).toBe(0);
    expect((await ledgerOf(kept.data.id)).map((x) => [x.key, x.amount_kobo])).toEqual([
      [`buy:${kept.data.id}`, -Math.round(kept.data.price * 100)],
      [`ref-share:${kept.data.id}`, share],
      [`refund:${kept.data.id}`, Math.round(kept.data.price * 100)],
      [`ref-share-reversal:${kept.data.id}`, -share],
    ]);
    expect(await env.DB.prepare("SELECT 1 FROM outbox_events WHERE dedupe_key = ?").bind(`balance.changed:ref-share-reversal:${kept.data.id}`).first()).not.toBeNull();
    expect((await api(`/api/admin/orders/${kept.data.id}/refund`, { token: operator.token, json: { reason: "again" } })).status).toBe(409);
    expect(await balanceOf(dev.id)).toBe(0);
    expect((await api("/api/keys/ref-share", { token: dev.token })).data).toMatchObject({ earned: 0, orders: 0 });

    // The developer spent the share (here: an operator's debit): the customer is refunded, the share stays our cost.
    const spent = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref });
    await pollOnce(spent.data.id);
    const spentShare = (await orderRow(spent.data.id))!.ref_share_kobo;
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, created_at) VALUES (?, ?, ?, 'admin', 'spent', ?)").bind(dev.id, `test:spend:${dev.id}`, -spentShare, Date.now()).run();
    expect(await balanceOf(dev.id)).toBe(0);
    const buyerBefore = await balanceOf(b.id);
    // The operator is told the share stayed with the developer: a field and a sentence (the console shows the sentence).
    const forgone = await api(`/api/admin/orders/${spent.data.id}/refund`, { token: operator.token, json: { reason: "wrong code" } });
    expect(forgone.status).toBe(200);
    expect(forgone.data).toMatchObject({ status: "refunded", settled: true, refShareKept: spentShare / 100 });
    expect(forgone.data.message).toContain(`The developer's ref share (${naira(spentShare / 100)}) was not taken back: their wallet no longer holds it, so it stays our cost.`);
    expect(await balanceOf(b.id)).toBe(buyerBefore + Math.round(spent.data.price * 100));
    expect((await ledgerOf(spent.data.id)).map((x) => x.key)).toEqual([`buy:${spent.data.id}`, `ref-share:${spent.data.id}`, `refund:${spent.data.id}`]);
    expect(await env.DB.prepare("SELECT 1 FROM outbox_events WHERE dedupe_key = ?").bind(`balance.changed:ref-share-reversal:${spent.data.id}`).first()).toBeNull();
    await expectLedgerBalanced();
  });

  it("v1 refuses, 400 naming ref with nothing written: unknown, own, a blocked developer's, a reseller's own while buying as its sub-account", async () => {
    const b = await buyer();
    const blocked = await createUser();
    await env.DB.prepare("UPDATE users SET blocked_at = ? WHERE id = ?").bind(Date.now(), blocked.id).run();
    for (const [ref, message] of [
      ["NOSUCHCODE", /not a developer code we know/],
      [await codeOf(b.id), /your own account/],
      [await codeOf(blocked.id), /not a developer code we know/],
      ["", /developer's code/],
    ] as const) {
      const res = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", field: "ref" });
      expect(res.data.message).toMatch(message);
    }
    expect(await balanceOf(b.id)).toBe(1_000_000);
    expect(await ordersOf(b.id)).toBe(0);

    // A reseller names itself while buying as its sub-account: its own code, refused.
    const r = await buyer();
    expect((await api("/api/reseller", { token: r.token, json: { accept_terms: true } })).status).toBe(200);
    const sub = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Ada", external_id: "tg-1" });
    await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, r.secret, { amount: 2000 });
    const self = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa", ref: await codeOf(r.id) }, { "x-subaccount": sub.data.id });
    expect(self.status).toBe(400);
    expect(self.data.field).toBe("ref");
    expect(await balanceOf(sub.data.id)).toBe(200_000);
    // A sub-account's wallet has a code in its row, but it never earns: unknown.
    const subCode = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref: await codeOf(sub.data.id) });
    expect(subCode.status).toBe(400);
  });

  it("the SMS-Activate protocol: getNumber's ref earns the share; an unknown or own ref is ignored, the number still sold", async () => {
    const dev = await createUser();
    const b = await buyer();
    const got = await handler({ api_key: b.secret, action: "getNumber", service: "wa", country: 187, ref: await codeOf(dev.id) });
    expect(got.text).toMatch(/^ACCESS_NUMBER:\d+:\d+$/);
    const [order] = (await env.DB.prepare("SELECT id, ref_share_kobo, ref_user_id, price_kobo FROM sms_orders WHERE user_id = ?").bind(b.id).all<{ id: string; ref_share_kobo: number; ref_user_id: string; price_kobo: number }>()).results;
    expect(order).toMatchObject({ ref_user_id: dev.id, ref_share_kobo: Math.floor((order!.price_kobo * 500) / 10_000) });
    await pollOnce(order!.id);
    expect(await balanceOf(dev.id)).toBe(order!.ref_share_kobo);

    for (const ref of ["NOSUCHCODE", await codeOf(b.id)]) {
      const v2 = await handler({ api_key: b.secret, action: "getNumberV2", service: "wa", country: 187, ref });
      const id = (v2.json as { activationId: number }).activationId;
      expect(id).toBeGreaterThan(0);
    }
    const rows = (await env.DB.prepare("SELECT ref_user_id FROM sms_orders WHERE user_id = ? AND id <> ?").bind(b.id, order!.id).all<{ ref_user_id: string | null }>()).results;
    expect(rows).toEqual([{ ref_user_id: null }, { ref_user_id: null }]);
  });

  it("a test key's purchase earns into the developer's sandbox wallet, never its live one", async () => {
    const dev = await createUser();
    const b = await buyer(0, "test");
    await api("/api/keys/sandbox/top-up", { token: b.token, json: { amount: 5000 } });
    const bought = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref: await codeOf(dev.id) });
    expect(bought.status).toBe(201);
    await pollOnce(bought.data.id);
    const share = (await orderRow(bought.data.id))!.ref_share_kobo;
    expect(share).toBeGreaterThan(0);
    expect(await balanceOf(`sbx_${dev.id}`)).toBe(share);
    expect(await balanceOf(dev.id)).toBe(0);
    expect((await api("/api/keys/ref-share", { token: dev.token })).data).toMatchObject({ earned: 0, orders: 0 });
  });

  it("the share is an operator's setting, 0 to 50%, audited like the others", async () => {
    const operator = await makeOperator();
    for (const percent of [-1, 51]) {
      const res = await api("/api/admin/settings/developer_ref", { method: "PATCH", token: operator.token, json: { value: { percent }, reason: "share" } });
      expect(res.status).toBe(400);
    }
    const ok = await api("/api/admin/settings/developer_ref", { method: "PATCH", token: operator.token, json: { value: { percent: 10 }, reason: "a better share" } });
    expect(ok.status).toBe(200);
    try {
      const dev = await createUser();
      const b = await buyer();
      const bought = await postWithKey("/api/v1/sms/orders", b.secret, { provider: "Swift", country: "5", service: "wa", ref: await codeOf(dev.id) });
      const row = (await orderRow(bought.data.id))!;
      expect(row.ref_share_kobo).toBe(Math.floor(row.price_kobo / 10));
      const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE subject = 'developer_ref'").all<{ action: string }>();
      expect(audit.results.length).toBeGreaterThan(0);
    } finally {
      await putSetting(db(), "developer_ref", { percent: 5 });
      clearSettingsCache();
    }
  });
});

describe("the developers' ref share on rentals", () => {
  const rented: string[] = [];
  // Durable Object alarms outlive a test: every rental watcher a test started is silenced before the next.
  afterEach(async () => {
    for (const id of rented.splice(0)) {
      await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
    }
  });
  const HOUR = { country: "5", duration: "hour", period: 1 };
  const rentalRow = (id: string) =>
    env.DB.prepare("SELECT price_kobo, margin_kobo, ref_share_kobo, ref_user_id, status FROM rentals WHERE id = ?")
      .bind(id)
      .first<{ price_kobo: number; margin_kobo: number; ref_share_kobo: number; ref_user_id: string | null; status: string }>();
  const rentalsOf = async (userId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM rentals WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;
  /** Rents through /api/v1; its sandbox number gets no SMS for an hour (so a cancel is refunded). */
  async function rent(secret: string, json: Record<string, unknown>, extra: Record<string, string> = {}) {
    const res = await postWithKey("/api/v1/rentals", secret, { ...HOUR, ...json }, extra);
    if (res.status === 201) {
      rented.push(res.data.id);
      const row = await env.DB.prepare("SELECT upstream_id FROM rentals WHERE id = ?").bind(res.data.id).first<{ upstream_id: string }>();
      await patchSandboxRental(env.DB, row!.upstream_id, { firstSmsAt: Date.now() + 3_600_000 });
    }
    return res;
  }

  it("recorded at purchase on our price before the reseller's markup, credited once when the rental expires (two sweeps racing), told, on the developer page", async () => {
    const dev = await createUser();
    const r = await buyer();
    expect((await api("/api/reseller", { token: r.token, json: { accept_terms: true } })).status).toBe(200);
    const sub = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Ada", external_id: "tg-rent" });
    await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, r.secret, { amount: 5000 });
    expect((await api("/api/v1/markups", { method: "PUT", headers: keyAuth(r.secret), json: { percent: 20 } })).status).toBe(200);

    const bought = await rent(r.secret, { ref: await codeOf(dev.id) }, { "x-subaccount": sub.data.id });
    expect(bought.status).toBe(201);
    const row = (await rentalRow(bought.data.id))!;
    expect(row.margin_kobo).toBeGreaterThan(0);
    // 5% of our price (the reseller's price), not of the marked-up price the sub-account paid.
    const share = Math.floor(((row.price_kobo - row.margin_kobo) * 500) / 10_000);
    expect(share).toBeGreaterThan(0);
    expect(row).toMatchObject({ ref_share_kobo: share, ref_user_id: dev.id });
    // Still refundable: nothing credited yet.
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`rent:${bought.data.id}`]);
    expect(await balanceOf(dev.id)).toBe(0);

    const later = Date.now() + 2 * 3_600_000;
    await Promise.all([sweepRentals(rentalDeps(env), later), sweepRentals(rentalDeps(env), later)]);
    expect((await rentalRow(bought.data.id))!.status).toBe("ended");
    expect(await ledgerOf(bought.data.id)).toEqual([
      { user_id: sub.data.id, amount_kobo: -row.price_kobo, key: `rent:${bought.data.id}`, kind: "rent" },
      { user_id: r.id, amount_kobo: row.margin_kobo, key: `rent_margin:${bought.data.id}`, kind: "margin" },
      { user_id: dev.id, amount_kobo: share, key: `rent-ref-share:${bought.data.id}`, kind: "ref_share" },
    ]);
    expect(await balanceOf(dev.id)).toBe(share);
    const told = await env.DB.prepare("SELECT user_id, kind FROM outbox_events WHERE dedupe_key = ?").bind(`balance.changed:rent-ref-share:${bought.data.id}`).first();
    expect(told).toEqual({ user_id: dev.id, kind: "balance.changed" });
    // A third sweep moves nothing more; the developer page counts the rental's share.
    await sweepRentals(rentalDeps(env), later);
    expect(await balanceOf(dev.id)).toBe(share);
    expect((await api("/api/keys/ref-share", { token: dev.token })).data).toMatchObject({ earned: share / 100, orders: 1, last_30_days: { earned: share / 100, orders: 1 } });
    await expectLedgerBalanced();
  });

  it("ended by the customer: credited; cancelled in time for a refund: never; without ref: no share", async () => {
    const dev = await createUser();
    const b = await buyer();
    const ref = await codeOf(dev.id);
    const ended = await rent(b.secret, { ref });
    expect(ended.status).toBe(201);
    const share = (await rentalRow(ended.data.id))!.ref_share_kobo;
    expect(share).toBe(Math.floor((Math.round(ended.data.amount * 100) * 500) / 10_000));
    expect((await postWithKey(`/api/v1/rentals/${ended.data.id}/end`, b.secret, {})).data.status).toBe("ended");
    expect(await balanceOf(dev.id)).toBe(share);

    const cancelled = await rent(b.secret, { ref });
    expect((await rentalRow(cancelled.data.id))!.ref_share_kobo).toBe(share);
    const before = await balanceOf(b.id);
    expect((await postWithKey(`/api/v1/rentals/${cancelled.data.id}/cancel`, b.secret, {})).data.status).toBe("cancelled");
    expect(await balanceOf(b.id)).toBe(before + Math.round(cancelled.data.amount * 100));
    expect((await ledgerOf(cancelled.data.id)).map((x) => x.key)).toEqual([`rent:${cancelled.data.id}`, `rent_refund:${cancelled.data.id}`]);
    expect(await balanceOf(dev.id)).toBe(share);

    const plain = await rent(b.secret, {});
    expect(await rentalRow(plain.data.id)).toMatchObject({ ref_share_kobo: 0, ref_user_id: null });
    await expectLedgerBalanced();
  });

  it("v1 refuses a rental's ref, 400 naming ref with nothing written: unknown, own, blocked, a sub-account's, a reseller's own as its sub-account", async () => {
    const b = await buyer();
    const blocked = await createUser();
    await env.DB.prepare("UPDATE users SET blocked_at = ? WHERE id = ?").bind(Date.now(), blocked.id).run();
    const r = await buyer();
    expect((await api("/api/reseller", { token: r.token, json: { accept_terms: true } })).status).toBe(200);
    const sub = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Ada", external_id: "tg-refused" });
    await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, r.secret, { amount: 2000 });
    for (const [ref, message] of [
      ["NOSUCHCODE", /not a developer code we know/],
      [await codeOf(b.id), /your own account/],
      [await codeOf(blocked.id), /not a developer code we know/],
      [await codeOf(sub.data.id), /not a developer code we know/],
      ["", /developer's code/],
    ] as const) {
      const res = await rent(b.secret, { ref });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", field: "ref" });
      expect(res.data.message).toMatch(message);
    }
    expect(await balanceOf(b.id)).toBe(1_000_000);
    expect(await rentalsOf(b.id)).toBe(0);
    const self = await rent(r.secret, { ref: await codeOf(r.id) }, { "x-subaccount": sub.data.id });
    expect(self.status).toBe(400);
    expect(self.data.field).toBe("ref");
    expect(await balanceOf(sub.data.id)).toBe(200_000);
    expect(await rentalsOf(sub.data.id)).toBe(0);
  });
});
