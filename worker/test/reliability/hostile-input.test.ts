import { listDurableObjectIds } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, MAX_BODY_BYTES } from "../../app";
import { DRAIN_LIMIT_BYTES } from "../../lib/request-body";
import { createUser, type ApiReply, type ReplyBody, type TestUser } from "../helpers";
import { tableCounts } from "./invariants";

/**
 * Every endpoint fed malformed, oversized, wrongly typed and random JSON (fast-check generated): never a 5xx; every
 * refusal is a 4xx with the one error body; and a refused request writes nothing (row counts of every table before
 * and after). The signed-in caller has an empty wallet, so even a body that happens to be valid cannot buy anything.
 */

interface Endpoint {
  method: "POST" | "PATCH" | "PUT";
  path: string;
  fields: string[];
  auth: boolean;
  /**
   * A body-less call that succeeds ends the caller's session(s): such an endpoint gets its own caller, so the shared
   * one stays signed in and every endpoint tested after it still meets its own checks, not a 401 at the door.
   */
  endsSession?: true;
}

const JSON_ENDPOINTS: Endpoint[] = [
  { method: "POST", path: "/api/register/", fields: ["username", "number", "email", "password", "referralCode"], auth: false },
  { method: "POST", path: "/api/login", fields: ["email", "password"], auth: false },
  { method: "POST", path: "/api/forgot-password", fields: ["email"], auth: false },
  { method: "POST", path: "/api/reset-password", fields: ["id", "token", "newPassword"], auth: false },
  { method: "PATCH", path: "/api/update/", fields: ["username", "userNumber"], auth: true },
  { method: "PATCH", path: "/api/password", fields: ["oldPassword", "newPassword"], auth: true },
  // Issue 28: closing the tour takes no body; anything sent is ignored.
  { method: "POST", path: "/api/account/tour-closed", fields: [], auth: true },
  { method: "POST", path: "/api/initialize-transaction", fields: ["amount", "currency", "id", "email"], auth: true },
  { method: "POST", path: "/api/squad-callback", fields: ["transaction_ref"], auth: true },
  { method: "POST", path: "/api/verify-payment", fields: ["transaction_ref"], auth: true },
  { method: "POST", path: "/api/invoice", fields: ["price_amount", "pay_currency", "order_id", "order_description"], auth: true },
  { method: "POST", path: "/api/sms/get-number", fields: ["provider", "country", "service", "price", "user_id", "actual"], auth: true },
  { method: "POST", path: "/api/sms/cancel", fields: ["request_id", "debitref", "user_id"], auth: true },
  { method: "POST", path: "/api/sms/use-again", fields: ["request_id", "price"], auth: true },
  { method: "POST", path: "/api/sms/check/00000000-0000-4000-8000-000000000000", fields: [], auth: true },
  { method: "POST", path: "/api/refund-user", fields: ["request_id", "user_id", "cost", "debitRef"], auth: true },
  { method: "POST", path: "/api/rent/countries", fields: ["countryId", "duration", "period", "price"], auth: false },
  { method: "POST", path: "/api/rent-number", fields: ["countryId", "duration", "period", "price", "user_id"], auth: true },
  { method: "POST", path: "/api/rentals/00000000-0000-4000-8000-000000000000/cancel", fields: [], auth: true },
  { method: "POST", path: "/api/rentals/00000000-0000-4000-8000-000000000000/end", fields: [], auth: true },
  { method: "POST", path: "/api/webhooks/squad", fields: ["Event", "TransactionRef", "Body"], auth: false },
  { method: "POST", path: "/api/webhooks/nowpayments", fields: ["payment_id", "payment_status", "order_id"], auth: false },
  { method: "POST", path: "/api/login/2fa", fields: ["challenge", "code"], auth: false },
  { method: "POST", path: "/api/verify-email", fields: ["id", "token"], auth: false },
  { method: "POST", path: "/api/2fa/enable", fields: ["code"], auth: true },
  { method: "POST", path: "/api/2fa/disable", fields: ["password", "code"], auth: true },
  { method: "POST", path: "/api/sessions/00000000-0000-4000-8000-000000000000/revoke", fields: [], auth: true },
  { method: "POST", path: "/api/logout/", fields: [], auth: true, endsSession: true },
  // Issue 17's endpoints (several numbers, favourites, rental extension) and issue 16's key management.
  { method: "POST", path: "/api/sms/get-numbers", fields: ["provider", "country", "service", "price", "max_price", "quantity"], auth: true },
  { method: "PUT", path: "/api/sms/favourites", fields: ["provider", "service_id", "starred"], auth: true },
  { method: "POST", path: "/api/rentals/00000000-0000-4000-8000-000000000000/extend", fields: ["duration", "period", "price"], auth: true },
  { method: "POST", path: "/api/rentals/00000000-0000-4000-8000-000000000000/auto-renew", fields: ["enabled", "duration", "period", "price"], auth: true },
  { method: "POST", path: "/api/keys", fields: ["name", "mode"], auth: true },
  // The rest of the signed-in and webhook JSON routes (the completeness test below keeps this list whole).
  { method: "POST", path: "/api/2fa/setup", fields: [], auth: true },
  { method: "POST", path: "/api/sessions/revoke-all", fields: [], auth: true, endsSession: true },
  { method: "POST", path: "/api/verify-email/resend", fields: [], auth: true },
  { method: "POST", path: "/api/sms/another-code", fields: ["request_id"], auth: true },
  { method: "POST", path: "/api/sms/finish", fields: ["request_id"], auth: true },
  { method: "POST", path: "/api/webhooks/sms/swift", fields: ["activationId", "code", "status"], auth: false },
  { method: "POST", path: "/api/keys/00000000-0000-4000-8000-000000000000/revoke", fields: [], auth: true },
  { method: "PUT", path: "/api/keys/00000000-0000-4000-8000-000000000000/webhook", fields: ["url"], auth: true },
  // Issue 45: a key's scopes (withdraw).
  { method: "PUT", path: "/api/keys/00000000-0000-4000-8000-000000000000/scopes", fields: ["scopes"], auth: true },
  { method: "POST", path: "/api/keys/00000000-0000-4000-8000-000000000000/webhook/events/00000000-0000-4000-8000-000000000000/resend", fields: [], auth: true },
  { method: "POST", path: "/api/keys/sandbox/top-up", fields: ["amount"], auth: true },
  // Issue 46: becoming a reseller (accepting the terms).
  { method: "POST", path: "/api/reseller", fields: ["accept_terms"], auth: true },
  // Decision 076: the partner page's markup form (the caller is no reseller here: refused either way, never a 500).
  { method: "PUT", path: "/api/reseller/markups", fields: ["percent", "services"], auth: true },
  // Issue 33: passkeys and step-up (forged ceremonies have their own tests in routes/passkeys.test.ts).
  { method: "POST", path: "/api/login/passkey/options", fields: [], auth: false },
  { method: "POST", path: "/api/login/passkey/verify", fields: ["challenge_id", "response"], auth: false },
  { method: "POST", path: "/api/passkeys/options", fields: [], auth: true },
  { method: "POST", path: "/api/passkeys", fields: ["challenge_id", "name", "response"], auth: true },
  { method: "PATCH", path: "/api/passkeys/00000000-0000-4000-8000-000000000000", fields: ["name"], auth: true },
  { method: "POST", path: "/api/step-up/passkey/options", fields: [], auth: true },
  { method: "POST", path: "/api/step-up", fields: ["code", "password", "challenge_id", "response"], auth: true },
  { method: "POST", path: "/api/transfers", fields: ["amount"], auth: true },
  // Issue 47: Settings → Notifications, a rental's forwarding and the service worker's renewal.
  { method: "PUT", path: "/api/notifications/preferences", fields: ["kinds", "hide_code"], auth: true },
  { method: "PUT", path: "/api/notifications/forwarding", fields: ["email", "webhook_url"], auth: true },
  { method: "POST", path: "/api/notifications/devices", fields: ["endpoint", "keys", "expirationTime"], auth: true },
  { method: "POST", path: "/api/notifications/devices/renew", fields: ["old_endpoint", "old_auth", "subscription"], auth: false },
  { method: "PUT", path: "/api/rentals/00000000-0000-4000-8000-000000000000/forwarding", fields: ["email", "webhook_url"], auth: true },
  { method: "POST", path: "/api/transfers/static-account", fields: ["first_name", "last_name", "middle_name", "mobile_num", "dob", "gender", "address", "bvn"], auth: true },
  { method: "POST", path: "/api/withdrawals", fields: ["amount"], auth: true },
  { method: "POST", path: "/api/withdrawals/account", fields: ["bank_code", "account_number", "full_name"], auth: true },
  // Issue 48: Settings' Telegram link, and Telegram's webhook (its secret header is checked before the body is parsed).
  { method: "POST", path: "/api/telegram/link", fields: [], auth: true },
  { method: "POST", path: "/api/telegram/webhook", fields: ["update_id", "message"], auth: false },
];

