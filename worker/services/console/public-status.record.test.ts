import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, db } from "../../test/helpers";
import { offerKey, offerRecords } from "../sms";
import { clearStatusCache, publicStatus } from "./public-status";

// Issue 49: the record beside the Buy button (the sms room's offer record) is the status page's figure for the same
// offer: one reading. The offer is this test's own (a country and service no other file uses).

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

describe("the offer's record and the public status page", () => {
  it("matches the public status page's last-7-days figures for the same offer", async () => {
    const now = Date.now();
    const offer = { country: `Statusland ${crypto.randomUUID().slice(0, 8)}`, service: "StatusApp" };
    // Enough orders for the country to be among the page's busiest; some older than 7 days so the windows differ.
    await seed(offer, now, [
      ...Array.from({ length: 170 }, (_, i) => ({ status: "used", ageMs: DAY + i * 60_000, codeAfterMs: 10_000 + (i % 40) * 1000 })),
      ...Array.from({ length: 30 }, () => ({ status: "timeout", ageMs: 2 * DAY })),
      ...Array.from({ length: 60 }, () => ({ status: "used", ageMs: 12 * DAY, codeAfterMs: 90_000 })),
    ]);
    clearStatusCache();
    const status = await publicStatus(db(), now);
    const shown = status.top_services.find((s) => s.country === offer.country && s.service === offer.service);
    expect(shown).toBeDefined();
    const record = (await offerRecords(db(), now, { provider: "Swift", country: offer.country })).get(offerKey("Swift", offer.country, offer.service));
    expect(record).toEqual(shown!.last_7_days);
    expect(shown!.last_7_days.orders).toBe(200);
    expect(shown!.last_30_days.orders).toBe(260);
  });
});
