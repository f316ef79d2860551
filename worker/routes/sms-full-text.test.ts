import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestUpstreams } from "../test/services";
import { smsDeps } from "../test/services";
import { pollSmsOrderTick } from "../services/sms";
import { api, createUser } from "../test/helpers";
import { setActivationCodeArrived, upstreamIdOf } from "../test/reliability/invariants";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// Issue 28: waiting for a code, the customer sees the whole SMS where the upstream gives it (DaisySMS: getStatus text=1
// -> X-Text, and its webhook's `text`), and the code alone where it does not (sms-man's get-sms has only sms_code).

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function buy(provider: "Swift" | "Dynamic", country = "5", service = "wa") {
  const user = await createUser({ balanceKobo: 500_000 });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider, country, service } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop();
  return { user, orderId };
}

const statusOf = (orderId: string, token: string) => api(`/api/sms/status/${orderId}`, { token });

describe("the whole SMS text", () => {
  it("Swift (DaisySMS): the status carries the message with its code, kept with the code; null while waiting", async () => {
    const { user, orderId } = await buy("Swift");
    expect((await statusOf(orderId, user.token)).data).toMatchObject({ state: "waiting", sms_text: null });
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", orderId), true);
    await pollSmsOrderTick(smsDeps(env), orderId);
    const status = (await statusOf(orderId, user.token)).data;
    expect(status).toMatchObject({ state: "used", sms: expect.stringMatching(/^\d{6}$/) });
    expect(status.sms_text).toBe(`Your WhatsApp verification code is ${status.sms}. Don't share this code with anyone.`);
    const row = await env.DB.prepare("SELECT code, text FROM sms_order_codes WHERE order_id = ?").bind(orderId).first();
    expect(row).toEqual({ code: status.sms, text: status.sms_text });
  });

  it("Dynamic (sms-man): only the code, and sms_text says so by being null", async () => {
    const countries = (await api("/api/sms/countries?provider=Dynamic")).data as { id: string }[];
    const country = countries[0]!.id;
    const prices = (await api(`/api/sms/price?id=${country}&provider=Dynamic`)).data as Record<string, { count: number }>;
    const service = Object.keys(prices).find((id) => prices[id]!.count > 0)!;
    const { user, orderId } = await buy("Dynamic", country, service);
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", orderId), true);
    await pollSmsOrderTick(smsDeps(env), orderId);
    expect((await statusOf(orderId, user.token)).data).toMatchObject({ state: "used", sms: expect.stringMatching(/^\d+$/), sms_text: null });
  });

  it("a pushed message is kept only when it carries the code the upstream confirmed", async () => {
    const fake = new ScriptedSmsProvider();
    useTestUpstreams({ sms: () => fake });
    fake.buyResult = { upstreamId: "up-push-1", number: "15550001111" };
    const first = await buy("Swift");
    fake.polls = [{ state: "code", code: "482913" }];
    const pushed = await api("/api/webhooks/sms/swift", { json: { activationId: "up-push-1", code: "482913", text: "Your Uber code is 482913" } });
    expect(pushed.data).toEqual({ received: true, status: "settled" });
    expect((await statusOf(first.orderId, first.user.token)).data).toMatchObject({ sms: "482913", sms_text: "Your Uber code is 482913" });

    fake.buyResult = { upstreamId: "up-push-2", number: "15550002222" };
    const second = await buy("Swift");
    fake.polls = [{ state: "code", code: "771100" }];
    await api("/api/webhooks/sms/swift", { json: { activationId: "up-push-2", text: "Call +1 555 000 to claim your prize" } });
    expect((await statusOf(second.orderId, second.user.token)).data).toMatchObject({ sms: "771100", sms_text: null });
  });
});
