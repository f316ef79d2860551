import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { SmsActivateProvider } from "../../providers/sms/sms-activate";
import { SmsManProvider } from "../../providers/sms/sms-man";
import { pollOnce } from "../../test/api-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";

// "Request another code": the adapter's setStatus 3, the sandbox simulator, the service and POST /api/sms/another-code.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function buyWithCode(provider: "Swift" | "Dynamic" = "Swift") {
  const user = await createUser({ balanceKobo: 500_000 });
  const country = provider === "Swift" ? "5" : "12";
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider, country, service: provider === "Swift" ? "wa" : "1" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollOnce(orderId);
  return { user, orderId };
}

describe("SMS-Activate adapter: requestAnotherCode", () => {
  it("sends setStatus status=3 and accepts ACCESS_RETRY_GET; BAD_STATUS is a refusal", async () => {
    const seen: URL[] = [];
    let reply = "ACCESS_RETRY_GET";
    const provider = new SmsActivateProvider({
      baseUrl: "https://upstream.test",
      key: "k",
      fetch: (req) => {
        seen.push(new URL(req.url));
        return new Response(reply);
      },
    });
    await provider.requestAnotherCode("777");
    expect(seen[0].pathname).toBe("/stubs/handler_api.php");
    expect(Object.fromEntries(seen[0].searchParams)).toMatchObject({ action: "setStatus", id: "777", status: "3", api_key: "k" });
    reply = "BAD_STATUS";
    await expect(provider.requestAnotherCode("777")).rejects.toMatchObject({ kind: "rejected" });
  });

  it("sms-man documents no such request: its adapter has no requestAnotherCode", () => {
    const provider = new SmsManProvider({ baseUrl: "https://sms-man.test", key: "k" });
    expect("requestAnotherCode" in provider).toBe(false);
  });
});

describe("POST /api/sms/another-code", () => {
  it("asks the upstream, waits, stores the second code beside the first, and charges nothing more", async () => {
    const { user, orderId } = await buyWithCode();
    const paid = await balanceOf(user.id);
    const before = await api(`/api/sms/status/${orderId}`, { token: user.token });
    // The price rule is told before the click: free.
    expect(before.data).toMatchObject({ status: "completed", state: "used", waiting_for_another_code: false, can_request_another_code: true, another_code_price: 0 });
    expect(before.data.codes).toEqual([before.data.sms_code]);

    const asked = await api("/api/sms/another-code", { token: user.token, json: { request_id: orderId } });
    expect(asked.status).toBe(200);
    expect(asked.data).toMatchObject({ request_id: orderId, status: "used", waiting_for_another_code: true, codes: [before.data.sms_code] });
    // asking twice while waiting does not ask the upstream twice and answers the same
    expect((await api("/api/sms/another-code", { token: user.token, json: { request_id: orderId } })).data.waiting_for_another_code).toBe(true);

    await pollOnce(orderId);
    const after = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(after.data.codes).toHaveLength(2);
    expect(after.data.codes[0]).toBe(before.data.sms_code);
    expect(after.data.sms_code).toBe(after.data.codes[1]);
    expect(after.data.codes[1]).not.toBe(before.data.sms_code);
    expect(after.data).toMatchObject({ status: "completed", state: "used", waiting_for_another_code: false, refunded: false });
    expect(await balanceOf(user.id)).toBe(paid);
    await expectLedgerBalanced();
  });

  it("says until when another code is awaited, and 'Stop waiting' closes the number free, keeping its code (issue 43)", async () => {
    const { user, orderId } = await buyWithCode();
    const paid = await balanceOf(user.id);
    expect((await api(`/api/sms/status/${orderId}`, { token: user.token })).data.another_code_until).toBeNull();
    expect((await api("/api/sms/another-code", { token: user.token, json: { request_id: orderId } })).status).toBe(200);
    const waiting = await api(`/api/sms/status/${orderId}`, { token: user.token });
    const until = Date.parse(waiting.data.another_code_until);
    // The number's own window: open for at most 10 minutes after its first code.
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 10 * 60_000);

    // Another user cannot stop it; the owner can, once: the number closes and its code stays.
    const other = await createUser();
    expect((await api("/api/sms/finish", { token: other.token, json: { request_id: orderId } })).status).toBe(404);
    const stopped = await api("/api/sms/finish", { token: user.token, json: { request_id: orderId } });
    expect(stopped.status).toBe(200);
    expect(stopped.data).toEqual({ request_id: orderId, status: "used", waiting_for_another_code: false, codes: [waiting.data.sms_code] });
    const after = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(after.data).toMatchObject({ state: "used", waiting_for_another_code: false, can_request_another_code: false, another_code_until: null, sms_code: waiting.data.sms_code });
    expect(await balanceOf(user.id)).toBe(paid);

    // A number still waiting for its first code is not "finished": that is a cancel (refunded), not a stop.
    const fresh = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect((await api("/api/sms/finish", { token: user.token, json: { request_id: fresh.data.phone.request_id } })).status).toBe(409);
    await expectLedgerBalanced();
  });

  it("before the first code, after the window, on another user's order, and on sms-man: clear 4xx answers", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const waiting = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    const early = await api("/api/sms/another-code", { token: user.token, json: { request_id: waiting.data.phone.request_id } });
    expect(early.status).toBe(409);
    expect(early.data.message).toContain("first code has not arrived");

    const { user: owner, orderId } = await buyWithCode();
    const stranger = await createUser();
    expect((await api("/api/sms/another-code", { token: stranger.token, json: { request_id: orderId } })).status).toBe(404);
    await env.DB.prepare("UPDATE sms_orders SET activation_closes_at = ? WHERE id = ?").bind(Date.now() - 1, orderId).run();
    const late = await api("/api/sms/another-code", { token: owner.token, json: { request_id: orderId } });
    expect(late.status).toBe(409);

    const dynamic = await buyWithCode("Dynamic");
    const unsupported = await api("/api/sms/another-code", { token: dynamic.user.token, json: { request_id: dynamic.orderId } });
    expect(unsupported.status).toBe(422);
    expect(unsupported.data.message).toContain("does not support");
    // ...and the status said so beforehand: no price, no offer.
    expect((await api(`/api/sms/status/${dynamic.orderId}`, { token: dynamic.user.token })).data).toMatchObject({
      can_request_another_code: false,
      another_code_price: null,
    });
  });

  it("gives up waiting (no refund: the first code was delivered) when no code comes within the polling window", async () => {
    const fake = new ScriptedSmsProvider();
    fake.requestAnotherCode = async () => {
      fake.calls.push("another");
    };
    fake.polls = [{ state: "code", code: "111111" }];
    fake.afterScript = { state: "code", code: "111111" }; // STATUS_WAIT_RETRY repeats the last code
    await resetSmsTestState({ provider: fake, maxAttempts: 2 });
    const { user, orderId } = await buyWithCode();
    const asked = await api("/api/sms/another-code", { token: user.token, json: { request_id: orderId } });
    expect(asked.status).toBe(200);
    expect(fake.calls).toContain("another");
    await env.DB.prepare("UPDATE sms_orders SET another_code_requested_at = ? WHERE id = ?").bind(Date.now() - 3_600_000, orderId).run();
    await pollOnce(orderId);
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data).toMatchObject({ status: "completed", state: "used", codes: ["111111"], waiting_for_another_code: false, refunded: false });
  });
});
