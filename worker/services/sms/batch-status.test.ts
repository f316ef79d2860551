import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestUpstreams } from "../../test/services";
import type { ActiveActivation } from "../../providers/sms/types";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { api, createUser, db } from "../../test/helpers";
import { putSetting } from "../kernel";
import { smsDeps } from "../../test/services";
import { BatchCache, batchReaderFor } from "./batch-status";
import { pollSmsOrderTick } from "./sms-poll";

/**
 * Decision 051: where an upstream documents a call answering every active activation of the account (HeroSMS's
 * getActiveActivations), one call per account per tick serves the polls of all its orders; an order the answer does
 * not list asks getStatus itself; the orders wake on the same tick boundaries so they share the call.
 */

class BatchingFake extends ScriptedSmsProvider {
  readonly upstream = "herosms";
  batchCalls = 0;
  listed: ActiveActivation[] = [];
  async activeActivations(): Promise<ActiveActivation[]> {
    this.batchCalls += 1;
    return this.listed;
  }
}

const INTERVAL = 600_000; // resetSmsTestState's: alarms never fire on their own
let hero: BatchingFake;

beforeEach(async () => {
  hero = new BatchingFake("Swift", [{ countryId: "5", serviceId: "wa", name: "WhatsApp", cost: 0.45, currency: "USD", count: 50 }]);
  await resetSmsTestState({ provider: new ScriptedSmsProvider() });
  useTestUpstreams({ smsUpstream: (_env, upstream) => (upstream === "herosms" ? hero : null) });
  await putSetting(db(), "sms_routes", { Swift: { upstreams: ["herosms"] }, Dynamic: { upstreams: ["smsman"] } });
});
afterEach(async () => {
  useTestUpstreams({ smsUpstream: null });
  restoreSmsProviders();
  await putSetting(db(), "sms_routes", { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"] } });
});

async function buy(token: string, upstreamId: string): Promise<string> {
  hero.buyResult = { upstreamId, number: `1555${upstreamId.replace(/\D/g, "").padStart(7, "0")}` };
  const res = await api("/api/sms/get-number", { token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop(); // the test drives the ticks
  return orderId;
}

const row = (orderId: string) => env.DB.prepare("SELECT status, code, upstream FROM sms_orders WHERE id = ?").bind(orderId).first<{ status: string; code: string | null; upstream: string }>();

/**
 * The account's batch reader with nothing remembered. It is a Durable Object that lives on between the tests of a lane
 * (decision 054), and an earlier test's HeroSMS answer stays young for half a tick (here 5 minutes), so without this a
 * test would read another test's answer and make no call of its own (seen once in a full suite).
 */
async function forgetBatchAnswers(userId: string, orderId: string) {
  const order = await env.DB.prepare("SELECT upstream, upstream_account FROM sms_orders WHERE id = ?").bind(orderId).first<{ upstream: string; upstream_account: number }>();
  const reader = batchReaderFor(smsDeps(env), { userId, upstream: order!.upstream, upstreamAccount: order!.upstream_account });
  await runInDurableObject(reader, (poller) => {
    (poller as unknown as { batch: BatchCache }).batch = new BatchCache();
  });
}

describe("one batch status call per account per tick", () => {
  it("three orders of one HeroSMS account: one getActiveActivations for their ticks, no getStatus, the code stored, wakes aligned", async () => {
    const user = await createUser({ balanceKobo: 900_000 });
    const ids = ["h-051-1", "h-051-2", "h-051-3"];
    const orders: string[] = [];
    for (const id of ids) orders.push(await buy(user.token, id));
    expect((await row(orders[0]!))!.upstream).toBe("herosms");
    hero.listed = [
      { upstreamId: "h-051-1", result: { state: "waiting" } },
      { upstreamId: "h-051-2", result: { state: "code", code: "515151" } },
      { upstreamId: "h-051-3", result: { state: "waiting" } },
    ];
    hero.calls.length = 0;
    await forgetBatchAnswers(user.id, orders[0]!);
    const results = await Promise.all(orders.map((id) => pollSmsOrderTick(smsDeps(env), id)));
    expect(hero.batchCalls).toBe(1);
    expect(hero.calls.filter((c) => c === "poll")).toHaveLength(0);
    expect(await row(orders[1]!)).toMatchObject({ status: "used", code: "515151" });
    for (const i of [0, 2]) {
      const r = results[i]!;
      expect(r.again).toBe(true);
      if (r.again) expect(r.wakeAt % INTERVAL).toBe(0); // the interval's boundary, shared by the account's orders
    }
  });

  it("an order the batch does not list asks getStatus for itself", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const orderId = await buy(user.token, "h-051-9");
    hero.listed = [];
    hero.polls = [{ state: "code", code: "626262" }];
    hero.calls.length = 0;
    await forgetBatchAnswers(user.id, orderId);
    await pollSmsOrderTick(smsDeps(env), orderId);
    expect(hero.calls.filter((c) => c === "poll")).toHaveLength(1);
    expect(await row(orderId)).toMatchObject({ status: "used", code: "626262" });
  });
});

describe("the account's batch cache", () => {
  it("answers from the last call while it is young, shares a call in flight, and reads again once it is old", async () => {
    const cache = new BatchCache();
    let calls = 0;
    const read = async () => {
      calls += 1;
      return [{ upstreamId: "a", result: { state: "waiting" as const } }];
    };
    const [one, two] = await Promise.all([cache.statusOf("a", 3000, read, Date.now()), cache.statusOf("b", 3000, read, Date.now())]);
    expect([one, two, calls]).toEqual([{ state: "waiting" }, null, 1]);
    expect(await cache.statusOf("a", 3000, read, Date.now())).toEqual({ state: "waiting" });
    expect(calls).toBe(1);
    expect(await cache.statusOf("a", 3000, read, Date.now() + 10_000)).toEqual({ state: "waiting" });
    expect(calls).toBe(2);
  });
});
