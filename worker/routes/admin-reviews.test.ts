import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { reviewQueueSql } from "../db/admin-sql";
import { putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../test/helpers";
import { makeOperator, MISSING_PAGE } from "../test/operators";
import { createInvoiceViaApi, disarmInvoiceWatchers, ledgerCount, paymentRow, postSquadWebhook, setNowSimulator, setSquadSimulator, squadWebhookRaw, startCardPaymentViaApi } from "../test/payment-fixtures";
import { moneyViolations } from "../test/reliability/invariants";
import { useTestUpstreams } from "../test/services";

/**
 * The payment review queue on the console's Deposits page (issue 15; issue 12 hole 3; docs/decisions/023): crypto
 * arrivals held for review and card payments pending too long, each verified again with the provider and then
 * credited the right amount or refused, exactly once, audited.
 */

afterEach(async () => {
  useTestUpstreams({ payments: null });
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
  expect(await moneyViolations()).toEqual([]);
});

const RATE = 1500; // ₦ per USD: a $10 invoice is ₦15,000.

async function invoiceFor(usd = 10) {
  await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
  const user = await createUser();
  const invoice = await createInvoiceViaApi(user, usd, "USDTTRC20");
  return { user, invoice };
}

/** "NOWPayments" moves the payment and sends its signed IPN, as the real service would. */
async function simulate(paymentId: string, body: Record<string, unknown>) {
  const res = await api(`/sandbox/nowpayments/${paymentId}/status`, { json: body });
  expect(res.status).toBe(200);
  return res.data as { payment_id: string };
}

/** A review held through the webhook path, as an arrival in another coin or an overpayment creates it. */
async function heldReview(kind: "other_currency" | "overpaid") {
  const { user, invoice } = await invoiceFor(10);
  await simulate(
    invoice.payment_id,
    kind === "other_currency" ? { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 } : { payment_status: "finished", actually_paid: invoice.pay_amount * 1.5 },
  );
  const row = await env.DB.prepare("SELECT id FROM payment_reviews WHERE user_id = ? AND reason = ?").bind(user.id, kind).first<{ id: string }>();
  expect(row).not.toBeNull();
  return { user, invoice, reviewId: row!.id };
}

/** A card checkout whose webhook never came, started `minutesAgo` (the queue takes those pending 30 minutes or more). */
async function staleCard(minutesAgo = 40, amountNaira = 5000): Promise<{ user: TestUser; ref: string }> {
  await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
  const user = await createUser();
  const ref = await startCardPaymentViaApi(user, amountNaira);
  await env.DB.prepare("UPDATE payments SET created_at = ? WHERE id = ?").bind(Date.now() - minutesAgo * 60_000, ref).run();
  return { user, ref };
}

/**
 * Holds the first two provider reads whose path contains `pathPart` until both have arrived, so two decisions pass
 * every check before either writes: the race the guards are there for, not two requests that happen to run in turn.
 */
function holdFirstTwoReads(pathPart: string) {
  let arrived = 0;
  useTestUpstreams({ payments: async (_provider, request, simulator) => {
    if (new URL(request.url).pathname.includes(pathPart) && arrived < 2) {
      arrived += 1;
      // Each request waits on its own timer (a promise resolved from another request's context never completes in
      // workerd); the provider read times out at 200 ms, so the wait is bounded well below that.
      for (let i = 0; i < 30 && arrived < 2; i++) await new Promise((r) => setTimeout(r, 5));
    }
    return simulator(request);
  } });
}

const resolve = (operator: TestUser, id: string, json: unknown) => api(`/api/admin/reviews/${id}/resolve`, { token: operator.token, json });

async function auditRows(subject: string) {
  return (await env.DB.prepare("SELECT actor, action, reason, previous FROM audit_log WHERE subject = ? ORDER BY id").bind(subject).all()).results;
}

describe("the review queue", () => {
  it("lists crypto arrivals held for review and card payments pending too long (not a fresh checkout); the Overview counts them", async () => {
    const operator = await makeOperator();
    // The lane's earlier files may have left items open (decision 054): the Overview's count is read before and after.
    const countBefore = (await api("/api/admin/overview?period=today", { token: operator.token })).data.attention.reviews as number;
    const crypto = await heldReview("other_currency");
    const card = await staleCard(40);
    const fresh = await staleCard(2);

    const list = await api("/api/admin/reviews", { token: operator.token });
    expect(list.status).toBe(200);
    const items = list.data.data as { id: string; kind: string; reason: string; status: string; suggested_amount: number | null; user: { id: string } | null }[];
    expect(items.find((i) => i.id === crypto.reviewId)).toMatchObject({ kind: "crypto", reason: "other_currency", status: "open", suggested_amount: null, user: { id: crypto.user.id } });
    expect(items.find((i) => i.id === card.ref)).toMatchObject({ kind: "card", reason: "card_pending", status: "open", suggested_amount: 5000, user: { id: card.user.id } });
    expect(items.map((i) => i.id)).not.toContain(fresh.ref);

    // The Overview counts this test's two items (not the fresh checkout), as it counted none of them before.
    const overview = await api("/api/admin/overview?period=today", { token: operator.token });
    expect(overview.data.attention.reviews - countBefore).toBe(2);
    // `npm run admin -- reviews` lists the same queue from SQL: the same items of this test's customers, the same kinds.
    const mine = new Set([crypto.user.id, card.user.id, fresh.user.id]);
    const ours = items.filter((i) => i.user !== null && mine.has(i.user.id));
    expect(ours).toHaveLength(2);
    const cli = await env.DB.prepare(reviewQueueSql(30, Date.now())).all<{ id: string; kind: string }>();
    const ourIds = new Set([crypto.reviewId, card.ref, fresh.ref]);
    expect(cli.results.filter((r) => ourIds.has(r.id)).map((r) => `${r.kind} ${r.id}`).sort()).toEqual(ours.map((i) => `${i.kind} ${i.id}`).sort());

    // Verify again: the provider's word now, nothing changed by reading it.
    const cryptoDetail = await api(`/api/admin/reviews/${crypto.reviewId}`, { token: operator.token });
    expect(cryptoDetail.status).toBe(200);
    expect(cryptoDetail.data.verification).toMatchObject({ provider: "nowpayments", status: "finished", pay_currency: "BTC", actually_paid: "0.0002", creditable: true, suggested_amount: null, max_amount: 15000 });
    const cardDetail = await api(`/api/admin/reviews/${card.ref}`, { token: operator.token });
    expect(cardDetail.data).toMatchObject({ review: { kind: "card", status: "open" }, verification: { provider: "squad", status: "pending", creditable: false } });
    expect((await paymentRow({ id: card.ref }))?.status).toBe("pending");

    expect((await api(`/api/admin/reviews/${fresh.ref}`, { token: operator.token })).status).toBe(404);
    expect((await api("/api/admin/reviews/rv_nope", { token: operator.token })).status).toBe(404);
    const resolved = await api("/api/admin/reviews?status=resolved", { token: operator.token });
    expect(resolved.data.data.map((i: { id: string }) => i.id)).not.toContain(crypto.reviewId);
    expect((await api("/api/admin/reviews?status=maybe", { token: operator.token })).status).toBe(400);
  });

  it("a credit posted twice at once is applied once: one ledger row, one resolution, one audit row; the other answer is 409", async () => {
    const operator = await makeOperator();
    const { user, reviewId } = await heldReview("overpaid");
    expect(await balanceOf(user.id)).toBe(1_500_000);
    const body = { action: "credit", reason: "excess confirmed on chain" };
    holdFirstTwoReads("/payment/");
    const answers = await Promise.all([resolve(operator, reviewId, body), resolve(operator, reviewId, body)]);
    useTestUpstreams({ payments: null });
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!;
    // Without an amount the server credits what NOWPayments' record is worth: the ₦7,500 beyond the invoice.
    expect(won.data).toMatchObject({ review: { id: reviewId, status: "credited", resolution: { outcome: "credited", amount: 7500, operator_id: operator.id } }, balance: 22_500 });
    expect(answers.find((a) => a.status === 409)!.data.code).toBe("CONFLICT");
    expect(await ledgerCount(`fund:review:${reviewId}`)).toBe(1);
    expect(await balanceOf(user.id)).toBe(2_250_000);
    expect(await auditRows(reviewId)).toEqual([{ actor: operator.email, action: "review.credit", reason: "excess confirmed on chain", previous: '"open"' }]);

    // Later: refused too, and it is in the history, not the queue.
    expect((await resolve(operator, reviewId, { action: "refuse", reason: "second thoughts" })).status).toBe(409);
    const open = await api("/api/admin/reviews", { token: operator.token });
    expect(open.data.data.map((i: { id: string }) => i.id)).not.toContain(reviewId);
    const history = await api("/api/admin/reviews?status=resolved", { token: operator.token });
    expect(history.data.data.find((i: { id: string }) => i.id === reviewId)).toMatchObject({ status: "credited" });
  });

  it("never credits more than the provider's record is worth; another coin needs a typed amount, at most the invoice", async () => {
    const operator = await makeOperator();
    const over = await heldReview("overpaid");
    const tooMuch = await resolve(operator, over.reviewId, { action: "credit", amount: 7500.01, reason: "typo" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data).toMatchObject({ code: "VALIDATION_FAILED", field: "amount", max_amount: 7500 });
    expect(await ledgerCount(`fund:review:${over.reviewId}`)).toBe(0);
    const less = await resolve(operator, over.reviewId, { action: "credit", amount: 5000, reason: "network fee withheld" });
    expect(less.status).toBe(200);
    expect(await balanceOf(over.user.id)).toBe(2_000_000);

    const other = await heldReview("other_currency");
    const untyped = await resolve(operator, other.reviewId, { action: "credit", reason: "BTC arrived" });
    expect(untyped.status).toBe(400);
    expect(untyped.data).toMatchObject({ code: "VALIDATION_FAILED", field: "amount" });
    expect((await resolve(operator, other.reviewId, { action: "credit", amount: 15000.5, reason: "BTC arrived" })).status).toBe(400);
    expect(await balanceOf(other.user.id)).toBe(0);
    const typed = await resolve(operator, other.reviewId, { action: "credit", amount: 12000, reason: "BTC at the day's rate" });
    expect(typed.status).toBe(200);
    expect(await balanceOf(other.user.id)).toBe(1_200_000);
    // The invoice held whole takes the decision: credited, for what the operator credited.
    const invoice = await env.DB.prepare("SELECT status, credited_kobo FROM payments WHERE provider_payment_id = ?").bind(other.invoice.payment_id).first();
    expect(invoice).toEqual({ status: "credited", credited_kobo: 1_200_000 });
  });

  it("refuses a credit when the provider no longer reports the money; a refusal moves nothing and is audited", async () => {
    const operator = await makeOperator();
    const { user, invoice, reviewId } = await heldReview("other_currency");
    await setNowSimulator(invoice.payment_id, { payment_status: "refunded" });
    const credit = await resolve(operator, reviewId, { action: "credit", amount: 100, reason: "customer insists" });
    expect(credit.status).toBe(409);
    expect(credit.data).toMatchObject({ code: "INVALID_STATE", message: expect.stringContaining("refunded") });
    expect(await ledgerCount(`fund:review:${reviewId}`)).toBe(0);

    const refuse = await resolve(operator, reviewId, { action: "refuse", reason: "NOWPayments refunded it" });
    expect(refuse.status).toBe(200);
    expect(refuse.data).toMatchObject({ message: "Refused.", review: { status: "refused", resolution: { outcome: "refused", amount: null } }, verification: { status: "refunded" } });
    expect(await balanceOf(user.id)).toBe(0);
    expect((await paymentRow({ providerPaymentId: invoice.payment_id }))?.status).toBe("refused");
    expect(await auditRows(reviewId)).toEqual([{ actor: operator.email, action: "review.refuse", reason: "NOWPayments refunded it", previous: '"open"' }]);
  });
});

describe("card payments pending too long", () => {
  it("credits only on Squad's word, for exactly the amount asked, once even when posted twice at once", async () => {
    const operator = await makeOperator();
    const { user, ref } = await staleCard(45, 5000);
    const notPaid = await resolve(operator, ref, { action: "credit", reason: "customer says paid" });
    expect(notPaid.status).toBe(409);
    expect(notPaid.data.code).toBe("INVALID_STATE");
    expect(await balanceOf(user.id)).toBe(0);

    await setSquadSimulator(ref, { status: "Success" });
    const wrongAmount = await resolve(operator, ref, { action: "credit", amount: 6000, reason: "customer says ₦6,000" });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.data.field).toBe("amount");
    const body = { action: "credit", reason: "Squad shows the charge" };
    holdFirstTwoReads("/transaction/verify/");
    const answers = await Promise.all([resolve(operator, ref, body), resolve(operator, ref, body)]);
    useTestUpstreams({ payments: null });
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 200)!.data).toMatchObject({ review: { kind: "card", status: "credited", resolution: { amount: 5000, operator_id: operator.id } }, balance: 5000 });
    // The payment's own ledger key: a late webhook or the sweep finds it taken.
    expect(await ledgerCount(`fund:squad:${ref}`)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await auditRows(ref)).toEqual([{ actor: operator.email, action: "review.credit", reason: "Squad shows the charge", previous: '"pending"' }]);
    // The decision is its own row (decision 049), one per item by its primary key, not read back from the audit log.
    expect(await decisionRows(ref)).toEqual([{ kind: "card", outcome: "credited", amount_kobo: 500_000, operator_id: operator.id, note: "Squad shows the charge" }]);
  });

  async function decisionRows(itemId: string) {
    const { results } = await env.DB.prepare("SELECT kind, outcome, amount_kobo, operator_id, note FROM review_item_resolutions WHERE item_id = ?").bind(itemId).all();
    return results;
  }

  it("refuse closes a checkout Squad never confirmed (the customer's history shows it failed), once; a charge Squad confirms is credited instead", async () => {
    const operator = await makeOperator();
    const { user, ref } = await staleCard(50);
    const withAmount = await resolve(operator, ref, { action: "refuse", amount: 5000, reason: "x" });
    expect(withAmount.status).toBe(400);
    holdFirstTwoReads("/transaction/verify/");
    const answers = await Promise.all([resolve(operator, ref, { action: "refuse", reason: "never paid" }), resolve(operator, ref, { action: "refuse", reason: "never paid" })]);
    useTestUpstreams({ payments: null });
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await paymentRow({ id: ref }))?.status).toBe("refused");
    expect(await auditRows(ref)).toEqual([{ actor: operator.email, action: "review.refuse", reason: "never paid", previous: '"pending"' }]);
    expect(await decisionRows(ref)).toEqual([{ kind: "card", outcome: "refused", amount_kobo: null, operator_id: operator.id, note: "never paid" }]);
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ id: ref, status: "failed" })]);
    const detail = await api(`/api/admin/reviews/${ref}`, { token: operator.token });
    expect(detail.data.review).toMatchObject({ status: "refused", resolution: { outcome: "refused", note: "never paid" } });

    const paid = await staleCard(50);
    await setSquadSimulator(paid.ref, { status: "Success" });
    const refused = await resolve(operator, paid.ref, { action: "refuse", reason: "looks abandoned" });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/credited/);
    expect(await balanceOf(paid.user.id)).toBe(500_000);

    const fresh = await staleCard(5);
    const early = await resolve(operator, fresh.ref, { action: "refuse", reason: "too early" });
    expect(early.status).toBe(409);
    expect((await paymentRow({ id: fresh.ref }))?.status).toBe("pending");
  });
});

