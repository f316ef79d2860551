import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLOSE_SESSION_ENDED } from "../rooms/notification-room";
import { clearSettingsCache } from "../services/kernel";
import { createApp } from "../app";
import { earlierFilesCustomersOffline } from "../test/file-scope";
import { api, balanceOf, createUser, expectLedgerBalanced, type TestUser } from "../test/helpers";
import { makeOperator, MISSING_PAGE } from "../test/operators";
import { collect, joinOwnRoom } from "../test/sockets";

// The operator console's API (issue 15): who may use it at all, and each page's main action.

/**
 * Every /api/admin/* route the whole app declares (Hono's app.routes; middleware entries, method ALL, excluded), with
 * :params filled in. Read from createApp(), not the sub-app, so a console route mounted anywhere is walked too.
 */
function everyEndpoint(): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of createApp().routes) {
    if (r.method === "ALL" || !r.path.startsWith("/api/admin/")) continue;
    const path = r.path.replace(/:[a-z]+/gi, "some-id");
    const key = `${r.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path });
  }
  return out;
}

describe("access to /api/admin/*", () => {
  it("is declared for every page's actions (the list the access test walks)", () => {
    const paths = everyEndpoint().map((e) => `${e.method} ${e.path}`);
    expect(paths.length).toBeGreaterThanOrEqual(20);
    expect(paths).toContain("POST /api/admin/customers/some-id/credit");
    expect(paths).toContain("PATCH /api/admin/settings/some-id");
    expect(paths).toEqual(expect.arrayContaining(["GET /api/admin/reviews", "GET /api/admin/reviews/some-id", "POST /api/admin/reviews/some-id/resolve"]));
  });

  it("every endpoint answers a missing page's 404 to no token, a customer, an operator without 2FA, a revoked operator and a signed-out operator session", async () => {
    const customer = await createUser();
    const noTwoFactor = await makeOperator({ twoFactor: false });
    const revoked = await makeOperator();
    const signedOut = await makeOperator();
    for (const operator of [revoked, signedOut]) expect((await api("/api/admin/me", { token: operator.token })).status).toBe(200);
    await env.DB.prepare("UPDATE users SET role = 'customer' WHERE id = ?").bind(revoked.id).run();
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").bind(Date.now(), signedOut.sessionId).run();

    const missing = await api("/api/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual(MISSING_PAGE);

    const callers: [string, string | undefined][] = [
      ["no token", undefined],
      ["a customer", customer.token],
      ["an operator without 2FA", noTwoFactor.token],
      ["a revoked operator", revoked.token],
      ["an operator whose session was revoked", signedOut.token],
      ["a forged token", "not-a-jwt"],
    ];
    // One request per endpoint and caller, a caller's requests side by side (about 170 requests in all).
    for (const [who, token] of callers) {
      const answers = await Promise.all(
        everyEndpoint().map(async ({ method, path }) => {
          const res = await api(path, { method, token, json: method === "GET" ? undefined : { reason: "probe", amount: 1, value: 1 } });
          return { who, method, path, status: res.status, body: res.data };
        }),
      );
      for (const answer of answers) expect(answer).toEqual({ ...answer, status: 404, body: MISSING_PAGE });
    }
  }, 60_000);

  it("opens for an operator with two-factor on", async () => {
    const operator = await makeOperator();
    const me = await api("/api/admin/me", { token: operator.token });
    expect(me.status).toBe(200);
    expect(me.data.id).toBe(operator.id);
    const overview = await api("/api/admin/overview?period=7d", { token: operator.token });
    expect(overview.status).toBe(200);
    expect(overview.data).toMatchObject({ period: "7d" });
    expect(typeof overview.data.moneyHeld).toBe("number");
  });
});

describe("overview", () => {
  it("adds up money held, deposits by channel, spend, refunds, margin per provider and service, outcomes and upstream floors", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const service = `svc-${crypto.randomUUID().slice(0, 8)}`;
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, created_at) VALUES (?, ?, 500000, 'fund', 'Wallet deposit (card)', ?)").bind(customer.id, `fund:squad:${service}`, now),
      env.DB.prepare(
        "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, code, status, created_at, updated_at) VALUES (?, ?, 'Swift', '187', 'USA', ?, ?, 120000, '+15550001', '123456', 'used', ?, ?)",
      ).bind(`${service}-1`, customer.id, service, service, now - 40_000, now - 10_000),
      env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, -120000, 'buy', 'buy', ?, ?)").bind(customer.id, `buy:${service}-1`, `${service}-1`, now),
      env.DB.prepare("INSERT INTO upstream_prices (provider, country_id, service_id, cost_usd, updated_at) VALUES ('Swift', '187', ?, 0.5, ?)").bind(service, now),
      env.DB.prepare(
        "INSERT INTO upstream_health (provider, status, balance, currency, balance_usd, floor_usd, detail, checked_at) VALUES ('Swift', 'low', 1.5, 'USD', 1.5, 2, NULL, ?) ON CONFLICT(provider) DO UPDATE SET status = 'low', balance_usd = 1.5, floor_usd = 2",
      ).bind(now),
    ]);
    await api("/api/admin/settings/exchange_rate", { method: "PATCH", token: operator.token, json: { value: { rate: 1600 }, reason: "overview test" } });
    const res = await api("/api/admin/overview?period=today", { token: operator.token });
    expect(res.status).toBe(200);
    const o = res.data;
    expect(o.moneyHeld).toBeGreaterThanOrEqual(3800);
    expect(o.deposits.find((d: { channel: string }) => d.channel === "card").amount).toBeGreaterThanOrEqual(5000);
    expect(o.spend).toBeGreaterThanOrEqual(1200);
    // Paid ₦1,200; the upstream's last price US$0.50 at ₦1,600 = ₦800; margin ₦400.
    expect(o.margin.find((m: { service: string }) => m.service === service)).toEqual({ provider: "Swift", service, orders: 1, paid: 1200, upstreamCost: 800, margin: 400 });
    expect(o.performance.find((p: { service: string }) => p.service === service)).toMatchObject({ orders: 1, codes: 1, successRate: 100, medianSecondsToCode: 30 });
    expect(o.upstreams.find((u: { provider: string }) => u.provider === "Swift")).toMatchObject({ status: "low", balanceUsd: 1.5, floorUsd: 2 });
    expect(o.ordersByOutcome.find((x: { status: string }) => x.status === "used").count).toBeGreaterThanOrEqual(1);
  });
});

describe("customers", () => {
  it("a manual credit is one ledger row with its reason and one audit row, even when the same click arrives twice", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 10_000 });
    const requestId = crypto.randomUUID();
    const body = { amount: 2500, reason: "goodwill for a delayed code", requestId };
    const first = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: body });
    const second = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: body });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.data.balance).toBe(2600);
    expect(await balanceOf(customer.id)).toBe(260_000);
    const rows = await env.DB.prepare("SELECT kind, amount_kobo, note FROM ledger WHERE key = ?").bind(`admin:${requestId}`).all();
    expect(rows.results).toEqual([{ kind: "admin", amount_kobo: 250_000, note: "Adjustment by support (deposit)" }]);
    const audit = await env.DB.prepare("SELECT actor, action, reason, subject, previous FROM audit_log WHERE subject = ? AND action = 'ledger.credit'").bind(customer.id).all();
    expect(audit.results).toEqual([{ actor: operator.email, action: "ledger.credit", reason: "goodwill for a delayed code", subject: customer.id, previous: "10000" }]);
    await expectLedgerBalanced();
  });

  it("refuses a change without a reason (400, nothing written) and a debit that would overdraw", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 5_000 });
    const noReason = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 10 } });
    expect(noReason.status).toBe(400);
    expect(noReason.data.code).toBe("VALIDATION_FAILED");
    expect(noReason.data.message).toMatch(/reason is required/);
    const blank = await api(`/api/admin/customers/${customer.id}/block`, { token: operator.token, json: { reason: "   " } });
    expect(blank.status).toBe(400);
    const overdraw = await api(`/api/admin/customers/${customer.id}/debit`, { token: operator.token, json: { amount: 51, reason: "chargeback" } });
    expect(overdraw.status).toBe(402);
    expect(await balanceOf(customer.id)).toBe(5_000);
    const written = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ?").bind(customer.id).first<{ n: number }>();
    expect(written?.n).toBe(0);
  });

  it("search finds a customer by e-mail, username, phone and id; the customer page shows ledger and sessions", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ username: "Chiamaka", balanceKobo: 7_000, email: `chiamaka.okonkwo-${crypto.randomUUID()}@example-mail.com.ng` });
    // The whole address too: longer than D1's 50-byte LIKE pattern limit.
    for (const q of [customer.email.toUpperCase().slice(0, 12), customer.email, "chiamaka", customer.id]) {
      const found = await api(`/api/admin/customers?q=${encodeURIComponent(q)}`, { token: operator.token });
      expect(found.status).toBe(200);
      expect(found.data.data.map((u: { id: string }) => u.id)).toContain(customer.id);
    }
    const page = await api(`/api/admin/customers/${customer.id}`, { token: operator.token });
    expect(page.status).toBe(200);
    expect(page.data.customer).toMatchObject({ id: customer.id, balance: 70, blocked: false });
    expect(page.data.ledger).toHaveLength(1);
    expect(page.data.sessions.map((s: { id: string }) => s.id)).toEqual([customer.sessionId]);
    expect(page.data.tier.name).toBe("Bronze");
    expect((await api("/api/admin/customers/nobody", { token: operator.token })).status).toBe(404);
  });

  it("the order and rental rows name the upstream and the account that served them (issue 32: a HeroSMS order told from a DaisySMS one)", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 1_000_000 });
    // An order a second HeroSMS key served and a rental sms-man served, as routing and renting record them.
    const orderId = crypto.randomUUID();
    const rentalId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, upstream, upstream_account, created_at, updated_at) VALUES (?, ?, 'Dynamic', '16', 'UK', 'wa', 'WhatsApp', 50000, '447700900000', 'used', 'herosms', 1, ?, ?)",
      ).bind(orderId, customer.id, Date.now(), Date.now()),
      env.DB.prepare(
        "INSERT INTO rentals (id, user_id, provider, country_id, country_name, unit, period, price_kobo, number, status, upstream, upstream_account, created_at, updated_at) VALUES (?, ?, 'Dynamic', '5', 'USA', 'hour', 1, 40000, '15550100', 'ended', 'smsman', 0, ?, ?)",
      ).bind(rentalId, customer.id, Date.now(), Date.now()),
    ]);
    const orders = await api(`/api/admin/orders?customer=${encodeURIComponent(customer.email)}`, { token: operator.token });
    expect(orders.data.data).toEqual([expect.objectContaining({ id: orderId, upstream: "herosms", upstreamAccount: 1 })]);
    const rentals = await api(`/api/admin/rentals?customer=${encodeURIComponent(customer.email)}`, { token: operator.token });
    expect(rentals.data.data).toEqual([expect.objectContaining({ id: rentalId, upstream: "smsman", upstreamAccount: 0 })]);
    const page = await api(`/api/admin/customers/${customer.id}`, { token: operator.token });
    expect(page.data.orders[0]).toMatchObject({ upstream: "herosms", upstreamAccount: 1 });
    expect(page.data.rentals[0]).toMatchObject({ upstream: "smsman", upstreamAccount: 0 });
  });

  // Three real password hashes (sign-up and two logins, PBKDF2 on purpose): slow on a loaded 2-core machine.
  it("block ends the customer's sessions and closes their sockets at once, login answers a clear message, the money stays", { timeout: 60_000 }, async () => {
    const operator = await makeOperator();
    const email = `blocked-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const reg = await api("/api/register", { json: { username: "Tunde", number: "08031234567", email, password: "secret123" } });
    expect(reg.status).toBe(201);
    const userId = reg.data.user.userId as string;
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, created_at) VALUES (?, ?, 90000, 'admin', 'seed', ?)")
      .bind(userId, `test:${userId}`, Date.now())
      .run();
    const session = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(userId).first<{ id: string }>();
    const customer: TestUser = { id: userId, email, token: reg.data.token, sessionId: session!.id };
    const tab = await joinOwnRoom(customer);
    const afterwards = collect(tab);

    const blocked = await api(`/api/admin/customers/${userId}/block`, { token: operator.token, json: { reason: "chargeback fraud" } });
    expect(blocked.status).toBe(200);
    expect((await tab.closed).code).toBe(CLOSE_SESSION_ENDED);
    expect((await api("/api/user-balance", { token: customer.token })).status).toBe(401);
    const login = await api("/api/login", { json: { email, password: "secret123" } });
    expect(login.status).toBe(403);
    expect(login.data.message).toMatch(/blocked/i);
    expect(await balanceOf(userId)).toBe(90_000);
    expect(afterwards).toEqual([]);

    const unblocked = await api(`/api/admin/customers/${userId}/unblock`, { token: operator.token, json: { reason: "cleared by bank" } });
    expect(unblocked.status).toBe(200);
    expect((await api("/api/login", { json: { email, password: "secret123" } })).status).toBe(200);
    const audit = await env.DB.prepare("SELECT action, reason FROM audit_log WHERE subject = ? ORDER BY id").bind(userId).all();
    expect(audit.results).toEqual([
      { action: "user.block", reason: "chargeback fraud" },
      { action: "user.unblock", reason: "cleared by bank" },
    ]);
    await expectLedgerBalanced();
  });

  it("a blocked customer's developer API keys stop with their sessions", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 10_000 });
    const key = await api("/api/keys", { token: customer.token, json: { name: "bot", mode: "live" } });
    expect(key.status).toBe(201);
    const balance = () => api(`/stubs/handler_api.php?api_key=${key.data.secret}&action=getBalance`);
    expect((await balance()).data).toMatch(/^ACCESS_BALANCE:/);
    await api(`/api/admin/customers/${customer.id}/block`, { token: operator.token, json: { reason: "fraud" } });
    expect((await balance()).data).toBe("BAD_KEY");
    await api(`/api/admin/customers/${customer.id}/unblock`, { token: operator.token, json: { reason: "cleared" } });
    expect((await balance()).data).toMatch(/^ACCESS_BALANCE:/);
  });

  it("resend verification e-mails an unverified customer a fresh link (audited) and refuses an already verified one", async () => {
    const operator = await makeOperator();
    const unverified = await createUser({ emailVerified: false });
    const res = await api(`/api/admin/customers/${unverified.id}/resend-verification`, { token: operator.token, json: { reason: "customer lost the first mail" } });
    expect(res.status).toBe(200);
    const mails = await env.DB.prepare("SELECT subject, body FROM email_outbox WHERE \"to\" = ?").bind(unverified.email).all<{ subject: string; body: string }>();
    expect(mails.results).toHaveLength(1);
    expect(mails.results[0]!.subject).toBe("Confirm your e-mail address");
    const link = /https?:\/\/\S+/.exec(mails.results[0]!.body)?.[0];
    expect(link).toBeDefined();
    const pending = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_verifications WHERE user_id = ?").bind(unverified.id).first<{ n: number }>();
    expect(pending?.n).toBe(1);
    const audit = await env.DB.prepare("SELECT actor, action, reason FROM audit_log WHERE subject = ?").bind(unverified.id).all();
    expect(audit.results).toEqual([{ actor: operator.email, action: "user.resend_verification", reason: "customer lost the first mail" }]);

    const verified = await createUser();
    const again = await api(`/api/admin/customers/${verified.id}/resend-verification`, { token: operator.token, json: { reason: "asked twice" } });
    expect(again.status).toBe(409);
    expect(again.data.code).toBe("INVALID_STATE");
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_outbox WHERE \"to\" = ?").bind(verified.email).first<{ n: number }>();
    expect(none?.n).toBe(0);
    expect((await api("/api/admin/customers/nobody/resend-verification", { token: operator.token, json: { reason: "typo" } })).status).toBe(404);
  });

  it("reset 2FA waits for a second operator, then turns two-factor off, audited with the previous value", async () => {
    const operator = await makeOperator();
    const second = await makeOperator();
    const other = await makeOperator();
    const res = await api(`/api/admin/customers/${other.id}/reset-2fa`, { token: operator.token, json: { reason: "lost phone, identity checked" } });
    expect(res.status).toBe(202);
    expect((await env.DB.prepare("SELECT totp_enabled_at FROM users WHERE id = ?").bind(other.id).first<{ totp_enabled_at: number | null }>())?.totp_enabled_at).not.toBeNull();
    const approved = await api(`/api/admin/approvals/${res.data.approval.id}/approve`, { token: second.token, json: { reason: "checked the ticket" } });
    expect(approved.status).toBe(200);
    const row = await env.DB.prepare("SELECT totp_enabled_at FROM users WHERE id = ?").bind(other.id).first();
    expect(row).toEqual({ totp_enabled_at: null });
    // Without two-factor the console closes for that operator too.
    expect((await api("/api/admin/me", { token: other.token })).status).toBe(404);
    const audit = await env.DB.prepare("SELECT previous FROM audit_log WHERE subject = ? AND action = 'user.reset_2fa'").bind(other.id).first<{ previous: string }>();
    expect(Number(audit?.previous)).toBeGreaterThan(0);
  });
});

