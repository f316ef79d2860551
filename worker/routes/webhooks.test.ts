import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { signNowPaymentsBody } from "../providers/payments/signatures";
import { nowPaymentsIpnBody } from "../sandbox/nowpayments";
import { createInvoiceViaApi, disarmInvoiceWatchers, ledgerCount, paymentRow, postNowIpn, setNowSimulator } from "../test/payment-fixtures";
import { putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";

afterEach(async () => {
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
});

/** The IPN NOWPayments would send for one of our invoices. */
async function ipnFor(paymentId: string, status: string, overrides: Record<string, unknown> = {}) {
  const row = await paymentRow({ providerPaymentId: paymentId });
  return {
    ...nowPaymentsIpnBody({
      payment_id: paymentId,
      payment_status: status as "finished",
      pay_address: "addr",
      price_amount: 10,
      pay_amount: 10,
      actually_paid: status === "finished" ? 10 : 0,
      pay_currency: "usdttrc20",
      order_id: row!.id,
      order_description: "deposit",
      purchase_id: "1",
    }),
    ...overrides,
  };
}

describe("crypto funding through NOWPayments (sandbox)", () => {
  it("creates an invoice at the rate of the day and credits once on 'finished', whatever the order of IPNs", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: 1550, squadmin: 1000 });
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "USDTTRC20");
    expect(invoice).toMatchObject({ pay_currency: "USDTTRC20", network: "trx", pay_amount: 10, payment_id: expect.any(String) });
    expect(invoice.pay_address).not.toBe("");
    expect(Date.parse(invoice.expires_at) - Date.now()).toBeGreaterThan(990_000);
    expect((await api(`/api/now-status?payment_id=${invoice.payment_id}`, { token: user.token })).data).toEqual({ payment_status: "waiting", credited: false, outcome: null });

    // The rate is fixed at creation: a later change does not alter what this invoice credits.
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: 2000, squadmin: 1000 });

    const confirming = await api(`/sandbox/nowpayments/${invoice.payment_id}/status`, { json: { payment_status: "confirming" } });
    expect(confirming.data.webhook_status).toBe(200);
    const finished = await api(`/sandbox/nowpayments/${invoice.payment_id}/status`, { json: { payment_status: "finished" } });
    expect(finished.data.webhook_status).toBe(200);
    // Late and repeated IPNs change nothing.
    await postNowIpn(await ipnFor(invoice.payment_id, "confirming"));
    await postNowIpn(await ipnFor(invoice.payment_id, "finished"));
    await postNowIpn(await ipnFor(invoice.payment_id, "finished"));

    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_550_000);
    expect((await api(`/api/now-status?payment_id=${invoice.payment_id}`, { token: user.token })).data).toEqual({ payment_status: "finished", credited: true, outcome: null });
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([
      expect.objectContaining({ id: `fund:now:${invoice.payment_id}`, status: "successful", amount: 15_500, note: "Wallet deposit (USDTTRC20)" }),
    ]);
  });

  it("refuses an amount under the crypto minimum with the spec's message", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: 1550, squadmin: 1000 });
    const user = await createUser();
    const res = await api("/api/invoice", { token: user.token, json: { price_amount: 4.99, pay_currency: "BTC" } });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("Minimum amount is $5");
  });

  it("failed, expired, refunded and a partially_paid with nothing arrived credit nothing and show in history as failed", async () => {
    const user = await createUser();
    const statuses = ["partially_paid", "failed", "expired", "refunded"];
    const ids: string[] = [];
    for (const status of statuses) {
      const invoice = await createInvoiceViaApi(user, 6, "BTC");
      ids.push(invoice.payment_id);
      // NOWPayments' own record agrees with the IPN (a money status is always re-read before anything is credited).
      await setNowSimulator(invoice.payment_id, { payment_status: status, actually_paid: 0 });
      const res = await postNowIpn(await ipnFor(invoice.payment_id, status));
      expect(res.status).toBe(200);
      expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(0);
      expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe(status);
    }
    expect(await balanceOf(user.id)).toBe(0);
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toHaveLength(4);
    expect(history.data.every((t: { status: string; note: string }) => t.status === "failed" && t.note === "Wallet deposit (BTC)")).toBe(true);
  });

  it("an IPN with a tampered body (incl. the nested fee), a wrong secret or no signature is 401 and credits nothing", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "ETH");
    const body = await ipnFor(invoice.payment_id, "finished");
    const goodSig = await signNowPaymentsBody(env.NOWPAYMENTS_IPN_SECRET!, body);

    const tamperedFee = await postNowIpn({ ...body, fee: { ...body.fee, serviceFee: 0 } }, { signature: goodSig });
    const tamperedStatus = await postNowIpn({ ...body, payment_status: "finished", actually_paid: 999 }, { signature: goodSig });
    const wrongSecret = await postNowIpn(body, { signature: await signNowPaymentsBody("not-the-secret", body) });
    const missing = await postNowIpn(body, { signature: null });
    const notJson = await postNowIpn(body, { raw: "payment_status=finished", signature: goodSig });
    for (const res of [tamperedFee, tamperedStatus, wrongSecret, missing, notJson]) {
      expect(res.status).toBe(401);
      expect(res.data.code).toBe("INVALID_SIGNATURE");
    }
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(0);

    // The same body, correctly signed over its key-sorted JSON (nested fee included), is accepted; key order is irrelevant.
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const ok = await postNowIpn(reordered, { signature: goodSig.toUpperCase() });
    expect(ok.status).toBe(200);
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
  });

  it("an authentic IPN for an unknown payment, or naming another order, changes nothing", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "SOL");
    const unknown = await postNowIpn(await ipnFor(invoice.payment_id, "finished", { payment_id: 123 }));
    expect(unknown.data.status).toBe("unknown");
    const otherOrder = await postNowIpn(await ipnFor(invoice.payment_id, "finished", { order_id: "NP-SOMEONE-ELSE" }));
    expect(otherOrder.data.status).toBe("unknown");
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("another user's invoice is 404 on /now-status", async () => {
    const owner = await createUser();
    const other = await createUser();
    const invoice = await createInvoiceViaApi(owner, 10, "BTC");
    const res = await api(`/api/now-status?payment_id=${invoice.payment_id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect((await api("/api/get-transaction", { token: other.token })).data).toEqual([]);
    expect((await api("/api/now-status", { token: owner.token })).status).toBe(400);
  });

  it("lists the merchant's currencies with available_for_payment", async () => {
    const user = await createUser();
    const coins = await api("/api/now-currencies", { token: user.token });
    expect(coins.data.selectedCurrencies).toEqual(expect.arrayContaining(["BTC", "USDTTRC20", "ETH", "SOL"]));
    const merchant = await api("/api/now-merchant", { token: user.token });
    const byCode = Object.fromEntries(merchant.data.currencies.map((c: { code: string; available_for_payment: boolean }) => [c.code, c.available_for_payment]));
    expect(byCode.BTC).toBe(true);
    expect(byCode.XMR).toBe(false);
  });
});
