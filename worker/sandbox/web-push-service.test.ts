import { encryptNotification } from "@block65/webcrypto-web-push";
import { env } from "cloudflare:workers";
import { SignJWT, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { base64Url, createWebPushSender, fromBase64Url, topicFor, type VapidKeys } from "../providers/push/web-push";
import { SANDBOX_PUSH_ORIGIN, subscribeSandboxDevice, webPushSimulator } from "./web-push-service";

// The sandbox push service checks what RFC 8030, 8291 and 8292 ask of a push, and shows what the device would.
const toSimulator = (req: Request) => webPushSimulator.fetch(req, env);

async function vapidPair(): Promise<VapidKeys & { jwk: JsonWebKey }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const publicKey = base64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  return { publicKey, privateKey: jwk.d!, subject: "mailto:push@virtualnum.example", jwk };
}

async function device(vapid: VapidKeys) {
  return subscribeSandboxDevice(env, vapid.publicKey, "Test phone");
}

async function shownOn(deviceId: string) {
  const res = await webPushReports(deviceId);
  return res.shown;
}

async function webPushReports(deviceId: string) {
  const { webPushSandboxRoutes } = await import("./web-push-service");
  const res = await webPushSandboxRoutes.request(`/devices.json?device=${deviceId}`, {}, env);
  const body = (await res.json()) as { data: Array<{ shown: Array<Record<string, unknown>>; received: Array<{ status: number; problem: string | null }> }> };
  return body.data[0];
}

/** A push written by hand, so each header can be wrong on purpose. */
async function rawPush(
  endpoint: string,
  sub: { p256dh: string; auth: string },
  vapid: VapidKeys & { jwk: JsonWebKey },
  opts: { claims?: Record<string, unknown>; headers?: Record<string, string | null>; k?: string; body?: Uint8Array } = {},
) {
  const key = await importJWK(vapid.jwk, "ES256");
  const nowS = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ aud: SANDBOX_PUSH_ORIGIN, exp: nowS + 3600, sub: vapid.subject, ...opts.claims }).setProtectedHeader({ alg: "ES256", typ: "JWT" }).sign(key);
  const body =
    opts.body ?? (await encryptNotification({ endpoint, expirationTime: null, keys: sub }, new TextEncoder().encode('{"title":"Code 1","tag":"sms:o1"}'), { pad: false }));
  const headers: Record<string, string> = { authorization: `vapid t=${token}, k=${opts.k ?? vapid.publicKey}`, ttl: "60", urgency: "high", "content-encoding": "aes128gcm" };
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return toSimulator(new Request(endpoint, { method: "POST", headers, body }));
}

describe("the sandbox push service", () => {
  it("accepts our sender's push (201 with a Location), decrypts it and shows its notification", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    const sender = createWebPushSender(vapid, toSimulator);
    const payload = JSON.stringify({ v: 1, kind: "sms.code", title: "Code 482913", body: "WhatsApp · +2348012345678", tag: "sms:ord_1", url: "https://app.example/#/sms/1?order=ord_1" });
    const outcome = await sender.send({ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }, payload, { ttlSeconds: 900, urgency: "high", topic: await topicFor("sms:ord_1") });
    expect(outcome).toEqual({ kind: "delivered", status: 201 });
    expect(await shownOn(sub.id)).toEqual([
      expect.objectContaining({ kind: "sms.code", title: "Code 482913", body: "WhatsApp · +2348012345678", tag: "sms:ord_1", url: "https://app.example/#/sms/1?order=ord_1", replaced: 0 }),
    ]);
  });

  it("shows one notification per tag: a second push for the same order replaces the first", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    const sender = createWebPushSender(vapid, toSimulator);
    const target = { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth };
    const options = { ttlSeconds: 60, urgency: "high" as const, topic: "t1" };
    await sender.send(target, JSON.stringify({ title: "Code 1", tag: "sms:a" }), options);
    await sender.send(target, JSON.stringify({ title: "Code 2", tag: "sms:a" }), options);
    await sender.send(target, JSON.stringify({ title: "Paid", tag: "payment:p" }), options);
    const shown = await shownOn(sub.id);
    expect(shown.map((n) => [n.tag, n.title, n.replaced])).toEqual([
      ["payment:p", "Paid", 0],
      ["sms:a", "Code 2", 1],
    ]);
  });

  it("answers 404 for an unknown subscription and 410 Gone for an expired one", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    expect((await rawPush(`${SANDBOX_PUSH_ORIGIN}/push/dev_nobody`, sub.keys, vapid)).status).toBe(404);
    const { webPushSandboxRoutes } = await import("./web-push-service");
    expect((await webPushSandboxRoutes.request(`/devices/${sub.id}/expire`, { method: "POST" }, env)).status).toBe(204);
    expect((await rawPush(sub.endpoint, sub.keys, vapid)).status).toBe(410);
  });

  it("refuses a push without a valid VAPID JWT: no header, a wrong audience, an expired token, a forged signature (401)", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { headers: { authorization: null } })).status).toBe(401);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { claims: { aud: "https://fcm.googleapis.com" } })).status).toBe(401);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { claims: { exp: Math.floor(Date.now() / 1000) - 60 } })).status).toBe(401);
    const other = await vapidPair();
    // Signed by another key but claiming ours.
    expect((await rawPush(sub.endpoint, sub.keys, { ...other, publicKey: vapid.publicKey })).status).toBe(401);
    const report = await webPushReports(sub.id);
    expect(report.received.every((r) => r.status === 401 && r.problem)).toBe(true);
    expect(report.shown).toEqual([]);
  });

  it("refuses (403) an exp more than 24 hours ahead, no sub, and a key other than the one the subscription was made with", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    const res = await rawPush(sub.endpoint, sub.keys, vapid, { claims: { exp: Math.floor(Date.now() / 1000) + 25 * 3600 } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("24 hours");
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { claims: { sub: undefined } })).status).toBe(403);
    const other = await vapidPair();
    const wrongKey = await rawPush(sub.endpoint, sub.keys, other);
    expect(wrongKey.status).toBe(403);
    expect(await wrongKey.text()).toContain("RFC 8292 §4.2");
  });

  it("refuses the draft aesgcm scheme (415), a missing TTL, a bad Urgency or Topic (400), and more than 4096 octets (413)", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { headers: { "content-encoding": "aesgcm", encryption: "salt=abc", "crypto-key": "dh=abc" } })).status).toBe(415);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { headers: { ttl: null } })).status).toBe(400);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { headers: { urgency: "urgent" } })).status).toBe(400);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { headers: { topic: "a topic with spaces" } })).status).toBe(400);
    expect((await rawPush(sub.endpoint, sub.keys, vapid, { body: new Uint8Array(4097) })).status).toBe(413);
    expect(await shownOn(sub.id)).toEqual([]);
  });

  it("refuses (400) a payload encrypted to another device's keys", async () => {
    const vapid = await vapidPair();
    const sub = await device(vapid);
    const someoneElse = await device(vapid);
    const res = await rawPush(sub.endpoint, someoneElse.keys, vapid);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("does not decrypt");
    expect(fromBase64Url(sub.keys.p256dh).length).toBe(65);
  });
});
