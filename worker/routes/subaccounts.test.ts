import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setResellerSql } from "../db/admin-sql";
import { createKey, getWithKey, handler, keyAuth, newReseller, postWithKey } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { closeSubaccount, transferSubaccount } from "../services/resellers";
import { queueWebhookEvents } from "../services/kernel";
import { recipientsFor } from "../services/console";

/**
 * Issue 46: resellers' sub-accounts on /api/v1 — the role, wallets of their own, transfers made once and never below
 * zero, freeze and close, buying as a sub-account, and the attack list (IDOR, a foreign id in X-Subaccount, overdrafts,
 * races, a frozen one buying, a closed one receiving): refused with a clear message, nothing moved.
 */

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);


/** A customer who accepted the reseller terms, with a live key. */
async function openSub(secret: string, externalId = `tg-${crypto.randomUUID().slice(0, 8)}`) {
  const res = await postWithKey("/api/v1/subaccounts", secret, { name: "Ada", external_id: externalId });
  expect(res.status).toBe(201);
  return res.data as { id: string; external_id: string; balance: number; status: string };
}

async function ledgerRowsOf(ref: string): Promise<{ user_id: string; amount_kobo: number; key: string }[]> {
  return (await env.DB.prepare("SELECT user_id, amount_kobo, key FROM ledger WHERE ref = ? ORDER BY id").bind(ref).all<{ user_id: string; amount_kobo: number; key: string }>()).results;
}

