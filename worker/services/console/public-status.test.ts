import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { countingD1, newTally } from "../../lib/d1-metrics";
import { api, createUser } from "../../test/helpers";
import { makeOperator, MISSING_PAGE } from "../../test/operators";
import { clearStatusCache, INCIDENTS_CACHE_MS, publicStatus, STATUS_CACHE_MS, STATUS_HTTP_MAX_AGE_S } from "./public-status";

// The public status page (issue 32): its figures equal SQL counts over the same orders, a warm cache costs no D1 read,
// small samples show no rate, sandbox orders are left out, and operators' incidents appear (audited).

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

beforeEach(() => clearStatusCache());

let seq = 0;
async function order(userId: string, o: { provider: string; country?: string; service?: string; status: string; ageMs: number; codeAfterMs?: number; refundAfterMs?: number }) {
  seq += 1;
  const id = `status-test-${seq}-${crypto.randomUUID().slice(0, 8)}`;
  const created = NOW - o.ageMs;
  await env.DB.prepare(
    `INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, upstream_id, number, status, created_at, updated_at)
     VALUES (?, ?, ?, '5', ?, 'wa', ?, 10000, ?, '15550001111', ?, ?, ?)`,
  )
    .bind(id, userId, o.provider, o.country ?? "USA", o.service ?? "WhatsApp", `u${seq}`, o.status, created, created)
    .run();
  if (o.codeAfterMs !== undefined) await env.DB.prepare("INSERT INTO sms_order_codes (order_id, code, received_at) VALUES (?, ?, ?)").bind(id, "123456", created + o.codeAfterMs).run();
  if (o.refundAfterMs !== undefined) {
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, 10000, 'refund', 'Refund', ?, ?)").bind(userId, `refund:${id}`, id, created + o.refundAfterMs).run();
  }
}

async function seed() {
  const user = await createUser();
  // Swift, USA: 40 in the last 30 days (28 codes, 12 without), 10 of them in the last 7 days; 5 older than 30 days.
  for (let i = 0; i < 28; i += 1) await order(user.id, { provider: "Swift", status: "used", ageMs: (i < 7 ? 1 : 10) * DAY + i * 1000, codeAfterMs: (20 + i) * 1000 });
  for (let i = 0; i < 12; i += 1) await order(user.id, { provider: "Swift", status: i % 2 ? "timeout" : "error", ageMs: (i < 3 ? 2 : 12) * DAY, refundAfterMs: (15 + i) * 60_000 });
  for (let i = 0; i < 5; i += 1) await order(user.id, { provider: "Swift", status: "used", ageMs: 40 * DAY, codeAfterMs: 1000 });
  // Cancelled by the customer: no provider outcome, left out.
  await order(user.id, { provider: "Swift", status: "cancelled", ageMs: DAY, refundAfterMs: 60_000 });
  // Dynamic: too few to rate.
  for (let i = 0; i < 4; i += 1) await order(user.id, { provider: "Dynamic", country: "Nigeria", service: "Yahoo", status: "used", ageMs: 3 * DAY, codeAfterMs: 30_000 });
  // A sandbox account's orders never count.
  const sandboxId = `sbx_${crypto.randomUUID()}`;
  await env.DB.prepare("INSERT INTO users (id, username, email, phone, password_hash, referral_code) VALUES (?, ?, ?, '08012345678', 'x', ?)")
    .bind(sandboxId, `sbx${seq}`, `${sandboxId}@sandbox.invalid`, `S${sandboxId.slice(4, 12)}`)
    .run();
  for (let i = 0; i < 3; i += 1) await order(sandboxId, { provider: "Swift", status: "timeout", ageMs: DAY, refundAfterMs: 60_000 });
}

const counted = `status IN ('used', 'timeout', 'error') AND user_id NOT LIKE 'sbx_%' AND created_at < ?`;

async function sqlWindow(provider: string, days: number) {
  const since = NOW - days * DAY;
  const all = await env.DB.prepare(`SELECT COUNT(*) AS n FROM sms_orders WHERE provider = ? AND created_at >= ? AND ${counted}`).bind(provider, since, NOW).first<{ n: number }>();
  const used = await env.DB.prepare(`SELECT COUNT(*) AS n FROM sms_orders WHERE provider = ? AND created_at >= ? AND status = 'used' AND ${counted}`).bind(provider, since, NOW).first<{ n: number }>();
  const waits = await env.DB.prepare(
    `SELECT (SELECT MIN(received_at) FROM sms_order_codes c WHERE c.order_id = o.id) - o.created_at AS w FROM sms_orders o
      WHERE provider = ? AND created_at >= ? AND status = 'used' AND ${counted} ORDER BY w`,
  )
    .bind(provider, since, NOW)
    .all<{ w: number }>();
  const w = waits.results.map((r) => r.w);
  const mid = w.length % 2 ? w[(w.length - 1) / 2] : (w[w.length / 2 - 1] + w[w.length / 2]) / 2;
  return { orders: all!.n, success_rate: Math.round((used!.n / all!.n) * 1000) / 10, median_seconds_to_code: Math.round(mid / 1000) };
}

