import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

/**
 * Issue 28, "Waiting for a code": how long a number is held is said before purchase (the operator's polling setting),
 * the dialog counts down to the server's own refund time, and a second number may be bought while one waits.
 */
vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("waiting for a code", () => {
  it("says the hold time from the polling setting, before any sign-in", async () => {
    await putSetting(db(), "sms_poll", { interval_ms: 6000, max_attempts: 15 });
    expect((await api("/api/sms/hold-time")).data).toEqual({ seconds: 90 });
    await putSetting(db(), "sms_poll", { interval_ms: 10_000, max_attempts: 30 });
    expect((await api("/api/sms/hold-time")).data).toEqual({ seconds: 300 });
    await putSetting(db(), "sms_poll", { interval_ms: 6000, max_attempts: 15 });
  });

  it("answers the refund time of a waiting order, and lets a second number be bought while the first waits", async () => {
    await putSetting(db(), "sms_poll", { interval_ms: 6000, max_attempts: 15 });
    const user = await createUser({ balanceKobo: 500_000 });
    const before = Date.now();
    const first = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(first.status).toBe(200);
    const status = await api(`/api/sms/status/${first.data.phone.request_id}`, { token: user.token });
    expect(status.data.status).toBe("waiting");
    const refundAt = Date.parse(status.data.refund_at);
    // 15 polls of 6 s left: about 90 s from now, on the server's clock.
    expect(refundAt).toBeGreaterThanOrEqual(before + 89_000);
    expect(refundAt).toBeLessThanOrEqual(Date.now() + 90_000);

    const second = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(second.status).toBe(200);
    expect(second.data.phone.request_id).not.toBe(first.data.phone.request_id);
    expect(await balanceOf(user.id)).toBe(500_000 - 2 * 120_000);

    await api("/api/sms/cancel", { token: user.token, json: { request_id: first.data.phone.request_id } });
    const cancelled = await api(`/api/sms/status/${first.data.phone.request_id}`, { token: user.token });
    expect(cancelled.data.refund_at).toBeNull();
    await pollerOf(first.data.phone.request_id).stop();
    await pollerOf(second.data.phone.request_id).stop();
    await expectLedgerBalanced();
  });
});
