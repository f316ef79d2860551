import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newReseller } from "../test/api-fixtures";
import { api, createUser } from "../test/helpers";
import { makeOperator } from "../test/operators";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

/**
 * Issue 46, the console's side of resellers (decisions 072, 077): one reseller's sub-accounts (GET
 * /api/admin/resellers/{id}/subaccounts: operators only, a state at a time, paged like the withdrawals), and the
 * overview's "owed to customers" counting what sub-accounts hold.
 */

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const v1 = (secret: string, path: string, json: unknown, extra: Record<string, string> = {}) =>
  api(path, { method: "POST", headers: { authorization: `Bearer ${secret}`, "idempotency-key": crypto.randomUUID(), ...extra }, json });

async function openSub(secret: string, externalId: string, naira = 0): Promise<string> {
  const sub = await v1(secret, "/api/v1/subaccounts", { name: `Customer ${externalId}`, external_id: externalId });
  expect(sub.status).toBe(201);
  if (naira > 0) expect((await v1(secret, `/api/v1/subaccounts/${sub.data.id}/transfer-in`, { amount: naira })).status).toBe(201);
  return sub.data.id as string;
}

type Row = { id: string; externalId: string; name: string; status: string; balance: number; createdAt: number; spend: number };
const ids = (res: { data: { data: Row[] } }) => res.data.data.map((s) => s.id);

