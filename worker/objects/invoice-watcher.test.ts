import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createInvoiceViaApi, disarmInvoiceWatchers, ledgerCount, paymentRow, setNowSimulator } from "../test/payment-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import type { InvoiceWatcher } from "./invoice-watcher";
import { useTestUpstreams } from "../test/services";

afterEach(async () => {
  useTestUpstreams({ payments: null });
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
});

async function watcherFor(providerPaymentId: string) {
  const row = await paymentRow({ providerPaymentId });
  return { stub: env.INVOICE.get(env.INVOICE.idFromName(row!.id)), paymentId: row!.id };
}

describe("invoice watcher", () => {
  it("arms an alarm at the invoice's expiry, 1,000,000 ms after creation", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "BTC");
    const { stub } = await watcherFor(invoice.payment_id);
    const state = { alarmAt: await runInDurableObject(stub, (_instance: InvoiceWatcher, storage) => storage.storage.getAlarm()) };
    expect(state.alarmAt).toBe(Date.parse(invoice.expires_at));
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.expires_at).toBe(state.alarmAt);
  });

  it("expires an unpaid invoice when its alarm fires (after asking NOWPayments)", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "BTC");
    const { stub } = await watcherFor(invoice.payment_id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("expired");
    expect((await api(`/api/now-status?payment_id=${invoice.payment_id}`, { token: user.token })).data).toEqual({ payment_status: "expired", credited: false, outcome: null });
    // Settled: nothing left to wake up for.
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("credits a payment whose IPN was lost: the alarm finds it finished at NOWPayments", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "USDTTRC20");
    // NOWPayments has the money, but no IPN ever reached us.
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: 10 });
    const { stub, paymentId } = await watcherFor(invoice.payment_id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
    expect(await balanceOf(user.id)).toBeGreaterThan(0);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("credited");
    // A repeated alarm (at-least-once delivery) credits nothing more.
    await runInDurableObject(stub, (instance: InvoiceWatcher) => instance.watch({ paymentId, expiresAt: Date.now() + 60_000 }));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
  });

  it("does not expire an invoice whose coins are still confirming: it looks again later", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "ETH");
    await setNowSimulator(invoice.payment_id, { payment_status: "confirming" });
    const { stub } = await watcherFor(invoice.payment_id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("confirming");
    const state = { alarmAt: await runInDurableObject(stub, (_instance: InvoiceWatcher, storage) => storage.storage.getAlarm()) };
    expect(state.alarmAt).not.toBeNull();

    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
  });

  it("NOWPayments unreadable at expiry: nothing settled, the watcher looks again a minute later (no backoff of its own)", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10, "BTC");
    const { stub } = await watcherFor(invoice.payment_id);
    useTestUpstreams({ payments: async (provider, request, simulator) => (provider === "nowpayments" ? new Response("bad gateway", { status: 502 }) : simulator(request)) });
    const before = Date.now();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = Date.now();
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("waiting");
    const alarmAt = await runInDurableObject(stub, (_instance: InvoiceWatcher, state) => state.storage.getAlarm());
    expect(alarmAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(alarmAt).toBeLessThanOrEqual(after + 60_000);

    useTestUpstreams({ payments: null });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("expired");
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });
});
