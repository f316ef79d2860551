import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createUser, type ReplyBody } from "../helpers";

// Issue 12, hole 1: every link and callback URL comes from PUBLIC_URL (configured as http://127.0.0.1:8787 for the
// tests), never from the Host header or any other request header. Each call below is made to a forged host.

const PUBLIC_URL = "http://127.0.0.1:8787";
const FORGED = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", forwarded: "host=evil.example" };

/** Calls the worker the way a request with `Host: evil.example` arrives (workerd builds the URL from that header). */
async function forged(path: string, init: { token?: string; json?: unknown } = {}): Promise<{ status: number; data: ReplyBody }> {
  const headers: Record<string, string> = { ...FORGED };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://evil.example${path}`, { method: init.json === undefined ? "GET" : "POST", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
  );
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : null };
}

async function sandboxState(key: string): Promise<Record<string, string>> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(key).first<{ value: string }>();
  expect(row).not.toBeNull();
  return JSON.parse(row!.value) as Record<string, string>;
}

describe("links and callback URLs under a forged Host header", () => {
  it("the reset e-mail links to PUBLIC_URL", { timeout: 30_000 }, async () => {
    const email = `host-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect((await api("/api/register", { json: { username: "Hosty", number: "08012345678", email, password: "secret-1" } })).status).toBe(201);
    expect((await forged("/api/forgot-password", { json: { email } })).status).toBe(200);
    const outbox = await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`);
    const mail = outbox.data.data[0];
    expect(new URL(mail.link).origin).toBe(PUBLIC_URL);
    expect(JSON.stringify(mail)).not.toContain("evil.example");
  });

  it("the referral link is on PUBLIC_URL", async () => {
    const user = await createUser();
    const ref = await forged("/api/ref", { token: user.token });
    expect(ref.status).toBe(200);
    expect(new URL(ref.data as unknown as string).origin).toBe(PUBLIC_URL);
  });

  it("Squad's callback URL and checkout page are on PUBLIC_URL", async () => {
    const user = await createUser();
    const init = await forged("/api/initialize-transaction", { token: user.token, json: { amount: 5000 } });
    expect(init.status).toBe(200);
    const { checkout_url, transaction_ref } = init.data.data.data;
    expect(new URL(checkout_url).origin).toBe(PUBLIC_URL);
    const sent = await sandboxState(`squad:${transaction_ref}`);
    expect(new URL(sent.callback_url).origin).toBe(PUBLIC_URL);
  });

  it("NOWPayments' IPN URL is on PUBLIC_URL", async () => {
    const user = await createUser();
    const invoice = await forged("/api/invoice", { token: user.token, json: { price_amount: 10, pay_currency: "BTC" } });
    expect(invoice.status).toBe(200);
    const sent = await sandboxState(`nowpayments:${invoice.data.payment_id}`);
    expect(sent.ipn_callback_url).toBe(`${PUBLIC_URL}/api/webhooks/nowpayments`);
  });

  it("the e-mail verification links (at signup and on resend) are on PUBLIC_URL", { timeout: 30_000 }, async () => {
    const email = `verify-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signup = await forged("/api/register", { json: { username: "Verify", number: "08012345678", email, password: "secret-1" } });
    expect(signup.status).toBe(201);
    expect((await forged("/api/verify-email/resend", { token: signup.data.token, json: {} })).status).toBe(200);
    const mails = (await api(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`)).data.data as { link: string }[];
    const verifications = mails.filter((mail) => mail.link?.includes("/verify-email"));
    expect(verifications.length).toBe(2);
    for (const mail of verifications) expect(new URL(mail.link).origin).toBe(PUBLIC_URL);
    expect(JSON.stringify(mails)).not.toContain("evil.example");
  });

  it("the console's group e-mail (unsubscribe link) and the developer API's OpenAPI server are on PUBLIC_URL", async () => {
    const operator = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'operator', totp_enabled_at = ? WHERE id = ?").bind(Date.now(), operator.id).run();
    const preview = await forged("/api/admin/email/preview", { token: operator.token, json: { audience: { group: "inactive", days: 3650 }, subject: "Hi", body: "Hello." } });
    expect(preview.status).toBe(200);
    const link = /https?:\/\/\S+\/api\/unsubscribe\?\S+/.exec(preview.data.preview.text)?.[0];
    expect(link).toBeDefined();
    expect(new URL(link!).origin).toBe(PUBLIC_URL);
    const openapi = await forged("/api/v1/openapi.json");
    expect(openapi.status).toBe(200);
    expect(openapi.data.servers.map((server: { url: string }) => new URL(server.url).origin)).toEqual([PUBLIC_URL]);
  });

  it("a forged Host is not the app's own origin for CORS", async () => {
    const res = await forged("/api/links");
    expect(res.status).toBe(200);
    const preflight = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request("http://evil.example/api/login", { method: "OPTIONS", headers: { ...FORGED, origin: "http://evil.example", "access-control-request-method": "POST" } }),
    );
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});
