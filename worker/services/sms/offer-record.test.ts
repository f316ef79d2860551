import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { STATUS_MIN_SAMPLE } from "../../../schema/status";
import { createUser, db } from "../../test/helpers";
import { offerKey, offerRecords, RECORD_WINDOW_DAYS } from "./offer-record";

// Issue 49: the record beside the Buy button is a SQL count over the same orders (and the status page's figure for the
// same offer: services/console/public-status.record.test.ts). Each test writes its own offer (a country and service no other file uses) and asserts only on it.

const DAY = 86_400_000;

async function seed(offer: { country: string; service: string }, now: number, rows: { status: string; ageMs: number; codeAfterMs?: number; sandbox?: boolean }[]) {
  const user = await createUser();
  const sandboxId = `sbx_${user.id}`;
  await env.DB.prepare("INSERT INTO users (id, username, email, phone, password_hash, referral_code) VALUES (?, ?, ?, '08000000000', 'x', ?)")
    .bind(sandboxId, `sbx${user.id.slice(0, 6)}`, `${sandboxId}@sandbox.invalid`, `S${user.id.slice(0, 8)}`)
    .run();
  const statements: D1PreparedStatement[] = [];
  rows.forEach((r, i) => {
    const id = crypto.randomUUID();
    const created = now - r.ageMs;
    statements.push(
      env.DB.prepare(
        "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, created_at, updated_at) VALUES (?, ?, 'Swift', '5', ?, 'rec', ?, 10000, ?, ?, ?, ?)",
      ).bind(id, r.sandbox ? sandboxId : user.id, offer.country, offer.service, `1555000${String(i).padStart(4, "0")}`, r.status, created, created + 1000),
    );
    if (r.codeAfterMs !== undefined) statements.push(env.DB.prepare("INSERT INTO sms_order_codes (order_id, code, received_at) VALUES (?, '123456', ?)").bind(id, created + r.codeAfterMs));
  });
  await env.DB.batch(statements);
}

/** The record counted straight from the table: orders that got a number and ended, real customers, the last 7 days. */
async function sqlCount(offer: { country: string; service: string }, now: number) {
  return (await env.DB.prepare(
    `SELECT COUNT(*) AS orders, SUM(CASE WHEN status = 'used' THEN 1 ELSE 0 END) AS codes FROM sms_orders
      WHERE provider = 'Swift' AND country_name = ? AND service_name = ? AND status IN ('used', 'timeout', 'error')
        AND created_at >= ? AND created_at < ? AND user_id NOT LIKE 'sbx\\_%' ESCAPE '\\'`,
  )
    .bind(offer.country, offer.service, now - RECORD_WINDOW_DAYS * DAY, now)
    .first<{ orders: number; codes: number }>())!;
}

describe("an offer's own record", () => {
  it("equals a SQL count over the same orders: cancelled, refused, sandbox and older orders left out; figures from 30", async () => {
    const now = Date.now();
    const offer = { country: `Recordland ${crypto.randomUUID().slice(0, 8)}`, service: "RecordApp" };
    const used = Array.from({ length: 28 }, (_, i) => ({ status: "used", ageMs: DAY + i * 60_000, codeAfterMs: 20_000 + i * 1000 }));
    await seed(offer, now, [
      ...used,
      ...Array.from({ length: 4 }, () => ({ status: "timeout", ageMs: 2 * DAY })),
      { status: "error", ageMs: 3 * DAY },
      { status: "cancelled", ageMs: DAY },
      { status: "failed", ageMs: DAY },
      { status: "waiting", ageMs: 60_000 },
      { status: "used", ageMs: 9 * DAY, codeAfterMs: 1000 },
      { status: "used", ageMs: DAY, codeAfterMs: 1000, sandbox: true },
    ]);
    const record = (await offerRecords(db(), now, { service: "recordapp " })).get(offerKey("Swift", offer.country, offer.service))!;
    const counted = await sqlCount(offer, now);
    expect(counted).toEqual({ orders: 33, codes: 28 });
    expect(record).toEqual({ orders: counted.orders, success_rate: Math.round((counted.codes / counted.orders) * 1000) / 10, median_seconds_to_code: 34 });

    // Below the minimum sample: the sample, no figures.
    const small = { country: `Smallland ${crypto.randomUUID().slice(0, 8)}`, service: "RecordApp" };
    await seed(small, now, Array.from({ length: STATUS_MIN_SAMPLE - 1 }, () => ({ status: "used", ageMs: DAY, codeAfterMs: 5000 })));
    expect((await offerRecords(db(), now, { provider: "Swift", country: small.country })).get(offerKey("Swift", small.country, small.service))).toEqual({
      orders: STATUS_MIN_SAMPLE - 1,
      success_rate: null,
      median_seconds_to_code: null,
    });
  });
});
