import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_TIERS } from "../../../schema/settings";
import { ledger, smsOrders } from "../../db/tables";
import { SmsActivateProvider } from "../../providers/sms/sms-activate";
import { SmsManProvider } from "../../providers/sms/sms-man";
import { smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { smsManSimulator } from "../../sandbox/sms-man-simulator";
import { clearSettingsCache, ledgerInsert, postEntry, putSetting } from "../../services/kernel";
import { smsDeps } from "../../test/services";
import {
  createInvoiceViaApi,
  disarmInvoiceWatchers,
  postNowIpn,
  postSquadWebhook,
  setNowSimulator,
  setSquadSimulator,
  squadWebhookRaw,
  startCardPaymentViaApi,
} from "../payment-fixtures";
import { clearSmsCatalogueCache, pollSmsOrderTick, sweepSmsOrders } from "../../services/sms";
import { api, balanceOf, createUser, db, type ApiReply } from "../helpers";
import { FAULTS, faultyUpstream, LOSSY_FAULTS, type Fault, type FaultPlan } from "./faulty-fetch";
import { moneyViolations, setActivationCodeArrived, upstreamIdOf } from "./invariants";
import { useTestUpstreams } from "../services";
import { sweepPaymentsNow } from "../services";
import { routeToPrimariesOnly } from "../sms-fixtures";

/**
 * Upstreams that answer 500, hang, answer HTML or truncated JSON, act twice, or answer after the customer cancelled, at
 * every step (buy, poll, cancel; initiate, verify, IPN). The REAL adapters run, their fetch bound to the sandbox
 * simulators through a fault plan. Whatever happens: a clear 4xx/5xx with the one error body (never INTERNAL), no money
 * stuck (the sweep settles what an alarm gave up on) and none lost or doubled (./invariants.ts after every test).
 */

const MAX_POLLS = 3;
let plan: FaultPlan = () => null;
const onPath = (suffix: string, fault: Fault | Response): FaultPlan => (req) => (new URL(req.url).pathname.endsWith(suffix) ? fault : null);

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
let service = "";

beforeAll(async () => {
  clearSettingsCache();
  await putSetting(db(), "tiers", [DEFAULT_TIERS[0]]);
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  await putSetting(db(), "sms_poll", { interval_ms: 3_600_000, max_attempts: MAX_POLLS });
  // The faults are the primary's: no fallback may sell what it refused.
  await routeToPrimariesOnly();
  clearSettingsCache();
});

beforeEach(async () => {
  plan = () => null;
  clearSmsCatalogueCache();
  // The real sms-man adapter ("Dynamic"), a short deadline, and the fault plan in front of the protocol simulator.
  useTestUpstreams({
    sms: (_mode, _name, e) =>
      new SmsManProvider({
        baseUrl: "https://sandbox.sms-man.invalid",
        key: "test-smsman-token",
        timeoutMs: 150,
        fetch: faultyUpstream(async (req) => smsManSimulator.fetch(req, e), (req) => plan(req)),
      }),
  });
  useTestUpstreams({ payments: (_provider, request, simulator) => faultyUpstream(simulator, plan)(request) });
  if (!service) {
    const prices = await api("/api/sms/price?id=5&provider=Dynamic");
    service = Object.keys(prices.data)[0];
  }
});

afterEach(async () => {
  plan = () => null;
  useTestUpstreams({ sms: null, payments: null });
  const { results } = await env.DB.prepare("SELECT id FROM sms_orders").all<{ id: string }>();
  for (const { id } of results) {
    await runInDurableObject(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(id)), (_i, state) => state.storage.deleteAlarm());
  }
  await disarmInvoiceWatchers();
  expect(await moneyViolations()).toEqual([]);
});

function expectCleanFailure(res: Pick<ApiReply, "status" | "data">) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.data).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), error: expect.any(String) }));
  expect(res.data.code).not.toBe("INTERNAL");
  expect(res.data.message.length).toBeGreaterThan(10);
  expect(JSON.stringify(res.data)).not.toMatch(/test-smsman-token|sandbox_sk_test|test-now-key|<html|stack/i);
}

