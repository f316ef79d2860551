import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import { manualEntrySql } from "../db/admin-sql";
import { runAdminChange } from "../services/console";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { makeOperator } from "../test/operators";

// Issue 29, the operator console: every param and query is read through a schema (4xx with the one error body, nothing
// written), an operator's reason is stored exactly as typed, and a change and its audit row are written together or not
// at all (one D1 batch).

const count = async (query: string, ...values: unknown[]) => (await env.DB.prepare(query).bind(...values).first<{ n: number }>())!.n;
const auditRows = () => count("SELECT COUNT(*) AS n FROM audit_log");

/** The one error body (worker/lib/errors.ts): code, message, and the same message as `error`. */
function expectErrorBody(res: { status: number; data: unknown }, status = 400) {
  expect(res.status).toBe(status);
  const body = res.data as { code: string; message: string; error: string };
  expect(body.code).toBe(status === 400 ? "VALIDATION_FAILED" : expect.any(String));
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.error).toBe(body.message);
}

/** Every console route that takes a path param (read from the whole app, so a new one is walked too). */
function routesWithParams(): { method: string; path: string }[] {
  const seen = new Set<string>();
  return createApp()
    .routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/admin/") && r.path.includes("/:"))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`))
    .map((r) => ({ method: r.method, path: r.path }));
}

/** A reason as an operator types it: lines, quotes, a semicolon, SQL-looking text, a `?`, and 2,000 characters in all. */
function typedReason(tag: string): string {
  const head = `Ticket #${tag}\nthe customer said "it's late"; her bank's reply:\r\n\t'); DELETE FROM ledger; -- ? /* not a comment */\n`;
  return head + "z".repeat(2000 - head.length);
}

describe("every console param and query goes through a schema", () => {
  it("a bad :id or :key on any console route is a 400 with the one error body, before anything runs", async () => {
    const operator = await makeOperator();
    const routes = routesWithParams();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const before = await auditRows();
    for (const route of routes) {
      const path = route.path.replace(/:[a-z]+/gi, encodeURIComponent(`bad id'"; --`));
      const res = await api(path, { method: route.method, token: operator.token, json: route.method === "GET" ? undefined : { reason: "checking inputs", amount: 1, value: 1, action: "refuse" } });
      expectErrorBody(res);
    }
    // An over-long id is refused the same way.
    expectErrorBody(await api(`/api/admin/customers/${"a".repeat(129)}`, { token: operator.token }));
    expectErrorBody(await api("/api/admin/settings/no_such_setting", { method: "PATCH", token: operator.token, json: { value: 1, reason: "x" } }));
    expect(await auditRows()).toBe(before);
  });

  it("a bad query on any console list is a 400 with the one error body; good filters still answer", async () => {
    const operator = await makeOperator();
    const bad = [
      "/api/admin/overview?period=year",
      "/api/admin/overview?test=maybe",
      `/api/admin/customers?q=${"q".repeat(201)}`,
      "/api/admin/customers?test=yes",
      "/api/admin/deposits?channel=cash",
      "/api/admin/deposits?limit=abc",
      "/api/admin/deposits?since=-5",
      "/api/admin/deposits?stuck=often",
      `/api/admin/deposits?status=${encodeURIComponent("paid'); --")}`,
      "/api/admin/orders?limit=0",
      "/api/admin/orders?since=yesterday",
      "/api/admin/rentals?limit=501",
      `/api/admin/rentals?customer=${"c".repeat(201)}`,
      "/api/admin/audit?before=abc",
      "/api/admin/audit?limit=9999",
      "/api/admin/transfers?state=lost",
      "/api/admin/transfers/reconcile",
      "/api/admin/transfers/reconcile?date=2026-13-45",
      "/api/admin/transfers/reconcile?date=26-1-1",
      "/api/admin/reviews?status=maybe",
      "/api/admin/approvals?status=maybe",
    ];
    for (const path of bad) {
      const res = await api(path, { token: operator.token });
      expect(res.status, path).toBe(400);
      expectErrorBody(res);
    }
    for (const path of [
      "/api/admin/overview?period=7d&test=1",
      "/api/admin/customers?q=ada&test=0",
      "/api/admin/deposits?channel=card&stuck=1&limit=5&status=pending",
      "/api/admin/orders?since=0&limit=10&stuck=",
      "/api/admin/rentals?status=active",
      "/api/admin/audit?action=ledger.&limit=5&before=1000000",
      "/api/admin/transfers?state=unmatched",
    ]) {
      expect((await api(path, { token: operator.token })).status, path).toBe(200);
    }
  });
});

