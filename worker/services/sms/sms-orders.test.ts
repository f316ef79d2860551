import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { COST_LIMITS, putSetting } from "../kernel";
import { smsDeps } from "../../test/services";
import { cancelSmsOrder, requestAnotherCode } from "./sms-orders";
import { pollSmsOrderTick, sweepSmsOrders, WAITING_GRACE_MS } from "./sms-poll";
import { ANOTHER_CODE_WINDOW_MS } from "./sms-transitions";
import { fixedClock, recordingNotify } from "../../test/flow-deps";

// Races between the customer's cancel, the code and the last poll; concurrent purchases; the cron backstop.

const MAX = 15;
let fake: ScriptedSmsProvider;

beforeEach(async () => {
  fake = new ScriptedSmsProvider();
  await resetSmsTestState({ maxAttempts: MAX, provider: fake });
});
afterEach(restoreSmsProviders);

async function buy() {
  const user = await createUser({ balanceKobo: 500_000 });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop(); // these tests drive the ticks themselves
  return { user, orderId };
}

async function outcome(orderId: string) {
  const order = await env.DB.prepare("SELECT status, code FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string; code: string | null }>();
  const refunds = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${orderId}`).first<{ n: number }>();
  return { status: order!.status, code: order!.code, refunds: refunds!.n };
}

/** Brings an order to its last poll: MAX - 1 empty polls already counted. */
async function toLastPoll(orderId: string) {
  await env.DB.prepare("UPDATE sms_orders SET attempts = ? WHERE id = ?").bind(MAX - 1, orderId).run();
}

const tick = (orderId: string) => pollSmsOrderTick(smsDeps(env), orderId);
const cancel = (userId: string, orderId: string) => cancelSmsOrder(smsDeps(env), userId, orderId).then(
  (r) => r.status,
  (e: { code?: string }) => e.code ?? "threw",
);

describe("cancel racing the code and the last poll", () => {
  it("code first, then cancel: the code stands, no refund, cancel is refused", async () => {
    const { user, orderId } = await buy();
    fake.polls = [{ state: "code", code: "111222" }];
    await tick(orderId);
    expect(await cancel(user.id, orderId)).toBe("INVALID_STATE");
    expect(await outcome(orderId)).toEqual({ status: "used", code: "111222", refunds: 0 });
    expect(await balanceOf(user.id)).toBe(380_000);
  });

  it("cancel first, then the poll that would have seen a code: cancelled, one refund", async () => {
    const { user, orderId } = await buy();
    fake.afterScript = { state: "waiting" };
    expect(await cancel(user.id, orderId)).toBe("cancelled");
    fake.afterScript = { state: "code", code: "333444" };
    expect(await tick(orderId)).toMatchObject({ again: false });
    expect(await outcome(orderId)).toEqual({ status: "cancelled", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("the code arrives during the cancel: the code wins, no refund", async () => {
    const { user, orderId } = await buy();
    fake.polls = [{ state: "waiting" }]; // cancel's first look finds nothing
    fake.duringCancel = async () => {
      fake.polls = [{ state: "code", code: "555666" }];
      await tick(orderId);
    };
    expect(await cancel(user.id, orderId)).toBe("INVALID_STATE");
    expect(await outcome(orderId)).toEqual({ status: "used", code: "555666", refunds: 0 });
    expect(await balanceOf(user.id)).toBe(380_000);
  });

  it("the last poll first, then cancel: timeout, one refund, cancel is refused", async () => {
    const { user, orderId } = await buy();
    await toLastPoll(orderId);
    await tick(orderId);
    expect(await cancel(user.id, orderId)).toBe("INVALID_STATE");
    expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("cancel first, then the last poll: cancelled, one refund", async () => {
    const { user, orderId } = await buy();
    await toLastPoll(orderId);
    expect(await cancel(user.id, orderId)).toBe("cancelled");
    await tick(orderId);
    expect(await outcome(orderId)).toEqual({ status: "cancelled", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("the last poll lands during the cancel: one outcome, one refund", async () => {
    const { user, orderId } = await buy();
    await toLastPoll(orderId);
    fake.duringCancel = async () => {
      await tick(orderId);
    };
    const result = await cancel(user.id, orderId);
    const end = await outcome(orderId);
    expect(end.refunds).toBe(1);
    expect(["timeout", "cancelled"]).toContain(end.status);
    expect(result).toBe(end.status === "cancelled" ? "cancelled" : "INVALID_STATE");
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("cancel, the code and the last poll all at once, many times: refunds 0 or 1, and 0 when the code came", async () => {
    for (let round = 0; round < 6; round++) {
      const { user, orderId } = await buy();
      await toLastPoll(orderId);
      fake.afterScript = round % 2 === 0 ? { state: "code", code: `9${round}0000` } : { state: "waiting" };
      await Promise.all([cancel(user.id, orderId), tick(orderId), tick(orderId), cancel(user.id, orderId)]);
      const end = await outcome(orderId);
      expect(end.refunds).toBe(end.status === "used" ? 0 : 1);
      expect(await balanceOf(user.id)).toBe(end.status === "used" ? 380_000 : 500_000);
    }
    await expectLedgerBalanced();
  });
});

describe("concurrent purchases", () => {
  it("₦1,000 and 100 purchases of ₦100 at once: exactly 10 succeed and the balance ends at 0", async () => {
    restoreSmsProviders(); // the sandbox upstream, through the real adapter
    // Yahoo in the USA costs $0.10: × ₦1000 with no markup is exactly ₦100.
    await putSetting(db(), "exchange_rate", { rate: 1000 });
    await putSetting(db(), "costs", { low_cost: 0, high_cost: 0, rent_cost: 0 });
    const price = await api("/api/sms/price?id=5&provider=Swift");
    expect(price.data.mb).toMatchObject({ cost: 10, price: 100 });

    const user = await createUser({ balanceKobo: 100_000 });
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "mb", price: 100 } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    // The per-account cost limit (issue 12) admits exactly COST_LIMITS.smsBuy.limit of the burst; those race for the
    // balance (10 win, the rest are refused for it) and the others get the one 429 before anything is bought.
    const broke = results.filter((r) => r.status === 402);
    expect(broke).toHaveLength(COST_LIMITS.smsBuy.limit - 10);
    expect(broke.every((r) => r.data.message === "Insufficient balance")).toBe(true);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(100 - COST_LIMITS.smsBuy.limit);
    expect(limited.every((r) => r.data.code === "RATE_LIMITED")).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(orders!.n).toBe(10);
    for (const r of ok) {
      await runInDurableObject(pollerOf(r.data.phone.request_id), (_instance, state) => state.storage.deleteAlarm());
    }
    await expectLedgerBalanced();
  }, 60_000); // 100 requests through workerd on a shared 2-core machine take seconds
});

describe("the cron sweep", () => {
  it("refunds once an order left waiting past its window, and a purchase stuck before its number", async () => {
    const { user, orderId } = await buy();
    const longAgo = Date.now() - 24 * 60 * 60_000; // well past 16 ticks of 10 min plus the grace
    await env.DB.prepare("UPDATE sms_orders SET created_at = ? WHERE id = ?").bind(longAgo, orderId).run();
    const stuckId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, status, created_at) VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 120000, 'pending', ?)",
      ).bind(stuckId, user.id, longAgo),
      env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, -120000, 'buy', 'WhatsApp number (USA)', ?, ?)").bind(
        user.id,
        `buy:${stuckId}`,
        stuckId,
        longAgo,
      ),
    ]);
    expect(await balanceOf(user.id)).toBe(260_000);

    expect(await sweepSmsOrders(smsDeps(env))).toBe(2);
    expect(await sweepSmsOrders(smsDeps(env))).toBe(0);
    expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
    expect(await outcome(stuckId)).toEqual({ status: "failed", code: null, refunds: 1 });
    expect(fake.calls).toContain("cancel"); // the number was released upstream first
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("leaves orders inside their window alone", async () => {
    const { orderId } = await buy();
    expect(await sweepSmsOrders(smsDeps(env))).toBe(0);
    expect((await outcome(orderId)).status).toBe("waiting");
  });
});

describe("the injected clock and notify (services/deps.ts)", () => {
  const createdAt = async (orderId: string) =>
    (await env.DB.prepare("SELECT created_at FROM sms_orders WHERE id = ?").bind(orderId).first<{ created_at: number }>())!.created_at;

  it("the sweep's deadline is the clock's: one millisecond inside the window nothing moves, past it the order is refunded and the push recorded", async () => {
    const { user, orderId } = await buy();
    const deadline = (await createdAt(orderId)) + 600_000 * (MAX + 1) + WAITING_GRACE_MS;
    const clock = fixedClock(deadline - 1);
    const pushes = recordingNotify();
    const deps = { ...smsDeps(env), clock, notify: pushes.notify };

    // The sweep also settles what earlier tests left waiting (their windows are shorter by this clock): only this
    // customer's pushes are this test's.
    const ours = () => pushes.sent.filter((p) => p.userId === user.id);
    await sweepSmsOrders(deps);
    expect(await outcome(orderId)).toEqual({ status: "waiting", code: null, refunds: 0 });
    expect(ours()).toEqual([]);

    clock.set(deadline + 1);
    await sweepSmsOrders(deps);
    expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
    const row = await env.DB.prepare("SELECT updated_at FROM sms_orders WHERE id = ?").bind(orderId).first<{ updated_at: number }>();
    expect(row!.updated_at).toBe(deadline + 1);
    expect(ours()).toEqual([{ userId: user.id, message: expect.objectContaining({ kind: "sms.ended", orderId, status: "timeout", refunded: true }) }]);
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("a code the tick reads is stamped with the clock's time, pushed through the injected notify, and the another-code window closes by that clock", async () => {
    const { user, orderId } = await buy();
    fake.requestAnotherCode = async () => undefined;
    fake.polls = [{ state: "code", code: "424242" }];
    const at = (await createdAt(orderId)) + 30_000;
    const clock = fixedClock(at);
    const pushes = recordingNotify();
    const deps = { ...smsDeps(env), clock, notify: pushes.notify };

    expect(await pollSmsOrderTick(deps, orderId)).toEqual({ again: true, wakeAt: at + ANOTHER_CODE_WINDOW_MS });
    const row = await env.DB.prepare("SELECT status, activation_closes_at FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string; activation_closes_at: number }>();
    expect(row).toEqual({ status: "used", activation_closes_at: at + ANOTHER_CODE_WINDOW_MS });
    expect(pushes.sent).toEqual([{ userId: user.id, message: { kind: "sms.code", orderId, code: "424242", number: "15550001111" } }]);

    clock.set(at + ANOTHER_CODE_WINDOW_MS);
    await expect(requestAnotherCode(deps, user.id, orderId)).rejects.toMatchObject({ code: "INVALID_STATE" });
    expect(await outcome(orderId)).toEqual({ status: "used", code: "424242", refunds: 0 });
  });
});