/**
 * Routes with a body this file does not feed, and why. Everything else the app answers with POST, PATCH or PUT under
 * /api must be in JSON_ENDPOINTS (checked below), so a new endpoint cannot skip these checks unnoticed.
 */
const NOT_FED_HERE = [
  // The operator console and the developer API are fed by hostile-faces.test.ts (as an operator with two-factor on,
  // and with an API key), which reads their routes from the app itself.
  /^\/api\/admin\//,
  /^\/api\/v1\//,
];

const GET_PATHS = (id: string) => [
  `/api/sms/price?id=${id}&provider=${id}`,
  `/api/sms/countries?provider=${id}`,
  `/api/sms/status/${id}`,
  `/api/now-status?payment_id=${id}`,
  `/api/rentals/${id}`,
  `/api/level?user_id=${id}`,
  `/api/get-transaction?user_id=${id}`,
  `/api/sms/compare?provider=${id}&service=${id}`,
  `/api/export/transactions.csv?from=${id}&to=${id}`,
  `/api/export/orders.csv?from=${id}&to=${id}`,
  `/api/rentals/${id}/extend-options`,
  `/api/transfers/${id}`,
];

// Values chosen to break naive parsing: huge and fractional money, wrong types, prototype keys, control characters.
const nastyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e308, -1, 0, -0, 0.001, 1000.005, Number.MAX_SAFE_INTEGER, 2 ** 63, "1000", "1e9", "NaN", "Infinity", "", " ", null, true, [], {}),
  fc.constantFrom("<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "\u0000\u202e", "x".repeat(5000), "Swift", "Dynamic", "hour", "5"),
  fc.string({ maxLength: 50 }),
);

