/**
 * Password hashing: PBKDF2-SHA256 through WebCrypto, a random 16-byte salt per hash, and the parameters stored with
 * the hash ("pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>") so the work factor can be raised later: a login with an
 * older figure re-hashes (needsRehash).
 *
 * NOTE: production Workers refuse PBKDF2 above 100,000 iterations (local workerd does not check), so this is the
 * ceiling, asserted by password.test.ts. A stored hash above the ceiling is refused rather than tried.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;

const ALGORITHM = "pbkdf2_sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    throw new Error(`PBKDF2 iterations must be between 1 and ${PBKDF2_MAX_ITERATIONS}`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return constantTimeEqual(candidate, parsed.hash);
}

/** True when the stored hash used other parameters than today's: re-hash after a successful login. */
export function needsRehash(stored: string): boolean {
  return parseHash(stored)?.iterations !== PBKDF2_ITERATIONS;
}

/**
 * A well-formed hash of no password (random salt and digest), verified against when an e-mail is unknown so that
 * answer costs the same full derivation as a wrong password. A constant, not a cached promise: Workers must not share
 * a promise between requests.
 */
export const DECOY_PASSWORD_HASH = "pbkdf2_sha256$100000$pl7K+fae0OE70EcuuFcZtw==$/lRapwsr8Sit0L3N4Qm9vdTQ7NbouIpB74q6p0DGbGs=";

export function parseHash(stored: string): { iterations: number; salt: Uint8Array; hash: Uint8Array } | null {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== ALGORITHM) return null;
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) return null;
  try {
    const salt = fromBase64(parts[2]);
    const hash = fromBase64(parts[3]);
    if (salt.length === 0 || hash.length !== HASH_BITS / 8) return null;
    return { iterations, salt, hash };
  } catch {
    return null;
  }
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
