import { describe, expect, it } from "vitest";
import nowCoinsCurrencies from "./fixtures/nowpayments-merchant-coins-currencies.json?raw";
import nowCoins from "./fixtures/nowpayments-merchant-coins.json?raw";
import nowCreate from "./fixtures/nowpayments-create-payment.json?raw";
import nowTooSmall from "./fixtures/nowpayments-error-amount-minimal.json?raw";
import nowBadKey from "./fixtures/nowpayments-error-invalid-api-key.json?raw";
import nowFullCurrencies from "./fixtures/nowpayments-full-currencies.json?raw";
import nowGet from "./fixtures/nowpayments-get-payment.json?raw";
import nowRepeat from "./fixtures/nowpayments-ipn-repeat.json?raw";
import nowMin from "./fixtures/nowpayments-min-amount.json?raw";
import nowStatus from "./fixtures/nowpayments-status.json?raw";
import squadInitiate from "./fixtures/squad-initiate-success.json?raw";
import squadBadKey from "./fixtures/squad-verify-invalid-key.json?raw";
import squadUnknown from "./fixtures/squad-verify-invalid-reference.json?raw";
import squadNoKey from "./fixtures/squad-verify-unauthorized.json?raw";
import squadVerify from "./fixtures/squad-verify-success.json?raw";
import { createNowPaymentsClient, NowAmountBelowMinimum } from "./nowpayments";
import { signNowPaymentsBody, verifyNowPaymentsSignature } from "./signatures";
import { createSquadClient } from "./squad";