async function buy(token: string) {
  return api("/api/sms/get-number", { token, json: { provider: "Dynamic", country: "5", service } });
}

async function buyQuietOrder(balanceKobo = 1_000_000) {
  const user = await createUser({ balanceKobo });
  const res = await buy(user.token);
  expect(res.status).toBe(200);
  const orderId: string = res.data.phone.request_id;
  await setActivationCodeArrived(await upstreamIdOf("sms_orders", orderId), false);
  const price = balanceKobo - (await balanceOf(user.id));
  return { user, orderId, price };
}

const orderRow = (id: string) =>
  env.DB.prepare("SELECT status, attempts FROM sms_orders WHERE id = ?").bind(id).first<{ status: string; attempts: number }>();
const refunds = async (id: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${id}`).first<{ n: number }>())!.n;
const poller = (id: string) => env.SMS_ORDER.get(env.SMS_ORDER.idFromName(id));
const sweepLater = () => sweepSmsOrders(smsDeps(env), Date.now() + 48 * 3600_000);

describe("Receive SMS: buy", () => {
  for (const fault of LOSSY_FAULTS) {
    it(`get-number answering ${fault}: a clear error, the debit reversed at once`, async () => {
      const user = await createUser({ balanceKobo: 1_000_000 });
      plan = onPath("/get-number", fault);
      const res = await buy(user.token);
      expectCleanFailure(res);
      expect([502, 504]).toContain(res.status);
      expect(res.data.refunded).toBe(true);
      expect(await balanceOf(user.id)).toBe(1_000_000);
    });
  }

  it("a duplicated get-number (the upstream sold twice): the customer pays once, for the one number we show", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    plan = onPath("/get-number", "twice");
    const res = await buy(user.token);
    expect(res.status).toBe(200);
    const debits = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND kind = 'buy'").bind(user.id).first<{ n: number }>();
    expect(debits!.n).toBe(1);
  });
});

describe("Receive SMS: polling", () => {
  for (const fault of FAULTS) {
    it(`get-sms answering ${fault}: the order waits (blip) or ends refunded; the sweep leaves nothing stuck`, async () => {
      const { user, orderId, price } = await buyQuietOrder();
      plan = onPath("/get-sms", fault);
      expect(await runDurableObjectAlarm(poller(orderId))).toBe(true);
      const after = (await orderRow(orderId))!;
      if (fault === "http500" || fault === "timeout" || fault === "twice") {
        // transient (or harmless): still waiting, the money still reserved, one attempt counted
        expect(after).toEqual({ status: "waiting", attempts: 1 });
        expect(await balanceOf(user.id)).toBe(1_000_000 - price);
      } else {
        // an unreadable reply is the upstream's final word: the order ends with an error and the money comes back
        expect(after.status).toBe("error");
        expect(await balanceOf(user.id)).toBe(1_000_000);
      }
      const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
      expect(status.status).toBe(200);
      expect([null, "Error polling SMS"]).toContain(status.data.sms);

      await sweepLater();
      expect((await orderRow(orderId))!.status).not.toBe("waiting");
      expect(await refunds(orderId)).toBe(1);
      expect(await balanceOf(user.id)).toBe(1_000_000);
    });
  }

  it("polls that keep failing run out the attempts: timeout, refunded once, and a late alarm changes nothing", async () => {
    const { user, orderId } = await buyQuietOrder();
    plan = onPath("/get-sms", "http500");
    for (let i = 0; i < MAX_POLLS; i++) await runDurableObjectAlarm(poller(orderId));
    expect((await orderRow(orderId))!.status).toBe("timeout");
    await pollSmsOrderTick(smsDeps(env), orderId); // a retried delivery of the last alarm
    await sweepLater();
    expect(await refunds(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  it("an alarm that gave up (deleted after its retries) leaves the order to the sweep, which refunds once", async () => {
    const { user, orderId } = await buyQuietOrder();
    await runInDurableObject(poller(orderId), (_i, state) => state.storage.deleteAlarm());
    expect(await runDurableObjectAlarm(poller(orderId))).toBe(false);
    expect((await orderRow(orderId))!.status).toBe("waiting");
    await Promise.all([sweepLater(), sweepLater()]);
    expect((await orderRow(orderId))!.status).toBe("timeout");
    expect(await refunds(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});

describe("Receive SMS: cancel", () => {
  for (const fault of LOSSY_FAULTS) {
    it(`set-status answering ${fault}: 'Cancel failed' with a reason, money still held, then the sweep refunds once`, async () => {
      const { user, orderId, price } = await buyQuietOrder();
      plan = onPath("/set-status", fault);
      const res = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } });
      expectCleanFailure(res);
      expect(res.data.message).toMatch(/^Cancel failed: /);
      expect((await orderRow(orderId))!.status).toBe("waiting");
      expect(await balanceOf(user.id)).toBe(1_000_000 - price);

      plan = () => null;
      await sweepLater();
      expect(await refunds(orderId)).toBe(1);
      expect(await balanceOf(user.id)).toBe(1_000_000);
    });
  }

  it("a duplicated cancel upstream still cancels once and refunds once", async () => {
    const { user, orderId } = await buyQuietOrder();
    plan = onPath("/set-status", "twice");
    const res = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ status: "cancelled", refunded: true });
    expect(await refunds(orderId)).toBe(1);
  });

  it("a code the upstream reports after the customer cancelled is ignored: still cancelled, refunded once, nothing charged", async () => {
    const { user, orderId } = await buyQuietOrder();
    expect((await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } })).status).toBe(200);
    const upstreamId = await upstreamIdOf("sms_orders", orderId);
    plan = onPath("/get-sms", json({ request_id: Number(upstreamId), country_id: 5, number: "15550000000", sms_code: "123456" }));
    await pollSmsOrderTick(smsDeps(env), orderId);
    await runDurableObjectAlarm(poller(orderId));
    await sweepLater();
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "cancelled", sms: null, sms_code: null });
    expect(await refunds(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});

describe("Card funding (Squad)", () => {
  for (const fault of LOSSY_FAULTS) {
    it(`initiate answering ${fault}: a clear error, the attempt recorded as failed, nothing credited`, async () => {
      const user = await createUser();
      plan = onPath("/transaction/initiate", fault);
      const res = await api("/api/initialize-transaction", { token: user.token, json: { amount: 5000, currency: "NGN" } });
      expectCleanFailure(res);
      expect([502, 504]).toContain(res.status);
      const row = await env.DB.prepare("SELECT status FROM payments WHERE user_id = ?").bind(user.id).first<{ status: string }>();
      expect(row!.status).toBe("failed");
      expect(await balanceOf(user.id)).toBe(0);
    });
  }

  for (const fault of FAULTS) {
    it(`verify answering ${fault}: Verify Payment and the webhook fail cleanly; once Squad answers, one credit`, async () => {
      const user = await createUser();
      const ref = await startCardPaymentViaApi(user, 5000);
      await setSquadSimulator(ref, { status: "Success" });
      plan = onPath(`/transaction/verify/${ref}`, fault);
      const click = await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } });
      const hook = await postSquadWebhook(squadWebhookRaw(ref, 500_000, user.email));
      if (fault === "twice") {
        expect(click.data.data).toBe("success");
        expect(hook.status).toBe(200);
      } else {
        expectCleanFailure(click);
        // Not acknowledged: Squad retries the webhook later.
        expect(hook.status).toBeGreaterThanOrEqual(500);
        expect(await balanceOf(user.id)).toBe(0);
      }
      plan = () => null;
      await postSquadWebhook(squadWebhookRaw(ref, 500_000, user.email));
      await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } });
      expect(await balanceOf(user.id)).toBe(500_000);
    });
  }
});

describe("Crypto funding (NOWPayments)", () => {
  for (const fault of LOSSY_FAULTS) {
    it(`create payment answering ${fault}: a clear error, nothing pending forever`, async () => {
      const user = await createUser();
      plan = (req) => (req.method === "POST" && new URL(req.url).pathname.endsWith("/payment") ? fault : null);
      const res = await api("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: "USDTTRC20" } });
      expectCleanFailure(res);
      const row = await env.DB.prepare("SELECT status FROM payments WHERE user_id = ?").bind(user.id).first<{ status: string }>();
      expect(row!.status).toBe("failed");
    });
  }

  it("the sweep asks again when the status call fails, and credits once when NOWPayments says finished", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10);
    await env.DB.prepare("UPDATE payments SET expires_at = ? WHERE provider_payment_id = ?").bind(Date.now() - 3600_000, invoice.payment_id).run();
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount });
    plan = (req) => (req.method === "GET" && new URL(req.url).pathname.includes(`/payment/${invoice.payment_id}`) ? "http500" : null);
    await sweepPaymentsNow();
    expect(await balanceOf(user.id)).toBe(0);
    const pending = await env.DB.prepare("SELECT status FROM payments WHERE provider_payment_id = ?").bind(invoice.payment_id).first<{ status: string }>();
    expect(pending!.status).not.toBe("expired"); // not given up on while the provider could not be asked

    plan = () => null;
    await Promise.all([sweepPaymentsNow(), sweepPaymentsNow()]);
    const credited = await balanceOf(user.id);
    expect(credited).toBeGreaterThan(0);
    // The IPN arriving late (and again) credits nothing more.
    const ipn = { payment_id: invoice.payment_id, payment_status: "finished", order_id: null };
    await postNowIpn(ipn);
    await postNowIpn(ipn);
    expect(await balanceOf(user.id)).toBe(credited);
  });

  it("a 'finished' IPN after the invoice expired still credits, once: the provider holds the customer's money", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10);
    expect((await postNowIpn({ payment_id: invoice.payment_id, payment_status: "expired" })).status).toBe(200);
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount });
    const body = { payment_id: invoice.payment_id, payment_status: "finished" };
    const answers = await Promise.all([postNowIpn(body), postNowIpn(body), postNowIpn(body)]);
    for (const a of answers) expect(a.status).toBe(200);
    const row = await env.DB.prepare("SELECT amount_kobo, status FROM payments WHERE provider_payment_id = ?").bind(invoice.payment_id).first<{ amount_kobo: number; status: string }>();
    expect(row!.status).toBe("credited");
    expect(await balanceOf(user.id)).toBe(row!.amount_kobo);
  });
});

describe("D1 inside money batches", () => {
  it("a statement failing inside a purchase batch rolls the debit back with it", async () => {
    const { user, orderId } = await buyQuietOrder();
    const before = await balanceOf(user.id);
    const d = db();
    const [order] = await d.select().from(smsOrders).where(eq(smsOrders.id, orderId));
    // The same order id again: the primary key refuses the order row, and the debit in the same batch must vanish.
    await expect(
      d.batch([
        ledgerInsert(d, { at: Date.now(), userId: user.id, key: `buy:${crypto.randomUUID()}`, amountKobo: -1000, kind: "buy", note: "x" }),
        d.insert(smsOrders).values(order),
      ]),
    ).rejects.toThrow();
    expect(await balanceOf(user.id)).toBe(before);
    await sweepLater();
  });

  it("every ledger write retried with its key after an unknown outcome has one effect", async () => {
    const user = await createUser();
    const entry = { userId: user.id, key: `admin:retry-${user.id}`, amountKobo: 70_000, kind: "admin" as const, note: "retry", at: Date.now() };
    const outcomes = await Promise.all([postEntry(db(), entry), postEntry(db(), entry), postEntry(db(), entry)]);
    expect(outcomes.filter((o) => o.applied)).toHaveLength(1);
    // Replaying every row already written in this file (funds, buys, refunds, referral, admin) moves nothing.
    const before = await env.DB.prepare("SELECT SUM(balance_kobo) AS total, (SELECT COUNT(*) FROM ledger) AS rows FROM users").first();
    const rows = await db().select().from(ledger);
    for (let i = 0; i < rows.length; i += 50) {
      const d = db();
      const chunk = rows.slice(i, i + 50).map((r) => ledgerInsert(d, { at: Date.now(), userId: r.userId, key: r.key, amountKobo: r.amountKobo, kind: r.kind, note: r.note, ref: r.ref }));
      await d.batch(chunk as [ReturnType<typeof ledgerInsert>, ...ReturnType<typeof ledgerInsert>[]]);
    }
    const after = await env.DB.prepare("SELECT SUM(balance_kobo) AS total, (SELECT COUNT(*) FROM ledger) AS rows FROM users").first();
    expect(after).toEqual(before);
    expect(rows.length).toBeGreaterThan(20);
  });
});

describe("Receive SMS on DaisySMS ('Swift'): the protocol's own refusal words", () => {
  const action = (req: Request) => new URL(req.url).searchParams.get("action");
  beforeEach(() => {
    useTestUpstreams({
      sms: (_mode, _name, e) =>
        new SmsActivateProvider({
          baseUrl: "https://sandbox.daisysms.invalid",
          key: e.SWIFT_API_KEY!,
          timeoutMs: 150,
          fetch: faultyUpstream(async (req) => smsActivateSimulator.fetch(req, e), (req) => plan(req)),
        }),
    });
  });
  const buySwift = (token: string) => api("/api/sms/get-number", { token, json: { provider: "Swift", country: "5", service: "wa" } });

  for (const word of ["NO_MONEY", "TOO_MANY_ACTIVE_RENTALS", "NO_BALANCE", "MAX_PRICE_EXCEEDED", "NO_NUMBERS", "BAD_KEY"]) {
    it(`getNumber answering ${word}: a clear error (not 'unexpected reply'), the debit reversed at once`, async () => {
      const user = await createUser({ balanceKobo: 1_000_000 });
      plan = (req) => (action(req) === "getNumber" ? new Response(word) : null);
      const res = await buySwift(user.token);
      expectCleanFailure(res);
      expect(res.data.message).not.toMatch(/unexpected reply/i);
      expect(res.data.refunded).toBe(true);
      expect(await balanceOf(user.id)).toBe(1_000_000);
    });
  }

  it("the code lands as the last poll gives up: setStatus 8 answers ACCESS_READY, the customer gets the code and pays", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await buySwift(user.token);
    expect(res.status).toBe(200);
    const orderId: string = res.data.phone.request_id;
    const upstreamId = await upstreamIdOf("sms_orders", orderId);
    await setActivationCodeArrived(upstreamId, false);
    for (let i = 0; i < MAX_POLLS - 1; i++) await runDurableObjectAlarm(poller(orderId));
    // The code reaches the upstream just after our last poll read "waiting".
    let waitsLeft = 1;
    plan = (req) => (action(req) === "getStatus" && waitsLeft-- > 0 ? new Response("STATUS_WAIT_CODE") : null);
    await setActivationCodeArrived(upstreamId, true);
    await runDurableObjectAlarm(poller(orderId));
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", sms: expect.stringMatching(/^\d{6}$/), refunded: false });
    expect(await refunds(orderId)).toBe(0);
    await sweepLater();
    expect(await refunds(orderId)).toBe(0);
  });

  it("setStatus 8 answering ACCESS_READY for a number that no longer exists upstream: refunded once", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await buySwift(user.token);
    const orderId: string = res.data.phone.request_id;
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", orderId), false);
    for (let i = 0; i < MAX_POLLS - 1; i++) await runDurableObjectAlarm(poller(orderId));
    let waitedOnce = false;
    plan = (req) => {
      if (action(req) === "setStatus") return new Response("ACCESS_READY");
      if (action(req) === "getStatus") return waitedOnce ? new Response("NO_ACTIVATION") : ((waitedOnce = true), new Response("STATUS_WAIT_CODE"));
      return null;
    };
    await runDurableObjectAlarm(poller(orderId));
    expect((await orderRow(orderId))!.status).toBe("timeout");
    expect(await refunds(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});
