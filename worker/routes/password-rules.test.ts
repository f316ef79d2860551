import { env } from "cloudflare:workers";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES, TWO_FACTOR_MESSAGES } from "../../schema/accounts";
import { hashPassword } from "../lib/password";
import { api, createUser } from "../test/helpers";
import { enrolPasskey, signInWithPasskey } from "../test/passkeys";

// Issue 33: new passwords follow today's rules (8+ characters, not common, not the account's own e-mail or name);
// older passwords keep working and the account is asked for a new one; a reset never skips the second factor.
const HASHING = { timeout: 60_000 };
const GOOD = "harmattan-kettle-42";
let n = 0;

async function signup(password = GOOD) {
  n += 1;
  const email = `pw${n}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  return { email, res: await api("/api/register/", { json: { username: `Pw${n}`, number: "08012345678", email, password } }) };
}

async function usersWithEmail(email: string): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>())!.n;
}

/** An account whose password was set before the rules changed (written as an older signup wrote it). */
async function accountWithOldPassword(password: string) {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(password), user.id).run();
  return user;
}

async function requestReset(email: string) {
  expect((await api("/api/forgot-password", { json: { email }, settle: true })).status).toBe(200);
  const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`);
  const query = new URLSearchParams(new URL(outbox.data.data[0].link).hash.split("?")[1]);
  return { id: query.get("id")!, token: query.get("token")! };
}

describe("new passwords (ASVS 6.2.1, 6.2.4, 6.2.9, 6.2.12)", HASHING, () => {
  it("sign-up refuses fewer than 8 characters, a common password and the e-mail itself: 400 naming the field, no account", async () => {
    const short = await signup("abc1234");
    expect(short.res.status).toBe(400);
    expect(short.res.data).toMatchObject({ code: "VALIDATION_FAILED", message: "Password must be at least 8 characters", field: "password" });
    const common = await signup("Password123");
    expect(common.res.status).toBe(400);
    expect(common.res.data).toMatchObject({ code: "VALIDATION_FAILED", message: PASSWORD_MESSAGES.common, field: "password" });
    n += 1;
    const email = `own${n}@example.com`;
    const own = await api("/api/register/", { json: { username: `Own${n}`, number: "08012345678", email, password: email } });
    expect(own.status).toBe(400);
    expect(own.data.message).toBe(PASSWORD_MESSAGES.personal);
    for (const e of [short.email, common.email, email]) expect(await usersWithEmail(e)).toBe(0);
  });

  it("accepts a 128-character passphrase (more than ASVS's 64) and signs in with it; 129 is refused", async () => {
    const long = "correct horse battery staple ".repeat(5).slice(0, 128);
    const made = await signup(long);
    expect(made.res.status).toBe(201);
    const login = await api("/api/login", { json: { email: made.email, password: long } });
    expect(login.status).toBe(200);
    expect(login.data.password_change_required).toBeUndefined();
    const tooLong = await signup("y".repeat(129));
    expect(tooLong.res.status).toBe(400);
    expect(tooLong.res.data.message).toBe("Password must be at most 128 characters");
  });

  it("the password change refuses a common new password and keeps the old one (400, nothing written)", async () => {
    const made = await signup();
    const token = made.res.data.token as string;
    const refused = await api("/api/password", { method: "PATCH", token, json: { oldPassword: GOOD, newPassword: "qwerty123" } });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ message: PASSWORD_MESSAGES.common, field: "newPassword" });
    const short = await api("/api/password", { method: "PATCH", token, json: { oldPassword: GOOD, newPassword: "short12" } });
    expect(short.status).toBe(400);
    expect(short.data.message).toBe("New password must be at least 8 characters");
    // Issue 43: the current password is not a new one.
    const same = await api("/api/password", { method: "PATCH", token, json: { oldPassword: GOOD, newPassword: GOOD } });
    expect(same.status).toBe(400);
    expect(same.data).toMatchObject({ code: "VALIDATION_FAILED", message: PASSWORD_MESSAGES.sameAsOld, field: "newPassword" });
    expect((await api("/api/login", { json: { email: made.email, password: GOOD } })).status).toBe(200);
  });
});