describe("prices and content", () => {
  it("a settings change is audited with the previous value and takes effect", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    clearSettingsCache();
    const before = (await api("/api/get-rate", { token: customer.token })).data[0];
    const value = { cryptomin: 9, rate: 1700, squadmin: 2500 };
    const res = await api("/api/admin/settings/rate_settings", { method: "PATCH", token: operator.token, json: { value, reason: "new minimums" } });
    expect(res.status).toBe(200);
    expect(res.data.value).toEqual(value);
    clearSettingsCache();
    // rate_settings.rate is the crypto rate: /get-rate answers it as crypto_rate (its `rate` is the pricing rate).
    expect((await api("/api/get-rate", { token: customer.token })).data[0]).toMatchObject({ cryptomin: 9, squadmin: 2500, crypto_rate: 1700 });

    const settings = await api("/api/admin/settings", { token: operator.token });
    const entry = settings.data.history[0];
    expect(entry).toMatchObject({ actor: operator.email, action: "setting.set", subject: "rate_settings", reason: "new minimums", detail: { key: "rate_settings", value } });
    // The previous value is what the API served before (or null when the key had never been written).
    if (entry.previous !== null) expect(entry.previous).toMatchObject({ squadmin: before.squadmin });

    const bad = await api("/api/admin/settings/rate_settings", { method: "PATCH", token: operator.token, json: { value: { rate: -1 }, reason: "typo" } });
    expect(bad.status).toBe(400);
    const unknown = await api("/api/admin/settings/nope", { method: "PATCH", token: operator.token, json: { value: 1, reason: "x" } });
    expect(unknown.status).toBe(400);
    const noReason = await api("/api/admin/settings/rate_settings", { method: "PATCH", token: operator.token, json: { value } });
    expect(noReason.status).toBe(400);
  });

  it("a changed ad is what the customer's dashboard reads", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const ads = [{ id: 7, url: "/ads/rent.svg", link: "/#/number/1", content: "Weekend promo: rentals 20% off", bg: "bg-rose-700" }];
    const res = await api("/api/admin/settings/ads", { method: "PATCH", token: operator.token, json: { value: ads, reason: "weekend promo" } });
    expect(res.status).toBe(200);
    clearSettingsCache();
    const served = await api("/api/ads", { token: customer.token });
    expect(JSON.stringify(served.data)).toContain("Weekend promo: rentals 20% off");
  });
});

