import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NON_DOCUMENT_POLICY } from "../../../schema/csp";
import { BINDING_LIMITS, clearSettingsCache, deliverDueWebhooks, putSetting, RATE_LIMITS } from "../../services/kernel";
import { freshAddress, inOneWindow, WINDOW_NEEDED_MS } from "../rate-windows";
import { postSquadWebhook, setSquadSimulator, squadWebhookRaw, startCardPaymentViaApi } from "../payment-fixtures";
import { api, createUser, db, type ApiReply } from "../helpers";
import { useTestUpstreams } from "../services";

/**
 * Brute force on login and reset, security headers and CORS on real responses, and log hygiene: a whole customer
 * journey through the worker with every console line captured, scanned for tokens, secrets and passwords.
 */

const HASHING = { timeout: 60_000 };
const SELF = "http://127.0.0.1:8787";

afterEach(() => vi.restoreAllMocks());

async function signup(password = "brute-pass-1") {
  const email = `sec-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await api("/api/register/", { json: { username: "Sec", number: "08012345678", email, password } });
  expect(res.status).toBe(201);
  return { email, password, token: res.data.token as string, userId: res.data.user.userId as string };
}

describe("brute force", HASHING, () => {
  it("a wrong password and an unknown email answer the same, and both lock at the same attempt with 429", async () => {
    const account = await signup();
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const strip = (res: ApiReply) => ({ status: res.status, data: res.data, retry: res.headers.get("retry-after") });
    // The clock stands still for the comparison (only Date is faked): both lock windows then open at the same instant,
    // so their retry_after must be identical to the second, however slowly a loaded machine runs the attempts (it once
    // compared 899 with 900 when the two windows opened either side of a second).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      // Both from the same (absent) address: the per account+address limit is the one met first.
      for (let i = 1; i <= RATE_LIMITS.loginPerAccountAddress.limit + 1; i++) {
        const wrong = strip(await api("/api/login", { json: { email: account.email, password: `wrong-${i}-pass` } }));
        const nobody = strip(await api("/api/login", { json: { email: unknown, password: `wrong-${i}-pass` } }));
        expect(nobody, `attempt ${i}`).toEqual(wrong);
        if (i <= RATE_LIMITS.loginPerAccountAddress.limit) expect(wrong.status).toBe(401);
        else expect(wrong).toMatchObject({ status: 429, data: { code: "RATE_LIMITED", retry_after: 15 * 60 }, retry: String(15 * 60) });
      }
    } finally {
      vi.useRealTimers();
    }
    // Even the right password is refused while locked: the lock cannot be used to test guesses.
    expect((await api("/api/login", { json: { email: account.email, password: account.password } })).status).toBe(429);
  });

  it("guessing reset links from one address answers 429 past the address limit, and a wrong link never says why", async () => {
    const account = await signup();
    const headers = { "cf-connecting-ip": freshAddress() };
    await inOneWindow(BINDING_LIMITS.AUTH_ADDRESS_LIMITER.periodSeconds, WINDOW_NEEDED_MS);
    const statuses: number[] = [];
    const messages = new Set<string>();
    const total = BINDING_LIMITS.AUTH_ADDRESS_LIMITER.limit + 5;
    for (let i = 0; i < total; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, total - i) }, (_, k) =>
          api("/api/reset-password", { headers, json: { id: k % 2 ? account.userId : crypto.randomUUID(), token: crypto.randomUUID(), newPassword: "guessed-1" } }),
        ),
      );
      for (const r of batch) {
        statuses.push(r.status);
        if (r.status === 400) messages.add(r.data.message);
      }
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    expect([...messages]).toEqual(["This reset link is invalid or has expired. Please request a new one."]);
    // Another address is unaffected.
    const other = await api("/api/reset-password", { headers: { "cf-connecting-ip": freshAddress() }, json: { id: account.userId, token: "x".repeat(43), newPassword: "guessed-1" } });
    expect(other.status).toBe(400);
  });
});

describe("security headers and CORS on real responses", () => {
  it("every kind of answer carries the security headers and no framework banner", async () => {
    const user = await createUser();
    const answers = [
      await api("/api/health"),
      await api("/api/user-balance", { token: user.token }),
      await api("/api/user-balance"),
      await api("/api/no-such-route"),
      await api("/api/login", { body: "{oops", headers: { "content-type": "application/json" } }),
      await api("/api/webhooks/squad", { body: "{}", headers: { "content-type": "application/json" } }),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      // DENY, like the policy's frame-ancestors 'none' (decision 021): nothing of ours is ever framed.
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toBe(NON_DOCUMENT_POLICY);
      expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("x-powered-by")).toBeNull();
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    }
  });

  it("a foreign origin gets no CORS grant (preflight or request); the app's own origin does, with credentials", async () => {
    const user = await createUser();
    const evil = await api("/api/user-balance", { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const evilGet = await api("/api/user-balance", { token: user.token, headers: { origin: "https://evil.example" } });
    // (hono/cors still sends allow-credentials; without an allowed origin the browser withholds the answer anyway)
    expect(evilGet.headers.get("access-control-allow-origin")).toBeNull();
    const nullOrigin = await api("/api/user-balance", { token: user.token, headers: { origin: "null" } });
    expect(nullOrigin.headers.get("access-control-allow-origin")).toBeNull();

    const own = await api("/api/user-balance", { method: "OPTIONS", headers: { origin: SELF, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" } });
    expect(own.headers.get("access-control-allow-origin")).toBe(SELF);
    expect(own.headers.get("access-control-allow-credentials")).toBe("true");
    expect(own.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});

describe("log hygiene", HASHING, () => {
  it("a whole journey logs no token, secret, password, reset link or signature", async () => {
    clearSettingsCache();
    await putSetting(db(), "sms_poll", { interval_ms: 3_600_000, max_attempts: 3 });
    clearSettingsCache();
    const lines: string[] = [];
    for (const level of ["log", "warn", "error", "info", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")));
    }
    const password = "journey-Secret-77";
    const account = await signup(password);
    const login = await api("/api/login", { json: { email: account.email, password } });
    const token: string = login.data.token;
    await api("/api/login", { json: { email: account.email, password: "wrong-Secret-77" } });
    const ref = await startCardPaymentViaApi({ id: account.userId, email: account.email, token, sessionId: "" }, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    const raw = squadWebhookRaw(ref, 500_000, account.email);
    await postSquadWebhook(raw);
    await postSquadWebhook(raw, "deadbeef"); // a forged one is logged as refused, without its signature
    const buy = await api("/api/sms/get-number", { token, json: { provider: "Swift", country: "5", service: "wa" } });
    const orderId: string = buy.data.phone.request_id;
    await api("/api/sms/cancel", { token, json: { request_id: orderId } });
    const realtime = await api("/api/realtime-token", { token });
    await api(`/parties/notification-room/${account.userId}?token=${realtime.data.token}`);
    await api("/api/user-balance", { token: `${token}x` });
    await api("/api/forgot-password", { json: { email: account.email }, settle: true });
    const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(account.email)}`);
    const link = new URLSearchParams(new URL(outbox.data.data[0].link).hash.split("?")[1]);
    await api("/api/reset-password", { json: { id: link.get("id"), token: link.get("token"), newPassword: "after-Reset-88" } });
    await api("/api/password", { method: "PATCH", token, json: { oldPassword: "wrong-old-pass", newPassword: "never-Set-99" } });
    await runInDurableObject(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(orderId)), (_i, s) => s.storage.deleteAlarm());
    // The developer API: keys in a query string, a form, a Bearer header and X-API-Key, a revoked one, and a signed
    // webhook delivery that fails.
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), account.userId).run();
    // The reset above signed every session out: the customer signs in again.
    const fresh: string = (await api("/api/login", { json: { email: account.email, password: "after-Reset-88" } })).data.token;
    const liveKey = await api("/api/keys", { token: fresh, json: { name: "bot", mode: "live" } });
    const testKey = await api("/api/keys", { token: fresh, json: { name: "sandbox bot", mode: "test" } });
    expect([liveKey.status, testKey.status]).toEqual([201, 201]);
    const live: string = liveKey.data.secret;
    const sandbox: string = testKey.data.secret;
    await api(`/stubs/handler_api.php?api_key=${live}&action=getBalance`);
    await api("/stubs/handler_api.php", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `api_key=${sandbox}&action=getNumber&service=wa` });
    await api("/api/v1/balance", { headers: { authorization: `Bearer ${live}` } });
    await api("/api/v1/balance", { headers: { "x-api-key": sandbox } });
    await api(`/api/keys/${testKey.data.id}/webhook`, { method: "PUT", token: fresh, json: { url: "https://hooks.example.com/in" } });
    const refused = async (): Promise<Response> => {
      throw new Error("connection refused");
    };
    useTestUpstreams({ webhooks: refused });
    await api("/api/keys/sandbox/top-up", { token: fresh, json: { amount: 100 } });
    await deliverDueWebhooks(env, testKey.data.id, Date.now() + 3600_000, refused);
    const attempted = await env.DB.prepare("SELECT last_error FROM webhook_events WHERE api_key_id = ?").bind(testKey.data.id).first<{ last_error: string }>();
    expect(attempted?.last_error).toContain("connection refused");
    useTestUpstreams({ webhooks: null });
    await api(`/api/keys/${liveKey.data.id}/revoke`, { method: "POST", token: fresh });
    await api(`/stubs/handler_api.php?api_key=${live}&action=getBalance`);
    vi.restoreAllMocks();

    expect(lines.length).toBeGreaterThan(15); // the journey was logged: the scan below had something to read
    const secrets: Record<string, string> = {
      "API token": token,
      "signup token": account.token,
      "realtime token": realtime.data.token,
      "JWT signature": token.split(".")[2],
      password,
      "wrong password": "wrong-Secret-77",
      "new password": "after-Reset-88",
      "refused password": "never-Set-99",
      "reset token": link.get("token")!,
      JWT_SECRET: env.JWT_SECRET!,
      SQUAD_SECRET_KEY: env.SQUAD_SECRET_KEY!,
      NOWPAYMENTS_API_KEY: env.NOWPAYMENTS_API_KEY!,
      NOWPAYMENTS_IPN_SECRET: env.NOWPAYMENTS_IPN_SECRET!,
      SMSMAN_TOKEN: env.SMSMAN_TOKEN!,
      SWIFT_API_KEY: env.SWIFT_API_KEY!,
      "second API token": fresh,
      "live API key": live,
      "sandbox API key": sandbox,
      "webhook secret": testKey.data.webhook_secret,
    };
    const leaks = Object.entries(secrets).flatMap(([name, value]) => lines.filter((l) => l.includes(value)).map((l) => `${name} in: ${l.slice(0, 160)}`));
    expect(leaks).toEqual([]);
    expect(lines.filter((l) => /eyJ[\w-]+\.[\w-]+\.[\w-]+|Bearer\s+\w/.test(l))).toEqual([]);
    // Not even another key's prefix or a signature: nothing key-shaped at all.
    expect(lines.filter((l) => /sk_(live|test)_[A-Za-z0-9]{4}|whsec_[A-Za-z0-9]{4}|v1,[A-Za-z0-9+/]{20}/.test(l))).toEqual([]);
  });
});
