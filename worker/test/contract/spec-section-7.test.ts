import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { verifyToken } from "../../lib/jwt";
import { CLOSE_SESSION_ENDED } from "../../rooms/notification-room";
import { createInvoiceViaApi, startCardPaymentViaApi } from "../payment-fixtures";
import { createKey, handler } from "../api-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced, type ApiReply } from "../helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../sms-fixtures";
import { collect, joinOwnRoom } from "../sockets";

/**
 * SPEC.md section 7, one test per row, read the way the spec's client reads it (issue 19, docs/decisions/018). That
 * client uses axios: its `data` is the response BODY, `data.data` the body's `data` field. `read(reply, "data.data")`
 * applies the row's own path expression to an axios-shaped `{ data: body }`, so a field that moves a level breaks here.
 */
function read(reply: ApiReply, expression: string): unknown {
  const axiosResponse: unknown = { data: reply.data };
  return expression
    .split(".")
    .reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), axiosResponse);
}

// Sign-ups hash passwords (100,000 iterations) and SMS rows run whole orders: allow the time on a loaded machine.
const SLOW = { timeout: 60_000 };
const PASSWORD = "contract-pass-1";
let n = 0;

async function register() {
  n += 1;
  const email = `contract${n}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await api("/api/register/", { json: { username: `Contract${n}`, number: "08012345678", email, password: PASSWORD } });
  expect(res.status).toBe(201);
  const claims = await verifyToken(new TextEncoder().encode(env.JWT_SECRET!), "api", res.data.token);
  return { email, token: res.data.token as string, id: claims!.userId, sessionId: claims!.sessionId };
}

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("SPEC section 7: accounts", SLOW, () => {
  it("POST /api/register/ — used by the login action; error in field message", async () => {
    const account = await register();
    expect(account.token).toEqual(expect.any(String));
    const again = await api("/api/register/", { json: { username: "Someone", number: "08012345678", email: account.email, password: PASSWORD } });
    expect(again.status).toBe(409);
    expect(read(again, "data.message")).toEqual(expect.stringMatching(/\S/));
  });

  it("POST /api/login — error in field error", async () => {
    const account = await register();
    const ok = await api("/api/login", { json: { email: account.email, password: PASSWORD } });
    expect(read(ok, "data.token")).toEqual(expect.any(String));
    const wrong = await api("/api/login", { json: { email: account.email, password: "not-the-password" } });
    expect(wrong.status).toBe(401);
    expect(read(wrong, "data.error")).toBe("Invalid email or password");
  });

  it("POST /api/logout/ — session cleared afterwards", async () => {
    const user = await createUser();
    expect((await api("/api/logout/", { method: "POST", token: user.token })).status).toBe(200);
    expect((await api("/api/level", { token: user.token })).status).toBe(401);
  });

  it("PATCH /api/update/ — data is a text message", async () => {
    const user = await createUser();
    const res = await api("/api/update/", { method: "PATCH", token: user.token, json: { username: "Lovelace", userNumber: "08012345678" } });
    expect(res.status).toBe(200);
    expect(read(res, "data")).toBe("Profile updated successfully!");
    const bad = await api("/api/update/", { method: "PATCH", token: user.token, json: { username: "Al", userNumber: "08012345678" } });
    expect(read(bad, "data.message")).toBe("Username must be at least 3 characters");
  });

  it("PATCH /api/password — data.data message; error in field message; this session kept, every other one (and its socket) ended", async () => {
    const account = await register();
    const wrong = await api("/api/password", { method: "PATCH", token: account.token, json: { oldPassword: "not-it-at-all", newPassword: "brand-new-22" } });
    expect(wrong.status).toBe(400);
    expect(read(wrong, "data.message")).toEqual(expect.stringMatching(/\S/));

    const other = await api("/api/login", { json: { email: account.email, password: PASSWORD } });
    const otherClaims = await verifyToken(new TextEncoder().encode(env.JWT_SECRET!), "api", other.data.token);
    const otherTab = await joinOwnRoom({ id: account.id, email: account.email, token: other.data.token, sessionId: otherClaims!.sessionId });
    const otherHeard = collect(otherTab);

    const res = await api("/api/password", { method: "PATCH", token: account.token, json: { oldPassword: PASSWORD, newPassword: "brand-new-22" } });
    expect(res.status).toBe(200);
    expect(read(res, "data.data")).toBe("Password updated successfully!");
    // The caller's token still works (a client that stores nothing stays signed in); the other device's is dead.
    expect((await api("/api/user-balance", { token: account.token })).status).toBe(200);
    expect((await api("/api/user-balance", { token: other.data.token })).status).toBe(401);
    expect((await otherTab.closed).code).toBe(CLOSE_SESSION_ENDED);
    expect(otherHeard).toEqual([]);
  });

  it("POST /api/forgot-password — error in field message", async () => {
    const res = await api("/api/forgot-password", { json: { email: "not-an-email" } });
    expect(res.status).toBe(400);
    expect(read(res, "data.message")).toEqual(expect.stringMatching(/\S/));
  });

  it("POST /api/reset-password — error in field message", async () => {
    const res = await api("/api/reset-password", { json: { id: crypto.randomUUID(), token: "a".repeat(64), newPassword: "brand-new-22" } });
    expect(res.status).toBe(400);
    expect(read(res, "data.message")).toBe("This reset link is invalid or has expired. Please request a new one.");
  });
});

describe("SPEC section 7: content and rates", () => {
  it("GET /api/level — list; first item's total_deposited is read", async () => {
    const user = await createUser();
    const res = await api("/api/level?user_id=someone-else", { token: user.token });
    expect(Array.isArray(read(res, "data"))).toBe(true);
    expect(read(res, "data.0.total_deposited")).toBe(0);
  });

  it("GET /api/links — list; first and second items' link", async () => {
    const res = await api("/api/links");
    expect(read(res, "data.0.link")).toEqual(expect.stringMatching(/^https:\/\//));
    expect(read(res, "data.1.link")).toEqual(expect.stringMatching(/^https:\/\//));
  });

  it("GET /api/ref — referral link as data", async () => {
    const user = await createUser();
    const res = await api("/api/ref", { token: user.token });
    expect(read(res, "data")).toEqual(expect.stringMatching(/^https?:\/\/[^/]+\/#\/signup\/1\?ref=T[0-9A-F]{8}$/));
  });

  it("GET /api/ads — data.data is a list of ads", async () => {
    const res = await api("/api/ads");
    const ads = read(res, "data.data");
    expect(Array.isArray(ads)).toBe(true);
    // Issue 27: images absolute on PUBLIC_URL and links into the configured web client (decision 032).
    expect((ads as { id: number }[]).map((ad) => ad.id)).toEqual(SETTING_DEFAULTS.ads.map((ad) => ad.id));
    for (const ad of ads as { url: string; link: string }[]) {
      expect(ad.url).toMatch(/^(http:\/\/127\.0\.0\.1:8787\/ads\/[\w-]+\.svg|https:\/\/.+)$/);
      expect(ad.link).toMatch(/^http:\/\/127\.0\.0\.1:8787\/#\/\w+\/1$/);
    }
  });

  it("GET /api/get-rate — first array element used; its rate is the rate prices are computed with", async () => {
    const user = await createUser();
    const res = await api("/api/get-rate", { token: user.token });
    expect(read(res, "data.0.rate")).toBe(SETTING_DEFAULTS.exchange_rate.rate);
    expect(read(res, "data.0.cryptomin")).toBe(SETTING_DEFAULTS.rate_settings.cryptomin);
    expect(read(res, "data.0.squadmin")).toBe(SETTING_DEFAULTS.rate_settings.squadmin);
  });

  it("GET /api/costs — first element used", async () => {
    const user = await createUser();
    const res = await api("/api/costs", { token: user.token });
    expect(read(res, "data.0")).toEqual(SETTING_DEFAULTS.costs);
  });
});

describe("SPEC section 7: wallet", SLOW, () => {
  it("GET /api/user-balance — balance", async () => {
    const user = await createUser({ balanceKobo: 123_450 });
    expect(read(await api("/api/user-balance", { token: user.token }), "data.balance")).toBe(1234.5);
  });

  it("GET /api/get-transaction — list of transactions with user_id", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const list = read(await api("/api/get-transaction", { token: user.token }), "data") as { user_id: string }[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((t) => t.user_id === user.id)).toBe(true);
  });

  // Issue 27: the row says "data.data"; the live client reads response.data.data.data (one level deeper; decision 032).
  it("POST /api/initialize-transaction — data.data with checkout_url and transaction_ref (the live client: data.data.data)", async () => {
    const user = await createUser();
    const res = await api("/api/initialize-transaction", { token: user.token, json: { id: "x", email: "x@y.z", amount: 5000, currency: "NGN" } });
    expect(read(res, "data.data.data.checkout_url")).toEqual(expect.stringMatching(/^https?:\/\//));
    expect(read(res, "data.data.data.transaction_ref")).toEqual(expect.any(String));
  });

  // Issue 27: the live client checks response.data.data === "success" and stops polling on any truthy body.
  it("POST /api/squad-callback — data equals 'success' on confirmation (the live client: data.data; null while pending)", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    expect(read(await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } }), "data")).toBeNull();
    await api(`/sandbox/squad/${ref}/complete`, { json: { outcome: "success" } });
    expect(read(await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } }), "data.data")).toBe("success");
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("GET /api/now-currencies — selectedCurrencies", async () => {
    const user = await createUser();
    const list = read(await api("/api/now-currencies", { token: user.token }), "data.selectedCurrencies");
    expect(Array.isArray(list) && list.length > 0 && list.every((c) => typeof c === "string")).toBe(true);
  });

  it("GET /api/now-merchant — currencies (code, name, available_for_payment)", async () => {
    const user = await createUser();
    const list = read(await api("/api/now-merchant", { token: user.token }), "data.currencies") as unknown[];
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toMatchObject({ code: expect.any(String), name: expect.any(String), available_for_payment: expect.any(Boolean) });
  });

  it("POST /api/invoice — payment_id, pay_amount, pay_currency, network, pay_address; GET /api/now-status — payment_status, credited", async () => {
    const user = await createUser();
    const res = await api("/api/invoice", { token: user.token, json: { price_amount: 10, order_id: "x", email: "x@y.z", pay_currency: "USDTTRC20", order_description: "deposit" } });
    for (const field of ["payment_id", "pay_amount", "pay_currency", "network", "pay_address"]) expect(read(res, `data.${field}`), field).toBeDefined();
    const invoice = await createInvoiceViaApi(user);
    const status = await api(`/api/now-status?payment_id=${invoice.payment_id}`, { token: user.token });
    expect(read(status, "data.payment_status")).toBe("waiting");
    expect(read(status, "data.credited")).toBe(false);
  });
});

describe("SPEC section 7: receive SMS", SLOW, () => {
  it("GET /api/sms/countries — list of countries (id, title)", async () => {
    expect(read(await api("/api/sms/countries"), "data.0")).toEqual({ id: "5", title: "USA" });
  });

  it("GET /api/sms/price — object whose values are service entries (cost in minor units, count)", async () => {
    const entries = read(await api("/api/sms/price?id=5"), "data") as Record<string, Record<string, unknown>>;
    expect(entries.wa).toMatchObject({ country_id: "5", application_id: "wa", application: "WhatsApp", cost: 50, count: expect.any(Number) });
  });

  it("POST /api/sms/get-number — phone (request_id), table (purchased_number, sms, reference_code), debitRef, price; status, cancel, refund-user, orders", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    // sbxnosms: a sandbox service whose number never receives a code ($0.05 × 1600 × 1.5 = ₦120), so it can be cancelled.
    const buy = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms", user_id: "x", email: "x@y.z", price: "120.00", actual: 0.5 } });
    const requestId = read(buy, "data.phone.request_id") as string;
    expect(requestId).toEqual(expect.any(String));
    expect(read(buy, "data.table.purchased_number")).toEqual(expect.stringMatching(/^\d+$/));
    expect(read(buy, "data.table.sms")).toBeNull();
    expect(read(buy, "data.table.reference_code")).toBe(requestId);
    expect(read(buy, "data.debitRef")).toBe(`buy:${requestId}`);
    expect(read(buy, "data.price")).toBe(120);
    await pollerOf(requestId).stop();

    // GET /api/sms/status/{request_id} — sms and sms_code
    const status = await api(`/api/sms/status/${requestId}?cost=1&user_id=x&debitref=y&actual=2`, { token: user.token });
    expect(read(status, "data.sms")).toBeNull();
    expect(read(status, "data.sms_code")).toBeNull();

    // GET /api/orders — data.data is the list of orders, keyed by reference_code (= the purchase's table.reference_code)
    const orders = read(await api("/api/orders", { token: user.token }), "data.data") as { reference_code: string; purchased_number: string }[];
    expect(orders.map((o) => o.reference_code)).toEqual([requestId]);

    // POST /api/sms/cancel — response unused (it must still succeed); POST /api/refund-user — refund state
    expect((await api("/api/sms/cancel", { token: user.token, json: { request_id: requestId, debitref: "x", user_id: "x", email: "x" } })).status).toBe(200);
    const refund = await api("/api/refund-user", { token: user.token, json: { request_id: requestId, user_id: "x", cost: 99, debitRef: "x" } });
    expect(read(refund, "data.refunded")).toBe(true);
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });
});

describe("SPEC section 7: rent a number", SLOW, () => {
  // Issue 27: the live client reads `const { data } = response.data; data.limits[0]` (decision 032).
  it("POST /api/rent/countries — data.limits[] (country_id, count, cost) (the live client: data.data.limits)", async () => {
    const user = await createUser();
    const res = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "hour", period: 1, price: 1, user_id: "x" } });
    expect(read(res, "data.data.limits.0")).toMatchObject({ country_id: "5", count: expect.any(Number), cost: 12 });
  });

  it("POST /api/rent-number — number", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "hour", period: 1, price: 268.8, user_id: "x" } });
    expect(res.status).toBe(201);
    expect(read(res, "data.number")).toEqual(expect.stringMatching(/^\d{8,15}$/));
  });
});

/**
 * Issue 19: a client written from the spec prices a service as cost/100 × rate × (1 + low_cost if that base is at most
 * 1000, else high_cost) from /sms/price, /get-rate[0] and /costs[0], shown with two decimals. For EVERY service of
 * the sandbox catalogue (both providers, every country) that must be what the server charges a starter-tier customer:
 * the `price` an anonymous /sms/price answers, which is what purchases debit (checked by buying a spread of them).
 */
describe("the spec client's price equals the server's starter-tier charge", { timeout: 180_000 }, () => {
  type Entry = { application_id: string; cost: number; count: number; price: number };
  const shown = (cost: number, rate: number, costs: { low_cost: number; high_cost: number }) => {
    const base = (cost / 100) * rate;
    return new Intl.NumberFormat("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(base * (1 + (base <= 1000 ? costs.low_cost : costs.high_cost)));
  };

  it("for every service of every country of both providers, and on purchase", async () => {
    const user = await createUser({ balanceKobo: 50_000_000 });
    const rate = read(await api("/api/get-rate", { token: user.token }), "data.0.rate") as number;
    const costs = read(await api("/api/costs", { token: user.token }), "data.0") as { low_cost: number; high_cost: number };
    const toBuy: { provider: string; country: string; entry: Entry; text: string }[] = [];
    let checked = 0;
    for (const provider of ["Swift", "Dynamic"]) {
      const countries = read(await api(`/api/sms/countries?provider=${provider}`), "data") as { id: string }[];
      for (const country of countries) {
        const entries = Object.values(read(await api(`/api/sms/price?id=${country.id}&provider=${provider}`), "data") as Record<string, Entry>);
        for (const entry of entries) {
          const text = shown(entry.cost, rate, costs);
          expect(Number(text.replace(/,/g, "")), `${provider}/${country.id}/${entry.application_id}`).toBe(entry.price);
          checked += 1;
          if (entry.count > 0 && checked % 9 === 1) toBuy.push({ provider, country: country.id, entry, text });
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(toBuy.length).toBeGreaterThan(5);
    for (const { provider, country, entry, text } of toBuy.slice(0, 12)) {
      const before = await balanceOf(user.id);
      // The spec's client sends the displayed price: the server charges exactly that, no 409.
      const res = await api("/api/sms/get-number", { token: user.token, json: { provider, country, service: entry.application_id, price: text } });
      expect(res.status, `${provider}/${country}/${entry.application_id}: ${JSON.stringify(res.data)}`).toBe(200);
      expect(read(res, "data.price")).toBe(entry.price);
      expect(read(res, "data.shown_price")).toBeUndefined();
      expect(before - (await balanceOf(user.id))).toBe(Math.round(entry.price * 100));
      await pollerOf(read(res, "data.phone.request_id") as string).stop();
    }
    await expectLedgerBalanced();
  });
});

// One price per customer whatever the door: the web API, the developer JSON API (/api/v1) and the SMS-Activate
// protocol (handler_api.php) all price through services/pricing.ts, so a Silver customer sees the same naira in each.
describe("every price surface agrees for one customer", { timeout: 60_000 }, () => {
  it("/api/sms/price's price = /api/v1/prices' price = handler_api getPrices' cost, for every Swift USA service", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    await env.DB.prepare("UPDATE users SET total_deposited_kobo = ? WHERE id = ?").bind(60_000_00, user.id).run();
    const key = await createKey(user, "live");
    const web = read(await api("/api/sms/price?id=5&provider=Swift", { token: user.token }), "data") as Record<string, { price: number; cost: number }>;
    const v1 = (await api("/api/v1/prices?provider=Swift&country=5", { headers: { authorization: `Bearer ${key.secret}` } })).data.data as { service: string; price: number }[];
    const protocol = (await handler({ api_key: key.secret, action: "getPrices", country: 187 })).json as Record<string, Record<string, { cost: number }>>;
    expect(v1.length).toBe(Object.keys(web).length);
    for (const offer of v1) {
      expect(offer.price, offer.service).toBe(web[offer.service].price);
      // 2% Silver discount off the spec formula's starter price, to the nearest kobo.
      const starter = (web[offer.service].cost / 100) * 1600;
      const list = starter * (1 + (starter <= 1000 ? 0.5 : 0.3));
      expect(Math.abs(offer.price - list * 0.98), offer.service).toBeLessThanOrEqual(0.005 + 1e-9);
    }
    expect(protocol["187"].wa.cost).toBe(web.wa.price);
  });
});
