import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import { PASSKEY_MESSAGES, type PasskeyCeremony, type PasskeyView } from "../../../schema/passkeys";
import type { Db } from "../../db/client";
import { passkeys, webauthnChallenges } from "./tables";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";

/**
 * Passkeys: WebAuthn discoverable credentials with user verification required (issue 33, decision 034), verified by
 * @simplewebauthn/server. Its documented duties after a ceremony are ours and are done here
 * (https://simplewebauthn.dev/docs/packages/server): keep each challenge server-side and use it once; pass the expected
 * origin and RP ID; store the credential's id, public key, counter, transports, device type and backed-up flag; after
 * every verified assertion store `newCounter` (the library refuses a counter that did not grow, when either side is
 * non-zero) and the current backed-up flag.
 */

/** A ceremony left open longer than this is refused (the browser's own timeout is 60 s; typing a PIN takes a while). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const MAX_PASSKEYS_PER_USER = 20;
const RP_NAME = "VirtualNum";
/** ES256, RS256 and Ed25519: what platform authenticators and security keys create; all verify in workerd. */
const ALGORITHMS = [-7, -257, -8];

/** The relying party, from PUBLIC_URL only (never the Host or Origin header a client wrote). */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/**
 * PUBLIC_URL's host is the RP ID and its origin the only accepted origin. One exception, for local runs only: an IP
 * address cannot be an RP ID (WebAuthn §5.1.3 needs a valid domain; Chromium answers "This is an invalid domain"), so a
 * PUBLIC_URL on 127.0.0.1 (what `npm start` sets) uses `localhost` on the same port: the same machine, a name browsers
 * accept. Production refuses plain http (config.ts), so this never applies there.
 */
export function relyingPartyFor(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  if (url.hostname === "127.0.0.1" || url.hostname === "[::1]") url.hostname = "localhost";
  return { id: url.hostname, origin: url.origin, name: RP_NAME };
}

type ChallengePurpose = "register" | "sign-in" | "step-up";

async function storeChallenge(
  db: Db,
  purpose: ChallengePurpose,
  challenge: string,
  owner: { userId: string; sessionId: string } | null,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(webauthnChallenges).values({ id, challenge, purpose, userId: owner?.userId ?? null, sessionId: owner?.sessionId ?? null, expiresAt: now + CHALLENGE_TTL_MS });
  return id;
}

/**
 * Claims a challenge: one DELETE ... RETURNING, so of two answers racing with the same challenge only one gets it, and
 * a replay finds nothing. It is spent even when the answer then fails to verify: one attempt per ceremony. A ceremony
 * opened by another user or session is not theirs to answer.
 */
async function claimChallenge(db: Db, id: string, purpose: ChallengePurpose, owner: { userId: string; sessionId: string } | null, now: number): Promise<string> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.id, id), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, now)))
    .returning();
  if (!row || (owner && (row.userId !== owner.userId || row.sessionId !== owner.sessionId))) {
    throw new AppError("VALIDATION_FAILED", PASSKEY_MESSAGES.ceremonyExpired, { field: "challenge_id" });
  }
  return row.challenge;
}

/** Sweep: ceremonies nobody finished. */
export async function purgeExpiredChallenges(db: Db, now: number): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
}

/** base64url without padding, WebAuthn's encoding for ids and keys in JSON. */
function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
}

/** The bytes WebAuthn calls the user handle: our user id, UTF-8 (an opaque id, never the e-mail). */
function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(userId));
}

function transportsOf(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

// ---- Registration (Settings: "Add a passkey") ----

export async function registrationCeremony(
  db: Db,
  rp: RelyingParty,
  user: { id: string; email: string; username: string },
  sessionId: string,
  now: number,
): Promise<PasskeyCeremony<PublicKeyCredentialCreationOptionsJSON>> {
  const existing = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError("INVALID_STATE", PASSKEY_MESSAGES.tooMany);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: userHandleOf(user.id),
    userDisplayName: user.username,
    attestationType: "none",
    // The same authenticator twice would only be a second row for one key.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    // Discoverable (the login page asks for "a passkey", not a user's list) and user-verified (PIN or biometrics):
    // together that is two factors, what lets a passkey sign-in stand for password + code.
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  return { challenge_id: await storeChallenge(db, "register", options.challenge, { userId: user.id, sessionId }, now), options };
}

export async function completeRegistration(
  db: Db,
  rp: RelyingParty,
  owner: { userId: string; sessionId: string },
  input: { challenge_id: string; name?: string; response: RegistrationResponseJSON },
  now: number,
): Promise<PasskeyView> {
  const expectedChallenge = await claimChallenge(db, input.challenge_id, "register", owner, now);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (err) {
    throw notVerified("registration", err);
  }
  if (!verification.verified) throw notVerified("registration", null);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const [{ total }] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, owner.userId));
  if (total >= MAX_PASSKEYS_PER_USER) throw new AppError("INVALID_STATE", PASSKEY_MESSAGES.tooMany);
  const row = {
    id: credential.id,
    userId: owner.userId,
    name: input.name?.trim() || defaultName(credentialDeviceType, total),
    publicKey: toBase64Url(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    createdAt: now,
  };
  // The credential id is the primary key: an id already registered (to anyone) is refused, never overwritten.
  const inserted = await db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
  if (inserted.length === 0) throw new AppError("CONFLICT", PASSKEY_MESSAGES.alreadyRegistered);
  return toPasskeyView(row);
}

