import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { redact } from "../lib/log";
import { sha256Hex } from "../services/accounts";
import { API_KEY_RATE_LIMIT } from "../services/developer";
import { createKey, handler } from "../test/api-fixtures";
import { api, balanceOf, createUser, expectLedgerBalanced } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("developer API keys: lifecycle", () => {
  it("shows the secret once, stores only its SHA-256, lists the prefix and never the secret again", async () => {
    const user = await createUser();
    const created = await api("/api/keys", { token: user.token, json: { name: "My bot", mode: "live" } });
    expect(created.status).toBe(201);
    expect(created.data.secret).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    expect(created.data.prefix).toBe(created.data.secret.slice(0, 14));
    expect(created.data).toMatchObject({ name: "My bot", mode: "live", revoked_at: null, last_used_at: null });

    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.data.id).first<Record<string, unknown>>();
    expect(row?.secret_hash).toBe(await sha256Hex(created.data.secret));
    expect(JSON.stringify(row)).not.toContain(created.data.secret);

    const list = await api("/api/keys", { token: user.token });
    expect(list.status).toBe(200);
    expect(list.data.data).toHaveLength(1);
    expect(list.data.data[0]).toMatchObject({ id: created.data.id, prefix: created.data.prefix });
    expect(JSON.stringify(list.data)).not.toContain(created.data.secret);
  });

  it("a key works at once, records its last use, and stops at once when revoked (BAD_KEY / 401)", async () => {
    const user = await createUser({ balanceKobo: 123_450 });
    const key = await createKey(user);
    expect((await handler({ api_key: key.secret, action: "getBalance" })).text).toBe("ACCESS_BALANCE:1234.50");
    const listed = await api("/api/keys", { token: user.token });
    expect(listed.data.data[0].last_used_at).not.toBeNull();

    const revoked = await api(`/api/keys/${key.id}/revoke`, { token: user.token, method: "POST" });
    expect(revoked.status).toBe(200);
    expect(revoked.data.revoked_at).not.toBeNull();
    expect((await handler({ api_key: key.secret, action: "getBalance" })).text).toBe("BAD_KEY");
  });

  it("another user cannot see or revoke my key (404), and their key never sees my orders", async () => {
    const me = await createUser({ balanceKobo: 500_000 });
    const other = await createUser({ balanceKobo: 500_000 });
    const mine = await createKey(me);
    const theirs = await createKey(other);
    expect((await api(`/api/keys/${mine.id}/revoke`, { token: other.token, method: "POST" })).status).toBe(404);
    expect((await api("/api/keys", { token: other.token })).data.data.map((k: { id: string }) => k.id)).toEqual([theirs.id]);

    const bought = await handler({ api_key: mine.secret, action: "getNumber", service: "wa", country: 187 });
    expect(bought.text).toMatch(/^ACCESS_NUMBER:\d+:\d+$/);
    const id = bought.text.split(":")[1];
    expect((await handler({ api_key: theirs.secret, action: "getStatus", id })).text).toBe("NO_ACTIVATION");
    expect((await handler({ api_key: theirs.secret, action: "setStatus", id, status: 8 })).text).toBe("NO_ACTIVATION");
    expect((await handler({ api_key: mine.secret, action: "getStatus", id })).text).toBe("STATUS_WAIT_CODE");
    expect((await handler({ api_key: theirs.secret, action: "getActiveActivations" })).json).toEqual({ status: "error", error: "NO_ACTIVATIONS" });
    await expectLedgerBalanced();
  });

  it("a live key buys with the owner's wallet: the order is in the owner's orders table", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const key = await createKey(user, "live");
    const bought = await handler({ api_key: key.secret, action: "getNumber", service: "wa" });
    expect(bought.text).toMatch(/^ACCESS_NUMBER:/);
    const orders = await api("/api/orders", { token: user.token });
    expect(orders.data.data).toHaveLength(1);
    expect(orders.data.data[0].purchased_number).toContain(bought.text.split(":")[2]);
    expect(await balanceOf(user.id)).toBeLessThan(500_000);
  });

  it("the session is needed to manage keys: a key cannot list or create keys", async () => {
    const user = await createUser();
    const key = await createKey(user);
    expect((await api("/api/keys", { headers: { authorization: `Bearer ${key.secret}` } })).status).toBe(401);
    expect((await api("/api/keys", { json: { name: "x", mode: "live" } })).status).toBe(401);
    const bad = await api("/api/keys", { token: user.token, json: { name: "", mode: "live" } });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe("Please give the key a name.");
  });

  it("creating a key needs a verified e-mail: 403 EMAIL_NOT_VERIFIED and nothing created", async () => {
    const user = await createUser({ emailVerified: false });
    const refused = await api("/api/keys", { token: user.token, json: { name: "bot", mode: "live" } });
    expect(refused.status).toBe(403);
    expect(refused.data.code).toBe("EMAIL_NOT_VERIFIED");
    expect((await api("/api/keys", { token: user.token })).data.data).toEqual([]);
  });

  it("per-key rate limit: past the limit the one 429 body with Retry-After, other keys unaffected", async () => {
    const user = await createUser();
    const key = await createKey(user);
    const other = await createKey(user);
    await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)")
      .bind(`apikey:${key.id}`, API_KEY_RATE_LIMIT.limit, Date.now() + 30_000)
      .run();
    const limited = await api(`/stubs/handler_api.php?api_key=${key.secret}&action=getBalance`);
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ code: "RATE_LIMITED" });
    expect(limited.data.retry_after).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBe(limited.data.retry_after);
    expect((await handler({ api_key: other.secret, action: "getBalance" })).text).toBe("ACCESS_BALANCE:0.00");
  });

  it("keys never reach the logs: the redaction strips them from any field", () => {
    const secret = "sk_live_" + "A".repeat(32);
    const out = redact({ url: `/stubs/handler_api.php?api_key=${secret}`, note: `key ${secret} used`, api_key: secret, webhook: "whsec_abc123" });
    expect(JSON.stringify(out)).not.toContain(secret);
    expect(JSON.stringify(out)).not.toContain("whsec_abc123");
  });
});

describe("sandbox keys", () => {
  it("act as a separate sandbox account with a free test wallet: the real wallet is never touched", async () => {
    const user = await createUser({ balanceKobo: 200_000 });
    const key = await createKey(user, "test");
    expect(key.secret).toMatch(/^sk_test_/);
    expect((await handler({ api_key: key.secret, action: "getBalance" })).text).toBe("ACCESS_BALANCE:0.00");
    expect((await handler({ api_key: key.secret, action: "getNumber", service: "wa" })).text).toBe("NO_BALANCE");

    const topped = await api("/api/keys/sandbox/top-up", { token: user.token, json: { amount: 5000 } });
    expect(topped.status).toBe(200);
    expect(topped.data.balance).toBe(5000);
    const bought = await handler({ api_key: key.secret, action: "getNumber", service: "wa" });
    expect(bought.text).toMatch(/^ACCESS_NUMBER:/);
    expect(await balanceOf(user.id)).toBe(200_000);
    expect(await balanceOf(`sbx_${user.id}`)).toBeLessThan(500_000);
    // The owner's web orders table does not show test orders.
    expect((await api("/api/orders", { token: user.token })).data.data).toHaveLength(0);
    // The sandbox account cannot log in (its password hash matches nothing).
    const login = await api("/api/login", { json: { email: `sbx_${user.id}@sandbox.invalid`, password: "anything-at-all" } });
    expect(login.status).toBe(401);
    await expectLedgerBalanced();
  });
});
