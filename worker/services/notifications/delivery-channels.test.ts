import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import type { RealtimeMessage } from "../../../schema/realtime";
import { configFor } from "../../config";
import { sessions } from "../../db/tables";
import { subscribeSandboxDevice, webPushSandboxRoutes } from "../../sandbox/web-push-service";
import { api, createUser, db, type TestUser } from "../../test/helpers";
import { testServices, useTestUpstreams } from "../../test/services";
import { clearSettingsCache, deliverEvents, outboxInsert, putSetting } from "../kernel";
import { deliverDueChannels } from "./delivery-channels";
import { setForwardingDefaults, updatePushPreferences } from "./notification-settings";
import { registerPushDevice } from "./push-devices";
import { channelDeliveries, pushSubscriptions } from "./tables";

// Issue 47: an outbox event reaches each of the customer's devices once, as the device should show it, and a rental's
// messages reach where the customer forwards them once, retried until they arrive.

const config = () => configFor(env);

async function device(user: TestUser, label = "Phone") {
  const sub = await subscribeSandboxDevice(env, config().vapid!.publicKey, label);
  const view = await registerPushDevice(db(), config(), { userId: user.id, sessionId: user.sessionId, userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/130" }, { endpoint: sub.endpoint, keys: sub.keys }, Date.now());
  return { sub, view };
}

async function shown(deviceId: string) {
  const res = await webPushSandboxRoutes.request(`/devices.json?device=${deviceId}`, {}, env);
  const body = (await res.json()) as { data: Array<{ shown: Array<Record<string, unknown>>; received: Array<{ status: number; payload?: string }> }> };
  return body.data[0];
}

let events = 0;

/**
 * The outbox's delivery as production runs it, except that the channel object is not woken: each test sends when it
 * chooses (sendNow), so what happens between the fan-out and the send is the test's to arrange.
 */
function eventDeps() {
  const services = testServices();
  return { ...services.events, channels: { ...services.channels, kick: async () => undefined } };
}

/** Writes one event as a money transition's batch would, delivers it (the outbox's one path), then sends. */
async function queue(user: TestUser, message: RealtimeMessage) {
  events += 1;
  const deps = eventDeps();
  await outboxInsert(deps.db, { userId: user.id, dedupe: `test:${user.id}:${events}`, message, at: Date.now() }).run();
  await deliverEvents(deps, user.id);
}

async function tell(user: TestUser, message: RealtimeMessage) {
  await queue(user, message);
  await sendNow(user);
}

/** What the customer's channel object does when woken. */
async function sendNow(user: TestUser) {
  await deliverDueChannels(testServices(), user.id);
}

const code = (orderId: string, c = "482913"): RealtimeMessage => ({ kind: "sms.code", orderId, code: c, number: "2348012345678" });

afterEach(async () => {
  useTestUpstreams({ push: null, webhooks: null });
});

describe("Web Push from the outbox", () => {
  it("shows the code on the device, tagged by its order, linking to that order in the web client", async () => {
    const user = await createUser();
    const { sub } = await device(user);
    await tell(user, code("ord_push_1"));
    const report = await shown(sub.id);
    expect(report.shown).toEqual([
      expect.objectContaining({
        kind: "sms.code",
        tag: "sms:ord_push_1",
        title: "Code 482913",
        body: "Received on +2348012345678",
        url: `${config().webClient.base}sms/1?order=ord_push_1`,
      }),
    ]);
  });

  it("sends each event once per device, however often delivery and the sender run", async () => {
    const user = await createUser();
    const phone = await device(user, "Phone");
    const laptop = await device(user, "Laptop");
    await tell(user, code("ord_once"));
    // The sweep's and a retried delivery's second passes find nothing more to send.
    await deliverEvents(eventDeps(), user.id);
    await sendNow(user);
    await sendNow(user);
    for (const d of [phone, laptop]) {
      const report = await shown(d.sub.id);
      expect(report.received.filter((r) => r.status === 201)).toHaveLength(1);
    }
    const rows = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id));
    expect(rows.map((r) => [r.channel, r.status])).toEqual([
      ["push", "delivered"],
      ["push", "delivered"],
    ]);
  });

  it("hides the code from the lock screen when asked: the encrypted payload does not carry it at all", async () => {
    const user = await createUser();
    const { sub } = await device(user);
    await updatePushPreferences(db(), config(), { userId: user.id, sessionId: user.sessionId, email: user.email }, { hide_code: true }, Date.now());
    await tell(user, code("ord_hidden", "771203"));
    await tell(user, { kind: "rental.sms", rentalId: "rnt_hidden", sender: "Google", text: "G-771204 is your Google verification code.", code: "771204" });
    const report = await shown(sub.id);
    expect(report.shown).toEqual([
      expect.objectContaining({ tag: "rental:rnt_hidden", title: "SMS from Google", body: "A message came to your rented number. Open the app to read it." }),
      expect.objectContaining({ tag: "sms:ord_hidden", title: "Your code arrived", body: "A code came for +2348012345678. Open the app to see it." }),
    ]);
    const payloads = await env.DB.prepare("SELECT payload FROM sandbox_push_messages WHERE device_id = ?").bind(sub.id).all<{ payload: string }>();
    expect(payloads.results.map((r) => r.payload).join()).not.toMatch(/77120[34]/);
  });

  it("pushes only the kinds the customer keeps on (refunds, payments and reminders too)", async () => {
    const user = await createUser();
    const { sub } = await device(user);
    await updatePushPreferences(db(), config(), { userId: user.id, sessionId: user.sessionId, email: user.email }, { kinds: { "sms.code": false } }, Date.now());
    await tell(user, code("ord_muted"));
    await tell(user, { kind: "sms.ended", orderId: "ord_refunded", status: "timeout", refunded: true, message: "No code came in time, so your ₦500.00 is back in your wallet." });
    await tell(user, { kind: "sms.ended", orderId: "ord_cancel", status: "cancelled", refunded: false, message: "Cancelled." });
    await tell(user, { kind: "payment.credited", paymentId: "pay_1", amount: 5000, balance: 5000 });
    await tell(user, { kind: "balance.changed", balance: 10 });
    const report = await shown(sub.id);
    expect(report.shown.map((n) => [n.kind, n.tag, n.title])).toEqual([
      ["payment.credited", "payment:pay_1", "₦5,000.00 added to your wallet"],
      ["refund", "sms:ord_refunded", "Order refunded"],
    ]);
  });

  it("gives a signed-out session's device nothing, and drops what was queued before it signed out", async () => {
    const user = await createUser();
    const { sub } = await device(user);
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    await tell(user, code("ord_after_signout"));
    expect((await shown(sub.id)).received).toEqual([]);
    expect(await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id))).toEqual([]);

    const other = await createUser();
    const second = await device(other);
    await queue(other, code("ord_queued"));
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, other.sessionId));
    await sendNow(other);
    expect((await shown(second.sub.id)).received).toEqual([]);
    const [row] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, other.id));
    expect(row).toMatchObject({ status: "dropped", lastError: "the device's session ended" });
  });

  it("forgets a device whose push service answers 410 Gone, and never pushes another customer's devices", async () => {
    const user = await createUser();
    const stranger = await createUser();
    const { sub, view } = await device(user);
    const theirs = await device(stranger);
    expect((await webPushSandboxRoutes.request(`/devices/${sub.id}/expire`, { method: "POST" }, env)).status).toBe(204);
    await tell(user, code("ord_gone"));
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, view.id))).toEqual([]);
    const [row] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id));
    expect(row).toMatchObject({ status: "dropped", lastStatus: 410 });
    expect((await shown(theirs.sub.id)).received).toEqual([]);
  });

  it("retries a push the push service could not take (503), then delivers it once", async () => {
    const user = await createUser();
    const { sub } = await device(user);
    let refusals = 1;
    useTestUpstreams({ push: async () => (refusals-- > 0 ? new Response("busy", { status: 503 }) : new Response(null, { status: 201 })) });
    await tell(user, code("ord_retry"));
    const [first] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id));
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatus: 503 });
    expect(first.nextAttemptAt).toBeGreaterThan(Date.now());
    // Its retry time comes: the sender runs again.
    await db().update(channelDeliveries).set({ nextAttemptAt: Date.now() }).where(eq(channelDeliveries.id, first.id));
    await sendNow(user);
    const [second] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.id, first.id));
    expect(second).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 201 });
    expect(sub.id).toBeTruthy();
  });
});

