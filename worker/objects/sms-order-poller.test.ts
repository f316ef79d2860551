import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { SMS_ERROR_TEXT, SMS_TIMEOUT_TEXT } from "../../schema/constants";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { smsFault } from "../providers/sms/types";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";

// The order's whole life driven by its Durable Object's alarm, one tick at a time (runDurableObjectAlarm).

const PRICE_KOBO = 120_000; // $0.50 × 1600 × 1.5 with the default settings

let fake: ScriptedSmsProvider;

// Whole order lives take many D1 round trips; on a busy shared machine they outlast the 5 s default.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(async () => {
  fake = new ScriptedSmsProvider();
  await resetSmsTestState({ provider: fake });
});

afterEach(restoreSmsProviders);

async function buy(balanceKobo = 500_000) {
  const user = await createUser({ balanceKobo });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  return { user, orderId: res.data.phone.request_id as string };
}

async function refundsOf(orderId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`refund:${orderId}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Runs alarms until none is pending; returns how many ran. */
async function drainAlarms(orderId: string, limit = 40): Promise<number> {
  let ran = 0;
  while (ran < limit && (await runDurableObjectAlarm(pollerOf(orderId)))) ran += 1;
  return ran;
}

describe("SMS order poller", () => {
  it("stores the code that arrives on the third poll, keeps the money and stops polling", async () => {
    const { user, orderId } = await buy();
    fake.polls = [{ state: "waiting" }, { state: "waiting" }, { state: "code", code: "482913" }];
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    let status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "waiting", sms: null });
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);

    status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", sms: "482913", sms_code: "482913", refunded: false });
    expect(fake.calls.filter((c) => c === "poll")).toHaveLength(3);
    expect(fake.calls).toContain("finish");
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false); // no pending alarm
    expect(await refundsOf(orderId)).toBe(0);
    expect(await balanceOf(user.id)).toBe(500_000 - PRICE_KOBO);
    await expectLedgerBalanced();
  });

  it("where the upstream can send another code, the number stays open for it and is completed when the window ends", async () => {
    fake.requestAnotherCode = async () => undefined;
    const { orderId } = await buy();
    fake.polls = [{ state: "code", code: "482913" }];
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    expect(fake.calls).not.toContain("finish");
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true); // window not over: re-armed for its end
    expect(fake.calls).not.toContain("finish");
    await env.DB.prepare("UPDATE sms_orders SET activation_closes_at = 0 WHERE id = ?").bind(orderId).run();
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    expect(fake.calls.filter((c) => c === "finish")).toHaveLength(1);
    expect(fake.calls.filter((c) => c === "poll")).toHaveLength(1); // a used order is not polled without a request
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false); // no pending alarm
  });

  it("after 15 empty polls: releases the number, refunds exactly once, status timeout, no pending alarm", async () => {
    const { user, orderId } = await buy();
    expect(await drainAlarms(orderId)).toBe(15);
    expect(fake.calls.filter((c) => c === "poll")).toHaveLength(15);
    expect(fake.calls.at(-1)).toBe("cancel");
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "timeout", sms: SMS_TIMEOUT_TEXT, refunded: true });
    expect(await refundsOf(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false);
    await expectLedgerBalanced();
  });

  it("an alarm run twice for the same tick still ends in one refund", async () => {
    const { user, orderId } = await buy();
    for (let tick = 0; tick < 15; tick++) {
      // The same tick delivered twice (alarms are at-least-once), then the scheduled one.
      await runInDurableObject(pollerOf(orderId), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
      await runInDurableObject(pollerOf(orderId), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
      if (!(await runDurableObjectAlarm(pollerOf(orderId)))) break;
    }
    await drainAlarms(orderId);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data.status).toBe("timeout");
    expect(await refundsOf(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("an alarm that throws 5 times and then runs still ends in one refund", async () => {
    const { user, orderId } = await buy();
    fake.polls = Array.from({ length: 5 }, () => new Error("worker crashed mid-poll"));
    for (let i = 0; i < 5; i++) {
      await expect(
        runInDurableObject(pollerOf(orderId), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm()),
      ).rejects.toThrow("worker crashed mid-poll");
    }
    expect(await drainAlarms(orderId)).toBe(15);
    expect(await refundsOf(orderId)).toBe(1);
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data.status).toBe("timeout");
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("an upstream error ends the order with '❌ Error polling SMS' and one refund; a blip is retried", async () => {
    const { user, orderId } = await buy();
    fake.polls = [smsFault("timeout"), smsFault("bad_reply", "<html>")];
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data.status).toBe("waiting");
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "error", sms: SMS_ERROR_TEXT, refunded: true });
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false);
    expect(await refundsOf(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("a code that turns up while the last poll releases the number wins: no refund", async () => {
    const { user, orderId } = await buy();
    fake.cancelResult = { outcome: "refused", reason: "BAD_STATUS", final: false };
    fake.polls = Array.from({ length: 15 }, () => ({ state: "waiting" as const }));
    fake.afterScript = { state: "code", code: "777111" };
    expect(await drainAlarms(orderId)).toBe(15);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", sms: "777111" });
    expect(await refundsOf(orderId)).toBe(0);
    await expectLedgerBalanced();
  });
});

describe("SMS order poller with the sandbox upstreams", () => {
  beforeEach(restoreSmsProviders); // the sandbox upstreams, through the real adapters

  it("delivers a sandbox WhatsApp code on the first poll (SANDBOX_SMS_DELAY_MS=0)", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Dynamic", country: "5", service: "1" } });
    expect(res.status).toBe(200);
    const orderId = res.data.phone.request_id;
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(true);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", sms: expect.stringMatching(/^\d{6}$/) });
    expect(await runDurableObjectAlarm(pollerOf(orderId))).toBe(false);
  });

  it("'Sandbox Error' fails its status poll: error, refunded", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxerror" } });
    expect(res.status).toBe(200);
    const orderId = res.data.phone.request_id;
    await drainAlarms(orderId);
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data).toMatchObject({ status: "error", refunded: true });
    expect(await balanceOf(user.id)).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("'Sandbox No-SMS' never delivers: timeout after 15 polls, refunded", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const orderId = res.data.phone.request_id;
    expect(await drainAlarms(orderId)).toBe(15);
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data).toMatchObject({ status: "timeout", sms: SMS_TIMEOUT_TEXT });
    expect(await refundsOf(orderId)).toBe(1);
    expect(await balanceOf(user.id)).toBe(500_000);
  });
});
