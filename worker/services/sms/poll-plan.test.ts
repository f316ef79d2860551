import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, balanceOf, createUser } from "../../test/helpers";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { smsDeps } from "../../test/services";
import { pollPlan } from "./poll-plan";
import { acceptPushedCode, pollSmsOrderTick } from "./sms-poll";

/**
 * Decision 051: where DaisySMS pushes codes (SWIFT_WEBHOOK=on) the poller is only a fallback (ticks 3, 7, 11 of 15,
 * then a release at the 15th that reads a code that came); elsewhere every tick polls, as the original client did.
 * The customer's window is the same 15 x 6 s either way.
 */

const MAX = 15;
const INTERVAL = 600_000; // resetSmsTestState's: alarms never fire on their own
let fake: ScriptedSmsProvider;

beforeEach(async () => {
  fake = new ScriptedSmsProvider();
  await resetSmsTestState({ maxAttempts: MAX, provider: fake });
});
afterEach(() => {
  delete (env as { SWIFT_WEBHOOK?: string }).SWIFT_WEBHOOK;
  restoreSmsProviders();
});

const webhookOn = () => ((env as { SWIFT_WEBHOOK?: string }).SWIFT_WEBHOOK = "on");
const row = (orderId: string) =>
  env.DB.prepare("SELECT status, code, attempts FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string; code: string | null; attempts: number }>();
const refunds = async (orderId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${orderId}`).first<{ n: number }>())!.n;
const tick = (orderId: string) => pollSmsOrderTick(smsDeps(env), orderId);

async function buy() {
  const user = await createUser({ balanceKobo: 500_000 });
  const before = Date.now();
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  const alarm = await runInDurableObject(pollerOf(orderId), (_o, state) => state.storage.getAlarm());
  await pollerOf(orderId).stop(); // the test drives the ticks
  return { user, orderId, firstWakeIn: (alarm ?? 0) - before };
}

describe("the poll plan", () => {
  it("polls every tick where codes are not pushed, and ticks 3, 7, 11 then the release where DaisySMS pushes them", () => {
    const every = pollPlan({}, { provider: "Swift", upstream: "daisysms" }, MAX);
    expect(every.kind).toBe("every tick");
    expect(Array.from({ length: MAX }, (_, i) => i + 1).filter((t) => every.polls(t))).toHaveLength(MAX);
    const pushed = pollPlan({ SWIFT_WEBHOOK: "on" }, { provider: "Swift", upstream: "daisysms" }, MAX);
    expect(pushed.kind).toBe("push fallback");
    expect(Array.from({ length: MAX }, (_, i) => i + 1).filter((t) => pushed.polls(t))).toEqual([3, 7, 11]);
    expect([pushed.first, pushed.next(3), pushed.next(7), pushed.next(11)]).toEqual([3, 7, 11, MAX]);
    // Only DaisySMS pushes: sms-man and the others are polled every tick even with the webhook set.
    for (const upstream of ["smsman", "herosms", "grizzly"]) expect(pollPlan({ SWIFT_WEBHOOK: "on" }, { provider: "Swift", upstream }, MAX).kind).toBe("every tick");
  });

  it("with the webhook set: first wake at the 3rd tick, 3 polls in the window, the release at the 15th without a poll, refunded once", async () => {
    webhookOn();
    const { user, orderId, firstWakeIn } = await buy();
    expect(Math.round(firstWakeIn / INTERVAL)).toBe(3);
    expect((await row(orderId))!.attempts).toBe(2);
    const wakes: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const now = Date.now();
      const next = await tick(orderId);
      expect(next.again).toBe(true);
      if (next.again) wakes.push(Math.round((next.wakeAt - now) / INTERVAL));
    }
    expect(wakes).toEqual([4, 4, 4]);
    expect((await row(orderId))!.attempts).toBe(MAX - 1);
    expect(fake.calls.filter((c) => c === "poll")).toHaveLength(3);
    expect(await tick(orderId)).toMatchObject({ again: false });
    expect(fake.calls.filter((c) => c === "poll")).toHaveLength(3); // the release did not poll first
    expect(fake.calls.filter((c) => c === "cancel")).toHaveLength(1);
    expect(await row(orderId)).toMatchObject({ status: "timeout", code: null });
    expect(await refunds(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("with the webhook set: a code that came without its push is delivered by the release (ACCESS_READY), never refunded", async () => {
    webhookOn();
    const { orderId } = await buy();
    await env.DB.prepare("UPDATE sms_orders SET attempts = ? WHERE id = ?").bind(MAX - 1, orderId).run();
    fake.cancelResult = { outcome: "refused", reason: "ACCESS_READY", final: true };
    fake.afterScript = { state: "code", code: "771122" };
    await tick(orderId);
    expect(await row(orderId)).toMatchObject({ status: "used", code: "771122" });
    expect(await refunds(orderId)).toBe(0);
  });

  it("with the webhook set: a push settles the order with one status read and no poll before it", async () => {
    webhookOn();
    fake.buyResult = { upstreamId: "up-pushed-051", number: "15550002222" };
    const { orderId } = await buy();
    fake.polls = [{ state: "code", code: "909090" }];
    expect(await acceptPushedCode(smsDeps(env), "Swift", "up-pushed-051")).toBe("settled");
    // buy, the push's confirming read, and the completion (this fake offers no "another code", so at once): no poll.
    expect(fake.calls.filter((c) => c !== "balance")).toEqual(["buy", "poll", "finish"]);
    expect(await row(orderId)).toMatchObject({ status: "used", code: "909090" });
  });

  it("without the webhook: the first wake is the first tick and each empty poll waits one tick, as before", async () => {
    const { orderId, firstWakeIn } = await buy();
    expect(Math.round(firstWakeIn / INTERVAL)).toBe(1);
    expect((await row(orderId))!.attempts).toBe(0);
    const now = Date.now();
    const next = await tick(orderId);
    expect(next.again && Math.round((next.wakeAt - now) / INTERVAL)).toBe(1);
    expect((await row(orderId))!.attempts).toBe(1);
  });
});
