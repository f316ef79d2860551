import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { smsDeps } from "../test/services";
import { completeSmsOrder } from "../services/sms";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { api, createUser } from "../test/helpers";

/**
 * Issue 30: every alarm set is billed as a row written, so an order that no longer needs its Durable Object leaves no
 * alarm armed: the storage's getAlarm() is null once the order is settled and its number released or completed upstream.
 */

let fake: ScriptedSmsProvider;
vi.setConfig({ testTimeout: 30_000 });

beforeEach(async () => {
  fake = new ScriptedSmsProvider();
  await resetSmsTestState({ provider: fake });
});
afterEach(restoreSmsProviders);

async function buy() {
  const user = await createUser({ balanceKobo: 500_000 });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  return { user, orderId: res.data.phone.request_id as string };
}

const armedAlarm = (orderId: string) => runInDurableObject(pollerOf(orderId), (_o, state) => state.storage.getAlarm());
const statusOf = async (orderId: string) => (await env.DB.prepare("SELECT status FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string }>())?.status;

describe("a settled order leaves no alarm armed", () => {
  it("code from an upstream without 'another code': completed at once, no alarm", async () => {
    const { orderId } = await buy();
    expect(await armedAlarm(orderId)).not.toBeNull(); // polling
    fake.polls = [{ state: "code", code: "111222" }];
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    expect(await statusOf(orderId)).toBe("used");
    expect(fake.calls).toContain("finish");
    expect(await armedAlarm(orderId)).toBeNull();
  });

  it("code from an upstream with 'another code': one alarm for the window's end, none after the number is completed", async () => {
    fake.requestAnotherCode = async () => undefined;
    const { orderId } = await buy();
    fake.polls = [{ state: "code", code: "333444" }];
    await runDurableObjectAlarm(pollerOf(orderId));
    expect(await armedAlarm(orderId)).not.toBeNull(); // still needed: it completes the number when the window ends
    await env.DB.prepare("UPDATE sms_orders SET activation_closes_at = 0 WHERE id = ?").bind(orderId).run();
    await runDurableObjectAlarm(pollerOf(orderId));
    expect(fake.calls.filter((c) => c === "finish")).toHaveLength(1);
    expect(await armedAlarm(orderId)).toBeNull();
  });

  it("the customer says Done (setStatus 6): completed upstream now and the window's alarm is disarmed, not left to fire", async () => {
    fake.requestAnotherCode = async () => undefined;
    const { user, orderId } = await buy();
    fake.polls = [{ state: "code", code: "555666" }];
    await runDurableObjectAlarm(pollerOf(orderId));
    expect(await armedAlarm(orderId)).not.toBeNull();
    await completeSmsOrder(smsDeps(env), user.id, orderId);
    expect(fake.calls.filter((c) => c === "finish")).toHaveLength(1);
    expect(await armedAlarm(orderId)).toBeNull();
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false);
    expect(fake.calls.filter((c) => c === "finish")).toHaveLength(1); // never completed twice
  });

  it("cancelled by the customer: released, refunded, no alarm", async () => {
    const { user, orderId } = await buy();
    fake.polls = [{ state: "waiting" }];
    const res = await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } });
    expect(res.status).toBe(200);
    expect(await statusOf(orderId)).toBe("cancelled");
    expect(await armedAlarm(orderId)).toBeNull();
  });

  it("timed out after its polls: released, refunded, no alarm", async () => {
    const { orderId } = await buy();
    let ran = 0;
    while (ran < 40 && (await runDurableObjectAlarm(pollerOf(orderId)))) ran += 1;
    expect(await statusOf(orderId)).toBe("timeout");
    expect(await armedAlarm(orderId)).toBeNull();
  });

  it("where DaisySMS pushes codes (decision 051): 4 alarms in the window (3 fallback polls, the release), then none", async () => {
    (env as { SWIFT_WEBHOOK?: string }).SWIFT_WEBHOOK = "on";
    try {
      const { orderId } = await buy();
      let ran = 0;
      while (ran < 40 && (await runDurableObjectAlarm(pollerOf(orderId)))) ran += 1;
      expect(ran).toBe(4);
      expect(fake.calls.filter((c) => c === "poll")).toHaveLength(3);
      expect(await statusOf(orderId)).toBe("timeout");
      expect(await armedAlarm(orderId)).toBeNull();
    } finally {
      delete (env as { SWIFT_WEBHOOK?: string }).SWIFT_WEBHOOK;
    }
  });
});
