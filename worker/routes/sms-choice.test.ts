import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMPARE_MIN_SAMPLE } from "../../schema/sms";
import { FILE_USERS_SQL, fileUsersRowidMark } from "../test/file-scope";
import { api, createUser } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// Choosing well: favourites (server-side, per customer) and the compare view with our own last-7-days outcomes.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("favourites", () => {
  it("stars and un-stars a service for this customer only; repeats change nothing", async () => {
    const user = await createUser();
    const other = await createUser();
    expect((await api("/api/sms/favourites", { token: user.token })).data).toEqual({ favourites: [] });

    const star = await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "wa", starred: true } });
    expect(star.status).toBe(200);
    expect(star.data).toEqual({ favourites: [{ provider: "Swift", service_id: "wa" }] });
    await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "wa", starred: true } });
    await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Dynamic", service_id: "1", starred: true } });
    const listed = await api("/api/sms/favourites", { token: user.token });
    expect(listed.data.favourites).toHaveLength(2);
    expect(listed.data.favourites).toContainEqual({ provider: "Dynamic", service_id: "1" });
    expect((await api("/api/sms/favourites", { token: other.token })).data).toEqual({ favourites: [] });

    const unstar = await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "wa", starred: false } });
    expect(unstar.data).toEqual({ favourites: [{ provider: "Dynamic", service_id: "1" }] });
  });

  it("refuses bad input with a clear 400 and a missing session with 401", async () => {
    const user = await createUser();
    const bad = await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Tiger", service_id: "wa", starred: true } });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toMatch(/Unknown provider/);
    expect((await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "", starred: true } })).status).toBe(400);
    expect((await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "wa" } })).status).toBe(400);
    expect((await api("/api/sms/favourites")).status).toBe(401);
  });
});

/**
 * The compare view's statistics read every customer's orders of the last 7 days: the lane's earlier files bought on
 * the same routes minutes ago (decision 054). This moves those files' orders a year back, out of the window, so the
 * statistics read this file's orders only, as they did when each file had its own database. Their money rows are
 * untouched, and no later file reads an earlier file's orders.
 */
async function earlierFilesOrdersOutOfWindow() {
  await env.DB.prepare(`UPDATE sms_orders SET created_at = created_at - ?2, updated_at = updated_at - ?2 WHERE user_id NOT IN (${FILE_USERS_SQL.replace("?", "?1")})`)
    .bind(fileUsersRowidMark(), 365 * 86_400_000)
    .run();
}

/** Settled orders of one route inside the window: `codes` used (each took `seconds`), the rest timed out. */
async function seedOrders(userId: string, provider: string, countryId: string, serviceName: string, total: number, codes: number, seconds = 30) {
  const now = Date.now();
  for (let i = 0; i < total; i += 1) {
    const used = i < codes;
    await env.DB.prepare(
      `INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, code, status, attempts, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'USA', 'x', ?, 12000, '15550000000', ?, ?, 0, ?, ?)`,
    )
      .bind(crypto.randomUUID(), userId, provider, countryId, serviceName, used ? "123456" : null, used ? "used" : "timeout", now - 3_600_000, now - 3_600_000 + seconds * 1000)
      .run();
  }
}

describe("GET /api/sms/compare", () => {
  // The statistics are everyone's last 7 days: this file's orders only (worker/test/file-scope.ts, decision 054).
  beforeEach(() => earlierFilesOrdersOutOfWindow());

  it("lists every provider and country selling the service by name, priced for the caller, cheapest first", async () => {
    const user = await createUser();
    const res = await api("/api/sms/compare?provider=Swift&service=wa", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ service: "WhatsApp", min_sample: COMPARE_MIN_SAMPLE, window_days: 7 });
    const routes = res.data.routes as { provider: string; country_id: string; price: number; service: string }[];
    expect(routes).toContainEqual(expect.objectContaining({ provider: "Swift", country_id: "5", service_id: "wa", price: 1200, stats: null, sample: 0 }));
    expect(routes.some((r) => r.provider === "Dynamic")).toBe(true);
    expect(routes.every((r) => r.service === "WhatsApp")).toBe(true);
    expect(routes.map((r) => r.price)).toEqual([...routes.map((r) => r.price)].sort((a, b) => a - b));
    expect((await api("/api/sms/compare?provider=Swift&service=nope", { token: user.token })).status).toBe(404);
    expect((await api("/api/sms/compare?provider=Swift&service=wa")).status).toBe(401);
  });

  it("never shows a success rate or time to code below the minimum sample; shows them, with the sample, at it", async () => {
    const user = await createUser();
    await seedOrders(user.id, "Swift", "5", "WhatsApp", COMPARE_MIN_SAMPLE - 1, COMPARE_MIN_SAMPLE - 2);
    // Outside the 7 days: never counted.
    await env.DB.prepare(
      `INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, attempts, created_at, updated_at)
       VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 12000, '1555', 'timeout', 0, ?, ?)`,
    )
      .bind(crypto.randomUUID(), user.id, Date.now() - 8 * 86_400_000, Date.now() - 8 * 86_400_000)
      .run();
    const below = await api("/api/sms/compare?provider=Swift&service=wa", { token: user.token });
    const swiftBelow = below.data.routes.find((r: { provider: string }) => r.provider === "Swift");
    expect(swiftBelow).toMatchObject({ sample: COMPARE_MIN_SAMPLE - 1, stats: null });

    await seedOrders(user.id, "Swift", "5", "WhatsApp", 1, 0);
    const at = await api("/api/sms/compare?provider=Swift&service=wa", { token: user.token });
    const swiftAt = at.data.routes.find((r: { provider: string }) => r.provider === "Swift");
    expect(swiftAt.sample).toBe(COMPARE_MIN_SAMPLE);
    expect(swiftAt.stats).toEqual({ success_rate: (COMPARE_MIN_SAMPLE - 2) / COMPARE_MIN_SAMPLE, median_seconds_to_code: 30 });
    // Another route of the same service with no orders stays without figures.
    expect(at.data.routes.filter((r: { provider: string; stats: unknown }) => r.provider === "Dynamic" && r.stats !== null)).toEqual([]);
  });
});
