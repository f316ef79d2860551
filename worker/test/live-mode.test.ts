import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../config";
import worker from "../index";
import { signNowPaymentsBody, signSquadBody } from "../providers/payments/signatures";
import { UPSTREAM_USER_AGENT } from "../providers/upstream-http";
import { NOWPAYMENTS_SIMULATOR_PATH, nowPaymentsIpnBody, nowPaymentsSimulator } from "../sandbox/nowpayments";
import { rentSimulator } from "../sandbox/rent-simulator";
import { RESEND_SIMULATOR_PATH, resendSimulator } from "../sandbox/resend";
import { smsActivateSimulator } from "../sandbox/sms-activate-simulator";
import { smsManSimulator } from "../sandbox/sms-man-simulator";
import { SQUAD_SIMULATOR_PATH, squadSimulator, squadWebhookBody } from "../sandbox/squad";
import { simulateTransfer, squadTransferSimulator } from "../sandbox/squad-transfers";
import { openSandboxBankAccount, squadPayoutSimulator } from "../sandbox/squad-payouts";
import { getDb } from "../db/client";
import { putSetting } from "../services/kernel";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { balanceOf, expectLedgerBalanced, type ReplyBody } from "./helpers";
import { disarmInvoiceWatchers, paymentRow, setNowSimulator, setSquadSimulator } from "./payment-fixtures";
import { pollerOf, resetSmsTestState } from "./sms-fixtures";

/**
 * The product in LIVE mode (PROVIDERS=live: the adapters reach their upstreams with the runtime's fetch at the base URLs
 * configuration gives, exactly as in production), with every upstream host answered by the protocol simulators written
 * from the providers' documents (strict: keys, required fields, User-Agent). Walks the steps issue 13 lists for the
 * switch: the sign-up e-mail, card and crypto funding, a purchase on each SMS provider, a cancel, a rental. Any call to
 * a host that is not a configured upstream fails the test: nothing reaches the sandbox wiring by accident.
 */

const HOSTS = {
  squad: "squad.live.test",
  now: "nowpayments.live.test",
  resend: "resend.live.test",
  smsman: "smsman.live.test",
  daisy: "daisysms.live.test",
};

const LIVE = {
  ...env,
  PROVIDERS: "live",
  SQUAD_BASE_URL: `https://${HOSTS.squad}${SQUAD_SIMULATOR_PATH}`,
  NOWPAYMENTS_BASE_URL: `https://${HOSTS.now}${NOWPAYMENTS_SIMULATOR_PATH}`,
  RESEND_API_KEY: "re_live_full_access_key",
  VAPID_PUBLIC_KEY: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  VAPID_PRIVATE_KEY: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  RESEND_BASE_URL: `https://${HOSTS.resend}${RESEND_SIMULATOR_PATH}`,
  EMAIL_FROM: "Virtual Numbers <no-reply@example.com>",
  SMSMAN_BASE_URL: `https://${HOSTS.smsman}`,
  SMSMAN_CURRENCY: "RUB",
  SWIFT_BASE_URL: `https://${HOSTS.daisy}/stubs/handler_api.php`,
  // Cash out (issue 45): the merchant ID every transfer reference starts with.
  SQUAD_MERCHANT_ID: "SBLIVE01",
} as Env;

/** Every upstream call the live product made: host, path, and the User-Agent it sent. */
const calls: { host: string; path: string; userAgent: string | null }[] = [];
/** The bodies of the payout transfers sent to Squad (issue 45), as Squad received them. */
const transferBodies: Promise<Record<string, unknown>>[] = [];

function upstream(request: Request): Response | Promise<Response> {
  const url = new URL(request.url);
  calls.push({ host: url.host, path: url.pathname, userAgent: request.headers.get("user-agent") });
  switch (url.host) {
    case HOSTS.squad:
      // One host, three documented APIs: the card checkout, the virtual accounts (bank transfer), the transfers (cash out).
      if (url.pathname.includes("/payout/")) {
        if (url.pathname.endsWith("/payout/transfer")) transferBodies.push(request.clone().json());
        return squadPayoutSimulator.fetch(request, LIVE);
      }
      return (url.pathname.includes("/virtual-account") ? squadTransferSimulator : squadSimulator).fetch(request, LIVE);
    case HOSTS.now:
      return nowPaymentsSimulator.fetch(request, LIVE);
    case HOSTS.resend:
      return resendSimulator.fetch(request, LIVE);
    case HOSTS.smsman:
      // One host, two documented APIs: /control (activations, countries) and /rent-api (rentals).
      return (url.pathname.startsWith("/rent-api/") ? rentSimulator : smsManSimulator).fetch(request, LIVE);
    case HOSTS.daisy:
      return smsActivateSimulator.fetch(request, LIVE);
    default:
      throw new TypeError(`live mode called an unconfigured host: ${url.host}`);
  }
}