describe("resellers and their sub-accounts (/api/v1/subaccounts)", () => {
  it("only a reseller opens sub-accounts; accepting the terms makes one; an operator's revocation sticks", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const { secret } = await createKey(user, "live");
    const refused = await postWithKey("/api/v1/subaccounts", secret, { name: "Ada", external_id: "tg-1" });
    expect(refused.status).toBe(403);
    expect(refused.data.message).toMatch(/accept the reseller terms/);
    expect((await api("/api/reseller", { token: user.token })).data.reseller).toBe(false);
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: false } })).status).toBe(400);
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).data).toMatchObject({ reseller: true, status: "active" });
    const sub = await openSub(secret, "tg-1");
    expect(sub).toMatchObject({ external_id: "tg-1", name: "Ada", status: "active", balance: 0, currency: "NGN" });
    expect(sub.id).toMatch(/^sub_/);

    // The operator revokes (audited): no new sub-accounts, no buying as one, and accepting again does not undo it.
    await db().batch(setResellerSql(db(), user.id, false, "ops@example.com", "abuse report", Date.now()) as [never]);
    expect((await postWithKey("/api/v1/subaccounts", secret, { name: "Bo", external_id: "tg-2" })).status).toBe(403);
    expect((await getWithKey("/api/v1/balance", secret, { "x-subaccount": sub.id })).status).toBe(403);
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).status).toBe(403);
    const audit = await env.DB.prepare("SELECT action, previous FROM audit_log WHERE subject = ? ORDER BY id").bind(user.id).all<{ action: string; previous: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["reseller.revoke"]);
    expect(audit.results[0]!.previous).toBe("active");
    // ...and granted again by an operator: back.
    await db().batch(setResellerSql(db(), user.id, true, "ops@example.com", "cleared", Date.now()) as [never]);
    expect((await getWithKey("/api/v1/balance", secret, { "x-subaccount": sub.id })).status).toBe(200);
  });

  it("create, list, get; external_id unique per reseller; a sub-account never signs in", async () => {
    const r = await newReseller();
    const a = await openSub(r.secret, "tg-100");
    const b = await openSub(r.secret, "tg-200");
    const dup = await postWithKey("/api/v1/subaccounts", r.secret, { name: "Again", external_id: "tg-100" });
    expect(dup.status).toBe(409);
    expect(dup.data.message).toMatch(/already have a sub-account with external_id tg-100/);
    const bad = await postWithKey("/api/v1/subaccounts", r.secret, { name: "", external_id: "has space" });
    expect(bad.status).toBe(400);
    const list = await getWithKey("/api/v1/subaccounts", r.secret);
    expect(list.data.data.map((s: { id: string }) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect((await getWithKey("/api/v1/subaccounts?external_id=tg-200", r.secret)).data.data.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect((await getWithKey(`/api/v1/subaccounts/${a.id}`, r.secret)).data.external_id).toBe("tg-100");
    // Another reseller may use the same external_id for its own customer.
    const other = await newReseller();
    await openSub(other.secret, "tg-100");
    // The wallet row cannot sign in: no password, an address nobody holds.
    const row = await env.DB.prepare("SELECT email, password_hash, parent_user_id FROM users WHERE id = ?").bind(a.id).first<{ email: string; password_hash: string; parent_user_id: string }>();
    expect(row).toMatchObject({ email: `${a.id}@subaccount.invalid`, parent_user_id: r.id });
    const signIn = await api("/api/login", { json: { email: row!.email, password: row!.password_hash } });
    expect(signIn.status).toBe(401);
    // Nor is it written to: the console's group e-mails go to customers, never to a sub-account's wallet.
    const recipients = await recipientsFor(db(), { group: "all" }, Date.now());
    expect(recipients.some((x) => x.id === a.id || x.email.endsWith("@subaccount.invalid"))).toBe(false);
  });

  it("IDOR: another reseller's sub-account is 404 to read, freeze, close or move money, and nothing moves", async () => {
    const mine = await newReseller();
    const theirs = await newReseller();
    const sub = await openSub(theirs.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, theirs.secret, { amount: 100 });
    const before = [await balanceOf(mine.id), await balanceOf(theirs.id), await balanceOf(sub.id)];
    for (const res of [
      await getWithKey(`/api/v1/subaccounts/${sub.id}`, mine.secret),
      await getWithKey(`/api/v1/subaccounts/${sub.id}/transfers`, mine.secret),
      await postWithKey(`/api/v1/subaccounts/${sub.id}/freeze`, mine.secret, {}),
      await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, mine.secret, {}),
      await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, mine.secret, { amount: 10 }),
      await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-out`, mine.secret, { amount: 10 }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.data).toMatchObject({ code: "NOT_FOUND", message: "Sub-account not found." });
    }
    expect((await getWithKey("/api/v1/subaccounts", mine.secret)).data.data).toEqual([]);
    expect([await balanceOf(mine.id), await balanceOf(theirs.id), await balanceOf(sub.id)]).toEqual(before);
    expect((await getWithKey(`/api/v1/subaccounts/${sub.id}`, theirs.secret)).data.status).toBe("active");
  });

  it("transfers: one ledger pair each way, exactly once per Idempotency-Key, never below zero", async () => {
    const r = await newReseller(500_000);
    const sub = await openSub(r.secret);
    const key = crypto.randomUUID();
    const sent = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 1500.5 }, {}, key);
    expect(sent.status).toBe(201);
    expect(sent.data).toMatchObject({ subaccount_id: sub.id, direction: "in", reason: "transfer", amount: 1500.5 });
    expect(await balanceOf(r.id)).toBe(500_000 - 150_050);
    expect(await balanceOf(sub.id)).toBe(150_050);
    const pair = await ledgerRowsOf(sent.data.id);
    expect(pair).toEqual([
      { user_id: r.id, amount_kobo: -150_050, key: `sub:${sent.data.id}:debit` },
      { user_id: sub.id, amount_kobo: 150_050, key: `sub:${sent.data.id}:credit` },
    ]);
    // The same key again: the same answer, nothing moved (the API's replay, and the transfer's own key under it).
    const again = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 1500.5 }, {}, key);
    expect(again.data.id).toBe(sent.data.id);
    const direct = await transferSubaccount(db(), r.id, sub.id, { direction: "in", amountKobo: 150_050, idempotencyKey: key }, Date.now());
    expect(direct.id).toBe(sent.data.id);
    await expect(transferSubaccount(db(), r.id, sub.id, { direction: "in", amountKobo: 100, idempotencyKey: key }, Date.now())).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    expect(await balanceOf(sub.id)).toBe(150_050);

    // More than the parent holds; more than the sub-account holds: 402, nothing moved.
    const tooMuch = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 5000 });
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.data.message).toMatch(/Your wallet holds less than ₦5,000.00: nothing was moved/);
    const tooMuchBack = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-out`, r.secret, { amount: 1500.51 });
    expect(tooMuchBack.status).toBe(402);
    expect(tooMuchBack.data.message).toMatch(/The sub-account holds less/);
    for (const amount of [0, -5, 1.234]) expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount })).status).toBe(400);
    expect([await balanceOf(r.id), await balanceOf(sub.id)]).toEqual([500_000 - 150_050, 150_050]);

    const back = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-out`, r.secret, { amount: 500 });
    expect(back.status).toBe(201);
    expect([await balanceOf(r.id), await balanceOf(sub.id)]).toEqual([500_000 - 100_050, 100_050]);
    const transfers = await getWithKey(`/api/v1/subaccounts/${sub.id}/transfers`, r.secret);
    expect(transfers.data.data.map((t: { direction: string }) => t.direction).sort()).toEqual(["in", "out"]);
    await expectLedgerBalanced();
  });

  it("two transfers racing for the same money: one is made, the other refused, the money conserved", async () => {
    const r = await newReseller(100_000);
    const [a, b] = [await openSub(r.secret), await openSub(r.secret)];
    const results = await Promise.allSettled([
      transferSubaccount(db(), r.id, a.id, { direction: "in", amountKobo: 70_000, idempotencyKey: "race-a" }, Date.now()),
      transferSubaccount(db(), r.id, b.id, { direction: "in", amountKobo: 70_000, idempotencyKey: "race-b" }, Date.now()),
    ]);
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    const balances = [await balanceOf(r.id), await balanceOf(a.id), await balanceOf(b.id)];
    expect(balances.reduce((x, y) => x + y)).toBe(100_000);
    expect(balances[0]).toBe(30_000);
    await expectLedgerBalanced();
  });

  it("buys as a sub-account (X-Subaccount): its wallet pays, never the parent's; the order names it", async () => {
    const r = await newReseller(1_000_000);
    const sub = await openSub(r.secret);
    // Empty: refused, though the parent could pay.
    const broke = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id });
    expect(broke.status).toBe(402);
    expect(await balanceOf(r.id)).toBe(1_000_000);

    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 5000 });
    expect((await getWithKey("/api/v1/balance", r.secret, { "x-subaccount": sub.id })).data.balance).toBe(5000);
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { country: "5", service: "sbxnosms" }, { "x-subaccount": sub.id });
    expect(bought.status).toBe(201);
    expect(bought.data.subaccount_id).toBe(sub.id);
    expect(await balanceOf(sub.id)).toBe(500_000 - Math.round(bought.data.price * 100));
    expect(await balanceOf(r.id)).toBe(500_000);
    // The order is the sub-account's: read with its header; the reseller's own list does not hold it.
    expect((await getWithKey(`/api/v1/sms/orders/${bought.data.id}`, r.secret, { "x-subaccount": sub.id })).data.subaccount_id).toBe(sub.id);
    expect((await getWithKey(`/api/v1/sms/orders/${bought.data.id}`, r.secret)).status).toBe(404);
    const cancelled = await postWithKey(`/api/v1/sms/orders/${bought.data.id}/cancel`, r.secret, {}, { "x-subaccount": sub.id });
    expect(cancelled.data.refunded).toBe(true);
    expect(await balanceOf(sub.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("rents as a sub-account: its wallet pays, the rental's v1 answers name it, the reseller's own rentals do not", async () => {
    const r = await newReseller(1_000_000);
    const sub = await openSub(r.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 5000 });
    const rented = await postWithKey("/api/v1/rentals", r.secret, { country: "5", duration: "hour", period: 1 }, { "x-subaccount": sub.id });
    expect(rented.status).toBe(201);
    expect(rented.data.subaccount_id).toBe(sub.id);
    expect(await balanceOf(sub.id)).toBe(500_000 - Math.round(rented.data.amount * 100));
    expect(await balanceOf(r.id)).toBe(500_000);
    expect((await getWithKey(`/api/v1/rentals/${rented.data.id}`, r.secret, { "x-subaccount": sub.id })).data.rental.subaccount_id).toBe(sub.id);
    expect((await getWithKey("/api/v1/rentals", r.secret, { "x-subaccount": sub.id })).data.data.map((x: { subaccount_id: string }) => x.subaccount_id)).toEqual([sub.id]);
    expect((await getWithKey(`/api/v1/rentals/${rented.data.id}`, r.secret)).status).toBe(404);
    expect((await getWithKey("/api/v1/rentals", r.secret)).data.data).toEqual([]);
    // Running: the sub-account cannot be closed under it (its refund would land in a closed wallet).
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, r.secret, {})).status).toBe(409);
    await expectLedgerBalanced();
  });

  it("a sub-account id from another reseller in X-Subaccount is 404, and nothing is bought", async () => {
    const mine = await newReseller(1_000_000);
    const theirs = await newReseller(1_000_000);
    const sub = await openSub(theirs.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, theirs.secret, { amount: 5000 });
    const res = await postWithKey("/api/v1/sms/orders", mine.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id });
    expect(res.status).toBe(404);
    expect(res.data.message).toBe("Sub-account not found.");
    expect((await getWithKey("/api/v1/balance", mine.secret, { "x-subaccount": sub.id })).status).toBe(404);
    expect((await getWithKey("/api/v1/balance", mine.secret, { "x-subaccount": "sub_nope" })).status).toBe(404);
    expect([await balanceOf(mine.id), await balanceOf(sub.id)]).toEqual([1_000_000, 500_000]);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id IN (?, ?)").bind(mine.id, sub.id).first<{ n: number }>();
    expect(orders!.n).toBe(0);
    // A sub-account is never a header on the sub-accounts' own routes.
    expect((await getWithKey("/api/v1/subaccounts", theirs.secret, { "x-subaccount": sub.id })).status).toBe(400);
  });

  it("a frozen sub-account buys nothing (money still moves in and out); unfrozen it buys again", async () => {
    const r = await newReseller(1_000_000);
    const sub = await openSub(r.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 5000 });
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/freeze`, r.secret, {})).data.status).toBe("frozen");
    const buy = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id });
    expect(buy.status).toBe(409);
    expect(buy.data.message).toMatch(/frozen: it cannot buy or rent/);
    const rent = await postWithKey("/api/v1/rentals", r.secret, { country: "5", duration: "hour", period: 1 }, { "x-subaccount": sub.id });
    expect(rent.status).toBe(409);
    expect(await balanceOf(sub.id)).toBe(500_000);
    expect((await getWithKey("/api/v1/balance", r.secret, { "x-subaccount": sub.id })).status).toBe(200);
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-out`, r.secret, { amount: 1000 })).status).toBe(201);
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/unfreeze`, r.secret, {})).data.status).toBe("active");
    expect((await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id })).status).toBe(201);
  });

  it("close: the balance back to the parent in the same batch; a closed one receives and buys nothing", async () => {
    const r = await newReseller(1_000_000);
    const sub = await openSub(r.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 2500 });
    const closed = await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, r.secret, {});
    expect(closed.status).toBe(200);
    expect(closed.data).toMatchObject({ status: "closed", balance: 0 });
    expect([await balanceOf(r.id), await balanceOf(sub.id)]).toEqual([1_000_000, 0]);
    const returned = (await getWithKey(`/api/v1/subaccounts/${sub.id}/transfers`, r.secret)).data.data.find((t: { reason: string }) => t.reason === "close");
    expect(returned).toMatchObject({ direction: "out", amount: 2500 });
    const refused = await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 100 });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/closed: it receives and sends no money/);
    expect((await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id })).status).toBe(409);
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/unfreeze`, r.secret, {})).status).toBe(409);
    // Closing again changes nothing.
    expect((await closeSubaccount(db(), r.id, sub.id, Date.now())).status).toBe("closed");
    expect(await balanceOf(r.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("close waits while a number is in use (its refund would land in a closed wallet)", async () => {
    const r = await newReseller(1_000_000);
    const sub = await openSub(r.secret);
    await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 5000 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { country: "5", service: "sbxnosms" }, { "x-subaccount": sub.id });
    const refused = await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, r.secret, {});
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/1 number\(s\) in use/);
    await postWithKey(`/api/v1/sms/orders/${bought.data.id}/cancel`, r.secret, {}, { "x-subaccount": sub.id });
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, r.secret, {})).data.status).toBe("closed");
    expect(await balanceOf(r.id)).toBe(1_000_000);
  });

  it("test keys: sandbox sub-accounts of the sandbox wallet, sandbox money only", async () => {
    const r = await newReseller(1_000_000);
    const user = r;
    const test = await createKey(user, "test");
    const sub = await openSub(test.secret);
    expect(sub.id).toMatch(/^sbx_sub_/);
    expect((await getWithKey("/api/v1/subaccounts", r.secret)).data.data).toEqual([]); // the live key does not see it
    expect((await getWithKey(`/api/v1/subaccounts/${sub.id}`, r.secret)).status).toBe(404);
    expect((await api("/api/keys/sandbox/top-up", { token: r.token, json: { amount: 5000 } })).status).toBe(200);
    const sandboxBefore = await balanceOf(`sbx_${r.id}`);
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, test.secret, { amount: 2000 })).status).toBe(201);
    expect(await balanceOf(`sbx_${r.id}`)).toBe(sandboxBefore - 200_000);
    const bought = await postWithKey("/api/v1/sms/orders", test.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub.id });
    expect(bought.data).toMatchObject({ subaccount_id: sub.id });
    expect(bought.status).toBe(201);
    expect(await balanceOf(r.id)).toBe(1_000_000);
    // The protocol with the test key answers as the live one: frozen, ACCOUNT_INACTIVE for a purchase (decision 077);
    // the live key naming the sandbox sub-account: BAD_KEY.
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/freeze`, test.secret, {})).status).toBe(200);
    const frozenBefore = await balanceOf(sub.id);
    expect((await handler({ api_key: test.secret, subaccount: sub.id, action: "getNumber", service: "sbxnosms" })).text).toBe("ACCOUNT_INACTIVE");
    expect((await handler({ api_key: test.secret, subaccount: sub.id, action: "getBalance" })).text).toMatch(/^ACCESS_BALANCE:/);
    expect((await handler({ api_key: r.secret, subaccount: sub.id, action: "getBalance" })).text).toBe("BAD_KEY");
    expect(await balanceOf(sub.id)).toBe(frozenBefore);
  });

  it("a sub-account's webhook events go to its reseller's key, naming the sub-account", async () => {
    const r = await newReseller();
    const key = await createKey(r, "live", "hooks");
    const sub = await openSub(key.secret);
    await env.DB.prepare("UPDATE api_keys SET webhook_url = 'https://hooks.example.com/in' WHERE id = ?").bind(key.id).run();
    await queueWebhookEvents(env, sub.id, { kind: "balance.changed", balance: 12 }, Date.now());
    const rows = await env.DB.prepare("SELECT payload FROM webhook_events WHERE api_key_id = ?").bind(key.id).all<{ payload: string }>();
    expect(rows.results.map((x) => JSON.parse(x.payload).data)).toEqual([{ balance: 12, currency: "NGN", subaccount_id: sub.id }]);
  });

  it("subaccount.* events: opened, transfers in and out, frozen, unfrozen, closed (its balance back), each once, to the reseller's key", async () => {
    const r = await newReseller();
    const key = await createKey(r, "live", "hooks");
    await env.DB.prepare("UPDATE api_keys SET webhook_url = 'https://hooks.example.com/in' WHERE id = ?").bind(key.id).run();
    const settled = (path: string, json: unknown) => api(path, { method: "POST", headers: keyAuth(key.secret, { "idempotency-key": crypto.randomUUID() }), json, settle: true });
    const opened = await settled("/api/v1/subaccounts", { name: "Ada", external_id: "tg-hooks" });
    expect(opened.status).toBe(201);
    const id = opened.data.id as string;
    expect((await settled(`/api/v1/subaccounts/${id}/transfer-in`, { amount: 2000 })).status).toBe(201);
    expect((await settled(`/api/v1/subaccounts/${id}/transfer-out`, { amount: 500 })).status).toBe(201);
    for (const step of ["freeze", "unfreeze", "freeze", "close"]) expect((await settled(`/api/v1/subaccounts/${id}/${step}`, {})).status).toBe(200);
    // Closing again changes nothing and tells nothing.
    expect((await settled(`/api/v1/subaccounts/${id}/close`, {})).status).toBe(200);
    const rows = (await env.DB.prepare("SELECT type, payload FROM webhook_events WHERE api_key_id = ? AND type LIKE 'subaccount.%' ORDER BY created_at, rowid").bind(key.id).all<{ type: string; payload: string }>()).results;
    const told = rows.map((e) => {
      const d = JSON.parse(e.payload).data;
      expect(d).toMatchObject({ subaccount_id: id, external_id: "tg-hooks" });
      return e.type === "subaccount.transfer" ? `${e.type}:${d.direction}:${d.reason}:${d.amount}` : `${e.type}:${d.status}`;
    });
    expect(told).toEqual([
      "subaccount.created:active",
      "subaccount.transfer:in:transfer:2000",
      "subaccount.transfer:out:transfer:500",
      "subaccount.frozen:frozen",
      "subaccount.unfrozen:active",
      "subaccount.frozen:frozen",
      "subaccount.closed:closed",
      "subaccount.transfer:out:close:1500",
    ]);
    const transfer = JSON.parse(rows[1]!.payload).data;
    expect(transfer).toMatchObject({ currency: "NGN", transfer_id: expect.stringMatching(/^str_/) });
    expect(transfer.url).toMatch(new RegExp(`/api/v1/subaccounts/${id}/transfers$`));
    // Written with the change: each outbox event sits beside its move (a refused move writes none).
    const outbox = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE dedupe_key LIKE ?").bind(`subaccount.%${id}%`).first<{ n: number }>();
    expect(outbox!.n).toBe(5);
  });

  it("the SMS-Activate protocol acts as a sub-account with subaccount=<id>: its wallet buys, its orders answer; refusals in the protocol's words", async () => {
    const r = await newReseller();
    const sub = await openSub(r.secret);
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/transfer-in`, r.secret, { amount: 2000 })).status).toBe(201);
    const as = (params: Record<string, string | number>) => handler({ api_key: r.secret, subaccount: sub.id, ...params });
    expect((await as({ action: "getBalance" })).text).toBe("ACCESS_BALANCE:2000.00");
    const parentBefore = await balanceOf(r.id);
    const bought = await as({ action: "getNumber", service: "sbxnosms" });
    const id = /^ACCESS_NUMBER:(\d+):\d+$/.exec(bought.text)![1]!;
    expect(await balanceOf(sub.id)).toBeLessThan(200_000);
    expect(await balanceOf(r.id)).toBe(parentBefore);
    // The order is the sub-account's: found through it, not as the reseller's own.
    expect((await as({ action: "getStatus", id })).text).toBe("STATUS_WAIT_CODE");
    expect((await handler({ api_key: r.secret, action: "getStatus", id })).text).toBe("NO_ACTIVATION");

    // Another reseller's sub-account, an unknown one, and a customer who is no reseller: BAD_KEY, nothing bought.
    const other = await newReseller();
    const theirs = await openSub(other.secret);
    expect((await as({ action: "getBalance", subaccount: theirs.id })).text).toBe("BAD_KEY");
    expect((await as({ action: "getNumber", service: "sbxnosms", subaccount: "sub_nope" })).text).toBe("BAD_KEY");
    const plain = await createUser({ balanceKobo: 100_000 });
    const plainKey = (await createKey(plain, "live")).secret;
    expect((await handler({ api_key: plainKey, subaccount: sub.id, action: "getBalance" })).text).toBe("BAD_KEY");

    // Frozen: it buys nothing (ACCOUNT_INACTIVE, SMS-Activate's dateless "the account is not active"; decision 077)
    // but its order is still read and cancelled.
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/freeze`, r.secret, {})).status).toBe(200);
    const subBefore = await balanceOf(sub.id);
    expect((await as({ action: "getNumber", service: "sbxnosms" })).text).toBe("ACCOUNT_INACTIVE");
    expect((await as({ action: "getNumberV2", service: "sbxnosms" })).text).toBe("ACCOUNT_INACTIVE");
    expect(await balanceOf(sub.id)).toBe(subBefore);
    expect((await as({ action: "getStatus", id })).text).toBe("STATUS_WAIT_CODE");
    expect((await as({ action: "setStatus", id, status: 8 })).text).toBe("ACCESS_CANCEL");
    expect(await balanceOf(sub.id)).toBe(200_000);
    // Closed: every action is ACCOUNT_INACTIVE, reads too, and nothing moves.
    expect((await postWithKey(`/api/v1/subaccounts/${sub.id}/close`, r.secret, {})).status).toBe(200);
    const parentAfterClose = await balanceOf(r.id);
    for (const action of ["getBalance", "getNumber", "getNumberV2", "getStatus"]) {
      expect([action, (await as({ action, service: "sbxnosms", id })).text]).toEqual([action, "ACCOUNT_INACTIVE"]);
    }
    expect([await balanceOf(r.id), await balanceOf(sub.id)]).toEqual([parentAfterClose, 0]);
    await expectLedgerBalanced();
  });
  it("IDOR walk: every sub-account route, X-Subaccount on every v1 route and the protocol's subaccount=, with another reseller's sub-account and with a plain customer's key: refused alike, nothing moved", async () => {
    const mine = await newReseller(1_000_000);
    const mySub = await openSub(mine.secret);
    await postWithKey(`/api/v1/subaccounts/${mySub.id}/transfer-in`, mine.secret, { amount: 1000 });
    const theirs = await newReseller(1_000_000);
    const theirSub = await openSub(theirs.secret, "tg-victim");
    await postWithKey(`/api/v1/subaccounts/${theirSub.id}/transfer-in`, theirs.secret, { amount: 5000 });
    const as = { "x-subaccount": theirSub.id };
    const order = await postWithKey("/api/v1/sms/orders", theirs.secret, { provider: "Swift", country: "5", service: "sbxnosms" }, as);
    expect(order.status).toBe(201);
    const rental = await postWithKey("/api/v1/rentals", theirs.secret, { country: "5", duration: "hour", period: 1 }, as);
    expect(rental.status).toBe(201);
    const activation = /^ACCESS_NUMBER:(\d+):/.exec((await handler({ api_key: theirs.secret, subaccount: theirSub.id, action: "getNumber", service: "sbxnosms" })).text)![1]!;
    const plain = await createUser({ balanceKobo: 100_000 });
    const plainKey = (await createKey(plain, "live")).secret;
    const money = async () => [await balanceOf(mine.id), await balanceOf(mySub.id), await balanceOf(theirs.id), await balanceOf(theirSub.id), await balanceOf(plain.id)];
    const rows = async () => (await env.DB.prepare("SELECT (SELECT COUNT(*) FROM ledger) + (SELECT COUNT(*) FROM subaccount_transfers) + (SELECT COUNT(*) FROM sms_orders) + (SELECT COUNT(*) FROM rentals) AS n").first<{ n: number }>())!.n;
    const statuses = async () => [
      (await getWithKey(`/api/v1/sms/orders/${order.data.id}`, theirs.secret, as)).data.status,
      (await getWithKey(`/api/v1/rentals/${rental.data.id}`, theirs.secret, as)).data.rental.status,
      (await getWithKey(`/api/v1/subaccounts/${theirSub.id}`, theirs.secret)).data.status,
    ];
    const before = { money: await money(), rows: await rows(), statuses: await statuses() };

    // 1. The sub-accounts' own routes, with another reseller's id: 404, "Sub-account not found.", as an unknown id.
    const subRoutes = (key: string, id: string) => [
      getWithKey(`/api/v1/subaccounts/${id}`, key),
      getWithKey(`/api/v1/subaccounts/${id}/transfers`, key),
      postWithKey(`/api/v1/subaccounts/${id}/freeze`, key, {}),
      postWithKey(`/api/v1/subaccounts/${id}/unfreeze`, key, {}),
      postWithKey(`/api/v1/subaccounts/${id}/close`, key, {}),
      postWithKey(`/api/v1/subaccounts/${id}/transfer-in`, key, { amount: 10 }),
      postWithKey(`/api/v1/subaccounts/${id}/transfer-out`, key, { amount: 10 }),
    ];
    for (const [key, who] of [[mine.secret, "another reseller"], [plainKey, "a plain customer"]] as const) {
      for (const id of [theirSub.id, "sub_00000000000000000000000000000000"]) {
        for (const res of await Promise.all(subRoutes(key, id))) expect([who, id, res.status, res.data.message]).toEqual([who, id, 404, "Sub-account not found."]);
      }
    }
    // Listing by the victim's external id finds none of theirs.
    expect((await getWithKey("/api/v1/subaccounts?external_id=tg-victim", mine.secret)).data.data).toEqual([]);

    // 2. X-Subaccount on every v1 route that takes it: another reseller's sub-account is 404 (as an unknown one); a
    // plain customer's key is 403 "not a reseller" for any id, so neither answer tells an id exists.
    const headerRoutes = (key: string, extra: Record<string, string>) => [
      getWithKey("/api/v1/balance", key, extra),
      getWithKey("/api/v1/countries", key, extra),
      getWithKey("/api/v1/prices?provider=Swift&country=5", key, extra),
      getWithKey("/api/v1/sms/orders", key, extra),
      postWithKey("/api/v1/sms/orders", key, { provider: "Swift", country: "5", service: "sbxnosms" }, extra),
      getWithKey(`/api/v1/sms/orders/${order.data.id}`, key, extra),
      postWithKey(`/api/v1/sms/orders/${order.data.id}/cancel`, key, {}, extra),
      postWithKey(`/api/v1/sms/orders/${order.data.id}/another-code`, key, {}, extra),
      getWithKey("/api/v1/rentals", key, extra),
      getWithKey("/api/v1/rentals/countries", key, extra),
      getWithKey("/api/v1/rentals/quote?country=5&duration=hour&period=1", key, extra),
      postWithKey("/api/v1/rentals", key, { country: "5", duration: "hour", period: 1 }, extra),
      getWithKey(`/api/v1/rentals/${rental.data.id}`, key, extra),
      postWithKey(`/api/v1/rentals/${rental.data.id}/cancel`, key, {}, extra),
      postWithKey(`/api/v1/rentals/${rental.data.id}/end`, key, {}, extra),
      postWithKey("/api/v1/withdrawals", key, { amount: 1000 }, extra),
      getWithKey("/api/v1/withdrawals/wd_000000000000000000000000", key, extra),
    ];
    for (const id of [theirSub.id, "sub_00000000000000000000000000000000"]) {
      for (const res of await Promise.all(headerRoutes(mine.secret, { "x-subaccount": id }))) expect([id, res.status, res.data.message]).toEqual([id, 404, "Sub-account not found."]);
      for (const res of await Promise.all(headerRoutes(plainKey, { "x-subaccount": id }))) expect([id, res.status, res.data.code]).toEqual([id, 403, "FORBIDDEN"]);
    }
    // My own sub-account's header does not reach their sub-account's order or rental either.
    for (const res of await Promise.all([
      getWithKey(`/api/v1/sms/orders/${order.data.id}`, mine.secret, { "x-subaccount": mySub.id }),
      postWithKey(`/api/v1/sms/orders/${order.data.id}/cancel`, mine.secret, {}, { "x-subaccount": mySub.id }),
      postWithKey(`/api/v1/sms/orders/${order.data.id}/another-code`, mine.secret, {}, { "x-subaccount": mySub.id }),
      getWithKey(`/api/v1/rentals/${rental.data.id}`, mine.secret, { "x-subaccount": mySub.id }),
      postWithKey(`/api/v1/rentals/${rental.data.id}/cancel`, mine.secret, {}, { "x-subaccount": mySub.id }),
      postWithKey(`/api/v1/rentals/${rental.data.id}/end`, mine.secret, {}, { "x-subaccount": mySub.id }),
    ])) expect(res.status).toBe(404);
    expect((await getWithKey("/api/v1/sms/orders", mine.secret, { "x-subaccount": mySub.id })).data.data).toEqual([]);

    // 3. The protocol's subaccount=: another reseller's or a plain key's is BAD_KEY for every action; my own
    // sub-account does not find their activation.
    const actions: ({ action: string } & Record<string, string | number>)[] = [
      { action: "getBalance" },
      { action: "getNumber", service: "sbxnosms" },
      { action: "getNumberV2", service: "sbxnosms" },
      { action: "getStatus", id: activation },
      { action: "setStatus", id: activation, status: 8 },
      { action: "getActiveActivations" },
    ];
    for (const key of [mine.secret, plainKey]) {
      for (const params of actions) expect([params.action, (await handler({ api_key: key, subaccount: theirSub.id, ...params })).text]).toEqual([params.action, "BAD_KEY"]);
    }
    expect((await handler({ api_key: mine.secret, subaccount: mySub.id, action: "getStatus", id: activation })).text).toBe("NO_ACTIVATION");
    expect((await handler({ api_key: mine.secret, subaccount: mySub.id, action: "setStatus", id: activation, status: 8 })).text).toBe("NO_ACTIVATION");

    expect({ money: await money(), rows: await rows(), statuses: await statuses() }).toEqual(before);
    await expectLedgerBalanced();
  });
});