describe("an operator's reason is stored as typed", () => {
  it("through the console: a credit, a block and a setting keep newlines, quotes and 2,000 characters in the audit log only", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const why = typedReason("console");
    expect(why).toHaveLength(2000);
    const credited = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 1500, reason: why, customerMessage: "Sorry about yesterday's code" } });
    expect(credited.status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(150_000);
    const audit = await env.DB.prepare("SELECT reason, previous FROM audit_log WHERE subject = ? AND action = 'ledger.credit'").bind(customer.id).first<{ reason: string; previous: string }>();
    expect(audit).toEqual({ reason: why, previous: "0" });
    const note = await env.DB.prepare("SELECT note FROM ledger WHERE user_id = ?").bind(customer.id).first<{ note: string }>();
    expect(note?.note).toBe("Adjustment by support (deposit): Sorry about yesterday's code");

    expect((await api(`/api/admin/customers/${customer.id}/block`, { token: operator.token, json: { reason: why } })).status).toBe(200);
    expect(await env.DB.prepare("SELECT reason FROM audit_log WHERE subject = ? AND action = 'user.block'").bind(customer.id).first()).toEqual({ reason: why });

    const served = await api("/api/admin/settings", { token: operator.token });
    const changed = await api("/api/admin/settings/ads", { method: "PATCH", token: operator.token, json: { value: served.data.settings.ads, reason: why } });
    expect(changed.status).toBe(200);
    expect(await env.DB.prepare("SELECT reason FROM audit_log WHERE subject = 'ads' ORDER BY id DESC LIMIT 1").first()).toEqual({ reason: why });

    // One character more is refused with the schema's sentence, nothing written.
    const before = await auditRows();
    expectErrorBody(await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 1, reason: `${why}!` } }));
    expect(await auditRows()).toBe(before);
    await expectLedgerBalanced();
  });
});

describe("a change and its audit row: both or neither", () => {
  it("an overdraft, an unknown customer and a replayed click write no audit row without its change", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 0 });
    await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 100, reason: "seed" } });
    const audits = () => count("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ?", customer.id);
    const ledgerRows = () => count("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ?", customer.id);
    expect([await audits(), await ledgerRows()]).toEqual([1, 1]);

    // The CHECK refuses the overdraft inside the batch: the audit row written before it in the batch is rolled back.
    const overdraft = await api(`/api/admin/customers/${customer.id}/debit`, { token: operator.token, json: { amount: 500, reason: "chargeback" } });
    expect(overdraft.status).toBe(402);
    expect([await audits(), await ledgerRows()]).toEqual([1, 1]);

    // The same click twice (one requestId): one ledger row, one audit row.
    const requestId = crypto.randomUUID();
    for (let i = 0; i < 2; i++) {
      expect((await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 10, reason: "double click", requestId } })).status).toBe(200);
    }
    expect([await audits(), await ledgerRows()]).toEqual([2, 2]);

    // An unknown customer: 404, nothing written anywhere.
    const total = await auditRows();
    expect((await api("/api/admin/customers/no-such-customer/block", { token: operator.token, json: { reason: "x" } })).status).toBe(404);
    expect((await api("/api/admin/customers/no-such-customer/credit", { token: operator.token, json: { amount: 5, reason: "x" } })).status).toBe(404);
    expect(await auditRows()).toBe(total);
  });

  it("a batch whose change fails after its audit statement leaves no audit row (the statements run as one batch)", async () => {
    const before = await auditRows();
    // The ledger row names a user that does not exist: its foreign key fails the batch after the audit INSERT ran.
    const change = manualEntrySql(db(), { userId: "ghost-user", amountKobo: 100, reason: "no such user", actor: "ops", entryId: crypto.randomUUID() }, Date.now());
    await expect(runAdminChange(db(), change)).rejects.toThrow();
    expect(await auditRows()).toBe(before);
  });

  it("a fresh verification link and its audit row are written together; a verified address gets neither", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(customer.id).run();
    const links = () => count("SELECT COUNT(*) AS n FROM email_verifications WHERE user_id = ?", customer.id);
    const audits = () => count("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ? AND action = 'user.resend_verification'", customer.id);
    const [linksBefore, auditsBefore] = [await links(), await audits()];
    expect((await api(`/api/admin/customers/${customer.id}/resend-verification`, { token: operator.token, json: { reason: "asked by phone" } })).status).toBe(200);
    expect([await links(), await audits()]).toEqual([linksBefore + 1, auditsBefore + 1]);
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), customer.id).run();
    expect((await api(`/api/admin/customers/${customer.id}/resend-verification`, { token: operator.token, json: { reason: "again" } })).status).toBe(409);
    expect([await links(), await audits()]).toEqual([linksBefore + 1, auditsBefore + 1]);
  });
});
