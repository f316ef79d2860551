import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configFor } from "../config";
import { subscribeSandboxDevice } from "../sandbox/web-push-service";
import { api, createUser } from "../test/helpers";

// Issue 47 over HTTP: Settings → Notifications, a rental's forwarding and the service worker's renewal, with the bad
// input and attack list answered in the one error body.

const keys = { p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg" };

describe("Settings → Notifications", () => {
  it("answers the VAPID key, the devices of live sessions, every kind on and nothing forwarded by default", async () => {
    const user = await createUser();
    const res = await api("/api/notifications", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      push: {
        public_key: configFor(env).vapid!.publicKey,
        devices: [],
        kinds: { "sms.code": true, "rental.sms": true, "payment.credited": true, refund: true, "rental.reminder": true, withdrawal: true },
        hide_code: false,
      },
      forwarding: { email: false, email_address: user.email, webhook_url: null, telegram: true, webhook_secret: null },
    });
  });

  it("turns push on for this session's browser, lists it as this device, and removes it", async () => {
    const user = await createUser();
    const sub = await subscribeSandboxDevice(env, configFor(env).vapid!.publicKey);
    const added = await api("/api/notifications/devices", { token: user.token, json: { endpoint: sub.endpoint, keys: sub.keys, expirationTime: null }, headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1" } });
    expect(added.status).toBe(201);
    expect(added.data).toMatchObject({ label: "Safari on iOS", push_service: "web-push.sandbox.invalid", this_session: true, last_pushed_at: null });
    const listed = await api("/api/notifications", { token: user.token });
    expect(listed.data.push.devices.map((d: { id: string }) => d.id)).toEqual([added.data.id]);
    const removed = await api(`/api/notifications/devices/${added.data.id}`, { method: "DELETE", token: user.token });
    expect(removed).toMatchObject({ status: 200, data: { data: [] } });
  });

  it("saves the push choices and the lock-screen choice", async () => {
    const user = await createUser();
    const res = await api("/api/notifications/preferences", { method: "PUT", token: user.token, json: { kinds: { "payment.credited": false }, hide_code: true } });
    expect(res.status).toBe(200);
    expect(res.data.push).toMatchObject({ hide_code: true, kinds: { "sms.code": true, "payment.credited": false } });
  });

  it("asks for a recent sign-in proof before forwarding to a new webhook, and shows its signing secret", async () => {
    const user = await createUser();
    // createUser's session proved its password just now: a session that did so long ago is asked again.
    await env.DB.prepare("UPDATE sessions SET reauthenticated_at = ? WHERE id = ?").bind(Date.now() - 3600_000, user.sessionId).run();
    const refused = await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: true, webhook_url: "https://hooks.example.ng/sms" } });
    expect(refused.status).toBe(403);
    expect(refused.data.code).toBe("STEP_UP_REQUIRED");
    const mailOnly = await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: true, webhook_url: null } });
    expect(mailOnly.data.forwarding).toMatchObject({ email: true, webhook_url: null });
    await env.DB.prepare("UPDATE sessions SET reauthenticated_at = ? WHERE id = ?").bind(Date.now(), user.sessionId).run();
    const saved = await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: true, webhook_url: "https://hooks.example.ng/sms" } });
    expect(saved.status).toBe(200);
    expect(saved.data.forwarding.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});

describe("the bad input and attack list", () => {
  it("needs a session for everything but the service worker's renewal", async () => {
    for (const [path, method] of [
      ["/api/notifications", "GET"],
      ["/api/notifications/devices", "POST"],
      ["/api/notifications/preferences", "PUT"],
      ["/api/notifications/forwarding", "PUT"],
      ["/api/rentals/rnt_x/forwarding", "PUT"],
    ] as const) {
      const res = await api(path, { method, json: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("refuses endpoints that are not https or point at a private address, and oversized keys, in the one error body", async () => {
    const user = await createUser();
    const cases: [unknown, string][] = [
      [{ endpoint: "http://fcm.googleapis.com/fcm/send/x", keys }, "The push endpoint must start with https://."],
      [{ endpoint: "https://127.0.0.1:8921/push", keys }, "The push endpoint must be a public address, not localhost or a private network."],
      [{ endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: { ...keys, p256dh: "B".repeat(10_000) } }, "keys.p256dh is too long: it must be 65 octets in base64url."],
      [{ endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: { p256dh: keys.p256dh } }, "keys.auth is required."],
    ];
    for (const [body, message] of cases) {
      const res = await api("/api/notifications/devices", { token: user.token, json: body });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ message, error: message });
    }
    expect((await api("/api/notifications", { token: user.token })).data.push.devices).toEqual([]);
  });

  it("answers 404 for another customer's device and rental forwarding", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const device = await api("/api/notifications/devices", { token: owner.token, json: { endpoint: "https://fcm.googleapis.com/fcm/send/owned-1", keys } });
    expect(device.status).toBe(201);
    expect((await api(`/api/notifications/devices/${device.data.id}`, { method: "DELETE", token: stranger.token })).status).toBe(404);
    expect((await api("/api/rentals/rnt_not_yours/forwarding", { token: stranger.token })).status).toBe(404);
    expect((await api("/api/notifications", { token: owner.token })).data.push.devices).toHaveLength(1);
  });

  it("refuses a forwarding URL to localhost or a private range", async () => {
    const user = await createUser();
    for (const url of ["https://localhost/hook", "https://10.0.0.5/hook", "https://192.168.1.2:8443/x"]) {
      const res = await api("/api/notifications/forwarding", { method: "PUT", token: user.token, json: { email: false, webhook_url: url } });
      expect(res.status, url).toBe(400);
      expect(res.data.message).toBe("The forwarding URL must be a public address, not localhost or a private network.");
    }
  });

  it("renews a subscription from the service worker with the old one's proof, and 404s without it", async () => {
    const user = await createUser();
    await api("/api/notifications/devices", { token: user.token, json: { endpoint: "https://fcm.googleapis.com/fcm/send/renew-old", keys } });
    const fresh = { endpoint: "https://fcm.googleapis.com/fcm/send/renew-new", keys };
    const wrong = await api("/api/notifications/devices/renew", { json: { old_endpoint: "https://fcm.googleapis.com/fcm/send/renew-old", old_auth: "AAAAAAAAAAAAAAAAAAAAAA", subscription: fresh } });
    expect(wrong.status).toBe(404);
    const ok = await api("/api/notifications/devices/renew", { json: { old_endpoint: "https://fcm.googleapis.com/fcm/send/renew-old", old_auth: keys.auth, subscription: fresh } });
    expect(ok).toMatchObject({ status: 200, data: { renewed: true } });
    const listed = await api("/api/notifications", { token: user.token });
    expect(listed.data.push.devices.map((d: { push_service: string }) => d.push_service)).toEqual(["fcm.googleapis.com"]);
  });
});
