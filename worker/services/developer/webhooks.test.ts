import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKey, pollOnce } from "../../test/api-fixtures";
import { api, createUser, type TestUser } from "../../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { deliverDueWebhooks, queueWebhookEvents, RETRY_DELAYS_MS, type WebhookSend } from "../kernel";
import worker from "../../index";
import { setWebhookUrl } from "./webhook-settings";
import type { Env } from "../../config";
import { useTestServices, useTestUpstreams } from "../../test/services";
import { postSquadWebhook, setSquadSimulator, squadWebhookRaw, startCardPaymentViaApi } from "../../test/payment-fixtures";

vi.setConfig({ testTimeout: 60_000 });

/** A receiver that records every POST and answers what the test scripts (200 unless told otherwise). */
interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}
let received: Received[] = [];
let answer: (r: Received) => number = () => 200;
/** The receiver every delivery reaches: the objects' alarms and the direct calls below. */
const receive: WebhookSend = async (url, init) => {
  const body = String(init.body);
  const r: Received = { url, headers: Object.fromEntries(new Headers(init.headers).entries()), body, json: JSON.parse(body) };
  received.push(r);
  const status = answer(r);
  return new Response(status === 204 ? null : "ok", { status });
};

beforeEach(async () => {
  await resetSmsTestState();
  received = [];
  answer = () => 200;
  useTestUpstreams({ webhooks: receive });
});
afterEach(() => {
  useTestUpstreams({ webhooks: null });
  restoreSmsProviders();
});

const HOOK = "https://hooks.example.com/virtualnum";

async function keyWithWebhook(user: TestUser, mode: "live" | "test" = "live") {
  const key = await createKey(user, mode);
  const res = await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url: HOOK } });
  expect(res.status).toBe(200);
  expect(res.data.webhook_url).toBe(HOOK);
  return key;
}

async function events(keyId: string) {
  const { results } = await env.DB.prepare("SELECT * FROM webhook_events WHERE api_key_id = ? ORDER BY created_at, rowid").bind(keyId).all<Record<string, unknown>>();
  return results;
}

/** The delivery queue as the consumer sends to it (a job re-enqueued with its delay), recorded instead of sent. */
function recordingQueue() {
  const sent: { body: unknown; delaySeconds?: number }[] = [];
  const queue = {
    send: async (body: unknown, options?: { delaySeconds?: number }) => void sent.push({ body, ...options }),
    sendBatch: async (messages: Iterable<{ body: unknown; delaySeconds?: number }>) => void sent.push(...messages),
  };
  return { sent, env: { ...env, DELIVERIES: queue as unknown as Queue } as Env };
}

