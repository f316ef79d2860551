/**
 * A software WebAuthn authenticator for worker tests (decision 034): it makes what a browser and a platform
 * authenticator would hand the server, byte for byte as the WebAuthn Level 3 spec lays them out, so the tests drive
 * @simplewebauthn/server through real ceremonies instead of mocking it.
 *
 * - Key: an ES256 (ECDSA P-256, SHA-256) key pair from WebCrypto.
 * - clientDataJSON: { type, challenge, origin, crossOrigin } (https://www.w3.org/TR/webauthn-3/#dictionary-client-data).
 * - authenticatorData: SHA-256(rpId) ‖ flags ‖ signCount (4 bytes, big-endian) ‖ for registration the attested
 *   credential data: AAGUID (16 zero bytes) ‖ credentialId length (2 bytes) ‖ credentialId ‖ COSE public key
 *   (https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data). Flags: UP 0x01, UV 0x04, BE 0x08, BS 0x10, AT 0x40.
 * - Attestation "none": the CBOR map { fmt: "none", attStmt: {}, authData } (§8.7).
 * - COSE key (RFC 9053 §7.1.1): { 1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y }, CBOR-encoded.
 * - Assertion signature: ECDSA over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded as WebAuthn requires
 *   for ES256 (§6.5.6); WebCrypto gives r ‖ s, so it is wrapped here.
 *
 * Every knob a test needs to forge something is an option: the origin, the RP ID, the counter, the UV flag.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Record<string, unknown>;

/** The small part of CBOR (RFC 8949) a COSE key and an attestation object use: ints, byte and text strings, maps. */
export function cborEncode(value: Cbor): Uint8Array {
  const out: number[] = [];
  const head = (major: number, n: number) => {
    if (n < 24) out.push((major << 5) | n);
    else if (n < 0x100) out.push((major << 5) | 24, n);
    else if (n < 0x10000) out.push((major << 5) | 25, n >> 8, n & 0xff);
    else out.push((major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  };
  const write = (v: Cbor | unknown): void => {
    if (typeof v === "number") {
      if (!Number.isInteger(v)) throw new Error("cborEncode: integers only");
      if (v >= 0) head(0, v);
      else head(1, -1 - v);
    } else if (typeof v === "string") {
      const bytes = new TextEncoder().encode(v);
      head(3, bytes.length);
      out.push(...bytes);
    } else if (v instanceof Uint8Array) {
      head(2, v.length);
      out.push(...v);
    } else if (v instanceof Map) {
      head(5, v.size);
      for (const [k, item] of v) {
        write(k);
        write(item);
      }
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v);
      head(5, entries.length);
      for (const [k, item] of entries) {
        write(k);
        write(item);
      }
    } else throw new Error("cborEncode: unsupported value");
  };
  write(value);
  return new Uint8Array(out);
}

export function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const uint32 = (n: number) => new Uint8Array([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);

/** ASN.1 DER SEQUENCE { INTEGER r, INTEGER s } from WebCrypto's 64-byte r ‖ s. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let v = bytes.slice(i);
    if (v[0] & 0x80) v = concat(new Uint8Array([0]), v);
    return concat(new Uint8Array([0x02, v.length]), v);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

interface CeremonyOptions {
  /** The origin the "browser" reports in clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The RP ID whose hash goes in authenticatorData (default: the options' rp.id / rpId). */
  rpId?: string;
  /** User verified (default true). */
  userVerified?: boolean;
  /** Override the signature counter reported (default: the authenticator's own, incremented each assertion). */
  counter?: number;
  /** Sign with another key (a forged assertion). */
  signWith?: CryptoKey;
  /** clientDataJSON type (default webauthn.create / webauthn.get). */
  type?: string;
}

/** One discoverable credential on one software authenticator. */
export class SoftwareAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private keys!: CryptoKeyPair;
  private userHandle: Uint8Array | null = null;
  /** The counter this authenticator reports; 0 stays 0 (as synced passkeys do) unless a test starts it higher. */
  counter: number;
  /** Backup eligibility and state (a synced passkey when both are set). */
  backedUp: boolean;

  constructor(
    readonly origin: string,
    opts: { counter?: number; backedUp?: boolean } = {},
  ) {
    this.counter = opts.counter ?? 0;
    this.backedUp = opts.backedUp ?? false;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  static async create(origin: string, opts: { counter?: number; backedUp?: boolean } = {}): Promise<SoftwareAuthenticator> {
    const authenticator = new SoftwareAuthenticator(origin, opts);
    authenticator.keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    return authenticator;
  }

  static async otherKey(): Promise<CryptoKey> {
    return ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair).privateKey;
  }

  private async coseKey(): Promise<Uint8Array> {
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", this.keys.publicKey)) as ArrayBuffer); // 0x04 ‖ x ‖ y
    return cborEncode(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, raw.slice(1, 33)], [-3, raw.slice(33, 65)]]));
  }

  private flags(extra: number, userVerified: boolean): number {
    return FLAGS.UP | (userVerified ? FLAGS.UV : 0) | (this.backedUp ? FLAGS.BE | FLAGS.BS : 0) | extra;
  }

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for the server's registration options: RegistrationResponseJSON. */
  async register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, opts: CeremonyOptions = {}) {
    this.userHandle = Uint8Array.from(atob(options.user.id.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const rpId = opts.rpId ?? options.rp.id!;
    const authData = concat(
      await sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([this.flags(FLAGS.AT, opts.userVerified ?? true)]),
      uint32(opts.counter ?? this.counter),
      new Uint8Array(16),
      new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]),
      this.credentialId,
      await this.coseKey(),
    );
    const attestationObject = cborEncode({ fmt: "none", attStmt: new Map(), authData });
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(this.clientData(opts.type ?? "webauthn.create", options.challenge, opts.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  /** navigator.credentials.get() for the server's authentication options: AuthenticationResponseJSON. */
  async assert(options: { challenge: string; rpId?: string }, opts: CeremonyOptions = {}) {
    if (opts.counter === undefined && this.counter > 0) this.counter += 1;
    const rpId = opts.rpId ?? options.rpId!;
    const authData = concat(
      await sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([this.flags(0, opts.userVerified ?? true)]),
      uint32(opts.counter ?? this.counter),
    );
    const clientDataJSON = this.clientData(opts.type ?? "webauthn.get", options.challenge, opts.origin ?? this.origin);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, opts.signWith ?? this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(derSignature(raw)),
        ...(this.userHandle ? { userHandle: b64url(this.userHandle) } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }
}
