import { buildPushPayload } from "@block65/webcrypto-web-push";
import { UPSTREAM_USER_AGENT, type FetchLike } from "../upstream-http";

/**
 * Web Push (issue 47, decision 069): one encrypted message to one browser's push service, as the three documents say.
 * - RFC 8030 (the protocol): POST to the subscription's endpoint with `TTL` (seconds the push service keeps it for an
 *   offline device), `Urgency` (`high`: a code wakes a sleeping phone) and `Topic` (a newer message with the same topic
 *   replaces one the push service still holds); 201 Created is success; 404 and 410 say the subscription is gone.
 * - RFC 8291 (the payload): aes128gcm, one record, encrypted to the subscription's p256dh key and auth secret.
 * - RFC 8292 (VAPID): `Authorization: vapid t=<ES256 JWT>, k=<our public key>`, the JWT's `aud` the endpoint's
 *   origin, `exp` within 24 hours (the library writes 12), `sub` a mailto: contact.
 * The encryption and the JWT are @block65/webcrypto-web-push 2.0.0 (Web Crypto only, so the same code runs in
 * workerd and Node 20): it writes `Content-Encoding: aes128gcm` and nothing else (never the draft `aesgcm` scheme with
 * its Encryption/Crypto-Key headers, which Apple refuses), pads every payload to the full 4096-octet record (a
 * message's length says nothing about its content) and refuses a non-https endpoint. Its RFC 8291 Appendix A vector and
 * JWT claims are checked in web-push.test.ts.
 */

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (65 octets): the `applicationServerKey` browsers subscribe with. */
  publicKey: string;
  /** The private scalar `d`, base64url (32 octets). A secret. */
  privateKey: string;
  /** RFC 8292 §2.1 `sub`: a mailto: (or https:) contact the push service can reach us at. */
  subject: string;
}

/** What a browser's PushSubscription.toJSON() gives, as we store it. */
export interface PushTarget {
  endpoint: string;
  /** base64url, 65 octets. */
  p256dh: string;
  /** base64url, 16 octets. */
  auth: string;
}

/** RFC 8030 §5.3 also has "very-low"; we never send it (and the library does not take it). */
export type PushUrgency = "low" | "normal" | "high";

export interface PushOptions {
  /** RFC 8030 §5.2: how long the push service keeps the message for a device that is offline, in seconds. */
  ttlSeconds: number;
  urgency: PushUrgency;
  /** RFC 8030 §5.4: at most 32 characters of the base64url alphabet (topicFor below makes one). */
  topic: string;
}

/**
 * What the push service's answer means for this delivery:
 * - delivered: a 2xx (201 Created per RFC 8030 §5);
 * - gone: 404 or 410 (RFC 8030 §7.3; the subscription expired or the browser unsubscribed): delete it;
 * - retry: 429, 5xx, a timeout or no answer: try again later (after Retry-After when it says);
 * - refused: any other 4xx (a malformed request, a JWT or key the service rejects, a payload too large): the same
 *   request would be refused again, so it is not repeated.
 */
export type PushOutcome =
  | { kind: "delivered"; status: number }
  | { kind: "gone"; status: number }
  | { kind: "retry"; status: number | null; retryAfterMs: number | null; error: string }
  | { kind: "refused"; status: number; error: string };

export interface WebPushSender {
  send(target: PushTarget, payload: string, options: PushOptions): Promise<PushOutcome>;
}

const PUSH_TIMEOUT_MS = 10_000;

export function createWebPushSender(vapid: VapidKeys, transport: FetchLike): WebPushSender {
  return {
    async send(target, payload, options) {
      const built = await buildPushPayload(
        { data: payload, options: { ttl: options.ttlSeconds, urgency: options.urgency, topic: options.topic } },
        { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } },
        vapid,
      );
      let res: Response;
      try {
        res = await transport(
          new Request(target.endpoint, {
            method: "POST",
            headers: { ...built.headers, "user-agent": UPSTREAM_USER_AGENT },
            body: built.body,
            redirect: "manual",
            signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          }),
        );
      } catch (err) {
        return { kind: "retry", status: null, retryAfterMs: null, error: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 200) : "no answer" };
      }
      const text = await res.text().catch(() => "");
      return outcomeOf(res.status, res.headers.get("retry-after"), text);
    },
  };
}

export function outcomeOf(status: number, retryAfter: string | null, text: string): PushOutcome {
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  if (status === 404 || status === 410) return { kind: "gone", status };
  const error = `HTTP ${status}${text ? `: ${text.replace(/\s+/g, " ").slice(0, 160)}` : ""}`;
  if (status === 429 || status >= 500) return { kind: "retry", status, retryAfterMs: retryAfterMs(retryAfter), error };
  return { kind: "refused", status, error };
}

/** Retry-After as seconds (RFC 9110 §10.2.3; the date form is read as "later", left to the caller's own backoff). */
function retryAfterMs(header: string | null): number | null {
  if (!header || !/^\d+$/.test(header.trim())) return null;
  return Math.min(Number(header.trim()), 24 * 3600) * 1000;
}

/** A Topic for a notification tag: RFC 8030 §5.4 allows 32 characters of the URL-safe base64 alphabet. */
export async function topicFor(tag: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(tag)));
  return base64Url(digest).slice(0, 32);
}

export function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}
