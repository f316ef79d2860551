import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKey, fundedSubaccount, getWithKey, newReseller, pollOnce, postWithKey, putWithKey } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { makeOperator } from "../test/operators";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { clearSettingsCache, putSetting } from "../services/kernel";

/**
 * Issue 46, markups and margins (docs/decisions/072): a reseller sets a flat and per-service markups (bounded by the
 * `reseller_markups` setting); a sub-account's caller is priced and charged with it; the margin is credited to the
 * reseller when the order is kept (its code), never before, and reversed when an operator refunds the kept order.
 */

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);


const priceOf = async (secret: string, service: string, extra: Record<string, string> = {}) =>
  ((await getWithKey("/api/v1/prices?provider=Swift&country=5", secret, extra)).data.data as { service: string; price: number }[]).find((p) => p.service === service)!.price;

const pricesIn = async (secret: string, provider: string, country: string, extra: Record<string, string> = {}) =>
  (await getWithKey(`/api/v1/prices?provider=${provider}&country=${country}`, secret, extra)).data.data as { service: string; price: number }[];

const ledgerOf = async (ref: string) =>
  (await env.DB.prepare("SELECT user_id, amount_kobo, key, kind FROM ledger WHERE ref = ? ORDER BY id").bind(ref).all<{ user_id: string; amount_kobo: number; key: string; kind: string }>()).results;

