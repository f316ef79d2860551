import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_PUSH_DEVICES, pushRenewalSchema, pushSubscriptionSchema, rentalForwardingSchema } from "../../../schema/notifications";
import { configFor } from "../../config";
import { sessions } from "../../db/tables";
import { subscribeSandboxDevice } from "../../sandbox/web-push-service";
import { createUser, db, type TestUser } from "../../test/helpers";
import { setForwardingDefaults } from "./notification-settings";
import { listPushDevices, registerPushDevice, removePushDevice, renewPushDevice } from "./push-devices";
import { setRentalForwarding } from "./rental-forwarding";
import { pushSubscriptions } from "./tables";

// Issue 47's bad input and attack list for the devices and the forwarding targets.

const config = () => configFor(env);
const owner = (u: TestUser) => ({ userId: u.id, sessionId: u.sessionId, userAgent: "Mozilla/5.0 Chrome/130" });
const keys = { p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg" };
let n = 0;
const endpoint = () => `https://fcm.googleapis.com/fcm/send/test-${Date.now()}-${++n}`;

async function refusal(work: Promise<unknown>) {
  const err = await work.then(
    () => null,
    (e: unknown) => e as { status: number; message: string },
  );
  expect(err).not.toBeNull();
  return { status: err!.status, message: err!.message };
}

describe("turning push on for a device", () => {
  it("refuses an endpoint that is not https or that points at localhost or a private network, with a sentence", async () => {
    const user = await createUser();
    for (const [url, message] of [
      ["http://fcm.googleapis.com/fcm/send/x", "The push endpoint must start with https://."],
      ["https://localhost/push", "The push endpoint must be a public address, not localhost or a private network."],
      ["https://10.1.2.3/push", "The push endpoint must be a public address, not localhost or a private network."],
      ["https://[::1]/push", "The push endpoint must be a public address, not localhost or a private network."],
      ["https://169.254.169.254/latest", "The push endpoint must be a public address, not localhost or a private network."],
    ] as const) {
      expect(await refusal(registerPushDevice(db(), config(), owner(user), { endpoint: url, keys }, Date.now())), url).toEqual({ status: 400, message });
    }
    expect(await listPushDevices(db(), owner(user), Date.now())).toEqual([]);
  });

  it("refuses oversized, short or malformed subscription keys before anything runs", () => {
    const parse = (k: Record<string, string>) => pushSubscriptionSchema.safeParse({ endpoint: "https://push.example.net/x", keys: k });
    expect(parse(keys).success).toBe(true);
    const oversized = parse({ ...keys, p256dh: keys.p256dh + "A".repeat(5000) });
    expect(oversized.success).toBe(false);
    expect(oversized.error?.issues[0]?.message).toBe("keys.p256dh is too long: it must be 65 octets in base64url.");
    expect(parse({ ...keys, auth: "A".repeat(400) }).error?.issues[0]?.message).toBe("keys.auth is too long: it must be 16 octets in base64url.");
    expect(parse({ ...keys, auth: "short" }).error?.issues[0]?.message).toBe("keys.auth must be 16 octets in base64url.");
    expect(parse({ ...keys, p256dh: `C${keys.p256dh.slice(1)}` }).error?.issues[0]?.message).toBe("keys.p256dh must be an uncompressed P-256 public key.");
    expect(pushSubscriptionSchema.safeParse({ endpoint: `https://push.example.net/${"x".repeat(1000)}`, keys }).success).toBe(false);
    expect(pushRenewalSchema.safeParse({ old_endpoint: "https://push.example.net/x", old_auth: "A".repeat(300), subscription: { endpoint: "https://push.example.net/y", keys } }).success).toBe(false);
  });

  it("lists only the customer's own devices, and another customer's device is 404 to remove", async () => {
    const user = await createUser();
    const stranger = await createUser();
    const mine = await registerPushDevice(db(), config(), owner(user), { endpoint: endpoint(), keys }, Date.now());
    const theirs = await registerPushDevice(db(), config(), owner(stranger), { endpoint: endpoint(), keys }, Date.now());
    expect((await listPushDevices(db(), owner(user), Date.now())).map((d) => [d.id, d.push_service, d.this_session])).toEqual([[mine.id, "fcm.googleapis.com", true]]);
    expect(await refusal(removePushDevice(db(), user.id, theirs.id, Date.now()))).toEqual({ status: 404, message: "Device not found." });
    expect(await listPushDevices(db(), owner(stranger), Date.now())).toHaveLength(1);
    await removePushDevice(db(), user.id, mine.id, Date.now());
    expect(await listPushDevices(db(), owner(user), Date.now())).toEqual([]);
  });

  it("does not let anyone take over a device by knowing its endpoint: the same endpoint moves only with the same keys", async () => {
    const user = await createUser();
    const attacker = await createUser();
    const url = endpoint();
    await registerPushDevice(db(), config(), owner(user), { endpoint: url, keys }, Date.now());
    const other = { p256dh: keys.p256dh, auth: "AAAAAAAAAAAAAAAAAAAAAA" };
    expect((await refusal(registerPushDevice(db(), config(), owner(attacker), { endpoint: url, keys: other }, Date.now()))).status).toBe(409);
    const [row] = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, url));
    expect(row.userId).toBe(user.id);
    // The same browser signing in again (its own keys) takes it to the new session.
    const again = await createUser();
    await db().update(pushSubscriptions).set({ userId: user.id }).where(eq(pushSubscriptions.endpoint, url));
    const moved = await registerPushDevice(db(), config(), owner(again), { endpoint: url, keys }, Date.now());
    expect(moved.this_session).toBe(true);
  });

  it(`holds ${MAX_PUSH_DEVICES} devices per account`, async () => {
    const user = await createUser();
    for (let i = 0; i < MAX_PUSH_DEVICES; i++) await registerPushDevice(db(), config(), owner(user), { endpoint: endpoint(), keys }, Date.now());
    expect((await refusal(registerPushDevice(db(), config(), owner(user), { endpoint: endpoint(), keys }, Date.now()))).status).toBe(409);
  });

  it("lists no device of a signed-out session", async () => {
    const user = await createUser();
    await registerPushDevice(db(), config(), owner(user), { endpoint: endpoint(), keys }, Date.now());
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    expect(await listPushDevices(db(), owner(user), Date.now())).toEqual([]);
  });
});

