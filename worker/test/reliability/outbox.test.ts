import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { configFor } from "../../config";
import { stoppingAfterTheEventBatch } from "../fault-seams";
import { useTestUpstreams } from "../services";
import { createKey } from "../api-fixtures";
import { fixedClock, recordingNotify } from "../flow-deps";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../helpers";
import { setSquadSimulator, startCardPaymentViaApi } from "../payment-fixtures";
import { topUpSandbox } from "../../services/developer";
import { acceptTransferNotice, confirmCardPayment } from "../../services/funding";
import { simulateTransfer } from "../../sandbox/squad-transfers";
import type { DynamicNotice } from "../../providers/payments/squad-transfer-webhooks";
import { deliverEvents, LOST_JOB_MS, OUTBOX_GRACE_MS, sandboxUserIdFor, sweepOutbox } from "../../services/kernel";
import { paymentDeps } from "../../test/services";

vi.setConfig({ testTimeout: 60_000 });

/** What the developer's endpoints received, per URL. */
let received: { url: string; id: string; body: { type: string; data: Record<string, unknown> } }[] = [];

beforeEach(() => {
  received = [];
  useTestUpstreams({
    webhooks: async (url, init) => {
      received.push({ url, id: new Headers(init.headers).get("webhook-id")!, body: JSON.parse(String(init.body)) });
      return new Response("ok");
    },
  });
});
afterEach(async () => {
  useTestUpstreams({ webhooks: null });
  await expectLedgerBalanced();
});

async function endpoint(user: TestUser, url: string) {
  const key = await createKey(user);
  const res = await api(`/api/keys/${key.id}/webhook`, { method: "PUT", token: user.token, json: { url } });
  expect(res.status).toBe(200);
  return key;
}

async function outboxRows(userId: string) {
  const { results } = await env.DB.prepare("SELECT kind, delivered_at FROM outbox_events WHERE user_id = ?").bind(userId).all<{ kind: string; delivered_at: number | null }>();
  return results;
}

async function webhookRows(keyId: string) {
  const { results } = await env.DB.prepare("SELECT id, type FROM webhook_events WHERE api_key_id = ?").bind(keyId).all<{ id: string; type: string }>();
  return results;
}