/** A card checkout Squad confirmed for another amount (kobo) than the ₦5,000 asked, held for review by the customer's Verify. */
async function cardChargedOtherAmount(chargedKobo: number): Promise<{ user: TestUser; ref: string; reviewId: string }> {
  await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
  const user = await createUser();
  const ref = await startCardPaymentViaApi(user, 5000);
  await setSquadSimulator(ref, { status: "Success", amount: chargedKobo });
  const verdict = await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } });
  expect(verdict.data).toMatchObject({ data: "failed" });
  const row = await env.DB.prepare("SELECT id FROM payment_reviews WHERE payment_id = ? AND reason = 'card_amount_mismatch'").bind(ref).first<{ id: string }>();
  expect(row).not.toBeNull();
  expect((await paymentRow({ id: ref }))?.status).toBe("review");
  return { user, ref, reviewId: row!.id };
}

describe("card payments Squad confirmed for another amount (decision 031)", () => {
  it("are queue items with Squad's record; a credit is at most what Squad confirmed, once even when posted twice at once", async () => {
    const operator = await makeOperator();
    const { user, ref, reviewId } = await cardChargedOtherAmount(400_000);

    const list = await api("/api/admin/reviews", { token: operator.token });
    const item = (list.data.data as { id: string }[]).find((i) => i.id === reviewId);
    expect(item).toMatchObject({ kind: "card", reason: "card_amount_mismatch", status: "open", payment_id: ref, expected_amount: "5000", actually_paid: "4000", suggested_amount: 4000, user: { id: user.id } });
    const cli = await env.DB.prepare(reviewQueueSql(30, Date.now())).all<{ id: string; kind: string }>();
    expect(cli.results).toContainEqual(expect.objectContaining({ id: reviewId, kind: "card" }));
    const detail = await api(`/api/admin/reviews/${reviewId}`, { token: operator.token });
    expect(detail.data.verification).toMatchObject({ provider: "squad", status: "success", pay_currency: "NGN", actually_paid: "4000", creditable: true, suggested_amount: 4000, max_amount: 4000 });

    const tooMuch = await resolve(operator, reviewId, { action: "credit", amount: 4000.01, reason: "typo" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data).toMatchObject({ code: "VALIDATION_FAILED", field: "amount", max_amount: 4000 });
    expect(await ledgerCount(`fund:review:${reviewId}`)).toBe(0);

    const body = { action: "credit", reason: "Squad shows ₦4,000 charged" };
    holdFirstTwoReads("/transaction/verify/");
    const answers = await Promise.all([resolve(operator, reviewId, body), resolve(operator, reviewId, body)]);
    useTestUpstreams({ payments: null });
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    // Without an amount the server credits what Squad's record says arrived.
    expect(answers.find((a) => a.status === 200)!.data).toMatchObject({ review: { id: reviewId, kind: "card", status: "credited", resolution: { amount: 4000, operator_id: operator.id } }, balance: 4000 });
    expect(await ledgerCount(`fund:review:${reviewId}`)).toBe(1);
    expect(await ledgerCount(`fund:squad:${ref}`)).toBe(0);
    expect(await balanceOf(user.id)).toBe(400_000);
    expect(await env.DB.prepare("SELECT status, credited_kobo FROM payments WHERE id = ?").bind(ref).first()).toEqual({ status: "credited", credited_kobo: 400_000 });
    expect(await auditRows(reviewId)).toEqual([{ actor: operator.email, action: "review.credit", reason: "Squad shows ₦4,000 charged", previous: '"open"' }]);

    // Squad's webhook, the customer's Verify or a second decision afterwards move nothing more.
    expect((await postSquadWebhook(squadWebhookRaw(ref, 400_000, user.email))).status).toBe(200);
    expect((await api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } })).data.data).toBe("success");
    expect((await resolve(operator, reviewId, { action: "refuse", reason: "second thoughts" })).status).toBe(409);
    expect(await balanceOf(user.id)).toBe(400_000);
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ user_id: user.id, amount: 4000, status: "successful" })]);
  });

  it("refuse credits nothing, once; a charge Squad no longer reports successful cannot be credited; nothing reopens it", async () => {
    const operator = await makeOperator();
    const { user, ref, reviewId } = await cardChargedOtherAmount(100);
    await setSquadSimulator(ref, { status: "Failed" });
    const credit = await resolve(operator, reviewId, { action: "credit", amount: 1, reason: "customer insists" });
    expect(credit.status).toBe(409);
    expect(credit.data).toMatchObject({ code: "INVALID_STATE", message: expect.stringContaining("failed") });

    holdFirstTwoReads("/transaction/verify/");
    const answers = await Promise.all([resolve(operator, reviewId, { action: "refuse", reason: "reversed by the bank" }), resolve(operator, reviewId, { action: "refuse", reason: "reversed by the bank" })]);
    useTestUpstreams({ payments: null });
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 200)!.data).toMatchObject({ message: "Refused.", review: { kind: "card", status: "refused", resolution: { outcome: "refused", amount: null } } });
    expect((await paymentRow({ id: ref }))?.status).toBe("refused");
    expect(await auditRows(reviewId)).toEqual([{ actor: operator.email, action: "review.refuse", reason: "reversed by the bank", previous: '"open"' }]);

    // Squad reporting the odd amount again (a replayed webhook, a Verify click) opens no second review and credits nothing.
    await setSquadSimulator(ref, { status: "Success" });
    expect((await postSquadWebhook(squadWebhookRaw(ref, 100, user.email))).status).toBe(200);
    expect((await paymentRow({ id: ref }))?.status).toBe("refused");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM payment_reviews WHERE payment_id = ?").bind(ref).first<{ n: number }>())?.n).toBe(1);
    expect(await balanceOf(user.id)).toBe(0);
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ id: ref, status: "failed" })]);
  });

  it("a payment left amount_mismatch before this change joins the queue when Squad is asked again", async () => {
    const operator = await makeOperator();
    await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success", amount: 450_000 });
    await env.DB.prepare("UPDATE payments SET status = 'amount_mismatch' WHERE id = ?").bind(ref).run();
    expect((await postSquadWebhook(squadWebhookRaw(ref, 450_000, user.email))).status).toBe(200);
    expect((await paymentRow({ id: ref }))?.status).toBe("review");
    const list = await api("/api/admin/reviews", { token: operator.token });
    expect((list.data.data as { payment_id: string }[]).find((i) => i.payment_id === ref)).toMatchObject({ kind: "card", reason: "card_amount_mismatch", suggested_amount: 4500 });
  });
});