function defaultName(deviceType: "singleDevice" | "multiDevice", existing: number): string {
  const base = deviceType === "multiDevice" ? "Synced passkey" : "Passkey";
  return existing === 0 ? base : `${base} ${existing + 1}`;
}

// ---- Assertions: signing in, and step-up ----

/** The login page's ceremony: no user named (discoverable credentials), user verification required. */
export async function signInCeremony(db: Db, rp: RelyingParty, now: number): Promise<PasskeyCeremony<PublicKeyCredentialRequestOptionsJSON>> {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required" });
  return { challenge_id: await storeChallenge(db, "sign-in", options.challenge, null, now), options };
}

/** A signed-in session's step-up ceremony: only this user's passkeys, answered by this session. */
export async function stepUpCeremony(db: Db, rp: RelyingParty, owner: { userId: string; sessionId: string }, now: number) {
  const mine = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, owner.userId));
  if (mine.length === 0) throw new AppError("INVALID_STATE", "This account has no passkey yet.");
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: mine.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
  });
  return { challenge_id: await storeChallenge(db, "step-up", options.challenge, owner, now), options };
}

/**
 * Verifies an assertion and answers whose passkey it was. The challenge is claimed first (single use); the credential
 * must exist (and, for step-up, be the caller's); the library checks origin, RP ID hash, UP and UV flags, the signature
 * and the counter; then the counter and backed-up flag are stored with a compare-and-set on the old counter, so two
 * assertions racing with one counter value cannot both pass. Any failure is a 400 with nothing else written.
 */
export async function verifyAssertion(
  db: Db,
  rp: RelyingParty,
  purpose: "sign-in" | "step-up",
  owner: { userId: string; sessionId: string } | null,
  input: { challenge_id: string; response: AuthenticationResponseJSON },
  now: number,
): Promise<{ userId: string; passkeyId: string }> {
  const expectedChallenge = await claimChallenge(db, input.challenge_id, purpose, owner, now);
  const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, input.response.id)).limit(1);
  if (!stored || (owner && stored.userId !== owner.userId)) {
    throw new AppError("VALIDATION_FAILED", purpose === "sign-in" ? PASSKEY_MESSAGES.unknownPasskey : PASSKEY_MESSAGES.notVerified);
  }
  // A discoverable credential answers with its user handle: it must be the one we registered it under.
  const handle = input.response.response.userHandle;
  if (handle !== undefined && handle !== toBase64Url(userHandleOf(stored.userId))) throw notVerified("user handle", null);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: stored.id, publicKey: fromBase64Url(stored.publicKey), counter: stored.counter, transports: transportsOf(stored.transports) },
      requireUserVerification: true,
    });
  } catch (err) {
    throw notVerified("assertion", err);
  }
  if (!verification.verified) throw notVerified("assertion", null);
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const moved = await db
    .update(passkeys)
    .set({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: now })
    .where(and(eq(passkeys.id, stored.id), eq(passkeys.counter, stored.counter)))
    .returning({ id: passkeys.id });
  if (moved.length === 0) throw notVerified("counter raced", null);
  return { userId: stored.userId, passkeyId: stored.id };
}

function notVerified(step: string, err: unknown): AppError {
  // The library's reason (wrong origin, bad signature, counter) is logged for us, not told to the caller.
  log("info", "passkey not verified", { step, reason: err instanceof Error ? err.message : "not verified" });
  return new AppError("VALIDATION_FAILED", PASSKEY_MESSAGES.notVerified);
}

// ---- Settings: list, rename, remove ----

type PasskeyRow = { id: string; name: string; createdAt: number; lastUsedAt?: number | null; deviceType: string; backedUp: boolean };

export function toPasskeyView(row: PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.createdAt).toISOString(),
    last_used_at: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
    synced: row.deviceType === "multiDevice" && row.backedUp,
  };
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyView[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskeyView);
}

export async function passkeyCount(db: Db, userId: string): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return total;
}

/** Another user's passkey is answered exactly like a missing one: 404. */
export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyView> {
  const [row] = await db.update(passkeys).set({ name }).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).returning();
  if (!row) throw new AppError("NOT_FOUND", PASSKEY_MESSAGES.notFound);
  return toPasskeyView(row);
}

export async function ownPasskey(db: Db, userId: string, id: string) {
  const [row] = await db.select({ id: passkeys.id, name: passkeys.name }).from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).limit(1);
  if (!row) throw new AppError("NOT_FOUND", PASSKEY_MESSAGES.notFound);
  return row;
}

export async function removePasskey(db: Db, userId: string, id: string): Promise<void> {
  const removed = await db.delete(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).returning({ id: passkeys.id });
  if (removed.length === 0) throw new AppError("NOT_FOUND", PASSKEY_MESSAGES.notFound);
}
