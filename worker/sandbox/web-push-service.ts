import { desc, eq, inArray } from "drizzle-orm";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { importJWK, jwtVerify, decodeProtectedHeader } from "jose";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import type { Env } from "../config";
import { getDb } from "../db/client";
import { sandboxPushDevices, sandboxPushMessages } from "../db/sandbox-push-tables";
import { validate } from "../lib/validate";
import { SANDBOX_PUSH_ORIGIN } from "../providers/push/vapid";

/**
 * The sandbox push service (issue 47), written from the documents, not from our sender: RFC 8030 (the Web Push
 * protocol), RFC 8292 (VAPID) and RFC 8291 (message encryption) with RFC 8188 (aes128gcm). It plays the two parts a
 * real push involves: the push service (it checks the request and the VAPID JWT and keeps nothing it cannot deliver)
 * and the browser (it holds the subscription's private key, decrypts the payload and records what the device would
 * have shown). Endpoints live at SANDBOX_PUSH_ORIGIN, a name that can never resolve (RFC 6761 ".invalid"): the worker's
 * push transport hands requests for it to this simulator in-process (worker/container.ts), so nothing leaves the
 * machine, and the same requests are refused by the product's endpoint check everywhere but sandbox mode.
 *
 * The push service's answers (POST /push/:device):
 * - 404 an unknown subscription, 410 Gone one the sandbox expired (RFC 8030 §7.3);
 * - 401 no `Authorization: vapid t=…, k=…`, a JWT not signed ES256 by k, expired, or whose `aud` is not this origin;
 *   403 an `exp` more than 24 hours ahead, no `sub`, or a k that is not the key the subscription was made with
 *   (RFC 8292 §2, §3, §4.2);
 * - 400 no TTL (RFC 8030 §5.2), an Urgency outside very-low|low|normal|high (§5.3), a Topic not 1-32 base64url
 *   characters (§5.4), a body that does not decrypt with the subscription's keys (RFC 8291 §3.4, §4);
 * - 415 any Content-Encoding but aes128gcm (the draft "aesgcm" scheme included: RFC 8291 §4 is aes128gcm only);
 * - 413 a body over 4096 octets (RFC 8291 §4: the size every push service must accept, and no more is promised);
 * - 201 Created with a Location for the message (RFC 8030 §5), after recording what the device showed.
 * /sandbox/web-push lists every device and what it would have shown (a second push with the same tag replaces the
 * first, as a notification with the same tag does).
 */
export { SANDBOX_PUSH_ORIGIN };
export const SANDBOX_PUSH_PATH = "/sandbox/web-push";

const MAX_BODY = 4096;
const DAY_SECONDS = 24 * 3600;

const b64u = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};
const fromB64u = (text: string): Uint8Array => {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
};
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const text = (s: string) => new TextEncoder().encode(s);

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, octets: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, octets * 8));
}

export class PushDecryptionError extends Error {
  override name = "PushDecryptionError";
}

/**
 * The browser's side of RFC 8291 §3.4 and RFC 8188 §2: the body is salt (16) | rs (4) | idlen (1) | keyid (the
 * sender's ephemeral P-256 key, 65) | one record; the record is AES-128-GCM under keys derived from the ECDH secret
 * between that key and the subscription's private key, salted by the auth secret; its plaintext ends with the last
 * record's delimiter 0x02, then zero padding.
 */
export async function decryptPushBody(body: Uint8Array, device: { privateKey: CryptoKey; p256dh: Uint8Array; auth: Uint8Array }): Promise<Uint8Array> {
  if (body.length < 21) throw new PushDecryptionError("the body is shorter than the aes128gcm header (RFC 8188 §2.1)");
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idlen = body[20];
  if (idlen !== 65) throw new PushDecryptionError(`keyid must be the sender's 65-octet P-256 key (RFC 8291 §4), not ${idlen} octets`);
  const senderKey = body.slice(21, 21 + idlen);
  const record = body.slice(21 + idlen);
  if (rs < 18) throw new PushDecryptionError(`record size ${rs} is below 18 (RFC 8188 §2)`);
  // RFC 8291 §4: a push message is one record, no larger than the record size.
  if (record.length > rs) throw new PushDecryptionError("the payload is more than one record (RFC 8291 §4)");
  let sender: CryptoKey;
  try {
    sender = await crypto.subtle.importKey("raw", senderKey, { name: "ECDH", namedCurve: "P-256" }, false, []);
  } catch {
    throw new PushDecryptionError("keyid is not a P-256 public key");
  }
  // Web Crypto's ECDH parameter is `public` (workers-types spells it $public, a C++ name the runtime does not read).
  const ecdh = { name: "ECDH", public: sender } as SubtleCryptoDeriveKeyAlgorithm;
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits(ecdh, device.privateKey, 256));
  // IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
  const ikm = await hkdf(device.auth, ecdhSecret, concat(text("WebPush: info\0"), device.p256dh, senderKey), 32);
  const cek = await hkdf(salt, ikm, text("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, text("Content-Encoding: nonce\0"), 12);
  let padded: Uint8Array;
  try {
    const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
    padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, record));
  } catch {
    throw new PushDecryptionError("the record does not decrypt with the subscription's keys");
  }
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new PushDecryptionError("the last record's padding delimiter (0x02) is missing (RFC 8188 §2)");
  return padded.slice(0, end);
}

