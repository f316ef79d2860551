/**
 * Makes a VAPID key pair for Web Push (issue 47, RFC 8292): set them with `wrangler secret put VAPID_PUBLIC_KEY` and
 * `wrangler secret put VAPID_PRIVATE_KEY`. Keep the pair: browsers subscribed with the public key, so a new pair means
 * every device turns push on again.
 */
import { Buffer } from "node:buffer";

const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
const publicKey = Buffer.from(await crypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
process.stdout.write(`VAPID_PUBLIC_KEY=${publicKey}\nVAPID_PRIVATE_KEY=${jwk.d}\n`);
