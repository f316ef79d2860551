import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../config";
import { deliveryFor } from "../services/webhooks";
import { createKey } from "../test/api-fixtures";
import { api, balanceOf, createUser } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { createApp } from "../app";
import { overrideUpstreamsForTests } from "../providers/test-seams";

// The /api/v1 additions of issue 27 as a bot uses them: its orders and rentals a page at a time, the rental catalogue
// and price before paying, and its own webhook (URL, delivery log, resend). Their answers' shapes are checked against
// the document in api-v1.schema.test.ts; here, what they contain.

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const auth = (secret: string) => ({ authorization: `Bearer ${secret}` });
const get = (path: string, secret: string) => api(`/api/v1${path}`, { headers: auth(secret) });
const post = (path: string, secret: string, json: unknown = {}) =>
  api(`/api/v1${path}`, { method: "POST", headers: { ...auth(secret), "idempotency-key": crypto.randomUUID() }, json });

/** Inserts orders straight into D1 at chosen times (the list reads rows; buying 7 numbers would only be slower). */
async function ordersAt(userId: string, times: number[], status = "used"): Promise<string[]> {
  const ids: string[] = [];
  for (const t of times) {
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, code, status, created_at, updated_at) VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 100000, '+15550000000', '123456', ?, ?, ?)",
    )
      .bind(id, userId, status, t, t)
      .run();
    ids.push(id);
  }
  return ids;
}

describe("GET /sms/orders and GET /rentals: cursor pages, newest first, filtered by status", () => {
  it("pages cover every order once, in order, even with orders of the same millisecond; new orders never shift a page", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const { secret } = await createKey(user, "live");
    const t = Date.now() - 3_600_000;
    // Seven orders, three of them in one millisecond (the id breaks the tie).
    const ids = await ordersAt(user.id, [t, t + 1, t + 2, t + 2, t + 2, t + 3, t + 4]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`/sms/orders?limit=3${cursor ? `&cursor=${cursor}` : ""}`, secret);
      expect(page.status).toBe(200);
      seen.push(...page.data.data.map((o: { id: string }) => o.id));
      cursor = page.data.next_cursor;
      pages++;
      // A new order arriving meanwhile lands on the first page, not in the middle of the walk.
      if (pages === 1) await ordersAt(user.id, [Date.now()]);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(ids));
    const rows = await env.DB.prepare(`SELECT id FROM sms_orders WHERE user_id = ? AND created_at < ? ORDER BY created_at DESC, id DESC`).bind(user.id, t + 10).all<{ id: string }>();
    expect(seen).toEqual(rows.results.map((r) => r.id));
    // Default page size, and the filter.
    expect((await get("/sms/orders", secret)).data.data).toHaveLength(8);
    await ordersAt(user.id, [t + 5], "timeout");
    const timedOut = await get("/sms/orders?status=timeout", secret);
    expect(timedOut.data.data.map((o: { status: string; refunded: boolean }) => [o.status, o.refunded])).toEqual([["timeout", true]]);
    expect(timedOut.data.next_cursor).toBeNull();
  });

  it("another account's orders and rentals never appear; a test key sees only its sandbox account's", async () => {
    const owner = await createUser({ balanceKobo: 5_000_000 });
    const live = await createKey(owner, "live");
    const test = await createKey(owner, "test");
    await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 50_000 } });
    const stranger = await createUser({ balanceKobo: 5_000_000 });
    const strangerKey = await createKey(stranger, "live");

    const liveOrder = await post("/sms/orders", live.secret, { country: "5", service: "wa" });
    const testOrder = await post("/sms/orders", test.secret, { country: "5", service: "wa" });
    await post("/sms/orders", strangerKey.secret, { country: "5", service: "wa" });
    const liveRental = await post("/rentals", live.secret, { country: "5", duration: "hour", period: 1 });
    const testRental = await post("/rentals", test.secret, { country: "5", duration: "hour", period: 1 });
    expect([liveOrder.status, testOrder.status, liveRental.status, testRental.status]).toEqual([201, 201, 201, 201]);

    const ids = async (path: string, secret: string) => (await get(path, secret)).data.data.map((x: { id: string }) => x.id);
    expect(await ids("/sms/orders", live.secret)).toEqual([liveOrder.data.id]);
    expect(await ids("/sms/orders", test.secret)).toEqual([testOrder.data.id]);
    expect(await ids("/rentals", live.secret)).toEqual([liveRental.data.id]);
    expect(await ids("/rentals", test.secret)).toEqual([testRental.data.id]);
    expect(await ids("/rentals", strangerKey.secret)).toEqual([]);
    // A cursor made from another account's list reads only the caller's rows.
    const ownPage = await get("/sms/orders?limit=1", strangerKey.secret);
    expect(ownPage.data.next_cursor).toBeNull();
    // The rental list carries the rental read's fields, refund figures included (the read syncs the inbox first).
    const read = (await get(`/rentals/${liveRental.data.id}`, live.secret)).data.rental;
    expect((await get("/rentals", live.secret)).data.data[0]).toEqual(read);
    expect((await get("/rentals?status=ended", live.secret)).data.data).toEqual([]);
  });
});