describe("pushsubscriptionchange: the service worker's renewal", () => {
  it("moves the device to its new subscription when the old endpoint and auth secret are proven", async () => {
    const user = await createUser();
    const old = await subscribeSandboxDevice(env, config().vapid!.publicKey);
    const device = await registerPushDevice(db(), config(), owner(user), { endpoint: old.endpoint, keys: old.keys }, Date.now());
    const fresh = await subscribeSandboxDevice(env, config().vapid!.publicKey);
    await renewPushDevice(db(), config(), { old_endpoint: old.endpoint, old_auth: old.keys.auth, subscription: { endpoint: fresh.endpoint, keys: fresh.keys } }, Date.now());
    const [row] = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
    expect(row).toMatchObject({ endpoint: fresh.endpoint, auth: fresh.keys.auth, sessionId: user.sessionId });
  });

  it("answers the same 404 to a wrong secret, an unknown endpoint and a signed-out session's device, and changes nothing", async () => {
    const user = await createUser();
    const url = endpoint();
    await registerPushDevice(db(), config(), owner(user), { endpoint: url, keys }, Date.now());
    const fresh = { endpoint: endpoint(), keys };
    const wrong = await refusal(renewPushDevice(db(), config(), { old_endpoint: url, old_auth: "AAAAAAAAAAAAAAAAAAAAAA", subscription: fresh }, Date.now()));
    const unknown = await refusal(renewPushDevice(db(), config(), { old_endpoint: endpoint(), old_auth: keys.auth, subscription: fresh }, Date.now()));
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    const signedOut = await refusal(renewPushDevice(db(), config(), { old_endpoint: url, old_auth: keys.auth, subscription: fresh }, Date.now()));
    for (const r of [wrong, unknown, signedOut]) expect(r).toEqual({ status: 404, message: "No such push subscription." });
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, url))).toHaveLength(1);
  });

  it("refuses a new endpoint on a private address", async () => {
    const user = await createUser();
    const url = endpoint();
    await registerPushDevice(db(), config(), owner(user), { endpoint: url, keys }, Date.now());
    const r = await refusal(renewPushDevice(db(), config(), { old_endpoint: url, old_auth: keys.auth, subscription: { endpoint: "https://192.168.0.10/x", keys } }, Date.now()));
    expect(r.status).toBe(400);
  });
});

describe("forwarding targets", () => {
  it("refuses a forwarding URL to localhost, a private range or over plain http, by default and per rental", async () => {
    const user = await createUser();
    const settingsOwner = { userId: user.id, sessionId: user.sessionId, email: user.email };
    for (const url of ["https://localhost:8921/hook", "https://127.0.0.1/hook", "https://192.168.1.20/hook", "https://[fd12::1]/hook", "http://hooks.example.ng/x", "https://metadata.internal/x"]) {
      const r = await refusal(setForwardingDefaults(db(), config(), settingsOwner, { email: false, webhook_url: url }, Date.now()));
      expect(r.status, url).toBe(400);
      expect(r.message).toMatch(/^The forwarding URL /);
      expect((await refusal(setRentalForwarding(db(), user.id, "rnt_any", { email: false, webhook_url: url }, Date.now()))).status).toBe(400);
    }
    expect(rentalForwardingSchema.safeParse({ email: true, webhook_url: `https://hooks.example.ng/${"x".repeat(600)}` }).success).toBe(false);
  });

  it("answers 404 for another customer's rental", async () => {
    const user = await createUser();
    expect((await refusal(setRentalForwarding(db(), user.id, "rnt_someone_elses", { email: true, webhook_url: null }, Date.now()))).status).toBe(404);
  });
});