describe("who and what the queue accepts", () => {
  it("answers a missing page to a customer and to an operator without two-factor", async () => {
    const { reviewId } = await heldReview("other_currency");
    const customer = await createUser();
    const noTwoFactor = await makeOperator({ twoFactor: false });
    for (const token of [customer.token, noTwoFactor.token]) {
      for (const [path, json] of [
        ["/api/admin/reviews", undefined],
        [`/api/admin/reviews/${reviewId}`, undefined],
        [`/api/admin/reviews/${reviewId}/resolve`, { action: "refuse", reason: "probe" }],
      ] as const) {
        const res = await api(path, { token, json });
        expect({ path, status: res.status, body: res.data }).toEqual({ path, status: 404, body: MISSING_PAGE });
      }
    }
    expect((await env.DB.prepare("SELECT status FROM payment_reviews WHERE id = ?").bind(reviewId).first())?.status).toBe("open");
  });

  it("bad input is a 400 with the one error body, nothing written; an unknown id is 404", async () => {
    const operator = await makeOperator();
    const { reviewId } = await heldReview("overpaid");
    for (const json of [
      { action: "maybe", reason: "x" },
      { action: "credit" },
      { action: "credit", reason: "   " },
      { action: "credit", amount: -5, reason: "x" },
      { action: "credit", amount: "7500", reason: "x" },
      { action: "credit", amount: 20_000_000, reason: "x" },
    ]) {
      const res = await resolve(operator, reviewId, json);
      expect({ json, status: res.status, code: res.data.code }).toEqual({ json, status: 400, code: "VALIDATION_FAILED" });
    }
    const notJson = await api(`/api/admin/reviews/${reviewId}/resolve`, { token: operator.token, method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(await ledgerCount(`fund:review:${reviewId}`)).toBe(0);
    expect(await auditRows(reviewId)).toEqual([]);
    expect((await resolve(operator, "rv_nope", { action: "refuse", reason: "x" })).status).toBe(404);
    expect((await resolve(operator, "VNNOSUCHREF", { action: "refuse", reason: "x" })).status).toBe(404);
  });
});
