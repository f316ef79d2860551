import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../schema/settings";
import { smsClientStatus } from "../../../schema/sms";
import worker from "../../index";
import { pollSmsOrderTick } from "../../services/sms";
import { smsDeps } from "../../test/services";
import { startCardPaymentViaApi } from "../payment-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced, type ApiReply } from "../helpers";
import { setActivationCodeArrived, upstreamIdOf } from "../reliability/invariants";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../sms-fixtures";

/**
 * Issue 27 (decision 032): the spec's original web client, call by call, read EXACTLY as that live client reads the
 * answer. It uses axios, so `response.data` is the body: `body(reply)` below is that `response.data`, and each test
 * applies the client's own expression to it (the path, the truthiness, the type).
 */
const body = (reply: ApiReply): any => reply.data; // eslint-disable-line @typescript-eslint/no-explicit-any

const PUBLIC_URL = "http://127.0.0.1:8787";
const SLOW = { timeout: 60_000 };

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

/** The worker under another configuration (a fresh env object: config.ts reads it once per object). */
async function withConfig(vars: Record<string, string>, path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`${PUBLIC_URL}${path}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return { status: res.status, headers: res.headers, data: text ? JSON.parse(text) : null } as ApiReply;
}

describe("funding by card, as the original client reads it", SLOW, () => {
  it("POST /api/initialize-transaction — response.data.data.data.checkout_url and .transaction_ref (today it no longer spins)", async () => {
    const user = await createUser();
    const res = await api("/api/initialize-transaction", { token: user.token, json: { id: "ignored", email: "x@y.z", amount: 5000, currency: "NGN" } });
    expect(res.status).toBe(200);
    const { checkout_url, transaction_ref } = body(res).data.data;
    expect(typeof checkout_url).toBe("string");
    expect(new URL(checkout_url).origin).toBe(PUBLIC_URL);
    expect(typeof transaction_ref).toBe("string");
  });

  it("POST /api/squad-callback — falsy (null, 200) while pending; { data: 'success', message } once Squad confirms; credited once", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    const pending = await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } });
    expect(pending.status).toBe(200);
    // The client stops polling on any truthy body and says "still being processed" on a falsy one.
    expect(Boolean(body(pending))).toBe(false);
    expect(body(pending)).toBeNull();

    await api(`/sandbox/squad/${ref}/complete`, { json: { outcome: "success" } });
    const done = await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } });
    expect(body(done).data === "success").toBe(true);
    expect(body(done).message).toBe("Payment confirmed successfully!");
    const again = await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } });
    expect(body(again)).toEqual({ data: "success", message: "Payment confirmed successfully!" });
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("POST /api/squad-callback — a declined card: { data: 'failed', message: 'Transaction not successful' } (truthy: polling stops)", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await api(`/sandbox/squad/${ref}/complete`, { json: { outcome: "failed" } });
    const res = await api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } });
    expect(Boolean(body(res))).toBe(true);
    expect(body(res).data === "success").toBe(false);
    expect(body(res)).toEqual({ data: "failed", message: "Transaction not successful" });
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("POST /api/squad-callback — another customer's reference is 404, nothing credited (identity from the token)", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const ref = await startCardPaymentViaApi(owner, 5000);
    await api(`/sandbox/squad/${ref}/complete`, { json: { outcome: "success" } });
    expect((await api("/api/squad-callback", { token: stranger.token, json: { transaction_ref: ref } })).status).toBe(404);
    expect(await balanceOf(stranger.id)).toBe(0);
  });
});

describe("seeing the SMS code, as the original client reads it", SLOW, () => {
  async function waitingOrder(provider = "Swift", service = "wa") {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider, country: "5", service } });
    expect(res.status).toBe(200);
    const orderId = body(res).phone.request_id as string;
    await pollerOf(orderId).stop(); // the test moves it: Check Now, or its own ticks
    return { user, orderId, upstreamId: await upstreamIdOf("sms_orders", orderId) };
  }

  it("GET /api/sms/status/:id — waiting with attempts and elapsed_seconds (numbers); Check Now finds the code; then `completed` with sms_code", async () => {
    const { user, orderId, upstreamId } = await waitingOrder();
    await setActivationCodeArrived(upstreamId, false);
    const waiting = body(await api(`/api/sms/status/${orderId}`, { token: user.token }));
    // The client polls on while status is none of completed, timeout, error.
    expect(["completed", "timeout", "error"]).not.toContain(waiting.status);
    expect(waiting).toMatchObject({ status: "waiting", state: "waiting", attempts: 0, sms_code: null });
    expect(typeof waiting.elapsed_seconds).toBe("number");
    expect(waiting.elapsed_seconds).toBeGreaterThanOrEqual(0);

    // POST /api/sms/check/:id before the code: success false, a message; not one of the poller's attempts.
    const early = body(await api(`/api/sms/check/${orderId}`, { method: "POST", token: user.token, json: {} }));
    expect(early.success).toBe(false);
    expect(early.message).toEqual(expect.stringMatching(/\S/));
    expect(early.sms_code).toBeUndefined();
    expect(body(await api(`/api/sms/status/${orderId}`, { token: user.token })).attempts).toBe(0);

    await setActivationCodeArrived(upstreamId, true);
    const check = body(await api(`/api/sms/check/${orderId}`, { method: "POST", token: user.token, json: {} }));
    expect(check.success).toBe(true);
    expect(check.sms_code).toMatch(/^\d{6}$/);
    expect(check.message).toEqual(expect.stringMatching(/\S/));

    const done = body(await api(`/api/sms/status/${orderId}`, { token: user.token }));
    expect(done.status === "completed").toBe(true);
    expect(done.sms_code).toBe(check.sms_code);
    expect(done).toMatchObject({ state: "used", sms: check.sms_code, refunded: false });
    // The original client posts this after showing the code: 200 {}, no effect, no token needed.
    const ack = await api("/sms/code-success", { json: { debitRef: `buy:${orderId}` } });
    expect(ack.status).toBe(200);
    expect(body(ack)).toEqual({});
    // The poller's next tick finds it settled: one outcome, the money kept for the code.
    await pollSmsOrderTick(smsDeps(env), orderId);
    expect(body(await api(`/api/sms/status/${orderId}`, { token: user.token })).sms_code).toBe(check.sms_code);
    // WhatsApp, USA: $0.50 × ₦1600 × 1.5 = ₦1,200 kept for the code.
    expect(await balanceOf(user.id)).toBe(500_000 - 1200_00);
    await expectLedgerBalanced();
  });

  it("GET /api/sms/status/:id — a window with no code ends `timeout` (refunded), which also stops the client's polling", async () => {
    await resetSmsTestState({ maxAttempts: 1 });
    const { user, orderId, upstreamId } = await waitingOrder();
    await setActivationCodeArrived(upstreamId, false);
    await pollSmsOrderTick(smsDeps(env), orderId);
    const ended = body(await api(`/api/sms/status/${orderId}`, { token: user.token }));
    expect(ended).toMatchObject({ status: "timeout", state: "timeout", attempts: 1, refunded: true, sms_code: null });
    const check = body(await api(`/api/sms/check/${orderId}`, { method: "POST", token: user.token, json: {} }));
    expect(check).toEqual({ success: false, message: "⏰ Timeout: No code received" });
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("our `failed` reads `error` and a stored code `completed`; every other state keeps its word", () => {
    expect(smsClientStatus("used")).toBe("completed");
    expect(smsClientStatus("failed")).toBe("error");
    expect(smsClientStatus("error")).toBe("error");
    expect(smsClientStatus("timeout")).toBe("timeout");
    expect(smsClientStatus("waiting")).toBe("waiting");
    expect(smsClientStatus("cancelled")).toBe("cancelled");
  });

  it("POST /api/sms/check/:id — another customer's order is 404 and nothing is asked upstream; no token is 401", async () => {
    const { orderId } = await waitingOrder();
    const stranger = await createUser();
    const res = await api(`/api/sms/check/${orderId}`, { method: "POST", token: stranger.token, json: {} });
    expect(res.status).toBe(404);
    expect((await api(`/api/sms/check/${orderId}`, { method: "POST", json: {} })).status).toBe(401);
  });
});

describe("prices and buying without a provider, as the original client asks", SLOW, () => {
  it("GET /api/sms/countries with no provider — both providers' countries, each id once, USA first", async () => {
    const all = body(await api("/api/sms/countries")) as { id: string; title: string }[];
    const dynamic = body(await api("/api/sms/countries?provider=Dynamic")) as { id: string }[];
    expect(all[0]).toEqual({ id: "5", title: "USA" });
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const country of dynamic) expect(all.map((c) => c.id)).toContain(country.id);
  });

  it("GET /api/sms/price with no provider — Swift's list where Swift sells, Dynamic's where only Dynamic does", async () => {
    const usa = body(await api("/api/sms/price?id=5"));
    expect(usa).toEqual(body(await api("/api/sms/price?id=5&provider=Swift")));
    const nigeria = body(await api("/api/sms/price?id=12"));
    expect(Object.keys(nigeria).length).toBeGreaterThan(0);
    expect(nigeria).toEqual(body(await api("/api/sms/price?id=12&provider=Dynamic")));
  });

  it("POST /api/sms/get-number for Dynamic with a Swift id — resolved by name, charged Dynamic's own price; 409 with the price when it is above the shown one", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const dynamicWa = Object.values(body(await api("/api/sms/price?id=5&provider=Dynamic")) as Record<string, { application: string; price: number }>).find(
      (e) => e.application === "WhatsApp",
    )!;
    const tooLow = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "5", service: "wa", price: "1.00" } });
    expect(tooLow.status).toBe(409);
    expect(body(tooLow).price).toBe(dynamicWa.price);
    expect(await balanceOf(user.id)).toBe(500_000);

    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "5", service: "wa", price: dynamicWa.price.toFixed(2) } });
    expect(res.status).toBe(200);
    expect(body(res).price).toBe(dynamicWa.price);
    const orderId = body(res).phone.request_id as string;
    await pollerOf(orderId).stop();
    const orders = body(await api("/api/orders", { token: user.token })).data as { reference_code: string; provider: string; service: string }[];
    expect(orders.find((o) => o.reference_code === orderId)).toMatchObject({ provider: "Dynamic", service: "WhatsApp" });
    expect(await balanceOf(user.id)).toBe(500_000 - Math.round(dynamicWa.price * 100));
    await expectLedgerBalanced();
  });
});

describe("configuration the original client reads signed out", () => {
  it("GET /api/costs — without a token; the first element is used", async () => {
    const res = await api("/api/costs");
    expect(res.status).toBe(200);
    expect(body(res)[0]).toEqual(SETTING_DEFAULTS.costs);
  });

  it("POST /api/rent/countries — without a token: const { data } = body; data.limits[0]; price and in_stock beside it", async () => {
    const res = await api("/api/rent/countries", { json: { countryId: "5", duration: "hour", period: 1, price: 1, user_id: "x" } });
    expect(res.status).toBe(200);
    const { data } = body(res);
    expect(data.limits[0]).toMatchObject({ country_id: "5", count: expect.any(Number), cost: 12 });
    expect(body(res)).toMatchObject({ price: 268.8, in_stock: true });
    // Renting still needs the token (deliberate).
    expect((await api("/api/rent-number", { json: { countryId: "5", duration: "hour", period: 1 } })).status).toBe(401);
  });

  it("GET /api/ads — url absolute on PUBLIC_URL; link opens our client under hash routing by default", async () => {
    const ads = body(await api("/api/ads")).data as { url: string; link: string }[];
    expect(ads.length).toBe(SETTING_DEFAULTS.ads.length);
    for (const ad of ads) expect(new URL(ad.url).origin).toBe(PUBLIC_URL);
    expect(ads.map((a) => a.link)).toEqual([`${PUBLIC_URL}/#/sms/1`, `${PUBLIC_URL}/#/number/1`, `${PUBLIC_URL}/#/payment/1`]);
  });

  it("POST /api/logout/ — 2xx even when the session is already gone (the client clears its state only on 2xx)", async () => {
    const user = await createUser();
    expect((await api("/api/logout/", { method: "POST", token: user.token })).status).toBe(200);
    expect((await api("/api/user-balance", { token: user.token })).status).toBe(401);
    expect((await api("/api/logout/", { method: "POST", token: user.token })).status).toBe(200);
    expect((await api("/api/logout/", { method: "POST" })).status).toBe(200);
    expect((await api("/api/logout/", { method: "POST", token: "forged.token.value" })).status).toBe(200);
  });
});