type Device = typeof sandboxPushDevices.$inferSelect;

interface VapidFinding {
  status: 401 | 403;
  problem: string;
}

/** RFC 8292: the Authorization header's vapid scheme, its JWT and its key, against this subscription. */
async function checkVapid(header: string | undefined, device: Device, nowSeconds: number): Promise<VapidFinding | { sub: string; exp: number }> {
  const m = /^vapid\s+(.+)$/i.exec(header?.trim() ?? "");
  if (!m) return { status: 401, problem: "no Authorization: vapid t=…, k=… (RFC 8292 §3)" };
  const params = new Map<string, string>();
  for (const part of m[1].split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const token = params.get("t");
  const k = params.get("k");
  if (!token || !k) return { status: 401, problem: "the vapid scheme needs both t and k (RFC 8292 §3.1, §3.2)" };
  let keyBytes: Uint8Array;
  try {
    keyBytes = fromB64u(k);
  } catch {
    return { status: 401, problem: "k is not base64url" };
  }
  if (keyBytes.length !== 65 || keyBytes[0] !== 4) return { status: 401, problem: "k must be an uncompressed P-256 key, 65 octets (RFC 8292 §3.2)" };
  if (k.replace(/=+$/, "") !== device.applicationServerKey) {
    return { status: 403, problem: "k is not the key this subscription was made with (RFC 8292 §4.2)" };
  }
  try {
    if (decodeProtectedHeader(token).alg !== "ES256") return { status: 401, problem: "the JWT must be signed ES256 (RFC 8292 §2)" };
    const key = await importJWK({ kty: "EC", crv: "P-256", x: b64u(keyBytes.slice(1, 33)), y: b64u(keyBytes.slice(33, 65)) }, "ES256");
    const { payload } = await jwtVerify(token, key, { algorithms: ["ES256"], audience: SANDBOX_PUSH_ORIGIN, currentDate: new Date(nowSeconds * 1000) });
    if (typeof payload.exp !== "number") return { status: 401, problem: "the JWT has no exp (RFC 8292 §2)" };
    if (payload.exp > nowSeconds + DAY_SECONDS) return { status: 403, problem: "exp is more than 24 hours ahead (RFC 8292 §2)" };
    if (typeof payload.sub !== "string" || !/^(mailto:|https:)/.test(payload.sub)) {
      return { status: 403, problem: "sub must be a mailto: or https: contact (RFC 8292 §2.1)" };
    }
    return { sub: payload.sub, exp: payload.exp };
  } catch (err) {
    return { status: 401, problem: `the JWT does not verify: ${err instanceof Error ? err.message : "invalid"}` };
  }
}

/** The checks RFC 8030 asks of a push request, before its payload is looked at. */
function checkHeaders(req: Request): { status: 400 | 415; problem: string } | { ttl: number; urgency: string; topic: string | null } {
  const ttl = req.headers.get("ttl");
  if (ttl === null || !/^\d+$/.test(ttl.trim())) return { status: 400, problem: "TTL is required, a number of seconds (RFC 8030 §5.2)" };
  const urgency = req.headers.get("urgency") ?? "normal";
  if (!["very-low", "low", "normal", "high"].includes(urgency)) return { status: 400, problem: `Urgency "${urgency}" is not very-low, low, normal or high (RFC 8030 §5.3)` };
  const topic = req.headers.get("topic");
  if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) return { status: 400, problem: "Topic must be 1-32 characters of the base64url alphabet (RFC 8030 §5.4)" };
  const encoding = req.headers.get("content-encoding");
  if (encoding !== "aes128gcm") return { status: 415, problem: `Content-Encoding "${encoding ?? ""}" is not aes128gcm (RFC 8291 §4)` };
  return { ttl: Number(ttl), urgency, topic };
}

interface Shown {
  kind: string | null;
  tag: string | null;
  title: string | null;
  body: string | null;
  url: string | null;
}

/** What the device would show: the service worker (web/sw/) shows a payload's title, body and tag as they are. */
function shownOf(plain: string): Shown {
  try {
    const p = JSON.parse(plain) as Record<string, unknown>;
    const s = (v: unknown) => (typeof v === "string" ? v : null);
    return { kind: s(p.kind), tag: s(p.tag), title: s(p.title), body: s(p.body), url: s(p.url) };
  } catch {
    return { kind: null, tag: null, title: "(a push whose payload is not JSON)", body: plain.slice(0, 200), url: null };
  }
}