describe("the public status page", () => {
  it("shows figures equal to SQL counts over the same orders, and a warm cache reads nothing from D1", async () => {
    await seed();
    const tally = newTally();
    const db = getDb(countingD1(env.DB, tally));
    const status = await publicStatus(db, NOW);
    expect(tally.count).toBe(1); // one batch

    const swift = status.providers.find((p) => p.provider === "Swift")!;
    expect(swift.last_30_days).toEqual(await sqlWindow("Swift", 30));
    expect(swift.last_30_days.orders).toBeGreaterThanOrEqual(40);
    // The last 7 days hold fewer than 30 of these orders: counted, not rated.
    const week = await sqlWindow("Swift", 7);
    expect(swift.last_7_days.orders).toBe(week.orders);
    if (week.orders < 30) expect(swift.last_7_days).toMatchObject({ success_rate: null, median_seconds_to_code: null });
    const dynamic = status.providers.find((p) => p.provider === "Dynamic")!;
    expect(dynamic.last_30_days.success_rate).toBeNull();
    expect(dynamic.last_30_days.orders).toBe((await sqlWindow("Dynamic", 30)).orders);

    const refunds = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM sms_orders o JOIN ledger l ON l.key = 'refund:' || o.id WHERE o.status IN ('timeout', 'error') AND o.user_id NOT LIKE 'sbx_%' AND o.created_at >= ? AND o.created_at < ?`,
    )
      .bind(NOW - 30 * DAY, NOW)
      .first<{ n: number }>();
    expect(status.refunds.refunded_automatically).toBe(refunds!.n);
    expect(status.refunds.promise).toContain(`as it did for ${refunds!.n} orders in the last 30 days`);
    expect(status.refunds.median_seconds_to_refund).toBeGreaterThan(0);
    expect(status.top_services.find((s) => s.country === "USA" && s.provider === "Swift")?.last_30_days.orders).toBeGreaterThanOrEqual(40);

    // Warm: the same answer with no D1 round trip at all.
    const again = await publicStatus(db, NOW + 1000);
    expect(again).toEqual(status);
    expect(tally.count).toBe(1);
  });

  it("keeps the figures a minute and the incidents 15 s: a posted incident shows within the minute promised (issue 43)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const tally = newTally();
      const db = getDb(countingD1(env.DB, tally));
      await publicStatus(db, NOW);
      expect(tally.count).toBe(1); // cold: figures and incidents in one round trip
      await env.DB.prepare("INSERT INTO status_incidents (title, body, provider, started_at, resolved_at, created_by) VALUES ('Card payments slow', 'x', NULL, ?, NULL, 'ops@example.com')").bind(Date.now()).run();
      vi.setSystemTime(Date.now() + INCIDENTS_CACHE_MS + 1);
      const later = await publicStatus(db, NOW);
      expect(later.incidents.some((i) => i.title === "Card payments slow")).toBe(true);
      expect(tally.count).toBe(2); // the incidents alone were read again; the figures are still the minute's
      expect(STATUS_CACHE_MS).toBe(60_000);
      // Browsers and the edge keep the answer 15 s, the page asks every 20 s (web/api/status.ts): 15 + 15 + 20 < 60.
      expect(INCIDENTS_CACHE_MS / 1000 + STATUS_HTTP_MAX_AGE_S + 20).toBeLessThan(60);
    } finally {
      vi.useRealTimers();
    }
  });

  it("is public JSON the edge may cache, and shows the incidents operators post (audited); others get 404 there", async () => {
    const res = await api("/api/status");
    expect(res.status).toBe(200);
    // Issue 43: kept 15 s by browsers and the edge, so a posted incident shows within the minute the console promises.
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=15, s-maxage=15/);
    expect(res.data).toMatchObject({ min_sample: 30, providers: expect.any(Array), refunds: { promise: expect.stringContaining("automatically") } });

    const customer = await createUser();
    expect((await api("/api/admin/status-incidents", { token: customer.token, json: { title: "x", body: "y", reason: "z" } })).data).toEqual(MISSING_PAGE);
    const operator = await makeOperator();
    const missingReason = await api("/api/admin/status-incidents", { token: operator.token, json: { title: "Slow codes", body: "USA codes are slow." } });
    expect(missingReason.status).toBe(400);
    const posted = await api("/api/admin/status-incidents", { token: operator.token, json: { title: "Slow codes on Swift SMS", body: "USA codes take longer than usual.", provider: "Swift", reason: "upstream reported delays" } });
    expect(posted.status).toBe(201);
    const audit = await env.DB.prepare("SELECT action, reason, detail FROM audit_log WHERE action = 'status.incident.post'").first();
    expect(audit).toEqual({ action: "status.incident.post", reason: "upstream reported delays", detail: JSON.stringify({ title: "Slow codes on Swift SMS", provider: "Swift" }) });
    const shown = await api("/api/status");
    expect(shown.data.incidents[0]).toMatchObject({ id: posted.data.id, title: "Slow codes on Swift SMS", provider: "Swift", resolved_at: null });
    const resolved = await api(`/api/admin/status-incidents/${posted.data.id}/resolve`, { token: operator.token, json: { reason: "codes back to normal" } });
    expect(resolved.data.resolved_at).not.toBeNull();
    expect((await api(`/api/admin/status-incidents/${posted.data.id}/resolve`, { token: operator.token, json: { reason: "again" } })).status).toBe(409);
    expect((await api("/api/admin/status-incidents/99999/resolve", { token: operator.token, json: { reason: "x" } })).status).toBe(404);
  });
});
