import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { nowPaymentsIpnBody } from "../sandbox/nowpayments";
import { createInvoiceViaApi, disarmInvoiceWatchers, ledgerCount, paymentRow, postNowIpn, setNowSimulator } from "../test/payment-fixtures";
import { listPaymentReviews, resolvePaymentReview } from "../services/funding";
import { putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { moneyViolations } from "../test/reliability/invariants";
import { useTestUpstreams } from "../test/services";
import { testServices } from "../test/services";

/**
 * Issue 12, hole 3: a crypto payment is credited for what actually arrived, as NOWPayments' own record says when
 * re-read, never for the invoice's amount because an IPN says 'finished'. Anything that does not match goes to review.
 * Issue 12, hole 5: an unsupported currency is a 400 that writes nothing and calls nothing upstream.
 */

afterEach(async () => {
  useTestUpstreams({ payments: null });
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
  // The reliability suite's money invariants (a credit equals what arrived, never more than the invoice; an operator
  // credit only with its resolution) hold after every scenario here too.
  expect(await moneyViolations()).toEqual([]);
});

const RATE = 1500; // ₦ per USD: a $10 invoice is worth ₦15,000 = 1,500,000 kobo.

async function invoiceFor(usd = 10, currency = "USDTTRC20") {
  await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
  const user = await createUser();
  const invoice = await createInvoiceViaApi(user, usd, currency);
  return { user, invoice };
}

/** The sandbox moves the payment at "NOWPayments" and sends the signed IPN, as the real service would. */
async function simulate(paymentId: string, body: Record<string, unknown>) {
  const res = await api(`/sandbox/nowpayments/${paymentId}/status`, { json: body });
  expect(res.status).toBe(200);
  expect(res.data.webhook_status).toBe(200);
  return res.data as { payment_id: string; parent_payment_id: string | null };
}

/** Storage is shared by the tests of a file: each test looks at its own customer's reviews. */
async function reviewsOf(userId: string, status: "open" | "resolved" = "open") {
  return (await listPaymentReviews(db(), { status })).filter((r) => r.user?.id === userId);
}

async function ledgerAmount(key: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT amount_kobo FROM ledger WHERE key = ?").bind(key).first<{ amount_kobo: number }>();
  return row?.amount_kobo ?? null;
}

describe("crypto credits follow what arrived (issue 12, hole 3)", () => {
  it("a 'finished' that paid 40% credits 40% of the invoice, never the full amount", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount * 0.4 });
    expect(await ledgerAmount(`fund:now:${invoice.payment_id}`)).toBe(600_000);
    expect(await balanceOf(user.id)).toBe(600_000);
    const row = await env.DB.prepare("SELECT status, credited_kobo, amount_kobo FROM payments WHERE provider_payment_id = ?").bind(invoice.payment_id).first();
    expect(row).toMatchObject({ status: "credited", credited_kobo: 600_000, amount_kobo: 1_500_000 });
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ amount: 6000, status: "successful", note: "Wallet deposit (USDTTRC20)" })]);
  });

  it("partially_paid settles at what was paid, once, however often the IPN comes", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "partially_paid", actually_paid: invoice.pay_amount / 2 });
    await simulate(invoice.payment_id, { payment_status: "partially_paid", actually_paid: invoice.pay_amount / 2 });
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(1);
    expect(await balanceOf(user.id)).toBe(750_000);
  });

  it("trusts NOWPayments' record over the IPN: a signed 'finished' claiming the full amount credits only what the re-read says", async () => {
    const { user, invoice } = await invoiceFor(10);
    const row = await paymentRow({ providerPaymentId: invoice.payment_id });
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount * 0.1 });
    const ipn = nowPaymentsIpnBody({
      payment_id: invoice.payment_id,
      payment_status: "finished",
      pay_address: invoice.pay_address,
      price_amount: 10,
      pay_amount: invoice.pay_amount,
      actually_paid: invoice.pay_amount,
      pay_currency: "usdttrc20",
      order_id: row!.id,
      order_description: "deposit",
      purchase_id: "1",
    });
    expect((await postNowIpn(ipn)).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(150_000);
  });

  it("a payment in another currency is held for review: nothing credited, shown as pending, listed for the operator", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 });
    expect(await balanceOf(user.id)).toBe(0);
    expect(await ledgerCount(`fund:now:${invoice.payment_id}`)).toBe(0);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("review");
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ status: "pending", amount: 15000 })]);
    const [review] = await reviewsOf(user.id);
    expect(review).toMatchObject({
      reason: "other_currency",
      status: "open",
      provider_payment_id: invoice.payment_id,
      expected_currency: "USDTTRC20",
      pay_currency: "BTC",
      actually_paid: "0.0002",
      suggested_amount: null,
      user: { id: user.id },
    });
    // The watcher's alarm later finds the same record: still nothing credited, still one review.
    await simulate(invoice.payment_id, { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 });
    expect(await reviewsOf(user.id)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("a repeat deposit (parent_payment_id) goes to review and credits nothing more", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished" });
    expect(await balanceOf(user.id)).toBe(1_500_000);
    const repeat = await simulate(invoice.payment_id, { payment_status: "finished", repeat: true, actually_paid: invoice.pay_amount });
    expect(repeat.parent_payment_id).toBe(invoice.payment_id);
    expect(await balanceOf(user.id)).toBe(1_500_000);
    const reviews = await reviewsOf(user.id);
    expect(reviews).toEqual([
      expect.objectContaining({ reason: "repeat_payment", provider_payment_id: repeat.payment_id, suggested_amount: 15000, payment_id: (await paymentRow({ providerPaymentId: invoice.payment_id }))!.id }),
    ]);
  });

  it("issue 43: held crypto is dated when it arrived, sorted first, and told at once", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished" });
    const repeat = await simulate(invoice.payment_id, { payment_status: "finished", repeat: true, actually_paid: invoice.pay_amount });
    const [review] = await reviewsOf(user.id);
    const history = (await api("/api/get-transaction", { token: user.token })).data as { id: string; status: string; created_at: string; detail?: string }[];
    // Newest first: the held arrival (a review row, its own moment), then the invoice's credit. Never "Jan 1, 1970".
    expect(history.map((h) => [h.id, h.status])).toEqual([
      [review!.id, "pending"],
      [`fund:now:${invoice.payment_id}`, "successful"],
    ]);
    expect(history[0]!.created_at).toBe(review!.created_at);
    expect(Date.parse(history[0]!.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const told = (await env.DB.prepare("SELECT message FROM outbox_events WHERE user_id = ? AND kind = 'payment.failed'").bind(user.id).all<{ message: string }>()).results.map((r) => JSON.parse(r.message));
    expect(told).toEqual([expect.objectContaining({ kind: "payment.failed", status: "review", paymentId: invoice.payment_id, message: history[0]!.detail })]);
    expect(repeat.parent_payment_id).toBe(invoice.payment_id);
  });

  it("an overpayment beyond the tolerance credits the invoice and sends only the excess to review", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount * 1.5 });
    expect(await balanceOf(user.id)).toBe(1_500_000);
    expect(await reviewsOf(user.id)).toEqual([expect.objectContaining({ reason: "overpaid", suggested_amount: 7500 })]);
  });

  it("an operator resolves a review exactly once: credit an amount (audited) or refuse; a second decision is 409", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 });
    const [review] = await reviewsOf(user.id);
    const operator = await createUser();

    // Two decisions at once (credit and refuse): exactly one wins, the other is a conflict and moves nothing.
    const outcomes = await Promise.allSettled([
      resolvePaymentReview(testServices().payments, { reviewId: review!.id, operatorId: operator.id, decision: { action: "credit", amountKobo: 1_300_000 }, note: "BTC at the day's rate" }),
      resolvePaymentReview(testServices().payments, { reviewId: review!.id, operatorId: operator.id, decision: { action: "refuse" } }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "CONFLICT" });
    const winner = (outcomes.find((o) => o.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof resolvePaymentReview>>>).value;
    const credited = winner.review.status === "credited";
    expect(await balanceOf(user.id)).toBe(credited ? 1_300_000 : 0);
    expect(await ledgerCount(`fund:review:${review!.id}`)).toBe(credited ? 1 : 0);
    expect(winner.review.resolution).toMatchObject({ operator_id: operator.id, outcome: credited ? "credited" : "refused" });
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe(credited ? "credited" : "refused");

    // Later decisions are refused too, and the open queue is empty.
    await expect(resolvePaymentReview(testServices().payments, { reviewId: review!.id, operatorId: operator.id, decision: { action: "credit", amountKobo: 5 } })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await reviewsOf(user.id)).toEqual([]);
    expect(await reviewsOf(user.id, "resolved")).toHaveLength(1);
    await expect(resolvePaymentReview(testServices().payments, { reviewId: "rv_nope", operatorId: operator.id, decision: { action: "refuse" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("accepts a signed IPN with arrays in either of NOWPayments' documented canonical forms", async () => {
    for (const form of ["arrays", "objects"] as const) {
      const { user, invoice } = await invoiceFor(10);
      await simulate(invoice.payment_id, { payment_status: "finished", signature_form: form, extra_ids: [1, 2, 3] });
      expect(await balanceOf(user.id)).toBe(1_500_000);
    }
  });
});

describe("invoice input is checked before anything is written (issue 12, hole 5)", () => {
  async function countingUpstream() {
    const calls: string[] = [];
    useTestUpstreams({ payments: (_provider, request, simulator) => {
      calls.push(`${request.method} ${new URL(request.url).pathname.replace(/^.*nowpayments-api/, "")}`);
      return simulator(request);
    } });
    return calls;
  }

  it("an unsupported pay_currency is a 400 naming the choices: no payment created upstream, nothing in history", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
    const user = await createUser();
    const calls = await countingUpstream();
    for (const currency of ["DOGE", "XMR"]) {
      // XMR is listed by NOWPayments but not selected by the merchant: not payable either.
      const res = await api("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: currency, order_description: "deposit" } });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", field: "pay_currency", message: expect.stringContaining(`${currency} is not accepted`) });
    }
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect((await api("/api/get-transaction", { token: user.token })).data).toEqual([]);
  });

  it("an amount under NOWPayments' own minimum for the currency is a clear 400, nothing written", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
    const user = await createUser();
    const calls = await countingUpstream();
    const res = await api("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: "USDTERC20", order_description: "deposit" } });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", field: "price_amount", message: "The minimum for USDTERC20 is $25.00.", minimum: 25 });
    expect(calls).toContain("GET /min-amount");
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    const ok = await api("/api/invoice", { token: user.token, json: { price_amount: 25, pay_currency: "USDTERC20", order_description: "deposit" } });
    expect(ok.status).toBe(200);
  });

  // Decision 031: NOWPayments' own refusal on create (AMOUNT_MINIMAL_ERROR) is the customer's 400 too, never a 502,
  // and leaves no payment row behind (no pending row, no failed deposit in the history).
  async function expectRefusedOnCreate(user: { id: string; token: string }, usd: number, currency: string, calls: string[]) {
    const res = await api("/api/invoice", { token: user.token, json: { price_amount: usd, pay_currency: currency, order_description: "deposit" } });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({
      code: "VALIDATION_FAILED",
      field: "price_amount",
      message: `The minimum for ${currency} is above $${usd.toFixed(2)} right now. Please enter a larger amount or choose another currency.`,
    });
    expect(calls).toContain("POST /payment"); // NOWPayments itself refused it
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect((await api("/api/get-transaction", { token: user.token })).data).toEqual([]);
  }

  it("the minimum check unavailable and the amount below NOWPayments' minimum: its refusal is a clear 400, nothing written", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
    const user = await createUser();
    const calls: string[] = [];
    useTestUpstreams({
      payments: async (_provider, request, simulator) => {
        const path = new URL(request.url).pathname.replace(/^.*nowpayments-api/, "");
        calls.push(`${request.method} ${path}`);
        // GET /min-amount down: the service creates without it, and the simulator enforces USDTERC20's $25 itself.
        if (path === "/min-amount") return new Response("<html>502 Bad Gateway</html>", { status: 502 });
        return simulator(request);
      },
    });
    await expectRefusedOnCreate(user, 10, "USDTERC20", calls);
  });

  it("the minimum moved between the check and the create (the sandbox's create-minimum): the same 400, nothing written", async () => {
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
    const user = await createUser();
    const calls = await countingUpstream();
    expect((await api("/sandbox/nowpayments/create-minimum/USDTTRC20", { json: { min_usd: 50 } })).status).toBe(200);
    try {
      await expectRefusedOnCreate(user, 10, "USDTTRC20", calls);
      expect(calls).toContain("GET /min-amount"); // the check passed ($1 listed); the create refused
    } finally {
      expect((await api("/sandbox/nowpayments/create-minimum/USDTTRC20", { json: { min_usd: null } })).status).toBe(200);
    }
    const ok = await api("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: "USDTTRC20", order_description: "deposit" } });
    expect(ok.status).toBe(200);
  });
});
