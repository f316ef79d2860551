import { env } from "cloudflare:workers";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { TWO_FACTOR_MESSAGES } from "../../schema/accounts";
import { PASSKEY_MESSAGES, STEP_UP_MESSAGES } from "../../schema/passkeys";
import { hashPassword } from "../lib/password";
import { makeOperator } from "../test/operators";
import { api, createUser, type TestUser } from "../test/helpers";
import { SoftwareAuthenticator } from "../test/software-authenticator";

// Issue 33 (decision 034): passkeys through real WebAuthn ceremonies. A software authenticator (worker/test/
// software-authenticator.ts) builds clientDataJSON, authenticatorData, "none" attestation and ES256 signatures itself,
// so @simplewebauthn/server verifies exactly what a browser would send. The test worker's PUBLIC_URL is
// http://127.0.0.1:8787: an IP cannot be an RP ID, so the relying party is localhost on that port.
const RP_ID = "localhost";
const ORIGIN = "http://localhost:8787";
const MINUTE = 60_000;

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql).bind(...binds).first<{ n: number }>();
  return row?.n ?? 0;
}
const sessionsOf = (userId: string) => count("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?", userId);
const passkeysOf = (userId: string) => count("SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?", userId);
const counterOf = (id: string) => count("SELECT counter AS n FROM passkeys WHERE id = ?", id);

/** Moves the session's last proofs into the past, as if that many minutes had gone by since them. */
async function ageSession(user: TestUser, minutes: { secondFactor?: number | null; reauth?: number | null }) {
  const at = (m: number | null | undefined) => (m === null || m === undefined ? null : Date.now() - m * MINUTE);
  await env.DB.prepare("UPDATE sessions SET second_factor_at = ?, reauthenticated_at = ? WHERE id = ?")
    .bind(at(minutes.secondFactor), at(minutes.reauth), user.sessionId)
    .run();
}

async function addPasskey(user: TestUser, authenticator?: SoftwareAuthenticator, name = "My phone") {
  const auth = authenticator ?? (await SoftwareAuthenticator.create(ORIGIN));
  const ceremony = await api("/api/passkeys/options", { method: "POST", token: user.token });
  expect(ceremony.status).toBe(200);
  const added = await api("/api/passkeys", { token: user.token, json: { challenge_id: ceremony.data.challenge_id, name, response: await auth.register(ceremony.data.options) } });
  expect(added.status).toBe(201);
  return auth;
}

async function signInWith(auth: SoftwareAuthenticator, opts: Parameters<SoftwareAuthenticator["assert"]>[1] = {}) {
  const ceremony = await api("/api/login/passkey/options", { method: "POST" });
  expect(ceremony.status).toBe(200);
  const body = { challenge_id: ceremony.data.challenge_id, response: await auth.assert(ceremony.data.options, opts) };
  return { body, reply: await api("/api/login/passkey/verify", { json: body }) };
}

