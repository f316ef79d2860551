import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RESET_LINK_INVALID_MESSAGE } from "../../schema/account-messages";
import { BINDING_LIMITS, RATE_LIMITS } from "../services/kernel";
import { freshAddress, inOneWindow, WINDOW_NEEDED_MS } from "../test/rate-windows";
import { signToken } from "../lib/jwt";
import worker from "../index";
import type { Env } from "../config";
import { api } from "../test/helpers";

// Tokens, revocation, reset links and brute-force limits.

const secret = () => new TextEncoder().encode(env.JWT_SECRET!);
// Each signup/login runs PBKDF2 at 100,000 iterations on purpose; on a loaded 2-core machine a test doing a dozen
// of them needs more than the default 5 s budget.
const HASHING = { timeout: 30_000 };
let n = 0;

async function signup() {
  n += 1;
  const account = { username: `Sec${n}`, number: "08012345678", email: `sec${n}-${crypto.randomUUID().slice(0, 6)}@example.com`, password: "secret-1" };
  const res = await api("/api/register/", { json: account });
  expect(res.status).toBe(201);
  return { ...account, token: res.data.token as string, userId: res.data.user.userId as string };
}

async function sessionIdOf(token: string): Promise<string> {
  return JSON.parse(atob(token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/"))).sid;
}

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function requestReset(email: string) {
  expect((await api("/api/forgot-password", { json: { email }, settle: true })).status).toBe(200);
  const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`);
  const query = new URLSearchParams(new URL(outbox.data.data[0].link).hash.split("?")[1]);
  return { id: query.get("id")!, token: query.get("token")! };
}

afterEach(() => vi.restoreAllMocks());

describe("bearer tokens", HASHING, () => {
  it("refuses a missing or malformed Authorization header on every signed-in account endpoint", async () => {
    for (const [method, path] of [["PATCH", "/api/update/"], ["PATCH", "/api/password"], ["GET", "/api/level"], ["GET", "/api/ref"]]) {
      const none = await api(path, { method, json: method === "GET" ? undefined : {} });
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.data).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String), error: expect.any(String) });
      const junk = await api(path, { method, headers: { authorization: "Bearer not.a.jwt" } });
      expect(junk.status, `${method} ${path}`).toBe(401);
    }
  });

  it("logout without a token, with junk or with a forged token answers 200 (issue 27) and ends no one's session", async () => {
    const account = await signup();
    const sid = await sessionIdOf(account.token);
    const otherUsersSession = await signToken(secret(), "api", { userId: crypto.randomUUID(), sessionId: sid });
    const wrongSecret = await signToken(new TextEncoder().encode("another-secret-0123456789abcdef"), "api", { userId: account.userId, sessionId: sid });
    for (const headers of [{} as Record<string, string>, { authorization: "Bearer not.a.jwt" }, { authorization: `Bearer ${otherUsersSession}` }, { authorization: `Bearer ${wrongSecret}` }]) {
      expect((await api("/api/logout/", { method: "POST", headers, json: {} })).status).toBe(200);
    }
    expect((await api("/api/level", { token: account.token })).status).toBe(200);
  });

  it("refuses forged tokens for a live session: alg none, wrong secret, wrong audience, expired, wrong issuer", async () => {
    const account = await signup();
    const sid = await sessionIdOf(account.token);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: account.userId, sid, iss: "virtual-numbers", aud: "api", iat: now, exp: now + 3600 };
    const forged = {
      algNone: `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`,
      wrongSecret: await signToken(new TextEncoder().encode("another-secret-0123456789abcdef"), "api", { userId: account.userId, sessionId: sid }),
      wrongAudience: await signToken(secret(), "realtime", { userId: account.userId, sessionId: sid }),
      expired: await new SignJWT({ sid }).setProtectedHeader({ alg: "HS256" }).setSubject(account.userId).setIssuer("virtual-numbers")
        .setAudience("api").setIssuedAt(now - 7200).setExpirationTime(now - 60).sign(secret()),
      wrongIssuer: await new SignJWT({ sid }).setProtectedHeader({ alg: "HS256" }).setSubject(account.userId).setIssuer("someone-else")
        .setAudience("api").setIssuedAt().setExpirationTime("1h").sign(secret()),
      otherUsersSession: await signToken(secret(), "api", { userId: crypto.randomUUID(), sessionId: sid }),
    };
    for (const [name, token] of Object.entries(forged)) {
      const res = await api("/api/level", { token });
      expect(res.status, name).toBe(401);
      expect(res.data.code, name).toBe("UNAUTHORIZED");
    }
    expect((await api("/api/level", { token: account.token })).status).toBe(200);
  });

  it("refuses a token whose session expired", async () => {
    const account = await signup();
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, await sessionIdOf(account.token)).run();
    expect((await api("/api/level", { token: account.token })).status).toBe(401);
  });
});

describe("reset links", HASHING, () => {
  it("work once, and revoke every session of the account", async () => {
    const account = await signup();
    const link = await requestReset(account.email);
    const first = await api("/api/reset-password", { json: { ...link, newPassword: "first-reset" } });
    expect(first.status).toBe(200);
    expect((await api("/api/level", { token: account.token })).status).toBe(401);
    const again = await api("/api/reset-password", { json: { ...link, newPassword: "second-reset" } });
    expect(again.status).toBe(400);
    expect(again.data).toMatchObject({ code: "VALIDATION_FAILED", message: RESET_LINK_INVALID_MESSAGE, error: RESET_LINK_INVALID_MESSAGE });
    expect((await api("/api/login", { json: { email: account.email, password: "first-reset" } })).status).toBe(200);
  });

  it("expire after one hour", async () => {
    const account = await signup();
    const link = await requestReset(account.email);
    await env.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, link.id).run();
    const res = await api("/api/reset-password", { json: { ...link, newPassword: "too-late-1" } });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(RESET_LINK_INVALID_MESSAGE);
    expect((await api("/api/login", { json: { email: account.email, password: account.password } })).status).toBe(200);
  });

  it("refuse a wrong token or an unknown id with the same answer", async () => {
    const account = await signup();
    const link = await requestReset(account.email);
    const wrongToken = await api("/api/reset-password", { json: { id: link.id, token: `${link.token.slice(0, -2)}xx`, newPassword: "guess-123" } });
    const unknownId = await api("/api/reset-password", { json: { id: crypto.randomUUID(), token: link.token, newPassword: "guess-123" } });
    expect(wrongToken.status).toBe(400);
    expect(unknownId.data).toEqual(wrongToken.data);
    // The right link still works after failed guesses.
    expect((await api("/api/reset-password", { json: { ...link, newPassword: "right-one-1" } })).status).toBe(200);
  });

  it("are spent together: using the newest link voids the older ones", async () => {
    const account = await signup();
    const older = await requestReset(account.email);
    const newer = await requestReset(account.email);
    expect((await api("/api/reset-password", { json: { ...newer, newPassword: "newest-1" } })).status).toBe(200);
    expect((await api("/api/reset-password", { json: { ...older, newPassword: "older-1" } })).status).toBe(400);
  });

  it("never reach the logs", async () => {
    const lines: string[] = [];
    for (const level of ["log", "warn", "error", "info"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    }
    const account = await signup();
    const link = await requestReset(account.email);
    await api("/api/reset-password", { json: { ...link, newPassword: "logged-not-1" } });
    vi.restoreAllMocks();
    expect(lines.some((l) => l.includes("stored in the local outbox"))).toBe(true);
    expect(lines.filter((l) => l.includes(link.token) || l.includes("logged-not-1") || l.includes(account.password))).toEqual([]);
  });
});

describe("brute-force limits", HASHING, () => {
  it("after 10 failed logins on one account from one address in 15 minutes, its logins there answer 429 until the window passes", async () => {
    const account = await signup();
    for (let i = 0; i < RATE_LIMITS.loginPerAccountAddress.limit; i++) {
      const res = await api("/api/login", { json: { email: account.email, password: `wrong-${i}-pass` } });
      expect(res.status).toBe(401);
    }
    // Even the right password is refused while the account is locked.
    const locked = await api("/api/login", { json: { email: account.email.toUpperCase(), password: account.password } });
    expect(locked.status).toBe(429);
    expect(locked.data).toMatchObject({ code: "RATE_LIMITED", message: expect.stringMatching(/^Too many attempts\. Please try again in 1[45] minutes\.$/) });
    expect(locked.data.error).toBe(locked.data.message);
    expect(locked.data.retry_after).toBeGreaterThan(14 * 60);
    expect(locked.data.retry_after).toBeLessThanOrEqual(15 * 60);
    expect(locked.headers.get("retry-after")).toBe(String(locked.data.retry_after));

    // Another account is not affected.
    const other = await signup();
    expect((await api("/api/login", { json: { email: other.email, password: other.password } })).status).toBe(200);

    // The window passing frees it (this test's requests carry no address: they share one, "none").
    await env.DB.prepare("UPDATE rate_limits SET reset_at = ? WHERE key LIKE ?").bind(Date.now() - 1, `login:${account.email}%`).run();
    expect((await api("/api/login", { json: { email: account.email, password: account.password } })).status).toBe(200);
  });

  it("an attacker's address is stopped at 10 wrong passwords while the owner signs in from another address", async () => {
    const account = await signup();
    const attacker = { "cf-connecting-ip": "203.0.113.66" };
    for (let i = 0; i < RATE_LIMITS.loginPerAccountAddress.limit; i++) {
      expect((await api("/api/login", { headers: attacker, json: { email: account.email, password: `wrong-${i}-pass` } })).status).toBe(401);
    }
    // The attacking address is locked out of this account, even with the right password...
    const stopped = await api("/api/login", { headers: attacker, json: { email: account.email, password: account.password } });
    expect(stopped.status).toBe(429);
    expect(stopped.data).toMatchObject({ code: "RATE_LIMITED", retry_after: expect.any(Number) });
    // ...but the owner, elsewhere, signs in at once, and that does not unlock the attacker's address.
    const owner = await api("/api/login", { headers: { "cf-connecting-ip": "198.51.100.20" }, json: { email: account.email, password: account.password } });
    expect(owner.status).toBe(200);
    expect(owner.data.token).toEqual(expect.any(String));
    expect((await api("/api/login", { headers: attacker, json: { email: account.email, password: account.password } })).status).toBe(429);
  });

  it("keeps an account-wide ceiling against guesses spread over many addresses", async () => {
    const account = await signup();
    const { limit } = RATE_LIMITS.loginPerAccount;
    expect(limit).toBeGreaterThan(RATE_LIMITS.loginPerAccountAddress.limit);
    expect((await api("/api/login", { headers: { "cf-connecting-ip": "192.0.2.1" }, json: { email: account.email, password: "wrong-pass-0" } })).status).toBe(401);
    // Fast-forward the account-wide counter (a hundred real PBKDF2 guesses would only make the test slow) to its limit.
    const key = `login:${account.email}`;
    await env.DB.prepare("UPDATE rate_limits SET count = ? WHERE key = ?").bind(limit - 1, key).run();
    expect((await api("/api/login", { headers: { "cf-connecting-ip": "192.0.2.2" }, json: { email: account.email, password: "wrong-pass-1" } })).status).toBe(401);
    // A fresh address, even with the right password, now meets the ceiling.
    const ceiling = await api("/api/login", { headers: { "cf-connecting-ip": "192.0.2.3" }, json: { email: account.email, password: account.password } });
    expect(ceiling.status).toBe(429);
    expect(ceiling.data.code).toBe("RATE_LIMITED");
  });

  it("a successful login clears the account's failures", async () => {
    const account = await signup();
    for (let i = 0; i < 9; i++) await api("/api/login", { json: { email: account.email, password: "wrong-pass" } });
    expect((await api("/api/login", { json: { email: account.email, password: account.password } })).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await api("/api/login", { json: { email: account.email, password: "wrong-pass" } })).status).toBe(401);
  });

  it("locks unknown emails the same way, so a 429 reveals nothing", async () => {
    const email = "no-account-here@example.com";
    for (let i = 0; i < 10; i++) expect((await api("/api/login", { json: { email, password: "wrong-pass" } })).status).toBe(401);
    expect((await api("/api/login", { json: { email, password: "wrong-pass" } })).status).toBe(429);
  });

  it("limits forgot-password per email the same way", async () => {
    const account = await signup();
    for (let i = 0; i < RATE_LIMITS.forgotPerAccount.limit; i++) {
      expect((await api("/api/forgot-password", { json: { email: account.email }, settle: true })).status).toBe(200);
    }
    const limited = await api("/api/forgot-password", { json: { email: account.email }, settle: true });
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ code: "RATE_LIMITED", retry_after: expect.any(Number) });
    const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(account.email)}`);
    const resets = outbox.data.data.filter((m: { subject: string }) => m.subject === "Reset your password");
    expect(resets).toHaveLength(RATE_LIMITS.forgotPerAccount.limit);
  });

  it("limits guesses of the old password on a signed-in account", async () => {
    const account = await signup();
    for (let i = 0; i < RATE_LIMITS.passwordChangePerUser.limit; i++) {
      const res = await api("/api/password", { method: "PATCH", token: account.token, json: { oldPassword: `guess-${i}-x`, newPassword: "whatever-1" } });
      expect(res.status).toBe(400);
    }
    const res = await api("/api/password", { method: "PATCH", token: account.token, json: { oldPassword: account.password, newPassword: "whatever-1" } });
    expect(res.status).toBe(429);
  });

  it("keeps a generous per-address limit (cf-connecting-ip, the AUTH_ADDRESS_LIMITER binding) that does not touch other addresses", async () => {
    const address = freshAddress();
    const office = { "cf-connecting-ip": address };
    const { limit, periodSeconds } = BINDING_LIMITS.AUTH_ADDRESS_LIMITER;
    expect(limit).toBeGreaterThanOrEqual(100);
    await inOneWindow(periodSeconds, WINDOW_NEEDED_MS);
    // Invalid bodies count too (the address limit runs before validation), and login and forgot-password share it.
    const statuses: number[] = [];
    for (let i = 0; i < limit; i += 25) {
      const batch = Array.from({ length: Math.min(25, limit - i) }, (_, k) => api(k % 2 ? "/api/login" : "/api/forgot-password", { json: {}, headers: office }));
      statuses.push(...(await Promise.all(batch)).map((r) => r.status));
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    const limited = await api("/api/login", { json: {}, headers: office });
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ code: "RATE_LIMITED", retry_after: periodSeconds });
    expect((await api("/api/forgot-password", { json: { email: "a@example.com" }, headers: office })).status).toBe(429);
    expect((await api("/api/login", { json: {}, headers: { "cf-connecting-ip": freshAddress() } })).status).toBe(400);
    // Counted by the platform: no D1 row for the address.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM rate_limits WHERE key LIKE ?").bind(`%${address}%`).first("n")).toBe(0);
  });
});

