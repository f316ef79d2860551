import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKey } from "../test/api-fixtures";
import { api, balanceOf, createUser } from "../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { STATUS_MIN_SAMPLE } from "../../schema/status";

// Issue 49 on /api/v1: each offer's own record in the price list (success_rate, median_seconds_to_code, sample), what
// number may be chosen there, and a purchase with carriers / areas in DaisySMS's own names, refused before any debit
// when it cannot be honoured.

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const auth = (secret: string) => ({ authorization: `Bearer ${secret}` });
const post = (path: string, secret: string, json: unknown) => api(path, { method: "POST", headers: { ...auth(secret), "idempotency-key": crypto.randomUUID() }, json });

describe("/api/v1 and the number that works", () => {
  it("the price list carries each offer's record with its sample, the same figures the status page counts", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    // Enough ended orders of Swift / USA / WhatsApp for figures (other files' orders of it count too: the figures are a
    // count over every real customer's orders, and the test compares with that count taken the same way).
    const now = Date.now();
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < 40; i++) {
      const id = crypto.randomUUID();
      statements.push(
        env.DB.prepare("INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, created_at, updated_at) VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 1, '15550000000', ?, ?, ?)").bind(id, user.id, i < 30 ? "used" : "timeout", now - 3_600_000, now - 3_600_000),
      );
      if (i < 30) statements.push(env.DB.prepare("INSERT INTO sms_order_codes (order_id, code, received_at) VALUES (?, '111111', ?)").bind(id, now - 3_600_000 + 45_000));
    }
    await env.DB.batch(statements);
    const counted = (await env.DB.prepare(
      `SELECT COUNT(*) AS orders, SUM(status = 'used') AS codes FROM sms_orders WHERE provider = 'Swift' AND country_name = 'USA' AND service_name = 'WhatsApp'
         AND status IN ('used', 'timeout', 'error') AND created_at >= ? AND user_id NOT LIKE 'sbx\\_%' ESCAPE '\\'`,
    )
      .bind(now - 7 * 86_400_000)
      .first<{ orders: number; codes: number }>())!;
    const prices = await api("/api/v1/prices?provider=Swift&country=5", { headers: auth(secret) });
    expect(prices.status).toBe(200);
    const wa = prices.data.data.find((p: { service: string }) => p.service === "wa");
    expect(counted.orders).toBeGreaterThanOrEqual(STATUS_MIN_SAMPLE);
    expect(wa).toMatchObject({ sample: counted.orders, success_rate: Math.round((counted.codes / counted.orders) * 1000) / 10, median_seconds_to_code: expect.any(Number) });
    // USA on Swift offers DaisySMS's carriers and area codes, each with its surcharge.
    expect(prices.data.choices.carriers).toMatchObject({ surcharge_percent: 20, options: expect.arrayContaining([{ value: "tmo", label: "T-Mobile" }]) });
    expect(prices.data.choices.areas).toEqual({ max: 10, surcharge_percent: 20 });
    // Nigeria on Dynamic: nothing to choose, so nothing listed.
    expect((await api("/api/v1/prices?provider=Dynamic&country=12", { headers: auth(secret) })).data.choices).toEqual({});
  });

  it("buys a T-Mobile number in area code 212 at the surcharged price; an impossible choice is refused before any debit", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const wa = (await api("/api/v1/prices?provider=Swift&country=5", { headers: auth(secret) })).data.data.find((p: { service: string }) => p.service === "wa");
    // max_price at the plain price: the choice costs more, so 409 with its price and nothing charged.
    const capped = await post("/api/v1/sms/orders", secret, { provider: "Swift", country: "5", service: "wa", carriers: "tmo", areas: "212", max_price: wa.price });
    expect(capped.status).toBe(409);
    expect(capped.data.price).toBeGreaterThan(wa.price);
    const bought = await post("/api/v1/sms/orders", secret, { provider: "Swift", country: "5", service: "wa", carriers: "tmo", areas: "212" });
    expect(bought.status).toBe(201);
    expect(bought.data).toMatchObject({ number: expect.stringMatching(/^1212\d{7}$/), price: capped.data.price, number_choice: { carriers: ["tmo"], areas: ["212"] } });
    expect(await balanceOf(user.id)).toBe(1_000_000 - Math.round(capped.data.price * 100));
    await pollerOf(bought.data.id).stop();

    const before = await balanceOf(user.id);
    const sprint = await post("/api/v1/sms/orders", secret, { provider: "Swift", country: "5", service: "wa", carriers: "sprint" });
    expect(sprint.status).toBe(400);
    const dynamic = await post("/api/v1/sms/orders", secret, { provider: "Dynamic", country: "12", service: "1", operator: "mts" });
    expect(dynamic.status).toBe(422);
    expect(dynamic.data.code).toBe("UNPROCESSABLE");
    expect(await balanceOf(user.id)).toBe(before);
  });
});
