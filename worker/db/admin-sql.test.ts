import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearSettingsCache } from "../services/kernel";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { checkUpstreamHealth, type ProviderOrderRow, summariseProviderOrders } from "../services/sms";
import {
  manualEntrySql,
  providerOrdersSql,
  RECONCILE_SQL,
  setRoleSql,
  setSettingSql,
  stuckSql,
  UPSTREAM_HEALTH_SQL,
  type AdminChange,
} from "./admin-sql";
import { getDb } from "./client";
import { testServices } from "../test/services";

// The console and the operator CLI (scripts/admin.ts, over wrangler's D1 binding) run exactly these drizzle queries as
// one D1 batch each; here they run against the test D1.
const d = () => getDb(env.DB);
async function exec(change: AdminChange) {
  await d().batch(change as [AdminChange[number], ...AdminChange]);
}

describe("operator statements", () => {
  it("a changed setting is served by the API and audited", async () => {
    const user = await createUser();
    await exec(setSettingSql(d(), "rate_settings", { cryptomin: 7, rate: 1620, squadmin: 2000 }, "ops@test", "new minimums"));
    clearSettingsCache();
    const res = await api("/api/get-rate", { token: user.token });
    expect(res.status).toBe(200);
    // rate_settings.rate is the crypto funding rate: served as crypto_rate (get-rate's `rate` is the pricing rate).
    expect(res.data[0]).toMatchObject({ cryptomin: 7, crypto_rate: 1620, squadmin: 2000 });
    const audit = await env.DB.prepare("SELECT actor, action, reason FROM audit_log ORDER BY id DESC LIMIT 1").first();
    expect(audit).toEqual({ actor: "ops@test", action: "setting.set", reason: "new minimums" });
  });

  it("refuses an invalid setting before anything is written", () => {
    expect(() => setSettingSql(d(), "exchange_rate", { rate: -5 }, "ops", null)).toThrow(/Invalid value for exchange_rate/);
    expect(() => setSettingSql(d(), "no_such_key", {}, "ops", null)).toThrow(/Unknown setting/);
  });

  it("a manual credit is a ledger row with its reason; a replayed statement applies once; an overdraft is refused", async () => {
    const user = await createUser();
    const credit = manualEntrySql(d(), { userId: user.id, amountKobo: 250_000, reason: "goodwill for outage", actor: "ops", entryId: "e1" });
    await exec(credit);
    await exec([credit[1]]); // the same ledger statement again (e.g. a retried CLI run)
    expect(await balanceOf(user.id)).toBe(250_000);
    const row = await env.DB.prepare("SELECT kind, note, amount_kobo FROM ledger WHERE key = 'admin:e1'").first();
    // The customer's history shows a neutral label; the reason is the audit row's only.
    expect(row).toEqual({ kind: "admin", note: "Adjustment by support (deposit)", amount_kobo: 250_000 });

    const overdraft = manualEntrySql(d(), { userId: user.id, amountKobo: -300_000, reason: "chargeback", actor: "ops", entryId: "e2" });
    await expect(exec(overdraft)).rejects.toThrow(/CHECK constraint failed/);
    expect(await balanceOf(user.id)).toBe(250_000);
    expect(() => manualEntrySql(d(), { userId: user.id, amountKobo: 100, reason: "  ", actor: "ops", entryId: "e3" })).toThrow(/reason is required/);

    const mismatches = await env.DB.prepare(RECONCILE_SQL).all();
    expect(mismatches.results).toEqual([]);
    await expectLedgerBalanced();
  });

  it("a reason with newlines, quotes, a semicolon and 2,000 characters is stored as typed, in the audit log only (the CLI's and the console's queries)", async () => {
    const user = await createUser();
    const head = "Goodwill: failed code yesterday\nticket #7; she said \"it's late\"\r\n\ttabbed -- not a comment /* nor this */ ? ";
    const reason = head + "x".repeat(2000 - head.length);
    expect(reason).toHaveLength(2000);
    const statements = manualEntrySql(d(), { userId: user.id, amountKobo: 100_000, reason, customerMessage: "Sorry about yesterday's code", actor: "ops", entryId: "reason-as-typed" });
    // Bound, never spliced: no query's SQL text holds the reason (nothing to split on its `;` or newlines); its
    // parameters do, exactly as typed.
    const compiled = statements.map((q) => (q as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL());
    expect(compiled.some((q) => q.sql.includes("ticket #7"))).toBe(false);
    expect(compiled.flatMap((q) => q.params)).toContain(reason);
    await exec(statements);
    const audit = await env.DB.prepare("SELECT reason, detail FROM audit_log WHERE subject = ? AND action = 'ledger.credit'").bind(user.id).first<{ reason: string; detail: string }>();
    expect(audit?.reason).toBe(reason);
    expect(JSON.parse(audit!.detail)).toMatchObject({ customerMessage: "Sorry about yesterday's code" });
    const row = await env.DB.prepare("SELECT note FROM ledger WHERE key = 'admin:reason-as-typed'").first();
    expect(row).toEqual({ note: "Adjustment by support (deposit): Sorry about yesterday's code" });
    expect(() => manualEntrySql(d(), { userId: user.id, amountKobo: 100, reason: "y".repeat(2001), actor: "ops", entryId: "too-long" })).toThrow(/at most 2000/);
  });

  it("grant-operator / revoke-operator: a reason is required; each change is audited with the previous role", async () => {
    const user = await createUser();
    expect(() => setRoleSql(d(), user.id, "operator", "ops", "  ")).toThrow(/reason is required/);
    await exec(setRoleSql(d(), user.id, "operator", "ops@host", "joins the support team"));
    expect(await env.DB.prepare("SELECT role FROM users WHERE id = ?").bind(user.id).first()).toEqual({ role: "operator" });
    await exec(setRoleSql(d(), user.id, "customer", "ops@host", "left the team"));
    expect(await env.DB.prepare("SELECT role FROM users WHERE id = ?").bind(user.id).first()).toEqual({ role: "customer" });
    const audit = await env.DB.prepare("SELECT actor, action, previous, reason FROM audit_log WHERE subject = ? ORDER BY id").bind(user.id).all();
    expect(audit.results).toEqual([
      { actor: "ops@host", action: "operator.grant", previous: "customer", reason: "joins the support team" },
      { actor: "ops@host", action: "operator.revoke", previous: "operator", reason: "left the team" },
    ]);
  });

  it("a setting change without a reason is refused before anything is written", () => {
    expect(() => setSettingSql(d(), "exchange_rate", { rate: 1700 }, "ops", null)).toThrow(/reason is required/);
  });

  it("lists orders left waiting", async () => {
    const user = await createUser();
    await env.DB.prepare(
      "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, status, created_at) VALUES ('old-order', ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 100, 'waiting', ?)",
    )
      .bind(user.id, Date.now() - 3600_000)
      .run();
    const stuck = await env.DB.prepare(stuckSql(30)).all<{ kind: string; id: string }>();
    expect(stuck.results.map((r) => `${r.kind}:${r.id}`)).toContain("sms_order:old-order");
  });

  it("health: the sweep's last reading per upstream, and the order rows the stats summarise", async () => {
    await checkUpstreamHealth(testServices(), Date.now());
    const { results } = await env.DB.prepare(UPSTREAM_HEALTH_SQL).all<{ provider: string; status: string }>();
    expect(results.map((r) => [r.provider, r.status])).toEqual([
      ["Dynamic", "ok"],
      ["Dynamic-rent", "ok"],
      ["Swift", "ok"],
      // The SMS-Activate-family upstreams configured for failover (issue 32): their simulators answer in the sandbox.
      ["grizzly", "ok"],
      ["herosms", "ok"],
    ]);
    const user = await createUser({ balanceKobo: 500_000 });
    // The orders since this purchase began: the lane's earlier files bought in the last minute too (decision 054).
    const since = Date.now();
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(bought.status).toBe(200);
    const rows = (await env.DB.prepare(providerOrdersSql(since)).all<ProviderOrderRow>()).results;
    expect(summariseProviderOrders(rows)).toEqual([
      { provider: "Swift", serviceId: "wa", serviceName: "WhatsApp", purchases: 1, codes: 0, refunds: 0, medianSecondsToCode: null },
    ]);
  });
});