const bodyFor = (fields: string[]) =>
  fc.oneof(
    // the right field names with wrong or hostile values
    fields.length > 0 ? fc.dictionary(fc.constantFrom(...fields), nastyValue, { maxKeys: fields.length }).map((o) => JSON.stringify(o)) : fc.constant("{}"),
    // any JSON at all
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    // not JSON
    fc.string({ maxLength: 200 }),
    fc.constantFrom('{"a":', "[", "{'a':1}", "\u0000", '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}', "[".repeat(2000), '{"amount":1e999}', "null", '"'),
  );

const contentTypeArb = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", null);

async function send(method: string, path: string, body: BodyInit | null, headers: Record<string, string>) {
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(new Request(`http://127.0.0.1:8787${path}`, { method, body, headers }));
  const text = await res.text();
  let data: ReplyBody = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  return { status: res.status, data };
}

function expectRefusalShape(res: Pick<ApiReply, "status" | "data">, label: string) {
  expect(res.status, `${label} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.data, label).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), error: expect.any(String) }));
    expect(res.data.message, label).not.toMatch(/at .*\.ts:\d+|TypeError|SQLITE|D1_ERROR|undefined/);
  }
}

let user: TestUser;
/** The caller for an endpoint: its own fresh one when a success would end the shared caller's session. */
const callerFor = async (endpoint: Endpoint) => (endpoint.endsSession ? createUser() : user);
beforeAll(async () => {
  user = await createUser();
  // Thousands of request log lines add nothing here (log hygiene has its own test) and slow the run.
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterAll(() => vi.restoreAllMocks());

describe("random and hostile JSON on every endpoint", () => {
  it("the list holds every POST, PATCH and PUT route under /api but the operator console and the developer API", () => {
    const listed = JSON_ENDPOINTS.map((e) => `${e.method} ${e.path.replace(/\/$/, "").replaceAll("00000000-0000-4000-8000-000000000000", ":id")}`);
    const routes = new Set(
      createApp()
        .routes.filter((r) => ["POST", "PATCH", "PUT"].includes(r.method) && r.path.startsWith("/api/") && !NOT_FED_HERE.some((re) => re.test(r.path)))
        .map((r) => `${r.method} ${r.path.replace(/:\w+/g, ":id")}`),
    );
    expect([...routes].filter((r) => !listed.includes(r)), "routes missing from JSON_ENDPOINTS").toEqual([]);
    expect(listed.filter((r) => !routes.has(r)), "JSON_ENDPOINTS entries the app does not route").toEqual([]);
  });

  for (const endpoint of JSON_ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}: 4xx with the error body, never a 500, nothing written`, { timeout: 60_000 }, async () => {
      const caller = await callerFor(endpoint);
      await fc.assert(
        fc.asyncProperty(bodyFor(endpoint.fields), contentTypeArb, async (body, contentType) => {
          const headers: Record<string, string> = {};
          if (contentType) headers["content-type"] = contentType;
          if (endpoint.auth) headers.authorization = `Bearer ${caller.token}`;
          const before = await tableCounts();
          const res = await send(endpoint.method, endpoint.path, body, headers);
          expectRefusalShape(res, `${endpoint.method} ${endpoint.path} ${body.slice(0, 80)}`);
          if (res.status >= 400) expect(await tableCounts()).toEqual(before);
        }),
        { numRuns: 20 },
      );
    });
  }

  it("random ids and query values on the GET endpoints: 4xx or an empty answer, never a 500", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("%00", "..%2F..", "%27%20OR%201%3D1", "9".repeat(400), "-1", "null")), async (raw) => {
        const id = encodeURIComponent(raw).replaceAll("%25", "%");
        for (const path of GET_PATHS(id)) {
          let res;
          try {
            res = await send("GET", path, null, { authorization: `Bearer ${user.token}` });
          } catch {
            continue; // a URL the Request constructor itself refuses never reaches the worker
          }
          expectRefusalShape(res, `GET ${path}`);
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe("oversized bodies", () => {
  const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(MAX_BODY_BYTES + 10) });

  for (const endpoint of JSON_ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}: 413 before the body is read`, async () => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (endpoint.auth) headers.authorization = `Bearer ${user.token}`;
      const before = await tableCounts();
      const res = await send(endpoint.method, endpoint.path, big, headers);
      expect(res.status).toBe(413);
      expect(res.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("too large") });
      expect(await tableCounts()).toEqual(before);
    });
  }

  it("a streamed body without a length is cut off at the limit too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(8 * 1024));
    // Past the route's 32 KB the rest is read and dropped so the connection stays clean (lib/request-body.ts,
    // decision 064), but only up to DRAIN_LIMIT_BYTES: a body well over it is never read to its end.
    const chunks = DRAIN_LIMIT_BYTES / chunk.byteLength + 64;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= chunks) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const res = await send("POST", "/api/login", stream, { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(chunks); // the worker stopped reading well before the end
  });

  it("a declared length over the limit is refused without reading", async () => {
    const res = await send("POST", "/api/webhooks/squad", "{}", { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES * 4) });
    expect([400, 413]).toContain(res.status);
  });
});

describe("deeply nested JSON (issue 12, hole 4)", () => {
  // Valid JSON nested as deep as the 32 KB limit allows: once overflowed the stack while the IPN's keys were sorted.
  const depth = 12_000;
  const nestedArrays = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
  const nestedObjects = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;

  for (const [name, body] of [["arrays", nestedArrays], ["objects", nestedObjects]] as const) {
    it(`signed-looking webhooks nested deep in ${name}: 401, nothing written`, async () => {
      expect(body.length).toBeLessThan(MAX_BODY_BYTES);
      const before = await tableCounts();
      const now = await send("POST", "/api/webhooks/nowpayments", body, { "content-type": "application/json", "x-nowpayments-sig": "ab".repeat(64) });
      expect(now.status).toBe(401);
      expect(now.data).toMatchObject({ code: "INVALID_SIGNATURE" });
      const squad = await send("POST", "/api/webhooks/squad", body, { "content-type": "application/json", "x-squad-encrypted-body": "AB".repeat(64) });
      expect(squad.status).toBe(401);
      expect(await tableCounts()).toEqual(before);
    });

    it(`every JSON endpoint given ${name} nested deep: a 4xx with the error body`, { timeout: 60_000 }, async () => {
      for (const endpoint of JSON_ENDPOINTS) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (endpoint.auth) headers.authorization = `Bearer ${(await callerFor(endpoint)).token}`;
        const res = await send(endpoint.method, endpoint.path, body, headers);
        expectRefusalShape(res, `${endpoint.method} ${endpoint.path} nested ${name}`);
      }
    });
  }
});

describe("/parties/*: only the notification room is routable (issue 12, hole 4)", () => {
  async function objectCount(): Promise<number> {
    const lists = await Promise.all([
      listDurableObjectIds(env.SMS_ORDER),
      listDurableObjectIds(env.RENTAL),
      listDurableObjectIds(env.INVOICE),
      listDurableObjectIds(env.NotificationRoom),
    ]);
    return lists.reduce((sum, ids) => sum + ids.length, 0);
  }

  it("any other party name, or any other shape, is the one 404 and creates no Durable Object", { timeout: 60_000 }, async () => {
    const before = await objectCount();
    const paths = [
      "/parties/sms-order/x",
      "/parties/rental/x",
      "/parties/invoice/x",
      "/parties/notification-room",
      "/parties/notification-room/x/extra",
      "/parties/main/x",
      "/parties/NotificationRoom/x",
      "/parties/sms-order/00000000-0000-4000-8000-000000000000?token=x",
    ];
    for (const path of paths) {
      for (const headers of [{}, { upgrade: "websocket" }] as Record<string, string>[]) {
        const res = await send("GET", path, null, headers);
        expect(res.status, path).toBe(404);
        expect(res.data, path).toMatchObject({ code: "NOT_FOUND", message: "Not found.", error: "Not found." });
      }
      expect((await send("POST", path, "{}", { "content-type": "application/json" })).status, path).toBe(404);
    }
    expect(await objectCount()).toBe(before);
  });

  it("a stranger's request for a notification room is refused before a room is created", async () => {
    const before = await objectCount();
    const name = crypto.randomUUID();
    const plain = await send("GET", `/parties/notification-room/${name}`, null, {});
    expect(plain.status).toBe(403);
    const noToken = await send("GET", `/parties/notification-room/${name}`, null, { upgrade: "websocket" });
    expect(noToken.status).toBe(401);
    expect(noToken.data).toMatchObject({ code: "UNAUTHORIZED" });
    const badToken = await send("GET", `/parties/notification-room/${name}?token=not-a-token`, null, { upgrade: "websocket" });
    expect(badToken.status).toBe(401);
    expect(await objectCount()).toBe(before);
    expect((await listDurableObjectIds(env.NotificationRoom)).some((id) => id.equals(env.NotificationRoom.idFromName(name)))).toBe(false);
  });
});

describe("the shared caller", () => {
  it("is still signed in after every endpoint above, so each signed-in check reached its endpoint", async () => {
    const res = await send("GET", "/api/rentals/00000000-0000-4000-8000-000000000000", null, { authorization: `Bearer ${user.token}` });
    expect(res.status).toBe(404);
  });
});