describe("resellers' markups and margins", () => {
  it("markups: set and read; below zero, absurd, above the setting or not a reseller's: refused, nothing changed", async () => {
    const r = await newReseller();
    expect((await getWithKey("/api/v1/markups", r.secret)).data).toEqual({ percent: 0, services: {}, max_percent: 100 });
    const set = await putWithKey("/api/v1/markups", r.secret, { percent: 10, services: { wa: 25.5 } });
    expect(set.status).toBe(200);
    expect(set.data).toEqual({ percent: 10, services: { wa: 25.5 }, max_percent: 100 });

    for (const [body, field] of [
      [{ percent: -1 }, /0% or more/],
      [{ percent: 5000 }, /at most 1000%/],
      [{ percent: 1.234 }, /two decimals/],
      [{ percent: 10, services: { wa: -5 } }, /0% or more/],
      [{ percent: 10, services: { "w a": 5 } }, /service code/],
    ] as const) {
      const res = await putWithKey("/api/v1/markups", r.secret, body);
      expect(res.status).toBe(400);
      expect(res.data.message).toMatch(field);
    }
    // Above the operator's ceiling (a setting): refused naming it.
    const above = await putWithKey("/api/v1/markups", r.secret, { percent: 150 });
    expect(above.status).toBe(400);
    expect(above.data.message).toMatch(/at most 100%/);
    const aboveService = await putWithKey("/api/v1/markups", r.secret, { percent: 5, services: { wa: 101 } });
    expect(aboveService.data).toMatchObject({ field: "services.wa" });
    expect((await getWithKey("/api/v1/markups", r.secret)).data).toEqual({ percent: 10, services: { wa: 25.5 }, max_percent: 100 });

    // Not a reseller: 403; a sub-account header on /markups: 400.
    const plain = await createUser();
    const { secret } = await createKey(plain, "live");
    expect((await putWithKey("/api/v1/markups", secret, { percent: 5 })).status).toBe(403);
    expect((await getWithKey("/api/v1/markups", secret)).status).toBe(403);
    const sub = await fundedSubaccount(r);
    expect((await getWithKey("/api/v1/markups", r.secret, { "x-subaccount": sub })).status).toBe(400);
  });

  it("the partner page's form (session route): the same markups, validation and ceiling; not a reseller's: 403", async () => {
    const r = await newReseller();
    const session = (method: "GET" | "PUT", token: string, json?: unknown) => api("/api/reseller/markups", { method, token, ...(json === undefined ? {} : { json }) });
    expect((await session("GET", r.token)).data).toEqual({ percent: 0, services: {}, max_percent: 100 });
    const saved = await session("PUT", r.token, { percent: 12.5, services: { wa: 30 } });
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual({ percent: 12.5, services: { wa: 30 }, max_percent: 100 });
    // One markup, whichever face set it: the API key reads what the form wrote.
    expect((await getWithKey("/api/v1/markups", r.secret)).data).toEqual(saved.data);

    for (const [body, field] of [
      [{ percent: -1 }, "percent"],
      [{ percent: 1.234 }, "percent"],
      [{ percent: 150 }, "percent"],
      [{ percent: 10, services: { wa: 101 } }, "services.wa"],
      [{ percent: 10, services: { "w a": 5 } }, "services"],
      [{ services: {} }, "percent"],
    ] as const) {
      const res = await session("PUT", r.token, body);
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", field });
    }
    await putSetting(db(), "reseller_markups", { max_percent: 20 });
    clearSettingsCache();
    try {
      const above = await session("PUT", r.token, { percent: 21 });
      expect(above.status).toBe(400);
      expect(above.data).toMatchObject({ field: "percent", message: expect.stringMatching(/at most 20%/) });
    } finally {
      await putSetting(db(), "reseller_markups", { max_percent: 100 });
      clearSettingsCache();
    }
    // Nothing written by any refusal.
    expect((await session("GET", r.token)).data).toEqual({ percent: 12.5, services: { wa: 30 }, max_percent: 100 });

    // Not a reseller (never one, or revoked): 403, nothing written; signed out: 401.
    const plain = await createUser();
    expect((await session("GET", plain.token)).status).toBe(403);
    expect((await session("PUT", plain.token, { percent: 5 })).status).toBe(403);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM resellers WHERE user_id = ?").bind(plain.id).first<{ n: number }>()).toEqual({ n: 0 });
    expect((await api("/api/reseller/markups", { method: "PUT", json: { percent: 5 } })).status).toBe(401);
  });

  it("a sub-account's prices and purchase carry the markup; the margin is credited only when the code comes", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    const base = await priceOf(r.secret, "wa");
    await putWithKey("/api/v1/markups", r.secret, { percent: 10, services: { wa: 20 } });
    // The reseller's own price is unchanged; its sub-account's caller sees the markup (per-service overrides the flat).
    expect(await priceOf(r.secret, "wa")).toBe(base);
    const marked = await priceOf(r.secret, "wa", { "x-subaccount": sub });
    const baseKobo = Math.round(base * 100);
    const marginKobo = Math.floor((baseKobo * 2000) / 10_000);
    expect(Math.round(marked * 100)).toBe(baseKobo + marginKobo);
    const flat = await priceOf(r.secret, "sbxnosms", { "x-subaccount": sub });
    const flatBase = await priceOf(r.secret, "sbxnosms");
    expect(Math.round(flat * 100)).toBe(Math.round(flatBase * 100) + Math.floor((Math.round(flatBase * 100) * 1000) / 10_000));

    // A price shown without the markup is below what is charged: refused, nothing moved.
    const stale = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa", max_price: base }, { "x-subaccount": sub });
    expect(stale.status).toBe(409);
    expect(await balanceOf(sub)).toBe(500_000);

    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa", max_price: marked }, { "x-subaccount": sub });
    expect(bought.status).toBe(201);
    expect(bought.data.price).toBe(marked);
    expect(await balanceOf(sub)).toBe(500_000 - (baseKobo + marginKobo));
    const parentBefore = await balanceOf(r.id);
    // Not kept yet: no margin.
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`buy:${bought.data.id}`]);

    await pollOnce(bought.data.id);
    expect((await getWithKey(`/api/v1/sms/orders/${bought.data.id}`, r.secret, { "x-subaccount": sub })).data.status).toBe("used");
    expect(await ledgerOf(bought.data.id)).toEqual([
      { user_id: sub, amount_kobo: -(baseKobo + marginKobo), key: `buy:${bought.data.id}`, kind: "buy" },
      { user_id: r.id, amount_kobo: marginKobo, key: `margin:${bought.data.id}`, kind: "margin" },
    ]);
    expect(await balanceOf(r.id)).toBe(parentBefore + marginKobo);
    // The reseller's wallet is told with its money (an outbox event in the code's batch).
    const told = await env.DB.prepare("SELECT kind FROM outbox_events WHERE dedupe_key = ?").bind(`balance.changed:margin:${bought.data.id}`).first<{ kind: string }>();
    expect(told?.kind).toBe("balance.changed");
    // The partner dashboard's figures: the margin earned and what the sub-accounts spent (net of refunds).
    expect((await api("/api/reseller", { token: r.token })).data).toMatchObject({ margin_earned: marginKobo / 100, subaccount_spend: (baseKobo + marginKobo) / 100, markup_percent: 10 });
    await expectLedgerBalanced();
  });

  it("a next_route chain's further number carries the markup its first number had: priced, held to the cap and margined alike", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    // The first number's per-service rate (30%) is the chain's, recorded at its start (decision 076).
    await putWithKey("/api/v1/markups", r.secret, { percent: 10, services: { sbxnosms: 30 } });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "sbxnosms", next_route: { cap: 5000 } }, { "x-subaccount": sub });
    expect(bought.status).toBe(201);
    const first = bought.data.id as string;
    const chain = await env.DB.prepare("SELECT markup_basis_points, margin_user_id FROM sms_chains WHERE id = ?").bind(first).first();
    expect(chain).toEqual({ markup_basis_points: 3000, margin_user_id: r.id });

    // No code on the first route: refunded (no margin), and the chain buys the next route with no caller.
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(first).run();
    await pollOnce(first);
    const ended = await getWithKey(`/api/v1/sms/orders/${first}`, r.secret, { "x-subaccount": sub });
    expect(ended.data).toMatchObject({ status: "timeout", refunded: true });
    const next = ended.data.chain.next_order_id as string;
    expect(next).toBeTruthy();
    const second = await getWithKey(`/api/v1/sms/orders/${next}`, r.secret, { "x-subaccount": sub });
    // Priced like the first: the reseller's own price for that route plus the chain's 30%, though that route names the
    // service by another code (its own provider's), which no per-service markup names.
    const { provider, country_id: country, service_id: service } = second.data as { provider: string; country_id: string; service_id: string };
    expect(service).not.toBe("sbxnosms");
    const baseKobo = Math.round((await pricesIn(r.secret, provider, country)).find((p) => p.service === service)!.price * 100);
    const marginKobo = Math.floor((baseKobo * 3000) / 10_000);
    expect(marginKobo).toBeGreaterThan(0);
    expect(Math.round(second.data.price * 100)).toBe(baseKobo + marginKobo);
    // The sub-account's own price list (X-Subaccount) shows that very price.
    // Its flat 10% would be what the sub-account's price list shows for that route bought on its own.
    const listed = (await pricesIn(r.secret, provider, country, { "x-subaccount": sub })).find((p) => p.service === service)!.price;
    expect(Math.round(listed * 100)).toBe(baseKobo + Math.floor((baseKobo * 1000) / 10_000));

    const parentBefore = await balanceOf(r.id);
    await pollOnce(next);
    expect((await getWithKey(`/api/v1/sms/orders/${next}`, r.secret, { "x-subaccount": sub })).data.status).toBe("used");
    expect(await ledgerOf(next)).toEqual([
      { user_id: sub, amount_kobo: -(baseKobo + marginKobo), key: `buy:${next}`, kind: "buy" },
      { user_id: r.id, amount_kobo: marginKobo, key: `margin:${next}`, kind: "margin" },
    ]);
    expect(await balanceOf(r.id)).toBe(parentBefore + marginKobo);
    expect((await ledgerOf(first)).some((x) => x.kind === "margin")).toBe(false);
    expect(await balanceOf(sub)).toBe(500_000 - (baseKobo + marginKobo));
    await expectLedgerBalanced();
  });

  it("a chain's cap holds the marked-up price: a route the reseller could buy within the cap is too dear for its sub-account", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    // The reseller's own chain finds the cheapest other route: its price is the cap below.
    const own = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "sbxnosms", next_route: { cap: 5000 } });
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(own.data.id).run();
    await pollOnce(own.data.id);
    const ownNext = (await getWithKey(`/api/v1/sms/orders/${own.data.id}`, r.secret)).data.chain.next_order_id as string;
    const cap = (await getWithKey(`/api/v1/sms/orders/${ownNext}`, r.secret)).data.price as number;
    await postWithKey(`/api/v1/sms/orders/${ownNext}/cancel`, r.secret, {});

    // Doubled by a 100% markup, every other route costs the sub-account more than that cap: the chain ends.
    await putWithKey("/api/v1/markups", r.secret, { percent: 100 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "sbxnosms", next_route: { cap } }, { "x-subaccount": sub });
    expect(bought.status).toBe(201);
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(bought.data.id).run();
    await pollOnce(bought.data.id);
    const ended = await getWithKey(`/api/v1/sms/orders/${bought.data.id}`, r.secret, { "x-subaccount": sub });
    expect(ended.data).toMatchObject({ status: "timeout", refunded: true, chain: { status: "ended", next_order_id: null } });
    expect(await balanceOf(sub)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("a refund before the code credits no margin; the reseller's own purchases carry none", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    await putWithKey("/api/v1/markups", r.secret, { percent: 50 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { country: "5", service: "sbxnosms" }, { "x-subaccount": sub });
    expect(bought.status).toBe(201);
    const cancelled = await postWithKey(`/api/v1/sms/orders/${bought.data.id}/cancel`, r.secret, {}, { "x-subaccount": sub });
    expect(cancelled.data.refunded).toBe(true);
    expect(await balanceOf(sub)).toBe(500_000);
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`buy:${bought.data.id}`, `refund:${bought.data.id}`]);

    const own = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" });
    expect(own.status).toBe(201);
    const row = await env.DB.prepare("SELECT margin_kobo, margin_user_id FROM sms_orders WHERE id = ?").bind(own.data.id).first<{ margin_kobo: number; margin_user_id: string | null }>();
    expect(row).toEqual({ margin_kobo: 0, margin_user_id: null });
  });

  it("an operator refunds a kept order: the price back, the margin reversed, once; audited", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    await putWithKey("/api/v1/markups", r.secret, { percent: 30 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub });
    await pollOnce(bought.data.id);
    const margin = (await ledgerOf(bought.data.id)).find((x) => x.kind === "margin")!.amount_kobo;
    expect(margin).toBeGreaterThan(0);
    const [parentKept, subKept] = [await balanceOf(r.id), await balanceOf(sub)];

    const operator = await makeOperator();
    const refunded = await api(`/api/admin/orders/${bought.data.id}/refund`, { token: operator.token, json: { reason: "wrong code, customer complained" } });
    expect(refunded.status).toBe(200);
    expect(refunded.data).toMatchObject({ from: "used", status: "refunded", settled: true });
    expect(await balanceOf(sub)).toBe(subKept + Math.round(bought.data.price * 100));
    expect(await balanceOf(r.id)).toBe(parentKept - margin);
    expect((await ledgerOf(bought.data.id)).map((x) => [x.key, x.amount_kobo])).toEqual([
      [`buy:${bought.data.id}`, -Math.round(bought.data.price * 100)],
      [`margin:${bought.data.id}`, margin],
      [`refund:${bought.data.id}`, Math.round(bought.data.price * 100)],
      [`margin-reversal:${bought.data.id}`, -margin],
    ]);
    expect((await getWithKey(`/api/v1/sms/orders/${bought.data.id}`, r.secret, { "x-subaccount": sub })).data).toMatchObject({ status: "used", refunded: true });

    // Again: refused, nothing moved.
    const again = await api(`/api/admin/orders/${bought.data.id}/refund`, { token: operator.token, json: { reason: "double click" } });
    expect(again.status).toBe(409);
    expect(await balanceOf(r.id)).toBe(parentKept - margin);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE subject = ?").bind(bought.data.id).all<{ action: string }>();
    expect(audit.results.map((x) => x.action)).toEqual(["order.refund_kept"]);
    // An order that was not kept is not refunded this way.
    const waiting = await postWithKey("/api/v1/sms/orders", r.secret, { country: "5", service: "sbxnosms" }, { "x-subaccount": sub });
    expect((await api(`/api/admin/orders/${waiting.data.id}/refund`, { token: operator.token, json: { reason: "no" } })).status).toBe(409);
    await expectLedgerBalanced();
  });

  it("a reversal the reseller's wallet cannot cover is refused whole: neither the refund nor the reversal is written", async () => {
    const r = await newReseller(500_000);
    const sub = await fundedSubaccount(r, 5000); // the reseller's wallet is now empty
    await putWithKey("/api/v1/markups", r.secret, { percent: 40 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub });
    await pollOnce(bought.data.id);
    const margin = (await ledgerOf(bought.data.id)).find((x) => x.kind === "margin")!.amount_kobo;
    // The reseller spends its margin (moved into the sub-account).
    expect((await postWithKey(`/api/v1/subaccounts/${sub}/transfer-in`, r.secret, { amount: margin / 100 })).status).toBe(201);
    expect(await balanceOf(r.id)).toBe(0);
    const subBefore = await balanceOf(sub);
    const operator = await makeOperator();
    const refused = await api(`/api/admin/orders/${bought.data.id}/refund`, { token: operator.token, json: { reason: "wrong code" } });
    expect(refused.status).toBe(402);
    expect(refused.data.message).toMatch(/reseller's wallet holds less than this order's margin/);
    expect([await balanceOf(r.id), await balanceOf(sub)]).toEqual([0, subBefore]);
    expect((await ledgerOf(bought.data.id)).map((x) => x.key)).toEqual([`buy:${bought.data.id}`, `margin:${bought.data.id}`]);
  });

  it("a closed sub-account receives no refund of a kept order: refused, nothing moved", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    await putWithKey("/api/v1/markups", r.secret, { percent: 10 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub });
    await pollOnce(bought.data.id);
    expect((await postWithKey(`/api/v1/subaccounts/${sub}/close`, r.secret, {})).data.status).toBe("closed");
    const before = [await balanceOf(r.id), await balanceOf(sub)];
    const operator = await makeOperator();
    const refused = await api(`/api/admin/orders/${bought.data.id}/refund`, { token: operator.token, json: { reason: "wrong code" } });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/sub-account that paid for this order is closed/);
    expect([await balanceOf(r.id), await balanceOf(sub)]).toEqual(before);
  });

  it("the ceiling lowered after a markup was set caps what is charged", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 5000);
    await putWithKey("/api/v1/markups", r.secret, { percent: 80 });
    await putSetting(db(), "reseller_markups", { max_percent: 10 });
    clearSettingsCache();
    try {
      const base = Math.round((await priceOf(r.secret, "wa")) * 100);
      expect(Math.round((await priceOf(r.secret, "wa", { "x-subaccount": sub })) * 100)).toBe(base + Math.floor(base / 10));
    } finally {
      await putSetting(db(), "reseller_markups", { max_percent: 100 });
      clearSettingsCache();
    }
  });

  it("the console's resellers page: sub-accounts, what they hold, margins; grant and revoke by e-mail, audited; operators only", async () => {
    const r = await newReseller(1_000_000);
    const sub = await fundedSubaccount(r, 2000);
    await putWithKey("/api/v1/markups", r.secret, { percent: 10 });
    const bought = await postWithKey("/api/v1/sms/orders", r.secret, { provider: "Swift", country: "5", service: "wa" }, { "x-subaccount": sub });
    await pollOnce(bought.data.id);
    const margin = (await ledgerOf(bought.data.id)).find((x) => x.kind === "margin")!.amount_kobo;

    const operator = await makeOperator();
    const list = await api("/api/admin/resellers", { token: operator.token });
    expect(list.status).toBe(200);
    const row = list.data.data.find((x: { userId: string }) => x.userId === r.id);
    expect(row).toMatchObject({ status: "active", subaccounts: 1, openSubaccounts: 1, subaccountBalance: (await balanceOf(sub)) / 100, marginEarned: margin / 100, markupPercent: 10, grantedBy: null });
    // A customer is not an operator: 404, as every console route.
    expect((await api("/api/admin/resellers", { token: r.token })).status).toBe(404);

    const other = await createUser();
    expect((await api("/api/admin/resellers", { token: operator.token, json: { email: other.email, grant: false, reason: "no" } })).status).toBe(409);
    expect((await api("/api/admin/resellers", { token: operator.token, json: { email: "nobody@example.com", grant: true, reason: "x" } })).status).toBe(404);
    expect((await api("/api/admin/resellers", { token: operator.token, json: { email: other.email, grant: true, reason: "" } })).status).toBe(400);
    const granted = await api("/api/admin/resellers", { token: operator.token, json: { email: other.email, grant: true, reason: "partner contract signed" } });
    expect(granted.status).toBe(200);
    expect(granted.data.data.find((x: { userId: string }) => x.userId === other.id)).toMatchObject({ status: "active", grantedBy: operator.email });
    const revoked = await api("/api/admin/resellers", { token: operator.token, json: { email: r.email, grant: false, reason: "abuse report" } });
    expect(revoked.data.data.find((x: { userId: string }) => x.userId === r.id).status).toBe("revoked");
    const audit = await env.DB.prepare("SELECT action, actor, reason FROM audit_log WHERE subject IN (?, ?) ORDER BY id").bind(other.id, r.id).all<{ action: string; actor: string; reason: string }>();
    expect(audit.results).toEqual([
      { action: "reseller.grant", actor: operator.email, reason: "partner contract signed" },
      { action: "reseller.revoke", actor: operator.email, reason: "abuse report" },
    ]);
  });
});