/** The push service itself, reached at SANDBOX_PUSH_ORIGIN by the worker's push transport (in-process). */
export const webPushSimulator = new Hono<{ Bindings: Env }>().post("/push/:device", async (c) => {
  const db = getDb(c.env.DB);
  const nowMs = Date.now();
  const record = async (deviceId: string, status: number, values: Partial<typeof sandboxPushMessages.$inferInsert> = {}) => {
    const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    await db.insert(sandboxPushMessages).values({ id, deviceId, status, receivedAt: nowMs, ...values });
    return id;
  };
  // Read before any early answer (decision 064).
  const body = new Uint8Array(await c.req.arrayBuffer());
  const [device] = await db.select().from(sandboxPushDevices).where(eq(sandboxPushDevices.id, c.req.param("device"))).limit(1);
  if (!device) return c.text("No such subscription.", 404);
  if (device.expiredAt !== null) {
    await record(device.id, 410, { problem: "the subscription expired" });
    return c.text("This subscription expired.", 410);
  }
  const headers = checkHeaders(c.req.raw);
  if ("problem" in headers) {
    await record(device.id, headers.status, { problem: headers.problem });
    return c.text(headers.problem, headers.status);
  }
  const vapid = await checkVapid(c.req.header("authorization"), device, Math.floor(nowMs / 1000));
  if ("problem" in vapid) {
    await record(device.id, vapid.status, { problem: vapid.problem });
    return c.text(vapid.problem, vapid.status);
  }
  if (body.length > MAX_BODY) {
    await record(device.id, 413, { problem: `the body is ${body.length} octets, more than 4096 (RFC 8291 §4)` });
    return c.text("Payload too large.", 413);
  }
  let plain: string;
  try {
    const privateKey = await crypto.subtle.importKey("jwk", JSON.parse(device.privateJwk) as JsonWebKey, { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
    plain = new TextDecoder().decode(await decryptPushBody(body, { privateKey, p256dh: fromB64u(device.p256dh), auth: fromB64u(device.auth) }));
  } catch (err) {
    const problem = err instanceof PushDecryptionError ? err.message : "the payload could not be decrypted";
    await record(device.id, 400, { problem });
    return c.text(problem, 400);
  }
  const id = await record(device.id, 201, { ttl: headers.ttl, urgency: headers.urgency, topic: headers.topic, payload: plain, ...shownOf(plain) });
  return c.body(null, 201, { location: `${SANDBOX_PUSH_ORIGIN}/message/${id}` });
});

// ---------------------------------------------------------------------------------------------------------------
// The browser's side and the page (/sandbox/web-push, behind sandboxRoutes' guard)

const subscribeBody = z.object({
  application_server_key: z.string().regex(/^[A-Za-z0-9_-]{87}$/, "application_server_key must be a 65-octet P-256 key in base64url."),
  label: z.string().trim().min(1).max(80).optional(),
});
const deviceQuery = z.object({ device: z.string().max(1000).optional() });

/** A subscription as PushSubscription.toJSON() gives it: what a browser would hand the app. */
export interface SandboxSubscription {
  id: string;
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** Subscribes a sandbox "browser" (what pushManager.subscribe does): a fresh P-256 key pair and auth secret. */
export async function subscribeSandboxDevice(env: Env, applicationServerKey: string, label = "Sandbox browser"): Promise<SandboxSubscription> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = b64u(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const auth = b64u(crypto.getRandomValues(new Uint8Array(16)));
  const id = `dev_${crypto.randomUUID().replaceAll("-", "")}`;
  const privateJwk = JSON.stringify(await crypto.subtle.exportKey("jwk", pair.privateKey));
  await getDb(env.DB).insert(sandboxPushDevices).values({ id, applicationServerKey, p256dh, auth, privateJwk, label, createdAt: Date.now() });
  return { id, endpoint: `${SANDBOX_PUSH_ORIGIN}/push/${id}`, expirationTime: null, keys: { p256dh, auth } };
}

interface DeviceReport {
  id: string;
  endpoint: string;
  label: string;
  expired: boolean;
  /** What the device shows now: the latest notification of each tag, newest first. */
  shown: Array<Shown & { received_at: string; replaced: number }>;
  /** Every request the push service answered for it, newest first. */
  received: Array<{ status: number; problem: string | null; ttl: number | null; urgency: string | null; topic: string | null; tag: string | null; received_at: string }>;
}

async function reports(env: Env, only?: string): Promise<DeviceReport[]> {
  const db = getDb(env.DB);
  const id = only?.startsWith(`${SANDBOX_PUSH_ORIGIN}/push/`) ? only.slice(`${SANDBOX_PUSH_ORIGIN}/push/`.length) : only;
  const devices = id
    ? await db.select().from(sandboxPushDevices).where(eq(sandboxPushDevices.id, id))
    : await db.select().from(sandboxPushDevices).orderBy(desc(sandboxPushDevices.createdAt)).limit(50);
  if (devices.length === 0) return [];
  const messages = await db
    .select()
    .from(sandboxPushMessages)
    .where(inArray(sandboxPushMessages.deviceId, devices.map((d) => d.id)))
    .orderBy(desc(sandboxPushMessages.receivedAt))
    .limit(500);
  return devices.map((d) => {
    const mine = messages.filter((m) => m.deviceId === d.id);
    const byTag = new Map<string, DeviceReport["shown"][number]>();
    for (const m of mine) {
      if (m.status !== 201) continue;
      const key = m.tag ?? m.id;
      const seen = byTag.get(key);
      if (seen) seen.replaced += 1;
      else byTag.set(key, { kind: m.kind, tag: m.tag, title: m.title, body: m.body, url: m.url, received_at: new Date(m.receivedAt).toISOString(), replaced: 0 });
    }
    return {
      id: d.id,
      endpoint: `${SANDBOX_PUSH_ORIGIN}/push/${d.id}`,
      label: d.label,
      expired: d.expiredAt !== null,
      shown: [...byTag.values()],
      received: mine.map((m) => ({ status: m.status, problem: m.problem, ttl: m.ttl, urgency: m.urgency, topic: m.topic, tag: m.tag, received_at: new Date(m.receivedAt).toISOString() })),
    };
  });
}

export const webPushSandboxRoutes = new Hono<AppEnv>()
  .post("/devices", validate("json", subscribeBody), async (c) => {
    const input = c.req.valid("json");
    return c.json(await subscribeSandboxDevice(c.env, input.application_server_key, input.label), 201);
  })
  .post("/devices/:id/expire", async (c) => {
    const moved = await getDb(c.env.DB)
      .update(sandboxPushDevices)
      .set({ expiredAt: Date.now() })
      .where(eq(sandboxPushDevices.id, c.req.param("id")))
      .returning({ id: sandboxPushDevices.id });
    return moved.length > 0 ? c.body(null, 204) : c.json({ error: "No such device.", message: "No such device." }, 404);
  })
  // The push service over HTTP too (providers:check and a developer's curl); the worker itself reaches it in-process.
  .post("/push/:device", (c) => webPushSimulator.fetch(new Request(`${SANDBOX_PUSH_ORIGIN}/push/${c.req.param("device")}`, c.req.raw), c.env))
  .get("/devices.json", validate("query", deviceQuery), async (c) => c.json({ data: await reports(c.env, c.req.valid("query").device) }))
  .get("/", validate("query", deviceQuery), async (c) => {
    c.header("cache-control", "no-store");
    return c.html(page(await reports(c.env, c.req.valid("query").device)));
  });

function page(devices: DeviceReport[]) {
  const items = devices.map(
    (d) => html`<section>
      <h2>${d.label} ${d.expired ? html`<small>(expired: answers 410)</small>` : ""}</h2>
      <p><code>${d.endpoint}</code></p>
      ${d.shown.length === 0
        ? html`<p>Nothing shown yet.</p>`
        : d.shown.map(
            (n) => html`<article data-tag="${n.tag ?? ""}">
              <strong>${n.title}</strong>
              <p>${n.body}</p>
              <small>tag ${n.tag} · ${n.received_at}${n.replaced > 0 ? ` · replaced ${n.replaced} earlier` : ""}</small>
              ${n.url ? html`<p><a href="${n.url}">Tap: open ${n.url}</a></p>` : ""}
            </article>`,
          )}
      <details>
        <summary>${d.received.length} request(s) answered</summary>
        <ul>
          ${d.received.map((r) => html`<li>${r.received_at}: ${r.status} ${r.problem ?? `TTL ${r.ttl}, Urgency ${r.urgency}, Topic ${r.topic ?? "none"}`}</li>`)}
        </ul>
      </details>
    </section>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sandbox push service</title>
        <style>
          body { font: 15px/1.5 system-ui, sans-serif; max-width: 760px; margin: 2rem auto; padding: 0 1rem; color: #111; }
          section { border: 1px solid #ddd; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
          article { background: #f6f6f6; border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
          code { word-break: break-all; }
        </style>
      </head>
      <body>
        <h1>Sandbox push service</h1>
        <p>Every subscribed sandbox device and what it would show now (a push with the same tag replaces the one before).</p>
        ${devices.length === 0 ? html`<p>No device has subscribed yet.</p>` : raw("")}
        ${items}
      </body>
    </html>`;
}
