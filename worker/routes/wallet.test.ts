import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { signSquadBody } from "../providers/payments/signatures";
import {
  ledgerCount,
  paymentRow,
  postSquadWebhook,
  setSquadSimulator,
  squadWebhookRaw,
  startCardPaymentViaApi,
} from "../test/payment-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";

afterEach(async () => {
  await expectLedgerBalanced();
});

describe("card funding through Squad (sandbox)", () => {
  it("initialises a checkout, completes it through the sandbox and credits the wallet once", async () => {
    const user = await createUser();
    const init = await api("/api/initialize-transaction", { token: user.token, json: { id: "someone-else", email: "x@y.z", amount: 5000, currency: "NGN" } });
    expect(init.status).toBe(200);
    const { checkout_url, transaction_ref } = init.data.data.data;
    expect(checkout_url).toContain(`/sandbox/squad/checkout/${transaction_ref}`);
    expect((await paymentRow({ id: transaction_ref }))?.user_id).toBe(user.id);

    const page = await api(new URL(checkout_url).pathname);
    expect(page.status).toBe(200);
    expect(String(page.data)).toContain("Pay");

    const done = await api(`/sandbox/squad/${transaction_ref}/complete`, { json: { outcome: "success" } });
    expect(done.status).toBe(200);
    expect(done.data.webhook_status).toBe(200);

    expect(await balanceOf(user.id)).toBe(500_000);
    expect((await api("/api/user-balance", { token: user.token })).data).toEqual({ balance: 5000 });
    const level = await api("/api/level", { token: user.token });
    expect(level.data[0].total_deposited).toBe(5000);
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([
      { id: `fund:squad:${transaction_ref}`, user_id: user.id, status: "successful", amount: 5000, note: "Wallet deposit (card)", created_at: expect.any(String), direction: "in" },
    ]);
    const callback = await api("/api/squad-callback", { token: user.token, json: { transaction_ref } });
    // The original client checks body.data === "success" (issue 27, decision 032).
    expect(callback.data).toEqual({ data: "success", message: "Payment confirmed successfully!" });
  });

  it("the checkout page's Pay redirects the browser to the callback URL after the signed webhook credited", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 2000);
    // redirect: "manual" to see the redirect itself rather than the page it points to.
    const res = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request(`http://127.0.0.1:8787/sandbox/squad/checkout/${ref}/pay`, { method: "POST", redirect: "manual" }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(new RegExp(`/#/dashboard/1\\?reference=${ref}$`));
    expect(await balanceOf(user.id)).toBe(200_000);
  });

  it("refuses an amount below the minimum from the rate settings with the spec's message", async () => {
    const user = await createUser();
    const res = await api("/api/initialize-transaction", { token: user.token, json: { amount: 999 } });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("min amount is ₦1000");
    const bad = await api("/api/initialize-transaction", { token: user.token, json: { amount: "lots" } });
    expect(bad.status).toBe(400);
    expect(bad.data.code).toBe("VALIDATION_FAILED");
  });

  it("the same webhook 100 times, 50 at once, plus the callback and Verify at the same time: one credit, one ledger row", { timeout: 60_000 }, async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    const raw = squadWebhookRaw(ref, 500_000, user.email);

    const concurrent = await Promise.all([
      ...Array.from({ length: 50 }, () => postSquadWebhook(raw)),
      api("/api/squad-callback", { token: user.token, json: { transaction_ref: ref } }),
      api("/api/verify-payment", { token: user.token, json: { transaction_ref: ref } }),
    ]);
    expect(concurrent.every((r) => r.status === 200)).toBe(true);
    expect(concurrent[50].data.data).toBe("success");
    expect(concurrent[51].data.data).toBe("success"); // verify-payment keeps { data, message }
    for (let i = 0; i < 100; i++) expect((await postSquadWebhook(raw)).status).toBe(200);

    expect(await ledgerCount(`fund:squad:${ref}`)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect((await paymentRow({ id: ref }))?.status).toBe("credited");
  });

  it("credits nothing when Squad's verify says Pending, Failed or another amount", async () => {
    const user = await createUser();
    const pending = await startCardPaymentViaApi(user, 3000);
    const failed = await startCardPaymentViaApi(user, 3000);
    const otherAmount = await startCardPaymentViaApi(user, 3000);
    await setSquadSimulator(failed, { status: "Failed" });
    await setSquadSimulator(otherAmount, { status: "Success", amount: 100 });

    for (const ref of [pending, failed, otherAmount]) {
      // The webhook body claims the full amount: only the verify call counts.
      const res = await postSquadWebhook(squadWebhookRaw(ref, 300_000, user.email));
      expect(res.status).toBe(200);
      expect(await ledgerCount(`fund:squad:${ref}`)).toBe(0);
    }
    expect(await balanceOf(user.id)).toBe(0);
    // Still pending: a falsy body (null, 200), so the original client polls on (issue 27).
    const stillPending = await api("/api/squad-callback", { token: user.token, json: { transaction_ref: pending } });
    expect([stillPending.status, stillPending.data]).toEqual([200, null]);
    const verifyFailed = await api("/api/verify-payment", { token: user.token, json: { transaction_ref: failed } });
    expect(verifyFailed.data).toEqual({ data: "failed", message: "Transaction not successful" });
    // Another amount is held for the operator's review queue (decision 031), once however often it is verified; the
    // customer sees it pending, like a crypto arrival in review.
    expect((await paymentRow({ id: otherAmount }))?.status).toBe("review");
    const reviews = await env.DB.prepare("SELECT provider, reason, status FROM payment_reviews WHERE payment_id = ?").bind(otherAmount).all();
    expect(reviews.results).toEqual([{ provider: "squad", reason: "card_amount_mismatch", status: "open" }]);
    expect((await api("/api/verify-payment", { token: user.token, json: { transaction_ref: otherAmount } })).data.data).toBe("failed");

    const history = await api("/api/get-transaction", { token: user.token });
    const byId = Object.fromEntries(history.data.map((t: { id: string; status: string }) => [t.id, t.status]));
    expect(byId).toEqual({ [pending]: "pending", [failed]: "failed", [otherAmount]: "pending" });
  });

  it("a tampered body, a wrong secret or a missing header is 401 and credits nothing", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    const raw = squadWebhookRaw(ref, 500_000, user.email);
    const goodSig = await signSquadBody(env.SQUAD_SECRET_KEY!, raw);

    const tampered = await postSquadWebhook(raw.replace("500000", "900000"), goodSig);
    const wrongSecret = await postSquadWebhook(raw, await signSquadBody("not-the-secret", raw));
    const missing = await postSquadWebhook(raw, null);
    const garbage = await postSquadWebhook(raw, "zz");
    for (const res of [tampered, wrongSecret, missing, garbage]) {
      expect(res.status).toBe(401);
      expect(res.data.code).toBe("INVALID_SIGNATURE");
    }
    expect(await ledgerCount(`fund:squad:${ref}`)).toBe(0);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("an authentic webhook for an unknown reference is acknowledged and changes nothing", async () => {
    const res = await postSquadWebhook(squadWebhookRaw("VN-NOT-OURS", 500_000));
    expect(res.status).toBe(200);
    expect(res.data.status).toBe("unknown");
  });

  it("another user's payment is 404 for the callback and Verify, and never in their history", async () => {
    const owner = await createUser();
    const other = await createUser();
    const ref = await startCardPaymentViaApi(owner, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    for (const path of ["/api/squad-callback", "/api/verify-payment"]) {
      const res = await api(path, { token: other.token, json: { transaction_ref: ref } });
      expect(res.status).toBe(404);
    }
    expect(await balanceOf(owner.id)).toBe(0);
    expect(await balanceOf(other.id)).toBe(0);
    expect((await api("/api/get-transaction", { token: other.token })).data).toEqual([]);
    expect((await api("/api/payments/pending", { token: other.token })).data).toEqual({ data: [] });
    const mine = await api("/api/payments/pending", { token: owner.token });
    expect(mine.data.data).toEqual([{ ref, amount: 5000, currency: "NGN", created_at: expect.any(String) }]);
  });

  it("wallet calls need a signed-in user", async () => {
    for (const path of ["/api/user-balance", "/api/get-transaction", "/api/payments/pending", "/api/now-currencies"]) {
      expect((await api(path)).status).toBe(401);
    }
  });
});