describe("rental forwarding", () => {
  beforeAll(async () => {
    await putSetting(db(), "exchange_rate", { rate: 1600 });
    await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
    clearSettingsCache();
  });

  async function rentWithMessage(user: TestUser): Promise<string> {
    const res = await api("/api/rent-number", { token: user.token, json: { countryId: "5", duration: "hour", period: 1 } });
    expect(res.status).toBe(201);
    const id: string = res.data.rental.id;
    // The sandbox's first SMS is there at once; opening the inbox reads it (and tells it, once).
    const inbox = await api(`/api/rentals/${id}`, { token: user.token });
    expect(inbox.data.messages).toHaveLength(1);
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_o, state) => state.storage.deleteAlarm());
    await sendNow(user);
    return id;
  }

  it("e-mails every message to the account's address with its sender, full text and code, once", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    await setForwardingDefaults(db(), config(), { userId: user.id, sessionId: user.sessionId, email: user.email }, { email: true, webhook_url: null }, Date.now());
    await rentWithMessage(user);
    await sendNow(user);
    const mail = await api(`/sandbox/outbox.json?to=${encodeURIComponent(user.email)}`);
    const forwarded = mail.data.data.filter((m: { subject: string }) => m.subject.startsWith("Code "));
    expect(forwarded).toHaveLength(1);
    const [message] = forwarded;
    const [stored] = (await env.DB.prepare("SELECT sender, text, code FROM rental_messages m JOIN rentals r ON r.id = m.rental_id WHERE r.user_id = ?").bind(user.id).all<{ sender: string; text: string; code: string }>()).results;
    expect(message.subject).toContain(stored.code);
    expect(message.body).toContain(`From: ${stored.sender}`);
    expect(message.body).toContain(`Code: ${stored.code}`);
    expect(message.body).toContain(stored.text);
  });

  it("posts every message to the webhook URL, signed like the developer webhooks, retried until it arrives, once", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const posts: { url: string; headers: Headers; body: string }[] = [];
    let failures = 1;
    useTestUpstreams({
      webhooks: async (url, init) => {
        posts.push({ url, headers: new Headers(init.headers), body: String(init.body) });
        return failures-- > 0 ? new Response("down", { status: 500 }) : new Response("ok");
      },
    });
    const view = await setForwardingDefaults(db(), config(), { userId: user.id, sessionId: user.sessionId, email: user.email }, { email: false, webhook_url: "https://hooks.example.ng/rental-sms" }, Date.now());
    await rentWithMessage(user);
    expect(posts).toHaveLength(1);
    const [row] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id));
    expect(row).toMatchObject({ channel: "webhook", status: "pending", lastStatus: 500 });
    await db().update(channelDeliveries).set({ nextAttemptAt: Date.now() }).where(eq(channelDeliveries.id, row.id));
    await sendNow(user);
    await sendNow(user);
    expect(posts).toHaveLength(2);
    const [first, second] = posts;
    expect(second.url).toBe("https://hooks.example.ng/rental-sms");
    // The same delivery both times: one webhook-id, so a receiver that got the first keeps one.
    expect(second.headers.get("webhook-id")).toBe(first.headers.get("webhook-id"));
    const verified = new Webhook(view.forwarding.webhook_secret!).verify(second.body, Object.fromEntries(second.headers)) as { type: string; data: Record<string, unknown> };
    expect(verified.type).toBe("rental.sms");
    expect(verified.data).toMatchObject({ sender: expect.any(String), text: expect.any(String), code: expect.any(String) });
    const [done] = await db().select().from(channelDeliveries).where(eq(channelDeliveries.id, row.id));
    expect(done).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("carries the rental's reminders (ends in an hour, renews soon) to its push devices and its webhook, once each", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const posts: { type: string; data: Record<string, unknown> }[] = [];
    useTestUpstreams({
      webhooks: async (_url, init) => {
        posts.push(JSON.parse(String(init.body)) as { type: string; data: Record<string, unknown> });
        return new Response("ok");
      },
    });
    await setForwardingDefaults(db(), config(), { userId: user.id, sessionId: user.sessionId, email: user.email }, { email: true, webhook_url: "https://hooks.example.ng/rentals" }, Date.now());
    const { sub } = await device(user);
    const id = await rentWithMessage(user);
    posts.length = 0;
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    const ending: RealtimeMessage = { kind: "rental.ending", rentalId: id, endsAt };
    await tell(user, ending);
    expect((await shown(sub.id)).shown[0]).toMatchObject({ kind: "rental.reminder", tag: `rental:${id}`, title: "Your rental ends in about an hour" });
    await tell(user, { kind: "rental.renewing", rentalId: id, renewsAt: endsAt, price: 900, funded: false });
    // The same event delivered again (a sweep after a lost answer) sends nothing more.
    await deliverEvents(eventDeps(), user.id);
    await sendNow(user);

    expect(posts.map((p) => p.type)).toEqual(["rental.ending", "rental.renewing"]);
    expect(posts[0].data).toMatchObject({ rental_id: id, ends_at: endsAt });
    // The rent room e-mails every reminder itself: forwarding to e-mail adds none (only the message's e-mail).
    const rows = await db().select().from(channelDeliveries).where(eq(channelDeliveries.userId, user.id));
    expect(rows.filter((r) => r.channel === "email")).toHaveLength(1);
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    // One notification per rental on the device: each reminder replaced the one before (same tag), the last shown.
    const report = await shown(sub.id);
    expect(report.received.filter((r) => r.status === 201)).toHaveLength(3);
    expect(report.shown).toHaveLength(1);
    expect(report.shown[0]).toMatchObject({ kind: "rental.reminder", tag: `rental:${id}`, title: "Your rental renews soon", replaced: 2 });
    expect(String(report.shown[0].body)).toContain("your wallet is short");
  });
});
