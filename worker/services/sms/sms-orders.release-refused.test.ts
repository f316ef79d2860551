import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SmsActivateProvider } from "../../providers/sms/sms-activate";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { cancelSmsOrder } from "./sms-orders";
import { pollSmsOrderTick, sweepSmsOrders, UNREADABLE_OUTCOME_LIMIT_MS } from "./sms-poll";
import { smsDeps } from "../../test/services";

// The timeout and cancel paths when DaisySMS will not release the number: setStatus 8 answers ACCESS_READY (the
// activation already has its code, or no longer exists). The REAL adapter runs against a scripted protocol fake.
// Before: ACCESS_READY was an unknown word, the release "failed", and the customer was refunded while we were charged.

const MAX = 3;
/** What the fake upstream answers, per action; getStatus replies are consumed in order (the last one repeats). */
let replies: { getStatus: (string | Response)[]; setStatus8: string };
const calls: string[] = [];

function upstream(req: Request): Response {
  const url = new URL(req.url);
  const action = url.searchParams.get("action") ?? "";
  const status = url.searchParams.get("status");
  calls.push(status ? `${action}:${status}` : action);
  if (action === "getPrices") return Response.json({ "187": { wa: { cost: "0.50", count: 10, name: "WhatsApp" } } });
  if (action === "getNumber") return new Response("ACCESS_NUMBER:4242:15550009999", { headers: { "X-Price": "0.50" } });
  if (action === "getStatus") {
    const next = replies.getStatus.length > 1 ? replies.getStatus.shift()! : replies.getStatus[0];
    return typeof next === "string" ? new Response(next) : next;
  }
  if (action === "setStatus" && status === "8") return new Response(replies.setStatus8);
  if (action === "setStatus") return new Response("ACCESS_ACTIVATION");
  return new Response("BAD_ACTION");
}

beforeEach(async () => {
  calls.length = 0;
  replies = { getStatus: ["STATUS_WAIT_CODE"], setStatus8: "ACCESS_READY" };
  await resetSmsTestState({
    maxAttempts: MAX,
    provider: new SmsActivateProvider({ baseUrl: "https://daisysms.test", key: "k", timeoutMs: 200, fetch: upstream }),
  });
});
afterEach(restoreSmsProviders);

async function buy() {
  const user = await createUser({ balanceKobo: 500_000 });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop(); // the test drives the ticks
  return { user, orderId };
}

