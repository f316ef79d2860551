import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { UpstreamFault } from "../upstream-http";
import { createNowPaymentsClient } from "./nowpayments";

function fakeNow(reply: (method: string, path: string, body: unknown) => Response | Promise<Response>) {
  const seen: { method: string; path: string; key: string | undefined; body: unknown }[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const text = c.req.method === "POST" ? await c.req.text() : "";
    const body = text ? JSON.parse(text) : null;
    const path = new URL(c.req.url).pathname;
    seen.push({ method: c.req.method, path, key: c.req.header("x-api-key"), body });
    return reply(c.req.method, path, body);
  });
  const client = createNowPaymentsClient({ baseUrl: "https://now.test/v1", apiKey: "np_key", fetch: (r) => Promise.resolve(app.fetch(r)), timeoutMs: 200 });
  return { client, seen };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const payment = {
  payment_id: "5745459419",
  payment_status: "waiting",
  pay_address: "TXYZ",
  price_amount: 10,
  price_currency: "usd",
  pay_amount: 10.02,
  pay_currency: "usdttrc20",
  order_id: "NP-1",
  network: "trx",
};

describe("NOWPayments adapter", () => {
  it("reads the merchant's coins and the full currency list", async () => {
    const { client, seen } = fakeNow((_m, path) =>
      path.endsWith("/merchant/coins")
        ? json({ selectedCurrencies: ["BTC", "USDTTRC20"] })
        : json({ currencies: [{ id: 1, code: "BTC", name: "Bitcoin", enable: true, network: "btc" }, { id: 2, code: "XMR", name: "Monero", enable: false }] }),
    );
    expect(await client.merchantCoins()).toEqual(["BTC", "USDTTRC20"]);
    expect(await client.fullCurrencies()).toEqual([
      { code: "BTC", name: "Bitcoin", enabled: true, network: "btc" },
      { code: "XMR", name: "Monero", enabled: false, network: null },
    ]);
    expect(seen.map((s) => [s.path, s.key])).toEqual([["/v1/merchant/coins", "np_key"], ["/v1/full-currencies", "np_key"]]);
  });

  it("creates a payment with the documented body and reads the answer (payment_id as string or number)", async () => {
    const { client, seen } = fakeNow(() => json(payment, 201));
    const out = await client.createPayment({ priceAmountUsd: 10, payCurrency: "USDTTRC20", orderId: "NP-1", orderDescription: "deposit", ipnCallbackUrl: "https://app.test/api/webhooks/nowpayments" });
    expect(out).toMatchObject({ paymentId: "5745459419", paymentStatus: "waiting", payAddress: "TXYZ", payAmount: "10.02", network: "trx", orderId: "NP-1" });
    expect(seen[0].body).toEqual({
      price_amount: 10,
      price_currency: "usd",
      pay_currency: "usdttrc20",
      ipn_callback_url: "https://app.test/api/webhooks/nowpayments",
      order_id: "NP-1",
      order_description: "deposit",
    });
    const numeric = fakeNow(() => json({ ...payment, payment_id: 5745459419, payment_status: "finished", actually_paid: 10.02 }));
    expect(await numeric.client.getPayment("5745459419")).toMatchObject({ paymentId: "5745459419", paymentStatus: "finished", actuallyPaid: 10.02 });
    expect(numeric.seen[0].path).toBe("/v1/payment/5745459419");
  });

  it("answers null for an unknown payment", async () => {
    const { client } = fakeNow(() => json({ status: false, statusCode: 404, code: "PAYMENT_NOT_FOUND", message: "Payment not found" }, 404));
    expect(await client.getPayment("1")).toBeNull();
  });

  it("reads a failure by its status the shared way: 5xx/429 transient, a 2xx of the wrong shape a bad reply, a 4xx a refusal", async () => {
    const pay = () => ({ priceAmountUsd: 10, payCurrency: "BTC", orderId: "o", orderDescription: "deposit", ipnCallbackUrl: "https://x.test" });
    const down = await fakeNow(() => json({ status: false, statusCode: 503, code: "SERVICE_UNAVAILABLE", message: "maintenance" }, 503)).client.getPayment("1").catch((e) => e);
    expect(down).toMatchObject({ reason: "http", httpStatus: 503, transient: true });
    const throttled = await fakeNow(() => json({ message: "Too many requests" }, 429)).client.merchantCoins().catch((e) => e);
    expect(throttled).toMatchObject({ reason: "http", transient: true });
    // A created payment the customer could not pay (no address) is unusable, not a payment.
    const noAddress = await fakeNow(() => json({ ...payment, pay_address: "" }, 201)).client.createPayment(pay()).catch((e) => e);
    expect(noAddress).toMatchObject({ reason: "bad_reply", httpStatus: 201 });
    const refused = await fakeNow(() => json({ status: false, statusCode: 400, code: "INVALID_REQUEST_PARAMS", message: "pay_currency is invalid" }, 400)).client.createPayment(pay()).catch((e) => e);
    expect(refused).toMatchObject({ reason: "rejected", httpStatus: 400, transient: false });
    expect(refused.detail).toContain("INVALID_REQUEST_PARAMS: pay_currency is invalid");
    const oddCoins = await fakeNow(() => json({ coins: "all" })).client.merchantCoins().catch((e) => e);
    expect(oddCoins).toMatchObject({ reason: "bad_reply", httpStatus: 200 });
    const oddCurrencies = await fakeNow(() => json({ currencies: [{ name: "no code" }] })).client.fullCurrencies().catch((e) => e);
    expect(oddCurrencies).toMatchObject({ reason: "bad_reply" });
  });

  it("turns error replies, HTML, garbage, unknown statuses and hangs into UpstreamFaults", async () => {
    const cases: [string, () => Response | Promise<Response>, string][] = [
      ["error reply", () => json({ status: false, statusCode: 400, code: "INVALID_REQUEST_PARAMS", message: "pay_currency is invalid" }, 400), "UPSTREAM_UNAVAILABLE"],
      ["bad key", () => json({ status: false, statusCode: 403, code: "INVALID_API_KEY", message: "Invalid api key" }, 403), "UPSTREAM_UNAVAILABLE"],
      ["html", () => new Response("<!doctype html><title>Cloudflare</title>", { status: 503 }), "UPSTREAM_UNAVAILABLE"],
      ["garbage", () => new Response("ok", { status: 200 }), "UPSTREAM_UNAVAILABLE"],
      ["unknown status", () => json({ ...payment, payment_status: "teleported" }), "UPSTREAM_UNAVAILABLE"],
      ["hang", () => new Promise<Response>(() => {}), "UPSTREAM_TIMEOUT"],
    ];
    for (const [name, reply, code] of cases) {
      const { client } = fakeNow(reply);
      for (const call of [
        () => client.createPayment({ priceAmountUsd: 10, payCurrency: "BTC", orderId: "o", orderDescription: "deposit", ipnCallbackUrl: "https://x.test" }),
        () => client.getPayment("1"),
        () => client.merchantCoins(),
      ]) {
        const err = await call().catch((e) => e);
        expect(err, name).toBeInstanceOf(UpstreamFault);
        expect(err.code, name).toBe(code);
      }
    }
  });
});