describe("webhooks: signed, in order, retried, resendable", () => {
  it("a deposit that fails reaches the webhook as payment.failed (written with its move, issue 42), once however often it is verified", async () => {
    const user = await createUser();
    const key = await keyWithWebhook(user);
    const ref = await startCardPaymentViaApi(user, 3000);
    await setSquadSimulator(ref, { status: "Failed" });
    for (let i = 0; i < 3; i++) await postSquadWebhook(squadWebhookRaw(ref, 300_000, user.email));
    await vi.waitFor(() => expect(received.filter((r) => r.json.type === "payment.failed")).toHaveLength(1), { timeout: 10_000 });
    const [hit] = received.filter((r) => r.json.type === "payment.failed");
    expect(hit.json.data).toEqual({ payment_id: ref, status: "failed", message: "Transaction not successful" });
    expect((await events(key.id)).filter((e) => e.type === "payment.failed")).toHaveLength(1);
  });

  it("an SMS code bought through the API is POSTed once, signed as Standard Webhooks specifies (verified by its library)", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const key = await keyWithWebhook(user);
    const bought = await api("/api/v1/sms/orders", {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "idempotency-key": crypto.randomUUID() },
      json: { provider: "Swift", country: "5", service: "wa" },
    });
    expect(bought.status).toBe(201);
    await pollOnce(bought.data.id); // the code arrives: the screens are told, and the webhook is queued
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });

    const [hit] = received;
    expect(hit.url).toBe(HOOK);
    expect(hit.json).toMatchObject({ type: "sms.code", data: { order_id: bought.data.id, code: expect.stringMatching(/^\d{6}$/) } });
    expect(hit.headers["webhook-id"]).toBe(hit.json.id);
    expect(hit.json.id).toMatch(/^evt_/);
    // The receiver's check, with the library Standard Webhooks publishes (not our code): it accepts ours...
    const verified = new Webhook(key.webhookSecret).verify(hit.body, hit.headers) as Received["json"];
    expect(verified.id).toBe(hit.json.id);
    // ...and refuses a body changed on the way, or a signature made with another secret.
    expect(() => new Webhook(key.webhookSecret).verify(hit.body.replace(/"code":"\d+"/, '"code":"000000"'), hit.headers)).toThrow();
    expect(() => new Webhook(`whsec_${"A".repeat(32)}`).verify(hit.body, hit.headers)).toThrow();

    const log = await api(`/api/keys/${key.id}/webhook/events`, { token: user.token });
    expect(log.data.data).toHaveLength(1);
    expect(log.data.data[0]).toMatchObject({ id: hit.json.id, type: "sms.code", status: "delivered", attempts: 1, last_response_code: 200 });
    // The same happening told twice (a poll racing a push) is one event.
    await queueWebhookEvents(env, user.id, { kind: "sms.code", orderId: bought.data.id, code: hit.json.data.code as string, number: "" }, Date.now());
    expect(await events(key.id)).toHaveLength(1);
  });

  it("a receiver answering 500 gets the event again after the backoff, then it is delivered; 24 hours of failures give up", async () => {
    const user = await createUser();
    const key = await keyWithWebhook(user);
    answer = () => 500;
    const t0 = Date.now() + 3600_000; // ahead of the object's own alarm, which sends nothing due later than now
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 1500 }, t0);

    expect(await deliverDueWebhooks(env, key.id, t0, receive)).toBe(t0 + RETRY_DELAYS_MS[0]);
    let [row] = await events(key.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_response_code: 500, last_error: "HTTP 500" });
    // Not due yet: nothing is sent.
    expect(await deliverDueWebhooks(env, key.id, t0 + RETRY_DELAYS_MS[0] - 1, receive)).toBe(t0 + RETRY_DELAYS_MS[0]);
    expect(received).toHaveLength(1);

    answer = () => 204;
    expect(await deliverDueWebhooks(env, key.id, t0 + RETRY_DELAYS_MS[0], receive)).toBeNull();
    [row] = await events(key.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 2, last_response_code: 204 });
    expect(received.map((r) => r.json.id)).toEqual([row.id, row.id]); // the same event id both times: receivers dedupe by it

    // Another event that never gets a 2xx: 10 attempts spread over about 24 hours, then "failed".
    answer = () => 503;
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 900 }, t0);
    let now = t0;
    const times: number[] = [];
    for (let next: number | null = t0; next !== null; next = await deliverDueWebhooks(env, key.id, now, receive)) {
      now = next;
      times.push(now);
    }
    const failed = (await events(key.id)).find((e) => e.status !== "delivered")!;
    expect(failed).toMatchObject({ status: "failed", attempts: RETRY_DELAYS_MS.length + 1, last_response_code: 503 });
    const span = times.at(-1)! - t0;
    expect(span).toBeGreaterThan(23 * 3600_000);
    expect(span).toBeLessThanOrEqual(24 * 3600_000);
  });

  it("the key's queue job schedules the retry: after a 500 it enqueues itself again for the backoff, not sooner, and is acknowledged", async () => {
    const user = await createUser();
    const key = await keyWithWebhook(user);
    answer = () => 500;
    const t0 = Date.now() + 3600_000; // later than the background job's clock: only the batch below sends it
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 3 }, t0);
    useTestServices({ clock: { now: () => t0 } });
    const queue = recordingQueue();
    const batch = createMessageBatch("virtual-numbers-deliveries", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "webhook", target: key.id } }]);
    const ctx = createExecutionContext();
    await worker.queue!(batch, queue.env, ctx);
    const result = await getQueueResult(batch, ctx);
    useTestServices({ clock: null });
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    expect((await events(key.id))[0]).toMatchObject({ attempts: 1, last_response_code: 500, status: "pending", next_attempt_at: t0 + RETRY_DELAYS_MS[0] });
    expect(queue.sent).toEqual([{ body: { kind: "webhook", target: key.id }, delaySeconds: RETRY_DELAYS_MS[0] / 1000 }]);
    expect(received).toHaveLength(1);
  });

  it("per order, a later event never overtakes an earlier one that is being retried; other orders go on", async () => {
    const user = await createUser();
    const key = await keyWithWebhook(user);
    const t0 = Date.now() + 3600_000;
    await queueWebhookEvents(env, user.id, { kind: "rental.sms", rentalId: "r-A", sender: "Bank", text: "Your code is 111111", code: "111111" }, t0);
    await queueWebhookEvents(env, user.id, { kind: "rental.ended", rentalId: "r-A", status: "ended", refunded: false }, t0 + 1);
    await queueWebhookEvents(env, user.id, { kind: "rental.sms", rentalId: "r-B", sender: "Shop", text: "Code 222222", code: "222222" }, t0 + 2);

    answer = (r) => (r.json.type === "rental.sms" && r.json.data.rental_id === "r-A" ? 500 : 200);
    await deliverDueWebhooks(env, key.id, t0 + 10, receive);
    // r-A's first message failed: its rental.ended waits; r-B's message went out.
    expect(received.map((r) => `${r.json.type}:${r.json.data.rental_id}`)).toEqual(["rental.sms:r-A", "rental.sms:r-B"]);

    answer = () => 200;
    await deliverDueWebhooks(env, key.id, t0 + 10 + RETRY_DELAYS_MS[0], receive);
    expect(received.map((r) => `${r.json.type}:${r.json.data.rental_id}`)).toEqual([
      "rental.sms:r-A",
      "rental.sms:r-B",
      "rental.sms:r-A",
      "rental.ended:r-A",
    ]);
    expect((await events(key.id)).every((e) => e.status === "delivered")).toBe(true);
  });

  it("a 'next route' chain moving on: sms.ended names the next order (next_order_id), an order that ends the chain names none", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const key = await keyWithWebhook(user);
    const bought = await api("/api/v1/sms/orders", {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "idempotency-key": crypto.randomUUID() },
      json: { provider: "Swift", country: "5", service: "sbxnosms", next_route: { cap: 5000 } },
    });
    expect(bought.status).toBe(201);
    // The USA 'Sandbox No-SMS' number runs out of polls: refunded, and the chain buys the next route.
    await env.DB.prepare("UPDATE sms_orders SET attempts = 14 WHERE id = ?").bind(bought.data.id).run();
    await pollOnce(bought.data.id);
    const next = (await env.DB.prepare("SELECT id FROM sms_orders WHERE chain_id = ? AND chain_step = 2").bind(bought.data.id).first<{ id: string }>())?.id;
    expect(next).toBeTruthy();
    await vi.waitFor(() => expect(received.some((r) => r.json.type === "sms.ended")).toBe(true), { timeout: 10_000 });
    const ended = received.find((r) => r.json.type === "sms.ended")!;
    expect(ended.json.data).toEqual({
      order_id: bought.data.id,
      status: "timeout",
      refunded: true,
      next_order_id: next,
      url: expect.stringMatching(new RegExp(`/api/v1/sms/orders/${bought.data.id}$`)),
    });

    // An order nothing follows (the chain's last, or any plain order) says so with null, not a missing field.
    await queueWebhookEvents(env, user.id, { kind: "sms.ended", orderId: next!, status: "timeout", refunded: true, message: "⏰ Timeout: No code received" }, Date.now());
    await vi.waitFor(() => expect(received.filter((r) => r.json.type === "sms.ended")).toHaveLength(2), { timeout: 10_000 });
    expect(received.filter((r) => r.json.type === "sms.ended")[1].json.data).toMatchObject({ order_id: next, status: "timeout", next_order_id: null });
  });

  it("a refunded rental.ended also queues balance.changed (read when queued), like a refunded sms.ended; an unrefunded one does not", async () => {
    const user = await createUser({ balanceKobo: 150_000 });
    const key = await keyWithWebhook(user);
    const t0 = Date.now() + 3600_000;
    await queueWebhookEvents(env, user.id, { kind: "rental.ended", rentalId: "r-C", status: "cancelled", refunded: true }, t0);
    await queueWebhookEvents(env, user.id, { kind: "rental.ended", rentalId: "r-D", status: "ended", refunded: false }, t0 + 10);
    const queued = (await events(key.id)).map((e) => ({ type: e.type, data: JSON.parse(String(e.payload)).data }));
    expect(queued).toEqual([
      { type: "rental.ended", data: expect.objectContaining({ rental_id: "r-C", status: "cancelled", refunded: true }) },
      { type: "balance.changed", data: { balance: 1500, currency: "NGN" } },
      { type: "rental.ended", data: expect.objectContaining({ rental_id: "r-D", status: "ended", refunded: false }) },
    ]);
  });

  it("resend delivers an event again with the same id; only the key's owner can resend or read the log", async () => {
    const user = await createUser();
    const key = await keyWithWebhook(user);
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 42 }, Date.now());
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    const [event] = (await api(`/api/keys/${key.id}/webhook/events`, { token: user.token })).data.data;
    await vi.waitFor(async () => expect((await events(key.id))[0].status).toBe("delivered"));

    const resent = await api(`/api/keys/${key.id}/webhook/events/${event.id}/resend`, { method: "POST", token: user.token });
    expect(resent.status).toBe(200);
    expect(resent.data).toMatchObject({ id: event.id, status: "pending", attempts: 0 });
    await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 10_000 });
    expect(received[1].json).toEqual(received[0].json);
    await vi.waitFor(async () => expect((await events(key.id))[0]).toMatchObject({ status: "delivered", attempts: 1 }));

    const stranger = await createUser();
    expect((await api(`/api/keys/${key.id}/webhook/events`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/api/keys/${key.id}/webhook/events/${event.id}/resend`, { method: "POST", token: stranger.token })).status).toBe(404);
    expect((await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: stranger.token, json: { url: HOOK } })).status).toBe(404);
    expect((await api(`/api/keys/${key.id}/webhook/events/evt_nope/resend`, { method: "POST", token: user.token })).status).toBe(404);
    expect(received).toHaveLength(2);
  });

  it("the URL must be https (400 otherwise); a revoked key's queued events fail instead of being sent", async () => {
    const user = await createUser();
    const key = await createKey(user);
    for (const url of ["ftp://hooks.example.com/x", "not a url", "https://user:pw@hooks.example.com/"]) {
      const res = await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url } });
      expect(res.status, url).toBe(400);
      expect(res.data.code).toBe("VALIDATION_FAILED");
    }
    // Plain http only where our own PUBLIC_URL is http (local development, as these tests run): on an https deployment
    // it is refused.
    const httpsDeployment = { ...(env as Env), PUBLIC_URL: "https://app.example.ng" } as Env;
    await expect(setWebhookUrl(httpsDeployment, user.id, key.id, "http://hooks.example.com/x", Date.now())).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await api("/api/keys", { token: user.token })).data.data[0].webhook_url).toBeNull();

    await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url: HOOK } });
    const t0 = Date.now() + 3600_000;
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 7 }, t0);
    await api(`/api/keys/${key.id}/revoke`, { method: "POST", token: user.token });
    expect(await deliverDueWebhooks(env, key.id, t0, receive)).toBeNull();
    expect(received).toHaveLength(0);
    expect((await events(key.id))[0]).toMatchObject({ status: "failed", last_error: "key revoked" });
    // A revoked key queues nothing new.
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 8 }, Date.now());
    expect(await events(key.id)).toHaveLength(1);
  });

  it("a test key hears its sandbox account's events (a free top-up is balance.changed); the live key hears none of them", async () => {
    const user = await createUser({ balanceKobo: 50_000 });
    const live = await keyWithWebhook(user, "live");
    const test = await keyWithWebhook(user, "test");
    const topUp = await api("/api/keys/sandbox/top-up", { token: user.token, json: { amount: 5000 } });
    expect(topUp.status).toBe(200);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    expect(received[0].json).toMatchObject({ type: "balance.changed", data: { balance: 5000, currency: "NGN" } });
    expect(new Webhook(test.webhookSecret).verify(received[0].body, received[0].headers)).toBeTruthy();
    expect(() => new Webhook(live.webhookSecret).verify(received[0].body, received[0].headers)).toThrow();
    expect(await events(live.id)).toHaveLength(0);
  });
});