describe("orders, messages, audit and reconcile", () => {
  it("settles a stuck pending order through the guarded transition (refunded once) and refuses a live one", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 50_000 });
    for (const [id, age] of [
      ["stuck-1", 3600_000],
      ["live-1", 1_000],
    ] as const) {
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, status, created_at) VALUES (?, ?, 'Swift', '5', 'USA', 'wa', 'WhatsApp', 20000, 'pending', ?)",
        ).bind(id, customer.id, Date.now() - age),
        env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, -20000, 'buy', 'buy', ?, ?)").bind(customer.id, `buy:${id}`, id, Date.now()),
      ]);
    }
    const stuck = await api("/api/admin/orders?stuck=1", { token: operator.token });
    expect(stuck.data.data.map((o: { id: string }) => o.id)).toContain("stuck-1");
    expect(stuck.data.data.map((o: { id: string }) => o.id)).not.toContain("live-1");
    const settled = await api("/api/admin/orders/stuck-1/settle", { token: operator.token, json: { reason: "never completed" } });
    expect(settled.status).toBe(200);
    expect(settled.data).toMatchObject({ from: "pending", status: "failed", settled: true });
    const again = await api("/api/admin/orders/stuck-1/settle", { token: operator.token, json: { reason: "double click" } });
    expect(again.status).toBe(409);
    expect((await api("/api/admin/orders/live-1/settle", { token: operator.token, json: { reason: "too early" } })).status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(30_000);
    await expectLedgerBalanced();
  });

  it("settles a stuck pending rental through the guarded transition (refunded once) and refuses a live one", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 90_000 });
    for (const [id, age] of [
      [`rent-stuck-${customer.id.slice(0, 8)}`, 3600_000],
      [`rent-live-${customer.id.slice(0, 8)}`, 1_000],
    ] as const) {
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO rentals (id, user_id, provider, country_id, country_name, unit, period, price_kobo, status, created_at, updated_at) VALUES (?, ?, 'SMS-Man', '1', 'USA', 'day', 1, 30000, 'pending', ?, ?)",
        ).bind(id, customer.id, Date.now() - age, Date.now() - age),
        env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, -30000, 'rent', 'rent', ?, ?)").bind(customer.id, `rent:${id}`, id, Date.now()),
      ]);
    }
    const stuckId = `rent-stuck-${customer.id.slice(0, 8)}`;
    const stuck = await api(`/api/admin/rentals?stuck=1&user=${customer.id}`, { token: operator.token });
    expect(stuck.data.data.map((r: { id: string }) => r.id)).toEqual([stuckId]);
    const settled = await api(`/api/admin/rentals/${stuckId}/settle`, { token: operator.token, json: { reason: "upstream never answered" } });
    expect(settled.status).toBe(200);
    expect(settled.data).toEqual({ from: "pending", status: "failed", settled: true });
    const again = await api(`/api/admin/rentals/${stuckId}/settle`, { token: operator.token, json: { reason: "double click" } });
    expect(again.status).toBe(409);
    const live = await api(`/api/admin/rentals/rent-live-${customer.id.slice(0, 8)}/settle`, { token: operator.token, json: { reason: "too early" } });
    expect(live.status).toBe(409);
    expect(live.data.message).toMatch(/not stuck/);
    expect((await api("/api/admin/rentals/nope/settle", { token: operator.token, json: { reason: "typo" } })).status).toBe(404);
    // ₦900 - 2 × ₦300 + the stuck one's refund, once.
    expect(await balanceOf(customer.id)).toBe(60_000);
    const refunds = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE key = ?").bind(`rent_refund:${stuckId}`).first<{ n: number }>();
    expect(refunds?.n).toBe(1);
    const audit = await env.DB.prepare("SELECT action, reason, previous FROM audit_log WHERE subject = ?").bind(stuckId).all();
    expect(audit.results).toEqual([{ action: "rental.settle", reason: "upstream never answered", previous: '"pending"' }]);
    await expectLedgerBalanced();
  });

  it("a notification to everyone online reaches each online customer's tab", async () => {
    await earlierFilesCustomersOffline(); // "everyone online" is this file's customers (test/file-scope.ts)
    const operator = await makeOperator();
    const first = await createUser();
    const second = await createUser();
    const tabs = [await joinOwnRoom(first), await joinOwnRoom(second)];
    const res = await api("/api/admin/notify", { token: operator.token, json: { target: "online", type: "warning", message: "Payments delayed 10 min", reason: "bank outage" } });
    expect(res.status).toBe(200);
    expect(res.data.recipients).toBeGreaterThanOrEqual(2);
    expect(res.data.message).toBe(`Sent to the ${res.data.recipients} customers online now.`);
    for (const tab of tabs) expect(await tab.next()).toEqual({ kind: "toast", type: "warning", message: "Payments delayed 10 min" });
  });

  it("a notification reaches the customer's open tab as the spec's toast", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const tab = await joinOwnRoom(customer);
    const res = await api("/api/admin/notify", { token: operator.token, json: { target: "customer", userId: customer.id, type: "info", message: "Maintenance at 22:00", reason: "planned maintenance" } });
    expect(res.status).toBe(200);
    expect(res.data.recipients).toBe(1);
    // Issue 43: the answer says to whom, not a bare "done".
    expect(res.data.message).toBe(`Sent to ${(await env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(customer.id).first<{ username: string }>())!.username} (${customer.email}): it shows in the tabs they have open now.`);
    expect(await tab.next()).toEqual({ kind: "toast", type: "info", message: "Maintenance at 22:00" });
  });

  it("a group e-mail shows a preview and count first, is sent through the e-mail sender, and honours unsubscribe", async () => {
    const operator = await makeOperator();
    const audience = { group: "inactive", days: 3650 } as const; // only customers created 10 years ago: this test's own
    const old = await createUser({ username: "Old" });
    const gone = await createUser({ username: "Gone" });
    const tenYearsAgo = Date.now() - 3651 * 86_400_000;
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id IN (?, ?)").bind(tenYearsAgo, old.id, gone.id).run();
    await env.DB.prepare("UPDATE sessions SET created_at = ?, last_seen_at = ? WHERE user_id IN (?, ?)").bind(tenYearsAgo, tenYearsAgo, old.id, gone.id).run();

    const mail = { audience, subject: "We miss you", body: "Numbers from ₦500 this week." };
    const preview = await api("/api/admin/email/preview", { token: operator.token, json: mail });
    expect(preview.status).toBe(200);
    const count = preview.data.count as number;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(preview.data.preview.text).toContain("Numbers from ₦500 this week.");
    const link = /https?:\/\/\S+\/api\/unsubscribe\?\S+/.exec(preview.data.preview.text)?.[0];
    expect(link).toBeDefined();

    // The link in the mail for "gone": follow it, and they leave every later group.
    const goneLink = link!.replace(/u=[^&]+/, `u=${encodeURIComponent(gone.id)}`);
    expect((await api(new URL(goneLink).pathname + new URL(goneLink).search)).status).toBe(404); // signature is the sample's
    const sampleId = new URL(link!).searchParams.get("u")!;
    expect((await api(new URL(link!).pathname + new URL(link!).search)).status).toBe(200);
    const after = await api("/api/admin/email/preview", { token: operator.token, json: mail });
    expect(after.data.count).toBe(count - 1);

    const stale = await api("/api/admin/email/send", { token: operator.token, json: { ...mail, reason: "win back", expectedCount: count } });
    expect(stale.status).toBe(409);
    const sent = await api("/api/admin/email/send", { token: operator.token, json: { ...mail, reason: "win back", expectedCount: count - 1 } });
    expect(sent.status).toBe(200);
    const outbox = await env.DB.prepare("SELECT \"to\" FROM email_outbox WHERE subject = 'We miss you'").all<{ to: string }>();
    const to = outbox.results.map((r) => r.to);
    const unsubscribed = await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(sampleId).first<{ email: string }>();
    expect(to).not.toContain(unsubscribed!.email);
    expect(to.length).toBe(count - 1);
  });

  it("group e-mail is limited to three sends per operator per hour: the fourth is a 429 with Retry-After, not sent, not audited", async () => {
    const operator = await makeOperator();
    // A small group (customers inactive for ten years: at most the earlier test's two); the limit counts sends.
    const mail = { audience: { group: "inactive", days: 3650 } as const, subject: `Rate limit ${crypto.randomUUID().slice(0, 8)}`, body: "Hello." };
    const preview = await api("/api/admin/email/preview", { token: operator.token, json: mail });
    expect(preview.status).toBe(200);
    const body = { ...mail, reason: "newsletter", expectedCount: preview.data.count };
    for (let i = 0; i < 3; i++) expect((await api("/api/admin/email/send", { token: operator.token, json: body })).status).toBe(200);
    const fourth = await api("/api/admin/email/send", { token: operator.token, json: body });
    expect(fourth.status).toBe(429);
    expect(fourth.data.code).toBe("RATE_LIMITED");
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    const audited = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE actor = ? AND action = 'message.email'").bind(operator.email).first<{ n: number }>();
    expect(audited?.n).toBe(3);
    // The limit is the operator's own: another operator may still send.
    const other = await makeOperator();
    expect((await api("/api/admin/email/send", { token: other.token, json: body })).status).toBe(200);
  });

  it("the audit log filters by action and subject; reconcile proves money conserved", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 100, reason: "audit filter" } });
    const audit = await api(`/api/admin/audit?action=ledger.&subject=${customer.id}`, { token: operator.token });
    expect(audit.status).toBe(200);
    expect(audit.data.data).toHaveLength(1);
    expect(audit.data.data[0]).toMatchObject({ action: "ledger.credit", reason: "audit filter", previous: 0 });
    const reconcile = await api("/api/admin/reconcile", { token: operator.token });
    expect(reconcile.status).toBe(200);
    expect(reconcile.data).toMatchObject({ ok: true, conserved: true, differences: [] });
    expect(reconcile.data.moneyHeld).toBe(reconcile.data.ledgerTotal);
  });
});