/**
 * A D1 binding whose statements touching the users table wait until `open()` is called: the answer that must not
 * depend on the account lookup can only arrive while the gate is shut if it truly does not wait for it.
 */
function gatedUsersDb(db: D1Database) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  const touchesUsers = (sql: string) => /\b(from|into|update)\s+"?users"?/i.test(sql);
  const wrap = (stmt: D1PreparedStatement, gated: boolean): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrap(value.apply(target, args), gated);
        if (gated && (prop === "first" || prop === "all" || prop === "run" || prop === "raw")) {
          return async (...args: unknown[]) => {
            held += 1;
            await gate;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  // The app runs each request's D1 in a session (lib/d1-session.ts): a session's statements are held the same way.
  const gatedDb = <T extends object>(binding: T): T =>
    new Proxy(binding, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "prepare") return (sql: string) => wrap((target as unknown as D1Database).prepare(sql), touchesUsers(sql));
        if (prop === "withSession") return (...args: unknown[]) => gatedDb((value as (...a: unknown[]) => object).apply(target, args));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return { db: gatedDb(db), open: () => open(), held: () => held };
}

/** The reset mails in the sandbox outbox for this address (signing up also mails a verification link). */
async function resetMails(email: string): Promise<unknown[]> {
  const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`);
  return (outbox.data.data as { link?: string }[]).filter((mail) => mail.link?.includes("/reset-password/"));
}

describe("forgot-password does the same work for every e-mail (issue 12, hole 8)", HASHING, () => {
  for (const known of [true, false]) {
    it(`answers before looking the account up or sending anything (${known ? "an account" : "no account"})`, async () => {
      const email = known ? (await signup()).email : `ghost-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const gated = gatedUsersDb(env.DB);
      const ctx = createExecutionContext();
      const request = new Request("http://127.0.0.1:8787/api/forgot-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      // While every users query is held, the answer still arrives: it cannot differ in work (or time) by account.
      const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...(env as Env), DB: gated.db } as Env, ctx);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "If this email exists, a reset link has been sent." });
      expect(await resetMails(email)).toHaveLength(0);
      // The lookup and the e-mail happen after the answer.
      gated.open();
      await waitOnExecutionContext(ctx);
      expect(gated.held()).toBeGreaterThan(0);
      expect(await resetMails(email)).toHaveLength(known ? 1 : 0);
    });
  }
});