describe("GET /rentals/countries and /rentals/quote: the catalogue and the price before paying", () => {
  it("the quote is what POST /rentals charges (the caller's tier) and the web form quotes; periods past their duration's limit are 400", async () => {
    const user = await createUser({ balanceKobo: 10_000_000 });
    const { secret } = await createKey(user, "live");
    const countries = await get("/rentals/countries", secret);
    expect(countries.data.data).toContainEqual({ id: "5", title: expect.any(String) });
    const web = await api("/api/rent/country-list", { token: user.token });
    expect(countries.data.data).toEqual(web.data);

    const quote = await get("/rentals/quote?country=5&duration=day&period=2", secret);
    expect(quote.data).toMatchObject({ country: "5", duration: "day", period: 2, in_stock: true, message: null });
    expect(quote.data.count).toBeGreaterThan(0);
    // The web form's quote for the same choice, the same price.
    const webQuote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 2 } });
    expect(quote.data.price).toBe(webQuote.data.price);
    const before = await balanceOf(user.id);
    const rented = await post("/rentals", secret, { country: "5", duration: "day", period: 2 });
    expect(before - (await balanceOf(user.id))).toBe(Math.round(quote.data.price * 100));
    expect(rented.data.amount).toBe(quote.data.price);

    for (const q of ["country=5&duration=hour&period=25", "country=5&duration=week&period=5", "country=5&duration=month&period=0", "country=5&duration=year&period=1", "duration=hour&period=1"]) {
      const bad = await get(`/rentals/quote?${q}`, secret);
      expect(bad.status, q).toBe(400);
      expect(bad.data.code).toBe("VALIDATION_FAILED");
    }
  });
});

describe("/webhook: the calling key's own URL, delivery log and resend, by the console's rules", () => {
  // Deliveries go nowhere real: the receiver answers 200.
  beforeEach(() => overrideUpstreamsForTests({ webhooks: async () => new Response("ok") }));
  afterEach(() => overrideUpstreamsForTests({ webhooks: null }));

  it("set, read, clear; https only on an https deployment, http accepted on a local one; no credentials in the URL", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const key = await createKey(user, "live");
    const other = await createKey(user, "live", "other key");
    const put = (secret: string, url: unknown, e: Env = env) =>
      createApp().request("/api/v1/webhook", { method: "PUT", headers: { ...auth(secret), "content-type": "application/json" }, body: JSON.stringify({ url }) }, e);

    expect((await api("/api/v1/webhook", { method: "PUT", headers: auth(key.secret), json: { url: "https://bot.example.com/a" } })).data).toEqual({
      url: "https://bot.example.com/a",
      events: ["sms.code", "sms.ended", "rental.sms", "rental.ended", "balance.changed"],
    });
    // The key's own: the other key is untouched, and the console shows the same URL for this key.
    expect((await get("/webhook", other.secret)).data.url).toBeNull();
    const keys = await api("/api/keys", { token: user.token });
    expect(keys.data.data.find((k: { id: string }) => k.id === key.id).webhook_url).toBe("https://bot.example.com/a");

    // Local deployment (PUBLIC_URL http): a local receiver is accepted, as in Settings → API.
    expect((await api("/api/v1/webhook", { method: "PUT", headers: auth(key.secret), json: { url: "http://127.0.0.1:9999/hook" } })).status).toBe(200);
    // A deployment on https: http is refused with the console's message, and nothing changes.
    const live: Env = { ...env, PUBLIC_URL: "https://numbers.example.ng" };
    const refused = await (await put(key.secret, "http://bot.example.com/b", live)).json<{ code: string; message: string }>();
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", message: "The webhook URL must start with https://." });
    expect((await put(key.secret, "https://user:pw@bot.example.com/", live)).status).toBe(400);
    expect((await put(key.secret, "not a url", live)).status).toBe(400);
    expect((await put(key.secret, null, live)).status).toBe(400); // clearing is DELETE
    expect((await get("/webhook", key.secret)).data.url).toBe("http://127.0.0.1:9999/hook");

    const cleared = await api("/api/v1/webhook", { method: "DELETE", headers: auth(key.secret) });
    expect(cleared.data.url).toBeNull();
    expect((await get("/webhook", key.secret)).data.url).toBeNull();
    await runInDurableObject(deliveryFor(env, key.id), (_i, s) => s.storage.deleteAlarm());
  });

  it("the delivery log is this key's only; resend re-queues its own event; another key's event is 404", async () => {
    const owner = await createUser({ balanceKobo: 0 });
    const key = await createKey(owner, "test");
    const sibling = await createKey(owner, "test", "sibling");
    for (const k of [key, sibling]) await api("/api/v1/webhook", { method: "PUT", headers: auth(k.secret), json: { url: "https://bot.example.com/hook" } });
    // A sandbox top-up is a balance.changed for every test key of the account with a URL: one event per key.
    await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 1000 } });
    const mine = await get("/webhook/deliveries", key.secret);
    const theirs = await get("/webhook/deliveries", sibling.secret);
    expect(mine.data.data).toHaveLength(1);
    expect(mine.data.data[0]).toMatchObject({ type: "balance.changed", payload: { type: "balance.changed", data: { balance: 1000, currency: "NGN" } } });
    expect(theirs.data.data[0].id).not.toBe(mine.data.data[0].id);

    const eventId = mine.data.data[0].id as string;
    await env.DB.prepare("UPDATE webhook_events SET status = 'failed', attempts = 10 WHERE id = ?").bind(eventId).run();
    const resent = await post(`/webhook/deliveries/${eventId}/resend`, key.secret);
    expect(resent.data).toMatchObject({ id: eventId, status: "pending", attempts: 0 });
    const theirRow = () => env.DB.prepare("SELECT status, attempts, next_attempt_at FROM webhook_events WHERE id = ?").bind(theirs.data.data[0].id).first();
    const before = await theirRow();
    const crossed = await post(`/webhook/deliveries/${theirs.data.data[0].id}/resend`, key.secret);
    expect(crossed.status).toBe(404);
    expect(crossed.data.code).toBe("NOT_FOUND");
    expect(await theirRow()).toEqual(before);
    for (const k of [key, sibling]) await runInDurableObject(deliveryFor(env, k.id), (_i, s) => s.storage.deleteAlarm());
  });
});