async function outcome(orderId: string) {
  const order = await env.DB.prepare("SELECT status, code FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string; code: string | null }>();
  const refunds = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${orderId}`).first<{ n: number }>();
  return { status: order!.status, code: order!.code, refunds: refunds!.n };
}

/** Polls until the window is spent (every poll waiting), which ends in the release attempt. */
async function runOutWindow(orderId: string) {
  let last = { again: true, wakeAt: 0 };
  for (let i = 0; i < MAX && last.again; i++) last = await pollSmsOrderTick(smsDeps(env), orderId);
  return last;
}

describe("timeout when setStatus 8 answers ACCESS_READY", () => {
  it("the activation has its code: the customer gets the code and pays, nothing is refunded", async () => {
    const { user, orderId } = await buy();
    // Waiting through the window; the code lands upstream just as we give up.
    replies.getStatus = ["STATUS_WAIT_CODE", "STATUS_WAIT_CODE", "STATUS_WAIT_CODE", "STATUS_OK:908172"];
    expect(await runOutWindow(orderId)).toMatchObject({ again: false });
    expect(calls).toContain("setStatus:8");
    expect(await outcome(orderId)).toEqual({ status: "used", code: "908172", refunds: 0 });
    expect(await balanceOf(user.id)).toBe(500_000 - 120_000);
    await expectLedgerBalanced();
  });

  it("the activation no longer exists (NO_ACTIVATION) or was cancelled upstream: refunded once", async () => {
    for (const gone of ["NO_ACTIVATION", "STATUS_CANCEL"]) {
      const { user, orderId } = await buy();
      replies.getStatus = ["STATUS_WAIT_CODE", "STATUS_WAIT_CODE", "STATUS_WAIT_CODE", gone];
      expect(await runOutWindow(orderId)).toMatchObject({ again: false });
      expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
      expect(await balanceOf(user.id)).toBe(500_000);
    }
    await expectLedgerBalanced();
  });

  it("the outcome cannot be read: nothing is settled (no refund that a later read would contradict); the next tick delivers the code", async () => {
    const { user, orderId } = await buy();
    replies.getStatus = ["STATUS_WAIT_CODE", "STATUS_WAIT_CODE", "STATUS_WAIT_CODE", new Response("<html>502</html>", { status: 502 })];
    const last = await runOutWindow(orderId);
    expect(last).toMatchObject({ again: true });
    expect(await outcome(orderId)).toEqual({ status: "waiting", code: null, refunds: 0 });
    // The sweep does not refund it either while the answer is unreadable.
    await env.DB.prepare("UPDATE sms_orders SET created_at = ? WHERE id = ?").bind(Date.now() - 30 * 60_000, orderId).run();
    await sweepSmsOrders(smsDeps(env));
    expect(await outcome(orderId)).toEqual({ status: "waiting", code: null, refunds: 0 });
    // The upstream answers again: it had the code, so the customer gets it and pays.
    replies.getStatus = ["STATUS_OK:445566"];
    expect(await pollSmsOrderTick(smsDeps(env), orderId)).toMatchObject({ again: false });
    expect(await outcome(orderId)).toEqual({ status: "used", code: "445566", refunds: 0 });
    expect(await balanceOf(user.id)).toBe(380_000);
    await expectLedgerBalanced();
  });

  it("an outcome never readable within the limit is refunded in the end (the customer never saw a code)", async () => {
    const { user, orderId } = await buy();
    replies.getStatus = ["STATUS_WAIT_CODE", "STATUS_WAIT_CODE", "STATUS_WAIT_CODE", new Response("busy", { status: 503 })];
    await runOutWindow(orderId);
    expect((await outcome(orderId)).status).toBe("waiting");
    await env.DB.prepare("UPDATE sms_orders SET created_at = ? WHERE id = ?").bind(Date.now() - UNREADABLE_OUTCOME_LIMIT_MS - 60_000, orderId).run();
    await sweepSmsOrders(smsDeps(env));
    expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("EARLY_CANCEL_DENIED (not final) still refunds at once: the loss is ours", async () => {
    const { user, orderId } = await buy();
    replies.setStatus8 = "EARLY_CANCEL_DENIED";
    expect(await runOutWindow(orderId)).toMatchObject({ again: false });
    expect(await outcome(orderId)).toEqual({ status: "timeout", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
  });
});

describe("the customer's cancel when setStatus 8 answers ACCESS_READY", () => {
  it("a code exists: the cancel is refused and the code is delivered", async () => {
    const { user, orderId } = await buy();
    replies.getStatus = ["STATUS_WAIT_CODE", "STATUS_OK:121212"];
    const err = await cancelSmsOrder(smsDeps(env), user.id, orderId).catch((e: { code: string }) => e);
    expect(err).toMatchObject({ code: "INVALID_STATE" });
    expect(await outcome(orderId)).toEqual({ status: "used", code: "121212", refunds: 0 });
  });

  it("the activation no longer exists: the cancel stands and is refunded once", async () => {
    const { user, orderId } = await buy();
    replies.getStatus = ["STATUS_WAIT_CODE", "NO_ACTIVATION"];
    expect(await cancelSmsOrder(smsDeps(env), user.id, orderId)).toMatchObject({ status: "cancelled", refunded: true });
    expect(await outcome(orderId)).toEqual({ status: "cancelled", code: null, refunds: 1 });
    expect(await balanceOf(user.id)).toBe(500_000);
  });
});