/** Feeds one documented reply (the file's exact text) to the adapter, and records what the adapter asked. */
function replying(body: string, status = 200) {
  const seen: Request[] = [];
  const fetch = (request: Request) => {
    seen.push(request);
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
  return { fetch, seen };
}

describe("Squad adapter reads Squad's documented replies", () => {
  const squad = (body: string, status = 200) => {
    const r = replying(body, status);
    return { client: createSquadClient({ baseUrl: "https://sandbox-api-d.squadco.com", secretKey: "sandbox_sk_x", fetch: r.fetch }), seen: r.seen };
  };

  it("initiate: the checkout_url and reference", async () => {
    const { client, seen } = squad(squadInitiate);
    expect(await client.initiate({ amountKobo: 43000, email: "a@b.co", transactionRef: "4678388588350909090AH", callbackUrl: "http://squadco.com" })).toEqual({
      checkoutUrl: "https://sandbox-pay.squadco.com/4678388588350909090AH",
      transactionRef: "4678388588350909090AH",
    });
    expect(seen[0].headers.get("user-agent")).toMatch(/^virtual-numbers\//);
  });

  it("verify: a successful VirtualAccount transaction in kobo and NGN", async () => {
    expect(await squad(squadVerify).client.verify("SQCHIZ3634573076082")).toEqual({
      transactionRef: "SQCHIZ3634573076082",
      status: "success",
      amountKobo: 5000,
      currency: "NGN",
    });
  });

  it("verify: 400 'Invalid transaction reference' is an unknown reference (null), not an error", async () => {
    expect(await squad(squadUnknown, 400).client.verify("MADEUP123")).toBeNull();
  });

  it("verify: no key (401) and a wrong key (403) are upstream faults carrying the status, never 'unknown'", async () => {
    await expect(squad(squadNoKey, 401).client.verify("R1")).rejects.toMatchObject({ reason: "rejected", httpStatus: 401, code: "UPSTREAM_UNAVAILABLE" });
    await expect(squad(squadBadKey, 403).client.verify("R1")).rejects.toMatchObject({ reason: "rejected", httpStatus: 403 });
  });
});

describe("NOWPayments adapter reads NOWPayments' documented replies", () => {
  const now = (body: string, status = 200) => {
    const r = replying(body, status);
    return { client: createNowPaymentsClient({ baseUrl: "https://api.nowpayments.io/v1", apiKey: "np_key", fetch: r.fetch }), seen: r.seen };
  };

  it("status: OK", async () => {
    expect(await now(nowStatus).client.status()).toEqual({ ok: true, message: "OK" });
  });

  it("merchant coins: both the documented selectedCurrencies and the currencies shape", async () => {
    expect(await now(nowCoins).client.merchantCoins()).toEqual(["BTC", "ETH", "XMR"]);
    expect(await now(nowCoinsCurrencies).client.merchantCoins()).toEqual(["BTC", "ETH", "USDTTRC20"]);
  });

  it("min-amount: the minimum and its USD value, asked with currency_from and fiat_equivalent", async () => {
    const { client, seen } = now(nowMin);
    expect(await client.minAmount("ETH")).toEqual({ currency: "ETH", minAmount: 0.0078999, fiatEquivalentUsd: 35.40626584 });
    const url = new URL(seen[0].url);
    expect(url.pathname).toBe("/v1/min-amount");
    expect(Object.fromEntries(url.searchParams)).toEqual({ currency_from: "eth", fiat_equivalent: "usd" });
    expect(seen[0].headers.get("x-api-key")).toBe("np_key");
  });

  it("create payment: id as a string, address, amount, network", async () => {
    const created = await now(nowCreate, 201).client.createPayment({ priceAmountUsd: 3999.5, payCurrency: "BTC", orderId: "RGDBP-21314", orderDescription: "x", ipnCallbackUrl: "https://nowpayments.io" });
    expect(created).toMatchObject({ paymentId: "5745459419", paymentStatus: "waiting", payAddress: "3EZ2uTdVDAMFXTfc6uLDDKR6o8qKBZXVkj", payAmount: "0.17070286", payCurrency: "btc", network: "btc", parentPaymentId: null });
  });

  it("get payment: id as a number, actually_paid and pay_currency (what crediting is decided on)", async () => {
    expect(await now(nowGet).client.getPayment("5524759814")).toMatchObject({
      paymentId: "5524759814",
      paymentStatus: "finished",
      payAmount: "165.652609",
      actuallyPaid: 180,
      payCurrency: "trx",
      priceAmount: 5,
      priceCurrency: "usd",
      parentPaymentId: null,
    });
  });

  it("full currencies: code, name, enabled and network of each", async () => {
    const { client, seen } = now(nowFullCurrencies);
    expect(await client.fullCurrencies()).toEqual([{ code: "AAVE", name: "Aave", enabled: true, network: "eth" }]);
    expect(new URL(seen[0].url).pathname).toBe("/v1/full-currencies");
  });

  it("a wrong key is a fault with its status, not an empty list", async () => {
    await expect(now(nowBadKey, 403).client.merchantCoins()).rejects.toMatchObject({ reason: "rejected", httpStatus: 403 });
  });

  it("an amount under the minimum is NOWPayments' refusal, its code kept for the logs (never a payment)", async () => {
    const err = await now(nowTooSmall, 400)
      .client.createPayment({ priceAmountUsd: 0.5, payCurrency: "BTC", orderId: "NP-1", orderDescription: "deposit", ipnCallbackUrl: "https://x.test" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: "rejected", httpStatus: 400, code: "UPSTREAM_UNAVAILABLE", transient: false });
    expect((err as { detail: string }).detail).toContain("AMOUNT_MINIMAL_ERROR: Crypto amount 0.00001 is less than minimal");
    // Named, so the invoice service answers the customer's 400 (decision 031) instead of the outage's 502.
    expect(err).toBeInstanceOf(NowAmountBelowMinimum);
  });

  it("the same code on a 5xx is an outage, and another refusal is not the amount's", async () => {
    const create = (body: string, status: number) =>
      now(body, status)
        .client.createPayment({ priceAmountUsd: 0.5, payCurrency: "BTC", orderId: "NP-1", orderDescription: "deposit", ipnCallbackUrl: "https://x.test" })
        .catch((e: unknown) => e);
    const outage = await create(nowTooSmall, 503);
    expect(outage).toMatchObject({ reason: "http", transient: true });
    expect(outage).not.toBeInstanceOf(NowAmountBelowMinimum);
    const badKey = await create(nowBadKey, 403);
    expect(badKey).toMatchObject({ reason: "rejected", httpStatus: 403 });
    expect(badKey).not.toBeInstanceOf(NowAmountBelowMinimum);
  });

  it("the repeat-deposit IPN verifies when signed, and names its parent", async () => {
    const body = JSON.parse(nowRepeat) as { parent_payment_id: number };
    const sig = await signNowPaymentsBody("ipn-secret", body);
    expect(await verifyNowPaymentsSignature("ipn-secret", nowRepeat, sig)).toBe(true);
    expect(body.parent_payment_id).toBe(987654321);
  });
});
