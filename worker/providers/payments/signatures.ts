/**
 * Webhook signatures. Both payment providers sign with HMAC-SHA512 and send the digest as hex in a header:
 * Squad over the raw body with the secret key, NOWPayments over the key-sorted JSON with the IPN secret.
 * Comparison is constant time and case-insensitive (Squad's own sample upper-cases the hex).
 */

const encoder = new TextEncoder();

export async function hmacSha512Hex(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant-time equality of two hex digests, ignoring case; false for anything that is not the same length. */
export function hexDigestsEqual(expected: string, received: string): boolean {
  const a = encoder.encode(expected.toLowerCase());
  const b = encoder.encode(received.trim().toLowerCase());
  if (a.length !== b.length) return false;
  // workerd provides crypto.subtle.timingSafeEqual; the loop is the fallback for other runtimes.
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (x: ArrayBufferView, y: ArrayBufferView) => boolean };
  if (typeof subtle.timingSafeEqual === "function") return subtle.timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Squad: x-squad-encrypted-body = HMAC-SHA512(raw body, secret key). */
export function signSquadBody(secretKey: string, rawBody: string): Promise<string> {
  return hmacSha512Hex(secretKey, rawBody);
}

export async function verifySquadSignature(secretKey: string, rawBody: string, header: string | undefined | null): Promise<boolean> {
  if (!header || !secretKey) return false;
  return hexDigestsEqual(await signSquadBody(secretKey, rawBody), header);
}

/** Deeper than any real IPN (the documented body nests one level: `fee`); a deeper body is not authentic. */
export const MAX_SIGNED_JSON_DEPTH = 32;

export class SignedJsonTooDeepError extends Error {
  override name = "SignedJsonTooDeepError";
}

/**
 * Keys sorted at every depth (NOWPayments signs the IPN body this way, nested `fee` object included). Arrays stay
 * arrays, or, with `arraysAsObjects`, become objects keyed "0", "1", ... (see verifyNowPaymentsSignature for why).
 * The recursion is bounded: a hostile, deeply nested body throws SignedJsonTooDeepError instead of overflowing the stack.
 */
export function sortKeysDeep(value: unknown, opts: { arraysAsObjects?: boolean } = {}, depth = 0): unknown {
  if (depth > MAX_SIGNED_JSON_DEPTH) throw new SignedJsonTooDeepError(`JSON nested deeper than ${MAX_SIGNED_JSON_DEPTH} levels`);
  if (Array.isArray(value) && !opts.arraysAsObjects) return value.map((v) => sortKeysDeep(v, opts, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key], opts, depth + 1);
    return out;
  }
  return value;
}

/** NOWPayments: x-nowpayments-sig = HMAC-SHA512(JSON.stringify(body with keys sorted), IPN secret). */
export function signNowPaymentsBody(ipnSecret: string, body: unknown, opts: { arraysAsObjects?: boolean } = {}): Promise<string> {
  return hmacSha512Hex(ipnSecret, JSON.stringify(sortKeysDeep(body, opts)));
}

/**
 * Verifies an IPN from its raw text; a body that is not JSON (or nested absurdly deep) is simply not authentic.
 * NOWPayments' own examples disagree on arrays (https://documenter.getpostman.com/view/7907941/2s93JusNJt, "Instant
 * Payments Notifications"): the PHP example (tksort + json_encode) keeps a JSON array an array, the Node example
 * (sortObject: Object.keys(...).sort().reduce into {}) turns it into an object keyed by index. Objects sort the same
 * in both, so the two forms differ only for bodies with arrays; both are accepted, each compared in constant time.
 */
export async function verifyNowPaymentsSignature(ipnSecret: string, rawBody: string, header: string | undefined | null): Promise<boolean> {
  if (!header || !ipnSecret) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return false;
  }
  let arrayForm: string;
  let objectForm: string;
  try {
    arrayForm = JSON.stringify(sortKeysDeep(parsed));
    objectForm = JSON.stringify(sortKeysDeep(parsed, { arraysAsObjects: true }));
  } catch (err) {
    if (err instanceof SignedJsonTooDeepError || err instanceof RangeError) return false;
    throw err;
  }
  // Both digests are always computed and compared, so the time taken does not say which form (if any) matched.
  const [asArrays, asObjects] = await Promise.all([hmacSha512Hex(ipnSecret, arrayForm), hmacSha512Hex(ipnSecret, objectForm)]);
  const matchesArrays = hexDigestsEqual(asArrays, header);
  const matchesObjects = hexDigestsEqual(asObjects, header);
  return matchesArrays || matchesObjects;
}