describe("events written with the money (services/kernel/outbox.ts, decision 040)", () => {
  it("a card credit whose worker stops right after its batch is still told: the sweep delivers it once to the room and once to each webhook endpoint", async () => {
    const user = await createUser();
    const first = await endpoint(user, "https://hooks.example.com/first");
    const second = await endpoint(user, "https://hooks.example.com/second");
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success" });

    const at = Date.now();
    const pushes = recordingNotify();
    const deferred: Promise<unknown>[] = [];
    const built = paymentDeps(env, configFor(env), (work: Promise<unknown>) => void deferred.push(work));
    const dying = { ...built, db: stoppingAfterTheEventBatch(built.db), clock: fixedClock(at), notify: pushes.notify };

    // The money moved and the answer is the same; the delivery after the batch never ran.
    expect(await confirmCardPayment(dying, ref)).toBe("success");
    await Promise.all(deferred);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await outboxRows(user.id)).toEqual([{ kind: "payment.credited", delivered_at: null }]);
    expect(pushes.sent).toEqual([]);
    expect(await webhookRows(first.id)).toEqual([]);

    // A new worker: the cron sweep, and a late delivery racing it, deliver the event once.
    const sweepDeps = { env, db: db(), notify: pushes.notify, clock: fixedClock(at + OUTBOX_GRACE_MS + 1) };
    const [swept] = await Promise.all([sweepOutbox(sweepDeps), deliverEvents(sweepDeps, user.id), deliverEvents(sweepDeps, user.id)]);
    expect(swept.delivered).toBeLessThanOrEqual(1);
    await sweepOutbox(sweepDeps); // a second sweep finds nothing left
    expect(await outboxRows(user.id)).toEqual([{ kind: "payment.credited", delivered_at: expect.any(Number) }]);
    expect(pushes.sent).toEqual([{ userId: user.id, message: { kind: "payment.credited", paymentId: ref, amount: 5000, balance: 5000 } }]);

    await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 15_000 });
    const byUrl = (url: string) => received.filter((r) => r.url === url);
    for (const [key, url] of [[first, "https://hooks.example.com/first"], [second, "https://hooks.example.com/second"]] as const) {
      expect(byUrl(url)).toHaveLength(1);
      expect(byUrl(url)[0].body).toMatchObject({ type: "balance.changed", data: { balance: 5000, currency: "NGN" } });
      expect((await webhookRows(key.id)).map((r) => r.id)).toEqual([byUrl(url)[0].id]);
    }
  });

  it("a bank transfer credited, and a card that failed, by a worker that stops right after the batch are still told once (issue 42: transfers and failures)", async () => {
    const user = await createUser();
    const key = await endpoint(user, "https://hooks.example.com/transfers");
    const started = await api("/api/transfers", { token: user.token, json: { amount: 5000 } });
    expect(started.status).toBe(200);
    const n = await simulateTransfer(env, { accountNumber: started.data.account_number, amountKobo: 500_000 });
    const card = await startCardPaymentViaApi(user, 3000);
    await setSquadSimulator(card, { status: "Failed" });

    const pushes = recordingNotify();
    const dyingDeps = () => {
      const built = paymentDeps(env, configFor(env), () => {});
      return { ...built, db: stoppingAfterTheEventBatch(built.db), notify: pushes.notify };
    };
    // Each worker stops right after its money batch: the money moved, the event waits in the outbox.
    expect(await acceptTransferNotice(dyingDeps(), { kind: "dynamic", notice: n.body as unknown as DynamicNotice })).toBe("credited");
    expect(await confirmCardPayment(dyingDeps(), card)).toBe("failed");
    expect(await balanceOf(user.id)).toBe(500_000);
    expect((await outboxRows(user.id)).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "payment.credited", delivered_at: null },
      { kind: "payment.failed", delivered_at: null },
    ]);
    expect(pushes.sent).toEqual([]);

    const sweepDeps = { env, db: db(), notify: pushes.notify, clock: fixedClock(Date.now() + OUTBOX_GRACE_MS + 1) };
    await Promise.all([sweepOutbox(sweepDeps), deliverEvents(sweepDeps, user.id)]);
    expect(pushes.sent.filter((p) => p.userId === user.id).map((p) => p.message.kind).sort()).toEqual(["payment.credited", "payment.failed"]);
    await vi.waitFor(() => expect(received.filter((r) => r.url === "https://hooks.example.com/transfers")).toHaveLength(2), { timeout: 15_000 });
    expect(received.map((r) => r.body.type).sort()).toEqual(["balance.changed", "payment.failed"]);
    expect(received.find((r) => r.body.type === "payment.failed")!.body.data).toEqual({ payment_id: card, status: "failed", message: "Transaction not successful" });
    expect(await webhookRows(key.id)).toHaveLength(2);
  });

  it("a delivery job lost between enqueue and run is re-enqueued by the sweep once it is LOST_JOB_MS late, and the event is posted once", async () => {
    const user = await createUser();
    const key = await endpoint(user, "https://hooks.example.com/rekick");
    // A pending webhook row whose queue job was lost (the worker stopped after the delivery batch, before enqueueing).
    const at = Date.now();
    await env.DB.prepare(
      "INSERT INTO webhook_events (id, api_key_id, type, subject, dedupe_key, payload, status, attempts, next_attempt_at, created_at) VALUES (?, ?, 'balance.changed', 'wallet', ?, ?, 'pending', 0, ?, ?)",
    )
      .bind(`evt_rekick_${key.id}`, key.id, "rekick", JSON.stringify({ id: `evt_rekick_${key.id}`, type: "balance.changed", created_at: new Date(at).toISOString(), data: { balance: 1, currency: "NGN" } }), at, at)
      .run();
    // Not yet: a live job would still be on its way.
    await sweepOutbox({ env, db: db(), notify: recordingNotify().notify, clock: fixedClock(at + LOST_JOB_MS - 1000) });
    expect(received.filter((r) => r.id === `evt_rekick_${key.id}`)).toHaveLength(0);
    // Two sweeps past the limit both re-enqueue the key's job (two jobs): the event's claim posts it once.
    const late = { env, db: db(), notify: recordingNotify().notify, clock: fixedClock(at + LOST_JOB_MS + 1) };
    const [first, second] = await Promise.all([sweepOutbox(late), sweepOutbox(late)]);
    expect(first.kicked).toBeGreaterThanOrEqual(1);
    expect(second.kicked).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(received.filter((r) => r.id === `evt_rekick_${key.id}`)).toHaveLength(1), { timeout: 15_000 });
    const status = () => env.DB.prepare("SELECT status FROM webhook_events WHERE api_key_id = ?").bind(key.id).first<{ status: string }>();
    await vi.waitFor(async () => expect(await status()).toEqual({ status: "delivered" }), { timeout: 15_000 });
    // Both jobs ran by now (the second found the event delivered): still one post.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received.filter((r) => r.id === `evt_rekick_${key.id}`)).toHaveLength(1);
  });

  it("a money change whose batch fails writes no event", async () => {
    const user = await createUser();
    const sandboxId = sandboxUserIdFor(user.id);
    // A debit the sandbox wallet cannot pay: the balance CHECK fails the batch, its ledger row and its event with it.
    await expect(topUpSandbox(db(), { id: user.id, username: "outbox" }, -100_000, Date.now())).rejects.toThrow();
    expect(await outboxRows(sandboxId)).toEqual([]);
    // The same call that succeeds writes exactly one event, with the balance its batch left.
    await topUpSandbox(db(), { id: user.id, username: "outbox" }, 250_000, Date.now());
    const { results } = await env.DB.prepare("SELECT kind, balance_kobo FROM outbox_events WHERE user_id = ?").bind(sandboxId).all();
    expect(results).toEqual([{ kind: "balance.changed", balance_kobo: 250_000 }]);
  });
});
