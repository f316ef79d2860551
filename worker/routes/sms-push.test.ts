import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pollSmsOrderTick } from "../services/sms";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { setActivationCodeArrived, upstreamIdOf } from "../test/reliability/invariants";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { smsDeps } from "../test/services";

// POST /api/webhooks/sms/swift: DaisySMS pushes an incoming SMS. The body is not trusted: the order is settled only
// when DaisySMS's own getStatus (the sandbox simulator, through the real adapter) says the code is there.

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function waitingOrder(codeArrived: boolean) {
  const user = await createUser({ balanceKobo: 500_000 });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop(); // only the push (or the test's own tick) moves it
  const upstreamId = await upstreamIdOf("sms_orders", orderId);
  await setActivationCodeArrived(upstreamId, codeArrived);
  return { user, orderId, upstreamId };
}

const push = (body: unknown) => api("/api/webhooks/sms/swift", { json: body });
const orderOf = (id: string) =>
  env.DB.prepare("SELECT status, code FROM sms_orders WHERE id = ?").bind(id).first<{ status: string; code: string | null }>();
const refundsOf = async (id: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${id}`).first<{ n: number }>())!.n;

describe("pushed SMS codes (DaisySMS webhook)", () => {
  it("settles the order at once with the code the upstream holds, once; a repeated push changes nothing", async () => {
    const { user, orderId, upstreamId } = await waitingOrder(true);
    const first = await push({ activationId: Number(upstreamId), messageId: 1, service: "wa", text: "Your code is 1", code: "1", country: 187 });
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ received: true, status: "settled" });
    const order = await orderOf(orderId);
    expect(order).toEqual({ status: "used", code: expect.stringMatching(/^\d{6}$/) });
    expect(order!.code).not.toBe("1"); // the body's code is never used: the upstream's getStatus is
    const again = await push({ activationId: upstreamId });
    expect(again.data).toEqual({ received: true, status: "already_settled" });
    await pollSmsOrderTick(smsDeps(env), orderId); // the poller's next tick finds it settled and changes nothing
    expect(await orderOf(orderId)).toEqual(order);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", phase: "received", sms: order!.code, refunded: false });
    expect(await refundsOf(orderId)).toBe(0);
    await expectLedgerBalanced();
  });

  it("a forged push (no code upstream yet, a made-up code in the body) settles nothing", async () => {
    const { orderId, upstreamId } = await waitingOrder(false);
    const res = await push({ activationId: upstreamId, code: "123456", text: "Your code is 123456" });
    expect(res.status).toBe(200);
    expect(res.data.status).toBe("not_yet");
    expect(await orderOf(orderId)).toEqual({ status: "waiting", code: null });
    // The poller stays the authority: once the code really arrives, it delivers it.
    await setActivationCodeArrived(upstreamId, true);
    await pollSmsOrderTick(smsDeps(env), orderId);
    expect((await orderOf(orderId))!.status).toBe("used");
  });

  it("a push for an activation we do not hold, or another provider's, changes nothing; a bad body is 400", async () => {
    const { user, orderId } = await waitingOrder(true);
    expect((await push({ activationId: 999_999_999 })).data).toEqual({ received: true, status: "unknown" });
    expect((await orderOf(orderId))!.status).toBe("waiting");
    expect((await push({ code: "1" })).status).toBe(400);
    const raw = await api("/api/webhooks/sms/swift", { body: "not json", headers: { "content-type": "application/json" } });
    expect(raw.status).toBe(400);
    expect(await balanceOf(user.id)).toBe(500_000 - 120_000);
  });

  it("a push racing the poller's tick settles the order once", async () => {
    const { orderId, upstreamId } = await waitingOrder(true);
    const [pushed] = await Promise.all([push({ activationId: upstreamId }), pollSmsOrderTick(smsDeps(env), orderId), push({ activationId: upstreamId })]);
    expect(pushed.status).toBe(200);
    expect((await orderOf(orderId))!.status).toBe("used");
    expect(await refundsOf(orderId)).toBe(0);
    await expectLedgerBalanced();
  });
});
