import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../config";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { rentalProviderFor } from "../providers/rent";
import type { RentalProvider } from "../providers/rent/types";
import { rentNumber } from "../services/rent";
import { buySmsNumber, cancelSmsOrder, pollSmsOrderTick } from "../services/sms";
import { createKey, pollOnce } from "../test/api-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { apiV1Routes } from "./api-v1";
import { IDEMPOTENCY_IN_FLIGHT_MS } from "../services/developer";
import { sha256Hex } from "../services/accounts";
import { useTestUpstreams } from "../test/services";
import { rentalDeps, smsDeps } from "../test/services";
import { createApp } from "../app";
import { NO_RENT_STOCK_MESSAGE } from "../../schema/constants";

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const auth = (secret: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });
const post = (path: string, secret: string, json: unknown, key = crypto.randomUUID()) =>
  api(path, { method: "POST", headers: auth(secret, { "idempotency-key": key }), json });

describe("/api/v1: the JSON developer API", () => {
  it("balance with a live key (Bearer or X-API-Key); 401 for a bad or revoked key", async () => {
    const user = await createUser({ balanceKobo: 250_050 });
    const key = await createKey(user, "live");
    expect((await api("/api/v1/balance", { headers: auth(key.secret) })).data).toEqual({ balance: 2500.5, currency: "NGN", mode: "live" });
    expect((await api("/api/v1/balance", { headers: { "x-api-key": key.secret } })).status).toBe(200);
    expect((await api("/api/v1/balance")).status).toBe(401);
    expect((await api("/api/v1/balance", { headers: auth(user.token) })).status).toBe(401); // a session token is not a key
    await api(`/api/keys/${key.id}/revoke`, { token: user.token, method: "POST" });
    const revoked = await api("/api/v1/balance", { headers: auth(key.secret) });
    expect(revoked.status).toBe(401);
    expect(revoked.data.code).toBe("UNAUTHORIZED");
  });

  it("prices, buy, status with every code, another code, and the same order in the web's orders table", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const prices = await api("/api/v1/prices?provider=Swift&country=5", { headers: auth(secret) });
    const wa = prices.data.data.find((p: { service: string }) => p.service === "wa");
    expect(wa.price).toBeGreaterThan(0);

    const bought = await post("/api/v1/sms/orders", secret, { provider: "Swift", country: "5", service: "wa" });
    expect(bought.status).toBe(201);
    expect(bought.data).toMatchObject({ status: "waiting", price: wa.price, codes: [], code: null, refunded: false });
    expect(await balanceOf(user.id)).toBe(1_000_000 - Math.round(wa.price * 100));
    const orders = await api("/api/orders", { token: user.token });
    expect(orders.data.data[0].reference_code).toBe(bought.data.id);

    await pollOnce(bought.data.id);
    const status = await api(`/api/v1/sms/orders/${bought.data.id}`, { headers: auth(secret) });
    expect(status.data).toMatchObject({ status: "used", can_request_another_code: true });
    expect(status.data.codes).toEqual([status.data.code]);
    const again = await post(`/api/v1/sms/orders/${bought.data.id}/another-code`, secret, {});
    expect(again.status).toBe(200);
    expect(again.data.waiting_for_another_code).toBe(true);
    await pollOnce(bought.data.id);
    const two = await api(`/api/v1/sms/orders/${bought.data.id}`, { headers: auth(secret) });
    expect(two.data.codes).toHaveLength(2);
    expect(two.data.code).toBe(two.data.codes[1]);

    const tooDear = await post("/api/v1/sms/orders", secret, { country: "5", service: "wa", max_price: 1 });
    expect(tooDear.status).toBe(409);
    expect(tooDear.data.code).toBe("PRICE_CHANGED");
    await expectLedgerBalanced();
  });

  it("cancel refunds once; another user's order is 404 to my key", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const other = await createUser({ balanceKobo: 1_000_000 });
    const otherKey = (await createKey(other, "live")).secret;
    const bought = await post("/api/v1/sms/orders", secret, { country: "5", service: "sbxnosms" });
    expect((await api(`/api/v1/sms/orders/${bought.data.id}`, { headers: auth(otherKey) })).status).toBe(404);
    expect((await post(`/api/v1/sms/orders/${bought.data.id}/cancel`, otherKey, {})).status).toBe(404);
    const cancelled = await post(`/api/v1/sms/orders/${bought.data.id}/cancel`, secret, {});
    expect(cancelled.data).toMatchObject({ status: "cancelled", refunded: true });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("Idempotency-Key whose first request died before its answer: a repeat is told at once that the outcome is unknown, nothing runs", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const key = await createKey(user, "live");
    const idemKey = crypto.randomUUID();
    const body = { provider: "Swift", country: "5", service: "wa" };
    // The row a first request leaves when its isolate dies between claiming the key and storing its answer.
    const requestHash = await sha256Hex(`POST /api/v1/sms/orders\n${JSON.stringify(body)}`);
    await env.DB.prepare("INSERT INTO idempotency_keys (api_key_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)")
      .bind(key.id, idemKey, requestHash, Date.now() - IDEMPOTENCY_IN_FLIGHT_MS - 1_000)
      .run();
    const started = Date.now();
    const repeat = await post("/api/v1/sms/orders", key.secret, body, idemKey);
    expect(repeat.status).toBe(409);
    expect(repeat.data.code).toBe("CONFLICT");
    expect(repeat.data.message).toMatch(/never finished/);
    // Not the 20 s wait a live first request gets: the answer cannot come any more.
    expect(Date.now() - started).toBeLessThan(IDEMPOTENCY_IN_FLIGHT_MS);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(orders?.n).toBe(0);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  it("Idempotency-Key: 20 concurrent identical buys charge once and all get the same answer; another body is 422", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const key = crypto.randomUUID();
    const body = { provider: "Swift", country: "5", service: "wa" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post("/api/v1/sms/orders", secret, body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(orders?.n).toBe(1);
    const debits = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND kind = 'buy'").bind(user.id).first<{ n: number }>();
    expect(debits?.n).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000 - Math.round(answers[0].data.price * 100));

    const other = await post("/api/v1/sms/orders", secret, { ...body, service: "tg" }, key);
    expect(other.status).toBe(422);
    expect(other.data.code).toBe("UNPROCESSABLE");
    const missing = await api("/api/v1/sms/orders", { method: "POST", headers: auth(secret), json: body });
    expect(missing.status).toBe(400);
    expect(missing.data.field).toBe("Idempotency-Key");
    // An error is an answer too: replayed, not retried into a charge.
    const poor = await createUser({ balanceKobo: 10 });
    const poorKey = (await createKey(poor, "live")).secret;
    const k2 = crypto.randomUUID();
    expect((await post("/api/v1/sms/orders", poorKey, body, k2)).status).toBe(402);
    expect((await post("/api/v1/sms/orders", poorKey, body, k2)).headers.get("idempotent-replayed")).toBe("true");
    await expectLedgerBalanced();
  });

  it("next_route: a USA 'Sandbox No-SMS' number times out, the API's chain buys the next route, which delivers; charged once", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const bought = await post("/api/v1/sms/orders", secret, { provider: "Swift", country: "5", service: "sbxnosms", next_route: { cap: 5000 } });
    expect(bought.status).toBe(201);
    const first = bought.data.id as string;
    expect(bought.data.chain).toEqual({ id: first, step: 1, max_routes: 3, cap: 5000, status: "active", next_order_id: null, moving_on: false });

    // Its polling window runs out (the sandbox never texts a USA No-SMS number): refunded, and the chain moves on.
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(first).run();
    await pollOnce(first);
    const ended = await api(`/api/v1/sms/orders/${first}`, { headers: auth(secret) });
    expect(ended.data).toMatchObject({ status: "timeout", refunded: true, chain: { id: first, step: 1, status: "active" } });
    const next = ended.data.chain.next_order_id as string;
    expect(next).toBeTruthy();

    const second = await api(`/api/v1/sms/orders/${next}`, { headers: auth(secret) });
    expect(second.data).toMatchObject({ status: "waiting", service: "Sandbox No-SMS", chain: { id: first, step: 2, next_order_id: null } });
    expect(second.data.country_id).not.toBe("5");
    expect(second.data.price).toBeLessThanOrEqual(5000);
    await pollOnce(next);
    const delivered = await api(`/api/v1/sms/orders/${next}`, { headers: auth(secret) });
    expect(delivered.data).toMatchObject({ status: "used", refunded: false, chain: { status: "ended" } });
    expect(delivered.data.code).toMatch(/^\d+$/);
    // One charge in the end: the route that delivered. The first was debited and refunded exactly once.
    expect(await balanceOf(user.id)).toBe(1_000_000 - Math.round(delivered.data.price * 100));
    const keys = await env.DB.prepare("SELECT key FROM ledger WHERE user_id = ? AND key LIKE 'refund:%'").bind(user.id).all<{ key: string }>();
    expect(keys.results.map((r) => r.key)).toEqual([`refund:${first}`]);
    await expectLedgerBalanced();
  });

  it("next_route: a bad cap is 400 with nothing charged; cancelling through the API cancels the chain", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    for (const next_route of [{ cap: 0 }, { cap: -5 }, { cap: "lots" }, { cap: 100, routes: [{ provider: "Nope", country: "5" }] }]) {
      const bad = await post("/api/v1/sms/orders", secret, { country: "5", service: "sbxnosms", next_route });
      expect(bad.status).toBe(400);
      expect(bad.data.code).toBe("VALIDATION_FAILED");
    }
    expect(await balanceOf(user.id)).toBe(1_000_000);

    const bought = await post("/api/v1/sms/orders", secret, { country: "5", service: "sbxnosms", next_route: { cap: 5000, routes: [{ provider: "Dynamic", country: "13" }] } });
    expect(bought.status).toBe(201);
    const cancelled = await post(`/api/v1/sms/orders/${bought.data.id}/cancel`, secret, {});
    expect(cancelled.data).toMatchObject({ status: "cancelled", refunded: true, chain: { status: "cancelled", next_order_id: null } });
    // A cancel never moves the chain on, even when the sweep looks later.
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE chain_id = ?").bind(bought.data.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
    // An ordinary order says so.
    const plain = await post("/api/v1/sms/orders", secret, { country: "5", service: "wa" });
    expect(plain.data.chain).toBeNull();
    await expectLedgerBalanced();
  });

  it("rentals: rent, read the inbox, cancel with a refund", async () => {
    const user = await createUser({ balanceKobo: 5_000_000 });
    const { secret } = await createKey(user, "live");
    const rented = await post("/api/v1/rentals", secret, { country: "5", duration: "hour", period: 1 });
    expect(rented.status).toBe(201);
    expect(rented.data).toMatchObject({ status: "active", unit: "hour", period: 1, can_cancel: true });
    const read = await api(`/api/v1/rentals/${rented.data.id}`, { headers: auth(secret) });
    expect(read.data.rental.id).toBe(rented.data.id);
    expect(Array.isArray(read.data.messages)).toBe(true);
    const cancelled = await post(`/api/v1/rentals/${rented.data.id}/cancel`, secret, {});
    if (cancelled.status === 200) {
      expect(cancelled.data.status).toBe("cancelled");
      expect(await balanceOf(user.id)).toBe(5_000_000);
    } else {
      // an SMS already arrived in the sandbox inbox: the rental can only be ended
      expect(cancelled.status).toBe(409);
      expect((await post(`/api/v1/rentals/${rented.data.id}/end`, secret, {})).data.status).toBe("ended");
    }
    await expectLedgerBalanced();
  });

  it("the OpenAPI document lists every v1 route the app serves, with the idempotency header on every POST", async () => {
    const res = await api("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.data.openapi).toBe("3.1.0");
    const served = apiV1Routes.routes
      .filter((r) => ["GET", "POST", "PUT", "DELETE"].includes(r.method))
      .map((r) => `${r.method.toLowerCase()} ${r.path}`)
      .filter((r) => !r.endsWith("/openapi.json"));
    const documented = Object.entries(res.data.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    expect(documented.sort()).toEqual([...new Set(served)].sort());
    expect(apiV1Routes.openAPIRegistry.definitions.filter((d) => d.type === "route").length).toBe(documented.length);
    for (const [, ops] of Object.entries(res.data.paths as Record<string, Record<string, { parameters: { name: string }[] }>>)) {
      if (ops.post) expect(ops.post.parameters.map((p) => p.name)).toContain("Idempotency-Key");
    }
    expect(res.data.components.schemas.SmsOrder.properties.codes).toMatchObject({ type: "array", items: { type: "string" }, description: "Every code received, oldest first" });
    // "Try another number" is in the contract: the request's next_route and the order's chain.
    expect(res.data.components.schemas.BuySmsRequest.properties.next_route).toEqual({ $ref: "#/components/schemas/NextRoute" });
    expect(res.data.components.schemas.NextRoute.required).toEqual(["cap"]);
    expect(res.data.components.schemas.SmsChain.properties.next_order_id).toBeDefined();
    expect(res.data.components.schemas.SmsOrder.required).toContain("chain");

    // Issue 27: what generated clients need from the document.
    const { components, paths } = res.data;
    expect(Object.keys(components.securitySchemes).sort()).toEqual(["bearerKey", "headerKey"]);
    expect(components.securitySchemes.headerKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(res.data.security).toEqual([{ bearerKey: [] }, { headerKey: [] }]);
    expect(Object.keys(paths["/sms/orders"].post.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "402", "409", "413", "415", "422", "429"]));
    expect(paths["/sms/orders"].post.responses["201"].headers["Idempotent-Replayed"]).toEqual({ $ref: "#/components/headers/IdempotentReplayed" });
    expect(paths["/balance"].get.responses["429"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(paths["/balance"].get.responses["429"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/RateLimitedError" });
    expect(components.schemas.RateLimitedError.required).toContain("retry_after");
    // Issue 44: the one error body declares every extra field a code carries, so a generated client reads them typed.
    expect(Object.keys(components.schemas.Error.properties)).toEqual(expect.arrayContaining(["code", "message", "error", "field", "price", "retry_after"]));
    expect(paths["/sms/orders"].post.responses["409"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(components.schemas.Rental.properties.refund_if_cancelled).toBeDefined();
    expect(components.schemas.Rental.properties.created_at).toMatchObject({ type: ["string", "null"], format: "date-time" });
    // A nullable named schema is "that or null", never a nullable copy of the component.
    expect(components.schemas.SmsOrder.properties.chain.anyOf).toEqual([{ $ref: "#/components/schemas/SmsChain" }, { type: "null" }]);
    expect(components.schemas.SmsChain.type).toBe("object");
    // period's ceiling per duration: hour 24, day 7, week 4, month 12.
    const ceilings = (components.schemas.RentRequest.allOf as { if: { properties: { duration: { const: string } } }; then: { properties: { period: { maximum: number } } } }[]).map(
      (rule) => [rule.if.properties.duration.const, rule.then.properties.period.maximum],
    );
    expect(ceilings).toEqual([["hour", 24], ["day", 7], ["week", 4], ["month", 12]]);
    expect(Object.keys(res.data.webhooks).sort()).toEqual([
      "balance.changed",
      "payment.failed",
      "rental.ended",
      "rental.renewing",
      "rental.sms",
      "sms.code",
      "sms.ended",
      "subaccount.closed",
      "subaccount.created",
      "subaccount.frozen",
      "subaccount.transfer",
      "subaccount.unfrozen",
      "withdrawal.failed",
      "withdrawal.paid",
      "withdrawal.requested",
      "withdrawal.reversed",
    ]);
    expect(res.data.webhooks["sms.code"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/SmsCodeEvent" });
  });
});

describe("sandbox keys never touch live providers or the real wallet", () => {
  it("on a live deployment a sandbox account's buy, polls and cancel all reach the sandbox; a live account's reach live", async () => {
    const liveEnv: Env = { ...env, PROVIDERS: "live" };
    const seen: string[] = [];
    const fake = new ScriptedSmsProvider();
    useTestUpstreams({ sms: (mode) => {
      seen.push(mode);
      return fake;
    } });
    const owner = await createUser({ balanceKobo: 300_000 });
    await createKey(owner, "test");
    await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 5000 } });
    const sandboxUser = await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(`sbx_${owner.id}`).first<Record<string, unknown>>();
    const actor = {
      id: `sbx_${owner.id}`,
      username: String(sandboxUser?.username),
      email: String(sandboxUser?.email),
      phone: "",
      referralCode: String(sandboxUser?.referral_code),
      referredBy: null,
      balanceKobo: Number(sandboxUser?.balance_kobo),
      totalDepositedKobo: 0,
      wholesaleVolumeKobo: null,
      emailVerifiedAt: null,
      totpEnabledAt: null,
    };
    const bought = await buySmsNumber(smsDeps(liveEnv), actor, { provider: "Swift", country: "5", service: "wa" });
    await pollSmsOrderTick(smsDeps(liveEnv), bought.phone.request_id);
    await cancelSmsOrder(smsDeps(liveEnv), actor.id, bought.phone.request_id);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen)).toEqual(new Set(["sandbox"]));
    expect(await balanceOf(owner.id)).toBe(300_000);

    seen.length = 0;
    const liveActor = { ...actor, id: owner.id, balanceKobo: 300_000 };
    await buySmsNumber(smsDeps(liveEnv), liveActor, { provider: "Swift", country: "5", service: "wa" });
    expect(new Set(seen)).toEqual(new Set(["live"]));
    useTestUpstreams({ sms: null });
    const ownerAfterLiveBuy = await balanceOf(owner.id);

    // Rentals: the live upstream the deployment is configured with is never called for a sandbox account.
    const refuse = () => {
      throw new Error("the live rental upstream was called for a sandbox account");
    };
    const liveRent: RentalProvider = { countries: refuse, limits: refuse, getNumber: refuse, getAllSms: refuse, setStatus: refuse } as unknown as RentalProvider;
    const sandboxRent = rentalProviderFor(env, { providers: "sandbox" });
    useTestUpstreams({ rent: (_e, mode) => (mode === "live" ? liveRent : sandboxRent) });
    const rental = await rentNumber(rentalDeps(liveEnv, { providers: "live" }), actor, { countryId: "5", unit: "hour", period: 1 }).finally(() =>
      useTestUpstreams({ rent: null }),
    );
    expect(rental.status).toBe("active");
    expect(await balanceOf(owner.id)).toBe(ownerAfterLiveBuy); // the rental came from the sandbox wallet
    await expectLedgerBalanced();
  });

  it("a test key's v1 buy spends only the test wallet and its order is not in the owner's table", async () => {
    const owner = await createUser({ balanceKobo: 300_000 });
    const { secret } = await createKey(owner, "test");
    expect((await post("/api/v1/sms/orders", secret, { country: "5", service: "wa" })).status).toBe(402);
    await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 5000 } });
    expect((await api("/api/v1/balance", { headers: auth(secret) })).data).toEqual({ balance: 5000, currency: "NGN", mode: "test" });
    const bought = await post("/api/v1/sms/orders", secret, { country: "5", service: "wa" });
    expect(bought.status).toBe(201);
    expect(await balanceOf(owner.id)).toBe(300_000);
    expect(await balanceOf(`sbx_${owner.id}`)).toBe(500_000 - Math.round(bought.data.price * 100));
    expect((await api("/api/orders", { token: owner.token })).data.data).toHaveLength(0);
  });
});

// The /api/v1 additions of issue 27 as a bot uses them: its orders and rentals a page at a time, the rental catalogue
// and price before paying, and its own webhook (URL, delivery log, resend). Their answers' shapes are checked against
// the document in api-v1.schema.test.ts; here, what they contain.

const v1get = (path: string, secret: string) => api(`/api/v1${path}`, { headers: auth(secret) });
const v1post = (path: string, secret: string, json: unknown = {}) =>
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
      const page = await v1get(`/sms/orders?limit=3${cursor ? `&cursor=${cursor}` : ""}`, secret);
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
    expect((await v1get("/sms/orders", secret)).data.data).toHaveLength(8);
    await ordersAt(user.id, [t + 5], "timeout");
    const timedOut = await v1get("/sms/orders?status=timeout", secret);
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

    const liveOrder = await v1post("/sms/orders", live.secret, { country: "5", service: "wa" });
    const testOrder = await v1post("/sms/orders", test.secret, { country: "5", service: "wa" });
    await v1post("/sms/orders", strangerKey.secret, { country: "5", service: "wa" });
    const liveRental = await v1post("/rentals", live.secret, { country: "5", duration: "hour", period: 1 });
    const testRental = await v1post("/rentals", test.secret, { country: "5", duration: "hour", period: 1 });
    expect([liveOrder.status, testOrder.status, liveRental.status, testRental.status]).toEqual([201, 201, 201, 201]);

    const ids = async (path: string, secret: string) => (await v1get(path, secret)).data.data.map((x: { id: string }) => x.id);
    expect(await ids("/sms/orders", live.secret)).toEqual([liveOrder.data.id]);
    expect(await ids("/sms/orders", test.secret)).toEqual([testOrder.data.id]);
    expect(await ids("/rentals", live.secret)).toEqual([liveRental.data.id]);
    expect(await ids("/rentals", test.secret)).toEqual([testRental.data.id]);
    expect(await ids("/rentals", strangerKey.secret)).toEqual([]);
    // A cursor made from another account's list reads only the caller's rows.
    const ownPage = await v1get("/sms/orders?limit=1", strangerKey.secret);
    expect(ownPage.data.next_cursor).toBeNull();
    // The rental list carries the rental read's fields, refund figures included (the read syncs the inbox first).
    const read = (await v1get(`/rentals/${liveRental.data.id}`, live.secret)).data.rental;
    expect((await v1get("/rentals", live.secret)).data.data[0]).toEqual(read);
    expect((await v1get("/rentals?status=ended", live.secret)).data.data).toEqual([]);
  });
});