describe("passkeys: registration and sign-in ceremonies", () => {
  it("adds a discoverable, user-verified passkey in Settings and signs in with it as two factors", async () => {
    const user = await createUser();
    const ceremony = await api("/api/passkeys/options", { method: "POST", token: user.token });
    expect(ceremony.status).toBe(200);
    expect(ceremony.data.options.rp).toEqual({ id: RP_ID, name: "VirtualNum" });
    expect(ceremony.data.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(ceremony.data.options.attestation).toBe("none");

    const auth = await SoftwareAuthenticator.create(ORIGIN);
    const added = await api("/api/passkeys", { token: user.token, json: { challenge_id: ceremony.data.challenge_id, name: "Pixel 8", response: await auth.register(ceremony.data.options) } });
    expect(added.status).toBe(201);
    expect(added.data).toMatchObject({ message: PASSKEY_MESSAGES.added, passkey: { id: auth.id, name: "Pixel 8", last_used_at: null, synced: false } });
    const list = await api("/api/passkeys", { token: user.token });
    expect(list.data.data).toEqual([expect.objectContaining({ id: auth.id, name: "Pixel 8" })]);
    expect(JSON.stringify(list.data)).not.toMatch(/public_?key/i);
    // Told to the address, like two-factor on/off.
    const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(user.email)}`);
    expect(outbox.data.data.map((m: { subject: string }) => m.subject)).toContain("A passkey was added to your account");

    // The login page's ceremony names nobody: the passkey says whose it is.
    const sessionsBefore = await sessionsOf(user.id);
    const { reply } = await signInWith(auth);
    expect(reply.status).toBe(200);
    expect(reply.data.user).toMatchObject({ userId: user.id, userEmail: user.email });
    const me = await api("/api/account", { token: reply.data.token });
    expect(me.status).toBe(200);
    expect(await sessionsOf(user.id)).toBe(sessionsBefore + 1);
    const session = await env.DB.prepare("SELECT auth_method, second_factor_at, reauthenticated_at FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1")
      .bind(user.id)
      .first<{ auth_method: string; second_factor_at: number | null; reauthenticated_at: number | null }>();
    expect(session).toMatchObject({ auth_method: "passkey" });
    expect(session!.second_factor_at).toBeGreaterThan(Date.now() - MINUTE);
    expect((await api("/api/passkeys", { token: user.token })).data.data[0].last_used_at).not.toBeNull();
  });

  it("a passkey sign-in stands for the password and the TOTP code: no second step for an account with 2FA on", async () => {
    const user = await createUser();
    const auth = await addPasskey(user);
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    const { reply } = await signInWith(auth);
    expect(reply.status).toBe(200);
    expect(reply.data.token).toEqual(expect.any(String));
    expect(reply.data.two_factor_required).toBeUndefined();
  });

  it("the options take the relying party from PUBLIC_URL, whatever Host and Origin the request carries", async () => {
    const user = await createUser();
    const forged = { host: "evil.example", origin: "https://evil.example", "x-forwarded-host": "evil.example" };
    const reg = await api("/api/passkeys/options", { method: "POST", token: user.token, headers: forged });
    expect(reg.data.options.rp.id).toBe(RP_ID);
    const signIn = await api("/api/login/passkey/options", { method: "POST", headers: forged });
    expect(signIn.data.options).toMatchObject({ rpId: RP_ID, userVerification: "required" });
    expect(signIn.data.options.allowCredentials ?? []).toEqual([]);
  });
});

describe("password sign-in of an account with a passkey (ASVS 6.4.3: any second factor is asked for)", () => {
  const PASSWORD = "right-horse-battery";
  const withPassword = async (user: TestUser) =>
    env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(PASSWORD), user.id).run();

  it("a passkey-only account: the password answers a challenge naming only the passkey, no session; a code is refused; the passkey signs in", async () => {
    const user = await createUser();
    await withPassword(user);
    const auth = await addPasskey(user);
    const sessions = await sessionsOf(user.id);

    const first = await api("/api/login", { json: { email: user.email, password: PASSWORD } });
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ two_factor_required: true, challenge: expect.any(String), message: TWO_FACTOR_MESSAGES.passkeyNeeded, methods: ["passkey"] });
    expect(await sessionsOf(user.id)).toBe(sessions);
    // No TOTP on the account: the code step opens nothing with this challenge, whatever code is sent.
    const code = await api("/api/login/2fa", { json: { challenge: first.data.challenge, code: "123456" } });
    expect(code.status).toBe(401);
    expect(code.data).toMatchObject({ code: "UNAUTHORIZED", message: TWO_FACTOR_MESSAGES.challengeExpired });
    expect(await sessionsOf(user.id)).toBe(sessions);

    // The second step the login page offers: the passkey ceremony, which opens a two-factor session by itself.
    const { reply } = await signInWith(auth);
    expect(reply.status).toBe(200);
    expect(reply.data.user.userId).toBe(user.id);
    expect(await sessionsOf(user.id)).toBe(sessions + 1);
  });

  it("an account with TOTP and a passkey: the code's message as before, both methods offered; without either, a session at once", async () => {
    const user = await createUser();
    await withPassword(user);
    await addPasskey(user);
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    const both = await api("/api/login", { json: { email: user.email, password: PASSWORD } });
    expect(both.data).toEqual({ two_factor_required: true, challenge: expect.any(String), message: TWO_FACTOR_MESSAGES.codeNeeded, methods: ["totp", "passkey"] });

    const plain = await createUser();
    await withPassword(plain);
    const open = await api("/api/login", { json: { email: plain.email, password: PASSWORD } });
    expect(open.status).toBe(200);
    expect(open.data).toMatchObject({ token: expect.any(String), user: { userId: plain.id } });
    expect(open.data.two_factor_required).toBeUndefined();
  });
});

describe("passkeys: bad input is a 4xx in the one error body and writes nothing", () => {
  it("a replayed sign-in (same challenge, same assertion) is refused: the challenge was single-use", async () => {
    const user = await createUser();
    const auth = await addPasskey(user);
    const { body, reply } = await signInWith(auth);
    expect(reply.status).toBe(200);
    const sessions = await sessionsOf(user.id);
    const replay = await api("/api/login/passkey/verify", { json: body });
    expect(replay.status).toBe(400);
    expect(replay.data).toMatchObject({ code: "VALIDATION_FAILED", message: PASSKEY_MESSAGES.ceremonyExpired, error: PASSKEY_MESSAGES.ceremonyExpired });
    // An old assertion under a new, valid challenge: its clientDataJSON signs the old challenge.
    const fresh = await api("/api/login/passkey/options", { method: "POST" });
    const moved = await api("/api/login/passkey/verify", { json: { ...body, challenge_id: fresh.data.challenge_id } });
    expect(moved.status).toBe(400);
    expect(moved.data.message).toBe(PASSKEY_MESSAGES.notVerified);
    expect(await sessionsOf(user.id)).toBe(sessions);
  });

  it("an assertion made for another origin or another RP ID, a forged signature, or one without user verification is refused", async () => {
    const user = await createUser();
    const auth = await addPasskey(user);
    const sessions = await sessionsOf(user.id);
    const attempts = [
      { origin: "https://evil.example" },
      { origin: "http://127.0.0.1:8787" },
      { rpId: "evil.example" },
      { signWith: await SoftwareAuthenticator.otherKey() },
      { userVerified: false },
      { type: "webauthn.create" },
    ];
    for (const attempt of attempts) {
      const { reply } = await signInWith(auth, attempt);
      expect(reply.status, JSON.stringify(Object.keys(attempt))).toBe(400);
      expect(reply.data).toMatchObject({ code: "VALIDATION_FAILED", message: PASSKEY_MESSAGES.notVerified });
    }
    expect(await sessionsOf(user.id)).toBe(sessions);
    expect((await api("/api/passkeys", { token: user.token })).data.data[0].last_used_at).toBeNull();
  });

  it("a registration for another origin or RP ID, or without user verification, adds nothing; a second try needs a new ceremony", async () => {
    const user = await createUser();
    for (const attempt of [{ origin: "https://evil.example" }, { rpId: "evil.example" }, { userVerified: false }]) {
      const auth = await SoftwareAuthenticator.create(ORIGIN);
      const ceremony = await api("/api/passkeys/options", { method: "POST", token: user.token });
      const body = { challenge_id: ceremony.data.challenge_id, response: await auth.register(ceremony.data.options, attempt) };
      const refused = await api("/api/passkeys", { token: user.token, json: body });
      expect(refused.status).toBe(400);
      expect(refused.data.message).toBe(PASSKEY_MESSAGES.notVerified);
      const again = await api("/api/passkeys", { token: user.token, json: { ...body, response: await auth.register(ceremony.data.options) } });
      expect(again.status).toBe(400);
      expect(again.data.message).toBe(PASSKEY_MESSAGES.ceremonyExpired);
    }
    expect(await passkeysOf(user.id)).toBe(0);
  });

  it("a registration ceremony belongs to the session that opened it; an expired one is refused", async () => {
    const alice = await createUser();
    const mallory = await createUser();
    const auth = await SoftwareAuthenticator.create(ORIGIN);
    const ceremony = await api("/api/passkeys/options", { method: "POST", token: alice.token });
    const stolen = await api("/api/passkeys", { token: mallory.token, json: { challenge_id: ceremony.data.challenge_id, response: await auth.register(ceremony.data.options) } });
    expect(stolen.status).toBe(400);
    expect(await passkeysOf(mallory.id)).toBe(0);

    const late = await api("/api/passkeys/options", { method: "POST", token: alice.token });
    await env.DB.prepare("UPDATE webauthn_challenges SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, late.data.challenge_id).run();
    const expired = await api("/api/passkeys", { token: alice.token, json: { challenge_id: late.data.challenge_id, response: await auth.register(late.data.options) } });
    expect(expired.status).toBe(400);
    expect(expired.data.message).toBe(PASSKEY_MESSAGES.ceremonyExpired);
    expect(await passkeysOf(alice.id)).toBe(0);
  });

  it("a counter that does not move forward is refused (a cloned authenticator) and the stored counter keeps its value", async () => {
    const user = await createUser();
    const auth = await SoftwareAuthenticator.create(ORIGIN, { counter: 5 });
    await addPasskey(user, auth);
    expect(await counterOf(auth.id)).toBe(5);
    expect((await signInWith(auth)).reply.status).toBe(200);
    expect(await counterOf(auth.id)).toBe(6);
    for (const counter of [6, 3]) {
      const { reply } = await signInWith(auth, { counter });
      expect(reply.status).toBe(400);
      expect(reply.data.message).toBe(PASSKEY_MESSAGES.notVerified);
    }
    expect(await counterOf(auth.id)).toBe(6);
    expect((await signInWith(auth)).reply.status).toBe(200);
    expect(await counterOf(auth.id)).toBe(7);
  });

  it("a synced passkey (counter always 0, backed up) signs in again and again, and shows as synced", async () => {
    const user = await createUser();
    const auth = await SoftwareAuthenticator.create(ORIGIN, { backedUp: true });
    await addPasskey(user, auth);
    for (let i = 0; i < 2; i++) expect((await signInWith(auth)).reply.status).toBe(200);
    expect((await api("/api/passkeys", { token: user.token })).data.data[0].synced).toBe(true);
  });

  it("an unknown passkey, a malformed answer and a blocked account are refused without a session", async () => {
    const stranger = await SoftwareAuthenticator.create(ORIGIN);
    const unknown = await signInWith(stranger);
    expect(unknown.reply.status).toBe(400);
    expect(unknown.reply.data.message).toBe(PASSKEY_MESSAGES.unknownPasskey);

    const malformed = await api("/api/login/passkey/verify", { json: { challenge_id: "x", response: { id: "a b", type: "public-key" } } });
    expect(malformed.status).toBe(400);
    expect(malformed.data).toMatchObject({ code: "VALIDATION_FAILED", error: expect.any(String) });

    const user = await createUser();
    const auth = await addPasskey(user);
    await env.DB.prepare("UPDATE users SET blocked_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    const sessions = await sessionsOf(user.id);
    const blocked = await signInWith(auth);
    expect(blocked.reply.status).toBe(403);
    expect(await sessionsOf(user.id)).toBe(sessions);
  });
});

describe("passkeys: naming and removing", () => {
  it("renames and removes one's own passkeys; another customer's is 404 and untouched", async () => {
    const owner = await createUser();
    const other = await createUser();
    const first = await addPasskey(owner, undefined, "Laptop");
    await addPasskey(owner, undefined, "Phone");
    expect((await api(`/api/passkeys/${first.id}`, { method: "PATCH", token: other.token, json: { name: "Mine now" } })).status).toBe(404);
    expect((await api(`/api/passkeys/${first.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    const renamed = await api(`/api/passkeys/${first.id}`, { method: "PATCH", token: owner.token, json: { name: "Work laptop" } });
    expect(renamed.data.passkey.name).toBe("Work laptop");
    expect((await api(`/api/passkeys/${first.id}`, { method: "PATCH", token: owner.token, json: { name: "  " } })).status).toBe(400);

    const removed = await api(`/api/passkeys/${first.id}`, { method: "DELETE", token: owner.token });
    expect(removed.status).toBe(200);
    const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(owner.email)}`);
    expect(outbox.data.data.map((m: { body: string }) => m.body).join("\n")).toContain('The passkey named "Work laptop" was just removed');
    expect((await api("/api/passkeys", { token: owner.token })).data.data.map((p: { name: string }) => p.name)).toEqual(["Phone"]);
    const { reply } = await signInWith(first);
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe(PASSKEY_MESSAGES.unknownPasskey);
  });

  it("removing the last passkey needs a fresh second factor: a passkey step-up from this session opens it for 10 minutes", async () => {
    const user = await createUser();
    const auth = await addPasskey(user);
    await ageSession(user, { secondFactor: 11, reauth: 11 });
    const refused = await api(`/api/passkeys/${auth.id}`, { method: "DELETE", token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ code: "STEP_UP_REQUIRED", message: STEP_UP_MESSAGES.secondFactorNeeded, step_up: "second_factor", methods: ["passkey"] });
    expect(await passkeysOf(user.id)).toBe(1);

    // The step-up ceremony lists only this user's passkeys and answers only to this session.
    const ceremony = await api("/api/step-up/passkey/options", { method: "POST", token: user.token });
    expect(ceremony.data.options.allowCredentials).toEqual([expect.objectContaining({ id: auth.id })]);
    const confirmed = await api("/api/step-up", { token: user.token, json: { challenge_id: ceremony.data.challenge_id, response: await auth.assert(ceremony.data.options) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.fresh_until).toEqual(expect.any(String));
    expect((await api(`/api/passkeys/${auth.id}`, { method: "DELETE", token: user.token })).status).toBe(200);
    expect(await passkeysOf(user.id)).toBe(0);
  });

  it("another customer's passkey cannot answer my step-up", async () => {
    const me = await createUser();
    const mine = await addPasskey(me);
    const other = await createUser();
    const theirs = await addPasskey(other);
    await ageSession(me, { secondFactor: 30, reauth: 30 });
    const ceremony = await api("/api/step-up/passkey/options", { method: "POST", token: me.token });
    const refused = await api("/api/step-up", { token: me.token, json: { challenge_id: ceremony.data.challenge_id, response: await theirs.assert(ceremony.data.options) } });
    expect(refused.status).toBe(400);
    expect((await api(`/api/passkeys/${mine.id}`, { method: "DELETE", token: me.token })).status).toBe(403);
  });
});

describe("step-up and re-authentication windows", () => {
  it("creating an API key needs a second factor from the last 10 minutes on an account that has one", async () => {
    const user = await createUser();
    const auth = await addPasskey(user);
    const create = () => api("/api/keys", { token: user.token, json: { name: "bot", mode: "test" } });
    await ageSession(user, { secondFactor: 9, reauth: 9 });
    expect((await create()).status).toBe(201);
    await ageSession(user, { secondFactor: 11, reauth: 1 });
    const refused = await create();
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ code: "STEP_UP_REQUIRED", methods: ["passkey"] });
    expect(await count("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(1);
    const ceremony = await api("/api/step-up/passkey/options", { method: "POST", token: user.token });
    await api("/api/step-up", { token: user.token, json: { challenge_id: ceremony.data.challenge_id, response: await auth.assert(ceremony.data.options) } });
    expect((await create()).status).toBe(201);
  });

  it("the password re-authenticates (webhook destination, 2FA setup) but never passes for a second factor the account has", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword("right-horse-battery"), user.id).run();
    const key = await api("/api/keys", { token: user.token, json: { name: "bot", mode: "test" } });
    expect(key.status).toBe(201);
    await addPasskey(user);
    await ageSession(user, { secondFactor: 20, reauth: 20 });
    const webhook = () => api(`/api/keys/${key.data.id}/webhook`, { method: "PUT", token: user.token, json: { url: "https://hooks.example.com/in" } });
    const stale = await webhook();
    expect(stale.status).toBe(403);
    expect(stale.data).toMatchObject({ code: "STEP_UP_REQUIRED", step_up: "reauthenticate", methods: ["passkey", "password"] });
    expect((await api("/api/2fa/setup", { method: "POST", token: user.token })).status).toBe(403);

    const wrong = await api("/api/step-up", { token: user.token, json: { password: "wrong-horse" } });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ field: "password", message: STEP_UP_MESSAGES.wrongPassword });
    expect((await webhook()).status).toBe(403);

    expect((await api("/api/step-up", { token: user.token, json: { password: "right-horse-battery" } })).status).toBe(200);
    expect((await webhook()).status).toBe(200);
    // The password moved re-authentication only: a new key still needs the passkey.
    expect((await api("/api/keys", { token: user.token, json: { name: "bot2", mode: "test" } })).status).toBe(403);
  }, 60_000);

  it("an account without a second factor confirms with its password; a TOTP code steps up an account with 2FA", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword("right-horse-battery"), user.id).run();
    await ageSession(user, { secondFactor: null, reauth: 15 });
    const refused = await api("/api/keys", { token: user.token, json: { name: "bot", mode: "test" } });
    expect(refused.data).toMatchObject({ code: "STEP_UP_REQUIRED", methods: ["password"] });
    expect((await api("/api/step-up", { token: user.token, json: { password: "right-horse-battery" } })).status).toBe(200);
    expect((await api("/api/keys", { token: user.token, json: { name: "bot", mode: "test" } })).status).toBe(201);

    // Two-factor on (set up while fresh), then 10 minutes pass: a code from the app opens the gate again.
    const setup = await api("/api/2fa/setup", { method: "POST", token: user.token });
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(setup.data.secret) });
    expect((await api("/api/2fa/enable", { token: user.token, json: { code: totp.generate() } })).status).toBe(200);
    await ageSession(user, { secondFactor: 12, reauth: 12 });
    expect((await api("/api/keys", { token: user.token, json: { name: "bot2", mode: "test" } })).data.methods).toEqual(["totp"]);
    expect((await api("/api/step-up", { token: user.token, json: { code: "000000" } })).status).toBe(400);
    // The enabling code's time step is spent: the next step's code is the one the app shows 30 s later.
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    expect((await api("/api/step-up", { token: user.token, json: { code: next } })).status).toBe(200);
    expect((await api("/api/keys", { token: user.token, json: { name: "bot2", mode: "test" } })).status).toBe(201);
  }, 60_000);

  it("a session opened by password alone has no fresh second factor even at once, when the account has a passkey", async () => {
    const user = await createUser();
    await addPasskey(user);
    // As the password login opens it: re-authenticated now, no second factor.
    await ageSession(user, { secondFactor: null, reauth: 0 });
    expect((await api("/api/keys", { token: user.token, json: { name: "bot", mode: "test" } })).status).toBe(403);
    const state = await api("/api/step-up", { token: user.token });
    expect(state.data).toEqual({ methods: ["passkey", "password"], fresh_until: null });
  });
});

describe("operators need a passkey or TOTP", () => {
  it("an operator with a passkey and no TOTP opens the console; with neither, the console is a missing page", async () => {
    const operator = await makeOperator({ twoFactor: false });
    expect((await api("/api/admin/me", { token: operator.token })).status).toBe(404);
    await addPasskey(operator);
    expect((await api("/api/admin/me", { token: operator.token })).status).toBe(200);
  });
});
