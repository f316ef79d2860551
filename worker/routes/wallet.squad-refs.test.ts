import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { paymentRow, startCardPaymentViaApi } from "../test/payment-fixtures";
import { api, createUser, expectLedgerBalanced } from "../test/helpers";
import { sweepPaymentsNow } from "../test/services";

afterEach(async () => {
  await expectLedgerBalanced();
});

/** A card payment Squad never heard of (e.g. its initiate never reached Squad), stored `hoursAgo` hours ago. */
async function pendingCardPayment(userId: string, ref: string, hoursAgo: number) {
  const at = Date.now() - hoursAgo * 3600_000;
  await env.DB.prepare(
    "INSERT INTO payments (id, user_id, provider, status, amount_kobo, currency, created_at, updated_at) VALUES (?, ?, 'squad', 'pending', 500000, 'NGN', ?, ?)",
  )
    .bind(ref, userId, at, at)
    .run();
}

describe("Squad references and unknown references (issue 13)", () => {
  it("new references are alphanumeric, as Squad documents transaction_ref", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    expect(ref).toMatch(/^VN[A-Z0-9]{20,}$/);
  });

  it("Squad's 400 'Invalid transaction reference' is an answer: Verify says pending, and the sweep abandons it after a day", async () => {
    const user = await createUser();
    // An old dashed reference stored before the change keeps working (only compared, never parsed).
    await pendingCardPayment(user.id, "VN-LEGACY-0001", 25);
    await pendingCardPayment(user.id, "VNRECENT0001", 1);

    const verify = await api("/api/verify-payment", { token: user.token, json: { transaction_ref: "VN-LEGACY-0001" } });
    expect(verify.status).toBe(200);
    expect(verify.data).toMatchObject({ data: "pending" });

    await sweepPaymentsNow();
    expect((await paymentRow({ id: "VN-LEGACY-0001" }))?.status).toBe("abandoned");
    // A younger one is asked again on later sweeps, not given up yet.
    expect((await paymentRow({ id: "VNRECENT0001" }))?.status).toBe("pending");
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data.map((t: { status: string }) => t.status).sort()).toEqual(["failed", "pending"]);
  });
});