describe("GET /rentals/countries and /rentals/quote: the catalogue and the price before paying", () => {
  it("the quote is what POST /rentals charges (the caller's tier) and the web form quotes; no stock is price null; periods past their duration's limit are 400", async () => {
    const user = await createUser({ balanceKobo: 10_000_000 });
    const { secret } = await createKey(user, "live");
    const countries = await v1get("/rentals/countries", secret);
    expect(countries.data.data).toContainEqual({ id: "5", title: expect.any(String) });
    const web = await api("/api/rent/country-list", { token: user.token });
    expect(countries.data.data).toEqual(web.data);

    const quote = await v1get("/rentals/quote?country=5&duration=day&period=2", secret);
    expect(quote.data).toMatchObject({ country: "5", duration: "day", period: 2, in_stock: true, message: null });
    expect(quote.data.count).toBeGreaterThan(0);
    // The web form's quote for the same choice, the same price.
    const webQuote = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration: "day", period: 2 } });
    expect(quote.data.price).toBe(webQuote.data.price);
    const before = await balanceOf(user.id);
    const rented = await v1post("/rentals", secret, { country: "5", duration: "day", period: 2 });
    expect(before - (await balanceOf(user.id))).toBe(Math.round(quote.data.price * 100));
    expect(rented.data.amount).toBe(quote.data.price);

    // The upstream has none for the choice: an answer (price null and the reason), not an error; renting is 503.
    const sandboxRent = rentalProviderFor(env, { providers: "sandbox" });
    useTestUpstreams({ rent: () => ({ ...sandboxRent, limits: async () => [] }) as RentalProvider });
    try {
      const none = await v1get("/rentals/quote?country=5&duration=day&period=2", secret);
      expect(none.data).toEqual({ country: "5", duration: "day", period: 2, price: null, in_stock: false, count: 0, message: NO_RENT_STOCK_MESSAGE, extendable: false, extendable_price: null });
      expect((await v1post("/rentals", secret, { country: "5", duration: "day", period: 2 })).status).toBe(503);
    } finally {
      useTestUpstreams({ rent: null });
    }

    for (const q of ["country=5&duration=hour&period=25", "country=5&duration=week&period=5", "country=5&duration=month&period=0", "country=5&duration=year&period=1", "duration=hour&period=1"]) {
      const bad = await v1get(`/rentals/quote?${q}`, secret);
      expect(bad.status, q).toBe(400);
      expect(bad.data.code).toBe("VALIDATION_FAILED");
    }
  });
});