describe("another web client (WEB_CLIENT_URL, decision 032)", { timeout: 60_000 }, () => {
  const CLIENT = "https://client.example.ng";
  const pathRouted = { WEB_CLIENT_URL: `${CLIENT}/`, CORS_ORIGINS: CLIENT };

  it("every link handed out or e-mailed opens that client with its routing: referral, checkout return, reset, verification, ads", async () => {
    const email = `client-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signup = await withConfig(pathRouted, "/api/register/", { json: { username: "Client", number: "08012345678", email, password: "secret-12" } });
    expect(signup.status).toBe(201);
    const token = body(signup).token as string;

    expect(body(await withConfig(pathRouted, "/api/ref", { token }))).toMatch(new RegExp(`^${CLIENT}/signup/1\\?ref=[0-9A-Z]{8}$`));

    const init = await withConfig(pathRouted, "/api/initialize-transaction", { token, json: { amount: 5000 } });
    const ref = body(init).data.data.transaction_ref as string;
    const sent = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(`squad:${ref}`).first<{ value: string }>();
    expect(JSON.parse(sent!.value).callback_url).toBe(`${CLIENT}/dashboard/1?reference=${ref}`);

    expect((await withConfig(pathRouted, "/api/forgot-password", { json: { email } })).status).toBe(200);
    const mails = body(await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`)).data as { subject: string; link: string }[];
    const reset = mails.find((m) => /reset/i.test(m.subject))!;
    expect(reset.link).toMatch(new RegExp(`^${CLIENT}/reset-password/1\\?token=[\\w-]+&id=[\\w-]+$`));
    const verify = mails.find((m) => /confirm/i.test(m.subject))!;
    expect(verify.link).toMatch(new RegExp(`^${CLIENT}/verify-email\\?token=[\\w-]+&id=[\\w-]+$`));

    const ads = body(await withConfig(pathRouted, "/api/ads")).data as { url: string; link: string }[];
    expect(ads[0]).toMatchObject({ url: `${PUBLIC_URL}/ads/whatsapp.svg`, link: `${CLIENT}/sms/1` });
    // Hash routing on that origin: the same routes after "#/".
    const hashRouted = { WEB_CLIENT_URL: `${CLIENT}/#/`, CORS_ORIGINS: CLIENT };
    expect(body(await withConfig(hashRouted, "/api/ads")).data[1].link).toBe(`${CLIENT}/#/number/1`);
  });

  it("links never come from a request: a forged Host or Origin changes none", async () => {
    const user = await createUser();
    const res = await withConfig(pathRouted, "/api/ref", { token: user.token, headers: { host: "evil.example", origin: "https://evil.example", "x-forwarded-host": "evil.example" } });
    expect(body(res)).toMatch(new RegExp(`^${CLIENT}/signup/1`));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("every answer to an allowed origin carries CORS headers, 404s and errors included; others get none", async () => {
    const origin = { origin: CLIENT };
    for (const [path, init, status] of [
      ["/api/no-such-call", {}, 404],
      ["/api/sms/status/no-such-order", { token: (await createUser()).token }, 404],
      ["/api/user-balance", {}, 401],
      ["/sms/code-success", { json: { debitRef: "x" } }, 200],
      ["/api/costs", {}, 200],
    ] as const) {
      const res = await withConfig(pathRouted, path, { ...init, headers: origin });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("access-control-allow-origin"), path).toBe(CLIENT);
      expect(res.headers.get("access-control-allow-credentials"), path).toBe("true");
    }
    const preflight = await withConfig(pathRouted, "/sms/code-success", {
      method: "OPTIONS",
      headers: { origin: CLIENT, "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(CLIENT);
    const foreign = await withConfig(pathRouted, "/api/no-such-call", { headers: { origin: "https://evil.example" } });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });
});
