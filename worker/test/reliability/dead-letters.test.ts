import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import worker from "../../index";
import { DELIVERY_DEAD_LETTER_QUEUE, DELIVERY_QUEUE, failedJobDelaySeconds, runDeliveryJob } from "../../deliveries";
import { queueWebhookEvents, RETRY_DELAYS_MS, type WebhookSend } from "../../services/kernel";
import { createKey } from "../api-fixtures";
import { api, createUser } from "../helpers";
import { makeOperator } from "../operators";
import { testServices, useTestServices, useTestUpstreams } from "../services";
import { fixedClock } from "../flow-deps";

/**
 * Issue 44 (decision 073): a delivery given up lands in the dead letters, the console lists it and replays it (audited),
 * and the replay delivers it once; a job that throws is retried by the queue with backoff, and one the queue gives up
 * on is recorded by the dead-letter queue's consumer.
 */

let posts: { id: string; url: string }[] = [];
let answer = 503;
const receive: WebhookSend = async (url, init) => {
  posts.push({ id: new Headers(init.headers).get("webhook-id") ?? "", url });
  return new Response("no", { status: answer });
};

beforeEach(() => {
  posts = [];
  answer = 503;
  useTestUpstreams({ webhooks: receive });
});
afterEach(() => useTestServices({ upstreams: { webhooks: null }, clock: null }));

async function keyWithWebhook(url: string) {
  const user = await createUser();
  const key = await createKey(user);
  expect((await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url } })).status).toBe(200);
  return { user, key };
}

async function eventRow(keyId: string) {
  return env.DB.prepare("SELECT id, status, attempts FROM webhook_events WHERE api_key_id = ?").bind(keyId).first<{ id: string; status: string; attempts: number }>();
}

describe("delivery dead letters", () => {
  it("a webhook failing for 24 hours lands in the dead letters, shows in the console, and its replay posts it once when the receiver works", async () => {
    const { user, key } = await keyWithWebhook("https://hooks.example.com/always-down");
    // Ahead of the real clock, so the queue's own background job finds nothing due and only the runs below send.
    const t0 = Date.now() + 3600_000;
    await queueWebhookEvents(env, user.id, { kind: "balance.changed", balance: 42 }, t0);
    let now = t0;
    for (let next: number | null = t0; next !== null; next = await runDeliveryJob(testServices({ clock: fixedClock(now) }), { kind: "webhook", target: key.id })) now = next;
    const failed = await eventRow(key.id);
    expect(failed).toMatchObject({ status: "failed", attempts: RETRY_DELAYS_MS.length + 1 });
    expect(posts).toHaveLength(RETRY_DELAYS_MS.length + 1);

    const operator = await makeOperator();
    const customer = await createUser();
    expect((await api("/api/admin/dead-letters", { token: customer.token })).status).toBe(404);
    const listed = await api("/api/admin/dead-letters", { token: operator.token });
    expect(listed.status).toBe(200);
    const letter = (listed.data.data as { id: string; delivery_id: string | null }[]).find((l) => l.delivery_id === failed!.id);
    expect(letter).toMatchObject({ kind: "webhook", target: key.id, reason: "HTTP 503", attempts: RETRY_DELAYS_MS.length + 1, replayed_at: null });

    expect((await api(`/api/admin/dead-letters/${letter!.id}/replay`, { token: operator.token, json: {} })).status).toBe(400); // a reason is required
    expect((await api("/api/admin/dead-letters/not-an-id/replay", { token: operator.token, json: { reason: "x" } })).status).toBe(400);
    answer = 200;
    posts = [];
    const replayed = await api(`/api/admin/dead-letters/${letter!.id}/replay`, { token: operator.token, json: { reason: "the receiver is back up" } });
    expect(replayed.status).toBe(200);
    expect(replayed.data).toMatchObject({ id: letter!.id, replayed_by: operator.email });
    expect((await api(`/api/admin/dead-letters/${letter!.id}/replay`, { token: operator.token, json: { reason: "again" } })).status).toBe(409);
    const audit = await env.DB.prepare("SELECT reason, actor FROM audit_log WHERE action = 'delivery.dead_letter.replay' AND subject = ?").bind(`dead_letter:${letter!.id}`).all();
    expect(audit.results).toEqual([{ reason: "the receiver is back up", actor: operator.email }]);

    // The replay's job (the queue runs it in the background) and a second run of it: one post.
    await runDeliveryJob(testServices(), { kind: "webhook", target: key.id });
    await runDeliveryJob(testServices(), { kind: "webhook", target: key.id });
    expect(await eventRow(key.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(posts.filter((p) => p.id === failed!.id)).toHaveLength(1);
  });

  it("a job that throws is retried by the queue with backoff; one the queue gave up on is recorded from the dead-letter queue", async () => {
    const { key } = await keyWithWebhook("https://hooks.example.com/broken-db");
    const broken = { ...env, DB: new Proxy(env.DB, { get: (target, name) => (name === "prepare" ? () => { throw new Error("D1 unreachable"); } : Reflect.get(target, name)) }) };
    const batch = createMessageBatch(DELIVERY_QUEUE, [{ id: "m-broken", timestamp: new Date(), attempts: 3, body: { kind: "webhook", target: key.id } }]);
    const ctx = createExecutionContext();
    await worker.queue!(batch, broken, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([]);
    // Retried, not acknowledged (the pool's result does not carry the delay: failedJobDelaySeconds is the backoff it asks).
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["m-broken"]);
    expect([1, 2, 3, 7, 8].map(failedJobDelaySeconds)).toEqual([10, 20, 40, 600, 600]);

    const dead = createMessageBatch(DELIVERY_DEAD_LETTER_QUEUE, [
      { id: "d-1", timestamp: new Date(), attempts: 1, body: { kind: "webhook", target: key.id } },
      { id: "d-2", timestamp: new Date(), attempts: 1, body: { kind: "nonsense" } },
    ]);
    const deadCtx = createExecutionContext();
    await worker.queue!(dead, env, deadCtx);
    expect((await getQueueResult(dead, deadCtx)).explicitAcks.sort()).toEqual(["d-1", "d-2"]);
    const recorded = await env.DB.prepare("SELECT kind, delivery_id, reason FROM delivery_dead_letters WHERE target = ?").bind(key.id).all();
    expect(recorded.results).toEqual([{ kind: "webhook", delivery_id: null, reason: "the delivery job failed on every retry" }]);
  });
});
