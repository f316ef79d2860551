import { fromBase64Url, type VapidKeys } from "./web-push";

export type { VapidKeys };

/**
 * A published key pair for the sandbox only (npm start, the tests, the journeys): anyone may read it, so it signs
 * pushes to the sandbox push service and nothing else. config.ts uses it in sandbox mode when no keys are set and
 * refuses it in live mode.
 */
export const SANDBOX_VAPID_KEYS = {
  publicKey: "BFren02dVxiX7Ij1izMIPzZ6_cXf4_OatHZ4xgQbP4mi3i6Vc3T_OztuPFZ6VBb_3miUoH8UFnwwEJvJlSbt2BI",
  privateKey: "3skWl3TZcBpUwQWwDWP2HnggQAWcxOefpPat_lP_KBc",
} as const;

/**
 * The sandbox push service's origin (worker/sandbox/web-push-service.ts): a name under ".invalid" (RFC 6761) that can
 * never resolve, so a push aimed at it never leaves the machine; the container's push transport hands it to the
 * simulator in sandbox mode, and the endpoint check accepts it only there.
 */
export const SANDBOX_PUSH_ORIGIN = "https://web-push.sandbox.invalid";

/** Why a pair cannot be VAPID keys (base64url: a 65-octet uncompressed P-256 point and a 32-octet scalar), or null. */
export function vapidKeyProblem(keys: Pick<VapidKeys, "publicKey" | "privateKey">): string | null {
  const decode = (s: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(s)) return null;
    try {
      return fromBase64Url(s);
    } catch {
      return null;
    }
  };
  const pub = decode(keys.publicKey);
  if (!pub || pub.length !== 65 || pub[0] !== 4) return "VAPID_PUBLIC_KEY must be an uncompressed P-256 public key (65 octets) in base64url.";
  const priv = decode(keys.privateKey);
  if (!priv || priv.length !== 32) return "VAPID_PRIVATE_KEY must be a P-256 private key (32 octets) in base64url.";
  return null;
}
