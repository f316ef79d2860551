import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock, recordingNotify } from "./flow-deps";
import { api, createUser } from "./helpers";
import { ScriptedSmsProvider } from "./scripted-sms-provider";
import { resetTestServices, testServices, useTestServices, useTestUpstreams } from "./services";
import { pollerOf, resetSmsTestState } from "./sms-fixtures";

// Issue 29 (decision 050): the worker's requests, alarms and cron build their containers through one factory, which a
// test replaces with its own upstreams, clock and notify; nothing else in production reads a test hook.

beforeEach(() => resetSmsTestState());
afterEach(() => resetTestServices());

async function buySwift(token: string): Promise<string> {
  const res = await api("/api/sms/get-number", { token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop();
  return orderId;
}

const createdAt = async (orderId: string) =>
  (await env.DB.prepare("SELECT created_at AS at FROM sms_orders WHERE id = ?").bind(orderId).first<{ at: number }>())!.at;

describe("the services container in tests", () => {
  it("a request through the worker gets the test's clock and upstream; reset, it gets the real ones back", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const scripted = new ScriptedSmsProvider();
    scripted.buyResult = { upstreamId: "container-1", number: "15550002222" };
    // Ten minutes ahead: every read of time in the request is this clock's, the session check's too (one clock, issue 42),
    // so it stays within the session's life.
    const at = Date.now() + 10 * 60_000;
    useTestServices({ upstreams: { sms: () => scripted }, clock: fixedClock(at) });
    const scriptedOrder = await buySwift(user.token);
    expect(await createdAt(scriptedOrder)).toBe(at);
    expect((await env.DB.prepare("SELECT upstream_id AS id FROM sms_orders WHERE id = ?").bind(scriptedOrder).first<{ id: string }>())!.id).toBe("container-1");

    resetTestServices();
    const before = Date.now();
    const realOrder = await buySwift(user.token);
    expect(await createdAt(realOrder)).toBeGreaterThanOrEqual(before);
    expect(await createdAt(realOrder)).toBeLessThan(at);
    expect((await env.DB.prepare("SELECT upstream_id AS id FROM sms_orders WHERE id = ?").bind(realOrder).first<{ id: string }>())!.id).not.toBe("container-1");
  });

  it("clearing one override keeps the others; testServices builds with the test's notify", async () => {
    const at = Date.UTC(2031, 5, 6);
    useTestServices({ clock: fixedClock(at), upstreams: { webhooks: async () => new Response("ok") } });
    useTestUpstreams({ webhooks: null });
    const pushes = recordingNotify();
    const services = testServices({ notify: pushes.notify });
    expect(services.clock.now()).toBe(at);
    await services.sms.notify("user-1", { kind: "balance", balance: 1 } as never);
    expect(pushes.sent).toEqual([{ userId: "user-1", message: { kind: "balance", balance: 1 } }]);
    useTestServices({ clock: null });
    expect(Math.abs(testServices().clock.now() - Date.now())).toBeLessThan(5_000);
  });
});