describe("/webhook: the calling key's own URL, delivery log and resend, by the console's rules", () => {
  // Deliveries go nowhere real: the receiver answers 200.
  beforeEach(() => useTestUpstreams({ webhooks: async () => new Response("ok") }));
  afterEach(() => useTestUpstreams({ webhooks: null }));

  it("set, read, clear; https only on an https deployment, http accepted on a local one; no credentials in the URL", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const key = await createKey(user, "live");
    const other = await createKey(user, "live", "other key");
    const put = (secret: string, url: unknown, e: Env = env) =>
      createApp().request("/api/v1/webhook", { method: "PUT", headers: { ...auth(secret), "content-type": "application/json" }, body: JSON.stringify({ url }) }, e);

    expect((await api("/api/v1/webhook", { method: "PUT", headers: auth(key.secret), json: { url: "https://bot.example.com/a" } })).data).toEqual({
      url: "https://bot.example.com/a",
      events: ["sms.code", "sms.ended", "rental.sms", "rental.ended", "rental.renewing", "balance.changed", "payment.failed", "withdrawal.requested", "withdrawal.paid", "withdrawal.failed", "withdrawal.reversed", "subaccount.created", "subaccount.frozen", "subaccount.unfrozen", "subaccount.closed", "subaccount.transfer"],
    });
    // The key's own: the other key is untouched, and the console shows the same URL for this key.
    expect((await v1get("/webhook", other.secret)).data.url).toBeNull();
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
    expect((await v1get("/webhook", key.secret)).data.url).toBe("http://127.0.0.1:9999/hook");

    const cleared = await api("/api/v1/webhook", { method: "DELETE", headers: auth(key.secret) });
    expect(cleared.data.url).toBeNull();
    expect((await v1get("/webhook", key.secret)).data.url).toBeNull();
  });

  it("the delivery log is this key's only; resend re-queues its own event; another key's event is 404", async () => {
    const owner = await createUser({ balanceKobo: 0 });
    const key = await createKey(owner, "test");
    const sibling = await createKey(owner, "test", "sibling");
    for (const k of [key, sibling]) await api("/api/v1/webhook", { method: "PUT", headers: auth(k.secret), json: { url: "https://bot.example.com/hook" } });
    // A sandbox top-up is a balance.changed for every test key of the account with a URL: one event per key.
    await api("/api/keys/sandbox/top-up", { token: owner.token, json: { amount: 1000 } });
    const mine = await v1get("/webhook/deliveries", key.secret);
    const theirs = await v1get("/webhook/deliveries", sibling.secret);
    expect(mine.data.data).toHaveLength(1);
    expect(mine.data.data[0]).toMatchObject({ type: "balance.changed", payload: { type: "balance.changed", data: { balance: 1000, currency: "NGN" } } });
    expect(theirs.data.data[0].id).not.toBe(mine.data.data[0].id);

    const eventId = mine.data.data[0].id as string;
    await env.DB.prepare("UPDATE webhook_events SET status = 'failed', attempts = 10 WHERE id = ?").bind(eventId).run();
    const resent = await v1post(`/webhook/deliveries/${eventId}/resend`, key.secret);
    expect(resent.data).toMatchObject({ id: eventId, status: "pending", attempts: 0 });
    const theirRow = () => env.DB.prepare("SELECT status, attempts, next_attempt_at FROM webhook_events WHERE id = ?").bind(theirs.data.data[0].id).first();
    const before = await theirRow();
    const crossed = await v1post(`/webhook/deliveries/${theirs.data.data[0].id}/resend`, key.secret);
    expect(crossed.status).toBe(404);
    expect(crossed.data.code).toBe("NOT_FOUND");
    expect(await theirRow()).toEqual(before);
  });
});