describe("passwords set under the older rules (issue 33)", HASHING, () => {
  it("still sign in, are flagged for a change (answer and /api/account), and the flag clears once changed", async () => {
    const user = await accountWithOldPassword("secret1");
    const login = await api("/api/login", { json: { email: user.email, password: "secret1" } });
    expect(login.status).toBe(200);
    expect(login.data.password_change_required).toBe(true);
    expect((await api("/api/account", { token: login.data.token })).data.password_change_required).toBe(true);
    const changed = await api("/api/password", { method: "PATCH", token: login.data.token, json: { oldPassword: "secret1", newPassword: GOOD } });
    expect(changed.status).toBe(200);
    expect((await api("/api/account", { token: login.data.token })).data.password_change_required).toBe(false);
    const again = await api("/api/login", { json: { email: user.email, password: GOOD } });
    expect(again.data.password_change_required).toBeUndefined();
  });

  it("a common password behind two-factor: the flag comes with the session the second step opens", async () => {
    const user = await accountWithOldPassword("password1");
    const setup = await api("/api/2fa/setup", { method: "POST", token: user.token });
    const totp = (base32: string, steps = 0) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(base32) }).generate({ timestamp: Date.now() + steps * 30_000 });
    expect((await api("/api/2fa/enable", { method: "POST", token: user.token, json: { code: totp(setup.data.secret) } })).status).toBe(200);
    const first = await api("/api/login", { json: { email: user.email, password: "password1" } });
    expect(first.data).toMatchObject({ two_factor_required: true });
    expect(first.data.token).toBeUndefined();
    const second = await api("/api/login/2fa", { json: { challenge: first.data.challenge, code: totp(setup.data.secret, 1) } });
    expect(second.status).toBe(200);
    expect(second.data.password_change_required).toBe(true);
  });
});

describe("a password reset does not bypass the second factor (ASVS 6.4.3)", HASHING, () => {
  it("answers no session, ends every session, and the first sign-in afterwards still asks for the code", async () => {
    const made = await signup();
    const token = made.res.data.token as string;
    const setup = await api("/api/2fa/setup", { method: "POST", token });
    const code = (steps = 0) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(setup.data.secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
    expect((await api("/api/2fa/enable", { method: "POST", token, json: { code: code() } })).status).toBe(200);

    const link = await requestReset(made.email);
    // A refused password leaves the link usable, and nothing changed.
    const weak = await api("/api/reset-password", { json: { ...link, newPassword: "iloveyou1" } });
    expect(weak.status).toBe(400);
    expect(weak.data.message).toBe(PASSWORD_MESSAGES.common);
    expect((await api("/api/account", { token })).status).toBe(200);

    const reset = await api("/api/reset-password", { json: { ...link, newPassword: "a-brand-new-passphrase" } });
    expect(reset.status).toBe(200);
    expect(Object.keys(reset.data)).toEqual(["message"]);
    expect((await api("/api/account", { token })).status).toBe(401);
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL").bind(made.res.data.user.userId).first<{ n: number }>();
    expect(live?.n).toBe(0);

    const login = await api("/api/login", { json: { email: made.email, password: "a-brand-new-passphrase" } });
    expect(login.status).toBe(200);
    expect(login.data).toMatchObject({ two_factor_required: true, message: TWO_FACTOR_MESSAGES.codeNeeded, methods: ["totp"] });
    expect(login.data.token).toBeUndefined();
    const wrong = await api("/api/login/2fa", { json: { challenge: login.data.challenge, code: "000000" === code(1) ? "111111" : "000000" } });
    expect(wrong.status).toBe(401);
    const right = await api("/api/login/2fa", { json: { challenge: login.data.challenge, code: code(1) } });
    expect(right.status).toBe(200);
    expect(typeof right.data.token).toBe("string");
  });

  it("an account whose only second factor is a passkey: after a reset the password still answers a challenge for the passkey, no session", async () => {
    const user = await accountWithOldPassword(GOOD);
    const auth = await enrolPasskey(user);
    const reset = await api("/api/reset-password", { json: { ...(await requestReset(user.email)), newPassword: "a-brand-new-passphrase" } });
    expect(reset.status).toBe(200);
    expect(Object.keys(reset.data)).toEqual(["message"]);
    expect((await api("/api/account", { token: user.token })).status).toBe(401);

    const login = await api("/api/login", { json: { email: user.email, password: "a-brand-new-passphrase" } });
    expect(login.status).toBe(200);
    expect(login.data).toEqual({ two_factor_required: true, challenge: expect.any(String), message: TWO_FACTOR_MESSAGES.passkeyNeeded, methods: ["passkey"] });
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL").bind(user.id).first<{ n: number }>();
    expect(live?.n).toBe(0);
    // The passkey still finishes the sign-in (a reset changes the password only).
    const passkey = await signInWithPasskey(auth);
    expect(passkey.status).toBe(200);
    expect(passkey.data.user.userId).toBe(user.id);
  });
});
