import { encryptNotification } from "@block65/webcrypto-web-push";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decryptPushBody } from "../../sandbox/web-push-service";
import { base64Url, createWebPushSender, fromBase64Url, outcomeOf, topicFor, type VapidKeys } from "./web-push";

// RFC 8291 Appendix A ("Intermediate Values for Encryption"): the application server's ephemeral key pair and salt are
// fixed, so the encrypted body is known to the octet.
const RFC8291 = {
  plaintext: "When I grow up, I want to be a watermelon",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  body:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

/** A P-256 private key from its scalar and uncompressed public point (both base64url). */
function jwkOf(d: string, publicPoint: string): JsonWebKey {
  const p = fromBase64Url(publicPoint);
  return { kty: "EC", crv: "P-256", d, x: base64Url(p.slice(1, 33)), y: base64Url(p.slice(33, 65)), ext: true };
}

async function uaDevice() {
  const privateKey = await crypto.subtle.importKey("jwk", jwkOf(RFC8291.uaPrivate, RFC8291.uaPublic), { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
  return { privateKey, p256dh: fromBase64Url(RFC8291.uaPublic), auth: fromBase64Url(RFC8291.auth) };
}

async function freshVapid(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const publicKey = base64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  return { publicKey, privateKey: jwk.d!, subject: "mailto:push@virtualnum.example" };
}

afterEach(() => vi.restoreAllMocks());

describe("RFC 8291 message encryption (aes128gcm) against the RFC's published test vector", () => {
  it("encrypts Appendix A's message to Appendix A's body, octet for octet, given its salt and ephemeral key", async () => {
    // The library draws the salt and the ephemeral key pair itself; the test hands it the RFC's.
    const salt = fromBase64Url(RFC8291.salt);
    vi.spyOn(crypto, "getRandomValues").mockImplementationOnce(<T extends ArrayBufferView | null>(array: T): T => {
      (array as unknown as Uint8Array).set(salt);
      return array;
    });
    const asPrivate = await crypto.subtle.importKey("jwk", jwkOf(RFC8291.asPrivate, RFC8291.asPublic), { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
    const asPublic = await crypto.subtle.importKey("raw", fromBase64Url(RFC8291.asPublic), { name: "ECDH", namedCurve: "P-256" }, true, []);
    vi.spyOn(crypto.subtle, "generateKey").mockResolvedValueOnce({ privateKey: asPrivate, publicKey: asPublic });

    const body = await encryptNotification(
      { endpoint: "https://push.example.net/x", expirationTime: null, keys: { p256dh: RFC8291.uaPublic, auth: RFC8291.auth } },
      new TextEncoder().encode(RFC8291.plaintext),
      // Appendix A's record carries the message, its delimiter and no padding; every real push is padded (below).
      { pad: false },
    );
    expect(base64Url(body)).toBe(RFC8291.body);
  });

  it("the sandbox push service's browser side decrypts Appendix A's body to its message", async () => {
    const plain = await decryptPushBody(fromBase64Url(RFC8291.body), await uaDevice());
    expect(new TextDecoder().decode(plain)).toBe(RFC8291.plaintext);
  });

  it("refuses a body that was tampered with, or that carries the wrong key id", async () => {
    const body = fromBase64Url(RFC8291.body);
    const flipped = body.slice();
    flipped[flipped.length - 3] ^= 1;
    await expect(decryptPushBody(flipped, await uaDevice())).rejects.toThrow("does not decrypt");
    const shortKeyId = body.slice();
    shortKeyId[20] = 64;
    await expect(decryptPushBody(shortKeyId, await uaDevice())).rejects.toThrow("65-octet");
  });
});

describe("a push as the sender builds it", () => {
  async function sendOne(vapid: VapidKeys, payload = '{"title":"Code 123456"}') {
    let seen: Request | undefined;
    let body: Uint8Array | undefined;
    const sender = createWebPushSender(vapid, async (req) => {
      seen = req;
      body = new Uint8Array(await req.arrayBuffer());
      return new Response(null, { status: 201 });
    });
    const outcome = await sender.send(
      { endpoint: "https://push.example.net/send/abc", p256dh: RFC8291.uaPublic, auth: RFC8291.auth },
      payload,
      { ttlSeconds: 900, urgency: "high", topic: await topicFor("sms:ord_1") },
    );
    return { outcome, req: seen!, body: body! };
  }

  it("is aes128gcm only (never the draft aesgcm scheme's headers), with TTL, Urgency and Topic, padded to one 4096-octet record", async () => {
    const { outcome, req, body } = await sendOne(await freshVapid());
    expect(outcome).toEqual({ kind: "delivered", status: 201 });
    expect(req.method).toBe("POST");
    expect(req.headers.get("content-encoding")).toBe("aes128gcm");
    expect(req.headers.get("encryption")).toBeNull();
    expect(req.headers.get("crypto-key")).toBeNull();
    expect(req.headers.get("ttl")).toBe("900");
    expect(req.headers.get("urgency")).toBe("high");
    expect(req.headers.get("topic")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body.length).toBe(4096);
    // The salt is fresh for every message and the record size is 4096 (RFC 8188 §2.1).
    expect(new DataView(body.buffer).getUint32(16)).toBe(4096);
    expect(body[20]).toBe(65);
    const plain = await decryptPushBody(body, await uaDevice());
    expect(new TextDecoder().decode(plain)).toBe('{"title":"Code 123456"}');
  });

  it("signs an RFC 8292 VAPID JWT: ES256, aud the endpoint's origin, exp within 24 hours, sub a mailto:, k our public key", async () => {
    const vapid = await freshVapid();
    const before = Math.floor(Date.now() / 1000);
    const { req } = await sendOne(vapid);
    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(req.headers.get("authorization") ?? "");
    expect(m).not.toBeNull();
    const [, token, k] = m!;
    expect(k).toBe(vapid.publicKey);
    expect(decodeProtectedHeader(token)).toEqual({ typ: "JWT", alg: "ES256" });
    const claims = decodeJwt(token);
    expect(claims.aud).toBe("https://push.example.net");
    expect(claims.sub).toBe("mailto:push@virtualnum.example");
    expect(claims.exp! - before).toBeGreaterThan(0);
    expect(claims.exp! - before).toBeLessThanOrEqual(24 * 3600);
    const point = fromBase64Url(k);
    const key = await importJWK({ kty: "EC", crv: "P-256", x: base64Url(point.slice(1, 33)), y: base64Url(point.slice(33)) }, "ES256");
    await expect(jwtVerify(token, key, { audience: "https://push.example.net" })).resolves.toBeTruthy();
  });

  it("refuses an endpoint that is not https before anything is sent", async () => {
    const transport = vi.fn();
    const sender = createWebPushSender(await freshVapid(), transport);
    await expect(sender.send({ endpoint: "http://push.example.net/x", p256dh: RFC8291.uaPublic, auth: RFC8291.auth }, "{}", { ttlSeconds: 60, urgency: "high", topic: "t" })).rejects.toThrow(
      "not https",
    );
    expect(transport).not.toHaveBeenCalled();
  });

  it("reads the push service's answer: 2xx delivered, 404/410 gone, 429/5xx/no answer retried, any other 4xx refused", async () => {
    expect(outcomeOf(201, null, "")).toEqual({ kind: "delivered", status: 201 });
    expect(outcomeOf(404, null, "")).toEqual({ kind: "gone", status: 404 });
    expect(outcomeOf(410, null, "")).toEqual({ kind: "gone", status: 410 });
    expect(outcomeOf(429, "120", "slow down")).toEqual({ kind: "retry", status: 429, retryAfterMs: 120_000, error: "HTTP 429: slow down" });
    expect(outcomeOf(503, null, "")).toMatchObject({ kind: "retry", status: 503, retryAfterMs: null });
    expect(outcomeOf(413, null, "too big")).toEqual({ kind: "refused", status: 413, error: "HTTP 413: too big" });
    expect(outcomeOf(403, null, "")).toMatchObject({ kind: "refused", status: 403 });
    const sender = createWebPushSender(await freshVapid(), () => Promise.reject(new TypeError("network down")));
    const outcome = await sender.send({ endpoint: "https://push.example.net/x", p256dh: RFC8291.uaPublic, auth: RFC8291.auth }, "{}", { ttlSeconds: 60, urgency: "high", topic: "t" });
    expect(outcome).toEqual({ kind: "retry", status: null, retryAfterMs: null, error: "TypeError: network down" });
  });
});