describe("GET /api/admin/resellers/{id}/subaccounts", () => {
  it("lists a reseller's sub-accounts, newest first, with balance and spend net of refunds; never another reseller's; operators only", async () => {
    const r = await newReseller();
    const buyer = await openSub(r.secret, "tg-buyer", 3000);
    const idle = await openSub(r.secret, "tg-idle");
    const theirs = await newReseller();
    const foreign = await openSub(theirs.secret, "tg-buyer", 1000);
    // The buyer buys one number (kept: spend) and one it cancels (refunded: no spend).
    const kept = await v1(r.secret, "/api/v1/sms/orders", { provider: "Swift", country: "5", service: "sbxnosms" }, { "x-subaccount": buyer });
    expect(kept.status).toBe(201);
    const cancelled = await v1(r.secret, "/api/v1/sms/orders", { provider: "Swift", country: "5", service: "sbxnosms" }, { "x-subaccount": buyer });
    expect((await v1(r.secret, `/api/v1/sms/orders/${cancelled.data.id}/cancel`, {}, { "x-subaccount": buyer })).data.refunded).toBe(true);
    expect((await v1(r.secret, `/api/v1/subaccounts/${idle}/freeze`, {})).status).toBe(200);

    const operator = await makeOperator();
    const list = await api(`/api/admin/resellers/${r.id}/subaccounts`, { token: operator.token });
    expect(list.status).toBe(200);
    expect(list.data.reseller).toEqual({ userId: r.id, email: r.email, username: expect.any(String), status: "active" });
    expect(ids(list)).toEqual([idle, buyer]);
    const [idleRow, buyerRow] = list.data.data as Row[];
    expect(buyerRow).toEqual({ id: buyer, externalId: "tg-buyer", name: "Customer tg-buyer", status: "active", balance: 3000 - kept.data.price, createdAt: expect.any(Number), spend: kept.data.price });
    expect(idleRow).toMatchObject({ externalId: "tg-idle", status: "frozen", balance: 0, spend: 0 });
    expect(JSON.stringify(list.data)).not.toContain(foreign);

    // A state at a time.
    expect(ids(await api(`/api/admin/resellers/${r.id}/subaccounts?status=frozen`, { token: operator.token }))).toEqual([idle]);
    expect(ids(await api(`/api/admin/resellers/${r.id}/subaccounts?status=closed`, { token: operator.token }))).toEqual([]);
    expect((await api(`/api/admin/resellers/${r.id}/subaccounts?status=deleted`, { token: operator.token })).status).toBe(400);
    // An id that is no reseller (a plain customer, a sub-account, nothing): 404 with the one error body.
    const plain = await createUser();
    for (const id of [plain.id, buyer, "nobody"]) {
      const res = await api(`/api/admin/resellers/${id}/subaccounts`, { token: operator.token });
      expect([id, res.status, res.data.message]).toEqual([id, 404, "No reseller with this id."]);
    }
    // Not an operator (the reseller itself, a customer, nobody signed in): 404 as every console route.
    for (const token of [r.token, plain.token, undefined]) expect((await api(`/api/admin/resellers/${r.id}/subaccounts`, { token })).status).toBe(404);
    // A read: nothing written to the audit log.
    const audited = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE subject IN (?, ?, ?)").bind(r.id, buyer, idle).first<{ n: number }>();
    expect(audited!.n).toBe(0);
  });

  it("pages like the withdrawals: `before` the last id seen, a page of `limit`, an unknown or foreign `before` an empty page", async () => {
    const r = await newReseller();
    const opened: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) opened.push(await openSub(r.secret, `tg-page-${n}`));
    const other = await newReseller();
    const foreign = await openSub(other.secret, "tg-page-x");
    const operator = await makeOperator();
    const page = (query: string) => api(`/api/admin/resellers/${r.id}/subaccounts?${query}`, { token: operator.token });

    // The whole list, newest first ((created_at, id) descending: two opened in one millisecond keep one order).
    const all = (await page("limit=200")).data.data as Row[];
    expect(all.map((s) => s.id).sort()).toEqual([...opened].sort());
    expect(all.every((s, i) => i === 0 || all[i - 1]!.createdAt > s.createdAt || (all[i - 1]!.createdAt === s.createdAt && all[i - 1]!.id > s.id))).toBe(true);
    opened.splice(0, opened.length, ...all.map((s) => s.id));
    const first = await page("limit=2");
    expect(ids(first)).toEqual(opened.slice(0, 2));
    const second = await page(`limit=2&before=${opened[1]}`);
    expect(ids(second)).toEqual(opened.slice(2, 4));
    expect(ids(await page(`limit=2&before=${opened[3]}`))).toEqual(opened.slice(4));
    expect(ids(await page(`limit=2&before=${opened[4]}`))).toEqual([]);
    // Another reseller's sub-account as the cursor reads nothing of either.
    expect(ids(await page(`before=${foreign}`))).toEqual([]);
    expect(ids(await page(`before=sub_${"0".repeat(32)}`))).toEqual([]);
    for (const bad of ["limit=0", "limit=201", "limit=x", "before=wd_1", `before=${encodeURIComponent("sub_' OR 1=1 --")}`]) {
      const res = await page(bad);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.data.message).toBeTruthy();
    }
  });
});

describe("the overview's owed-to-customers figure", () => {
  it("counts what sub-accounts hold (they are wallets owed to the reseller's customers), never as customers", async () => {
    const r = await newReseller();
    const sub = await openSub(r.secret, "tg-owed");
    const operator = await makeOperator();
    const before = (await api("/api/admin/overview?period=today", { token: operator.token })).data;
    // Money only the sub-account holds (a support credit to its wallet): the figure grows by exactly that.
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, 123456, 'admin', 'Adjustment by support', NULL, ?)")
      .bind(sub, `admin:${crypto.randomUUID()}`, Date.now())
      .run();
    const after = (await api("/api/admin/overview?period=today", { token: operator.token })).data;
    expect(Math.round((after.owedToCustomers.balances - before.owedToCustomers.balances) * 100)).toBe(123_456);
    expect(Math.round((after.owedToCustomers.total - before.owedToCustomers.total) * 100)).toBe(123_456);
    expect(Math.round((after.moneyHeld - before.moneyHeld) * 100)).toBe(123_456);
    expect(after.customers).toBe(before.customers);
  });
});