const realFetch = globalThis.fetch;
beforeAll(async () => {
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(upstream(new Request(input, init)));
  await resetSmsTestState();
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

const orders: string[] = [];
const rentals: string[] = [];
afterEach(async () => {
  for (const id of orders.splice(0)) await pollerOf(id).stop();
  for (const id of rentals.splice(0)) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
  }
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
});

/** A request to the product running with the live configuration; waits for its background work (e-mail) too. */
async function live(path: string, init: { method?: string; token?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  const request = new Request(`http://127.0.0.1:8787${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, LIVE, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let data: ReplyBody = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, data };
}

let n = 0;
async function signUp(): Promise<{ token: string; userId: string; email: string }> {
  n += 1;
  const email = `live${n}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const res = await live("/api/register/", { json: { username: `Live${n}`, number: "08012345678", email, password: "secret-1" } });
  expect(res.status).toBe(201);
  return { token: res.data.token, userId: res.data.user.userId, email };
}

async function fund(userId: string, kobo: number) {
  await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note) VALUES (?, ?, ?, 'admin', 'Test funding')")
    .bind(userId, `test:live:${crypto.randomUUID()}`, kobo)
    .run();
}

const outboxFor = (email: string) =>
  env.DB.prepare('SELECT subject FROM email_outbox WHERE "to" = ?').bind(email).all<{ subject: string }>().then((r) => r.results);

describe("live mode against documented fakes (issue 13's switch)", { timeout: 60_000 }, () => {
  it("sends the sign-up e-mail through Resend with a User-Agent", async () => {
    const { email } = await signUp();
    expect((await outboxFor(email)).length).toBeGreaterThan(0);
    const sent = calls.filter((c) => c.host === HOSTS.resend && c.path.endsWith("/emails"));
    expect(sent.length).toBeGreaterThan(0);
  });

  it("funds by card: initiate at Squad, the signed webhook, Squad's verify, one credit", async () => {
    const { token, userId } = await signUp();
    const init = await live("/api/initialize-transaction", { token, json: { amount: 5000, currency: "NGN" } });
    expect(init.status).toBe(200);
    const ref: string = init.data.data.data.transaction_ref;
    expect(ref).toMatch(/^[A-Za-z0-9]+$/);
    expect(init.data.data.data.checkout_url).toContain(SQUAD_SIMULATOR_PATH.replace("-api", ""));
    // The customer pays on Squad's page: Squad's record says so, then Squad posts the signed webhook.
    await setSquadSimulator(ref, { status: "Success" });
    const raw = JSON.stringify(squadWebhookBody({ transaction_ref: ref, amount: 500_000, email: "payer@example.com" }));
    const sig = (await signSquadBody(env.SQUAD_SECRET_KEY!, raw)).toUpperCase();
    const hook = await live("/api/webhooks/squad", { body: raw, headers: { "content-type": "application/json", "x-squad-encrypted-body": sig } });
    expect(hook.status).toBe(200);
    expect(await balanceOf(userId)).toBe(500_000);
    expect(calls.some((c) => c.host === HOSTS.squad && c.path.includes(`/transaction/verify/${ref}`))).toBe(true);
  });

  it("funds by bank transfer: a dynamic account at Squad, the signed notification, Squad's re-query, one credit", async () => {
    const { token, userId } = await signUp();
    const start = await live("/api/transfers", { token, json: { amount: 3000 } });
    expect(start.status).toBe(200);
    expect(start.data.account_number).toMatch(/^\d{10}$/);
    // The customer's bank sends exactly the amount; Squad posts its signed notification (twice: a replay).
    const n = await simulateTransfer(LIVE, { accountNumber: start.data.account_number, amountKobo: 300_000 });
    for (let i = 0; i < 2; i++) {
      const hook = await live("/api/webhooks/squad", { body: JSON.stringify(n.body), headers: { "content-type": "application/json", ...n.headers } });
      expect(hook.status).toBe(200);
    }
    expect(await balanceOf(userId)).toBe(300_000);
    expect(calls.some((c) => c.host === HOSTS.squad && c.path.endsWith("/virtual-account/initiate-dynamic-virtual-account"))).toBe(true);
    expect(calls.some((c) => c.host === HOSTS.squad && c.path.includes(`/get-dynamic-virtual-account-transactions/${start.data.ref}`))).toBe(true);
    expect(calls.filter((c) => c.host === HOSTS.squad).every((c) => c.userAgent === UPSTREAM_USER_AGENT)).toBe(true);
  });

  it("funds by crypto: NOWPayments' minimum, the invoice, the signed IPN, the re-read, one credit", async () => {
    const { token, userId } = await signUp();
    const invoice = await live("/api/invoice", { token, json: { price_amount: 10, pay_currency: "USDTTRC20", order_description: "deposit" } });
    expect(invoice.status).toBe(200);
    const paymentId: string = invoice.data.payment_id;
    expect(invoice.data.pay_address).not.toBe("");
    await setNowSimulator(paymentId, { payment_status: "finished", actually_paid: invoice.data.pay_amount });
    const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(`nowpayments:${paymentId}`).first<{ value: string }>();
    const ipn = nowPaymentsIpnBody(JSON.parse(row!.value));
    const sig = await signNowPaymentsBody(env.NOWPAYMENTS_IPN_SECRET!, ipn);
    const hook = await live("/api/webhooks/nowpayments", { body: JSON.stringify(ipn), headers: { "content-type": "application/json", "x-nowpayments-sig": sig } });
    expect(hook.status).toBe(200);
    // The whole invoice arrived: the wallet moves by exactly the naira amount fixed when the invoice was shown.
    const payment = await paymentRow({ providerPaymentId: paymentId });
    expect(payment?.status).toBe("credited");
    expect(payment!.amount_kobo).toBeGreaterThan(0);
    expect(await balanceOf(userId)).toBe(payment!.amount_kobo);
    const nowPaths = calls.filter((c) => c.host === HOSTS.now).map((c) => c.path.slice(NOWPAYMENTS_SIMULATOR_PATH.length));
    expect(nowPaths).toEqual(expect.arrayContaining(["/merchant/coins", "/min-amount", "/payment", `/payment/${paymentId}`]));
  });

  for (const [provider, service] of [
    ["Swift", "sbxnosms"],
    ["Dynamic", "90"],
  ] as const) {
    it(`buys a ${provider} number at the listed price and cancels it for a refund`, async () => {
      const { token, userId } = await signUp();
      await fund(userId, 500_000);
      const prices = await live(`/api/sms/price?provider=${provider}&id=5`, { token });
      expect(prices.status).toBe(200);
      const price: number = prices.data[service].price;
      expect(price).toBeGreaterThan(0);
      const bought = await live("/api/sms/get-number", { token, json: { provider, country: "5", service, price } });
      expect(bought.status).toBe(200);
      const orderId: string = bought.data.phone.request_id;
      orders.push(orderId);
      expect(await balanceOf(userId)).toBe(500_000 - Math.round(price * 100));
      const cancelled = await live("/api/sms/cancel", { token, json: { request_id: orderId } });
      expect(cancelled.status).toBe(200);
      expect(await balanceOf(userId)).toBe(500_000);
    });
  }

  it("rents a number at the quoted price", async () => {
    const { token, userId } = await signUp();
    await fund(userId, 500_000);
    const quote = await live("/api/rent/countries", { token, json: { countryId: "5", duration: "hour", period: 1 } });
    expect(quote.status).toBe(200);
    const price: number = quote.data.price;
    const rented = await live("/api/rent-number", { token, json: { countryId: "5", duration: "hour", period: 1, price } });
    expect(rented.status).toBe(201);
    rentals.push(rented.data.rental.id);
    expect(await balanceOf(userId)).toBe(500_000 - Math.round(price * 100));
    expect(calls.some((c) => c.host === HOSTS.smsman && c.path === "/rent-api/get-number")).toBe(true);
  });

  it("cashes out: Squad's account lookup, then one transfer with the merchant-prefixed reference, kobo digits and the NIP bank code", async () => {
    const { token, userId } = await signUp();
    await putSetting(getDb(env.DB), "withdrawals", { ...SETTING_DEFAULTS.withdrawals, cooling_hours: 0 });
    try {
      await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note) VALUES (?, ?, 500000, 'fund', 'Bank transfer')").bind(userId, `fund:transfer:live-${crypto.randomUUID()}`).run();
      const account = `05${String(Date.now()).slice(-8)}`;
      await openSandboxBankAccount(LIVE, { bank_code: "000013", account_number: account, account_name: "LIVE TESTER" });
      const added = await live("/api/withdrawals/account", { token, json: { bank_code: "000013", account_number: account, full_name: "Live Tester" } });
      expect(added.status).toBe(200);
      const paid = await live("/api/withdrawals", { token, json: { amount: 1500.5 } });
      expect(paid.status).toBe(200);
      expect(paid.data).toMatchObject({ state: "paid", amount: 1500.5, message: `Paid into GTBank ····${account.slice(-4)}` });
      expect(await balanceOf(userId)).toBe(500_000 - 150_050);
      expect(calls.some((c) => c.host === HOSTS.squad && c.path.endsWith("/payout/account/lookup"))).toBe(true);
      const bodies = await Promise.all(transferBodies);
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toMatchObject({
        transaction_reference: `SBLIVE01_${paid.data.id}`,
        amount: "150050",
        bank_code: "000013",
        account_number: account,
        account_name: "LIVE TESTER",
        currency_id: "NGN",
      });
    } finally {
      await putSetting(getDb(env.DB), "withdrawals", SETTING_DEFAULTS.withdrawals);
    }
  });

  // Last on purpose: it reads what the steps above sent.
  it("sent the product's User-Agent on every upstream call, and reached every upstream", () => {
    expect(calls.filter((c) => c.userAgent !== UPSTREAM_USER_AGENT)).toEqual([]);
    expect(new Set(calls.map((c) => c.host))).toEqual(new Set(Object.values(HOSTS)));
  });
});
