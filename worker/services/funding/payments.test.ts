import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { payments, users } from "../../db/tables";
import {
  ledgerCount,
  paymentRow,
  postSquadWebhook,
  setSquadSimulator,
  squadWebhookRaw,
  startCardPaymentViaApi,
} from "../../test/payment-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { ledgerInsert, putSetting } from "../kernel";
import { paymentDeps } from "../../test/services";
import { configFor } from "../../config";
import { confirmCardPayment } from "./card-payments";
import { fixedClock, recordingNotify } from "../../test/flow-deps";

afterEach(async () => {
  await putSetting(db(), "referral_reward_percent", { percent: 0 });
  await expectLedgerBalanced();
});

async function referredPair() {
  const referrer = await createUser({ username: "ada" });
  const customer = await createUser({ username: "bola" });
  await db().update(users).set({ referredBy: referrer.id }).where(eq(users.id, customer.id));
  return { referrer, customer };
}

async function payByCard(user: Awaited<ReturnType<typeof createUser>>, naira: number) {
  const ref = await startCardPaymentViaApi(user, naira);
  await setSquadSimulator(ref, { status: "Success" });
  return ref;
}

describe("referral reward", () => {
  it("pays the referrer a percentage of the first confirmed deposit once, even when the webhook is replayed", async () => {
    await putSetting(db(), "referral_reward_percent", { percent: 5 });
    const { referrer, customer } = await referredPair();
    const ref = await payByCard(customer, 10_000);
    const raw = squadWebhookRaw(ref, 1_000_000, customer.email);
    await Promise.all(Array.from({ length: 10 }, () => postSquadWebhook(raw)));
    for (let i = 0; i < 5; i++) await postSquadWebhook(raw);

    expect(await ledgerCount(`referral:${customer.id}`)).toBe(1);
    expect(await balanceOf(referrer.id)).toBe(50_000);
    expect(await balanceOf(customer.id)).toBe(1_000_000);
    // A bonus is not a deposit: the referrer's tier does not move.
    const level = await api("/api/level", { token: referrer.token });
    expect(level.data[0].total_deposited).toBe(0);

    const referrerHistory = await api("/api/get-transaction", { token: referrer.token });
    expect(referrerHistory.data).toEqual([
      expect.objectContaining({ id: `referral:${customer.id}`, status: "successful", amount: 500, note: "Referral bonus deposit from bola" }),
    ]);
    const customerHistory = await api("/api/get-transaction", { token: customer.token });
    expect(customerHistory.data).toEqual([expect.objectContaining({ id: `fund:squad:${ref}`, status: "successful", amount: 10_000 })]);
  });

  it("pays nothing on a second deposit, nor when the percentage is 0 (the default)", async () => {
    const { referrer, customer } = await referredPair();
    const first = await payByCard(customer, 2_000);
    await postSquadWebhook(squadWebhookRaw(first, 200_000));
    expect(await balanceOf(referrer.id)).toBe(0);

    await putSetting(db(), "referral_reward_percent", { percent: 10 });
    const second = await payByCard(customer, 3_000);
    await postSquadWebhook(squadWebhookRaw(second, 300_000));
    expect(await balanceOf(customer.id)).toBe(500_000);
    expect(await ledgerCount(`referral:${customer.id}`)).toBe(0);
    expect(await balanceOf(referrer.id)).toBe(0);
  });

  it("a customer nobody referred earns nobody anything", async () => {
    await putSetting(db(), "referral_reward_percent", { percent: 5 });
    const loner = await createUser();
    const ref = await payByCard(loner, 1_000);
    await postSquadWebhook(squadWebhookRaw(ref, 100_000));
    expect(await ledgerCount(`referral:${loner.id}`)).toBe(0);
    expect(await balanceOf(loner.id)).toBe(100_000);
  });
});

describe("money batches", () => {
  it("a failing statement inside a credit batch leaves no partial write", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5_000);
    const batch = db().batch([
      ledgerInsert(db(), { at: Date.now(), userId: user.id, key: `fund:squad:${ref}`, amountKobo: 500_000, kind: "fund", note: "Wallet deposit (card)", ref }),
      db().update(payments).set({ status: "credited", creditedAt: Date.now() }).where(eq(payments.id, ref)),
      // Fails: a second payment with the same primary key.
      db().insert(payments).values({ id: ref, userId: user.id, provider: "squad", amountKobo: 1, currency: "NGN" }),
    ]);
    await expect(batch).rejects.toThrow();
    expect(await ledgerCount(`fund:squad:${ref}`)).toBe(0);
    expect(await balanceOf(user.id)).toBe(0);
    expect((await paymentRow({ id: ref }))?.status).toBe("pending");
    const row = await env.DB.prepare("SELECT total_deposited_kobo FROM users WHERE id = ?").bind(user.id).first<{ total_deposited_kobo: number }>();
    expect(row?.total_deposited_kobo).toBe(0);
  });
});

describe("the injected clock and notify (services/deps.ts)", () => {
  it("a confirmed card payment is credited at the clock's time and its push is recorded through the injected notify, once", async () => {
    const user = await createUser();
    const ref = await payByCard(user, 5000);
    const at = Date.now() + 5_000;
    const pushes = recordingNotify();
    const deferred: Promise<unknown>[] = [];
    const deps = { ...paymentDeps(env, configFor(env), (work) => void deferred.push(work)), clock: fixedClock(at), notify: pushes.notify };

    expect(await confirmCardPayment(deps, ref)).toBe("success");
    await Promise.all(deferred);
    const row = await env.DB.prepare("SELECT status, credited_at, updated_at FROM payments WHERE id = ?").bind(ref).first();
    expect(row).toEqual({ status: "credited", credited_at: at, updated_at: at });
    expect(pushes.sent).toEqual([{ userId: user.id, message: { kind: "payment.credited", paymentId: ref, amount: 5000, balance: 5000 } }]);

    // Asked again (a replayed webhook, the sweep): nothing more is credited or pushed.
    expect(await confirmCardPayment(deps, ref)).toBe("success");
    await Promise.all(deferred);
    expect(pushes.sent).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(500_000);
  });
});
