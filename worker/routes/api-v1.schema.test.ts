import { env } from "cloudflare:workers";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestUpstreams } from "../test/services";
import { smsFault } from "../providers/sms/types";
import { createKey, pollOnce } from "../test/api-fixtures";
import { patchSandboxRental } from "../test/rent-fixtures";
import { api, createUser, type ApiReply } from "../test/helpers";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";
import { openSandboxBankAccount } from "../sandbox/squad-payouts";
import { postEntry, putSetting } from "../services/kernel";
import { getDb } from "../db/client";
import { SETTING_DEFAULTS } from "../../schema/settings";

/**
 * The v1 schema-validation test (issue 27): every /api/v1 operation is called for its success and its error answers,
 * and each answer body is validated, with a JSON Schema 2020-12 validator in strict mode (ajv/dist/2020), against the
 * schema the served OpenAPI document declares for that operation and status. An answer with a status the document does
 * not declare fails too, and so does an operation left unexercised. additionalProperties: false stays where the
 * document says it, so an answer field the document lacks (the Rental's refund_if_* once were) fails here.
 */

vi.setConfig({ testTimeout: 120_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

type Json = Record<string, unknown>;
let doc: Json;
const ajv = new Ajv2020({ strict: true, allErrors: true });
// The two formats the document uses, checked for real (strict mode refuses a format it does not know).
ajv.addFormat("date-time", (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat("uri", (s: string) => {
  try {
    return new URL(s).protocol.length > 1;
  } catch {
    return false;
  }
});
const COMPONENTS = "https://virtualnum.test/components";
const validators = new Map<string, ValidateFunction>();
/** "get /sms/orders/{id} 404": every (operation, status) answered during the run. */
const seen = new Set<string>();

beforeAll(async () => {
  const res = await api("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  doc = res.data as Json;
  // The components as one schema resource: every $ref of the document points into it.
  const schemas = (doc.components as { schemas: Json }).schemas;
  ajv.addSchema(rewriteRefs({ $id: COMPONENTS, $defs: schemas }) as Json);
});

function rewriteRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`));
}

function deref(node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  let out: unknown = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) out = (out as Json)[part];
  return out as Json;
}

/** Asserts the answer is declared for this operation and status, and that its body validates against that schema. */
function expectDeclared(method: string, path: string, res: ApiReply): ApiReply {
  const op = ((doc.paths as Json)[path] as Json | undefined)?.[method] as Json | undefined;
  expect(op, `${method} ${path} is not in the document`).toBeDefined();
  const declared = (op!.responses as Json)[String(res.status)] as Json | undefined;
  expect(declared, `${method} ${path} answered ${res.status}, which the document does not declare: ${JSON.stringify(res.data)}`).toBeDefined();
  const schema = ((deref(declared!).content as Json)["application/json"] as Json).schema as Json;
  const key = `${method} ${path} ${res.status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as Json);
    validators.set(key, validate);
  }
  const ok = validate(res.data);
  expect(ok, `${key}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.data)}`).toBe(true);
  seen.add(key);
  return res;
}

const auth = (secret: string) => ({ authorization: `Bearer ${secret}` });
/** A v1 call, validated against the document. `path` is the document's template; `url` the concrete path and query. */
async function call(method: "get" | "post" | "put" | "delete", path: string, secret: string | null, opts: { url?: string; json?: unknown; body?: string; idem?: string | null } = {}) {
  const headers: Record<string, string> = secret ? auth(secret) : {};
  if (method === "post" && opts.idem !== null) headers["idempotency-key"] = opts.idem ?? crypto.randomUUID();
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await api(`/api/v1${opts.url ?? path}`, {
    method: method.toUpperCase(),
    headers,
    ...(opts.json !== undefined ? { json: opts.json } : method === "post" || method === "put" ? { json: {} } : {}),
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  return expectDeclared(method, path, res);
}

describe("every /api/v1 answer validates against its declared schema (ajv, JSON Schema 2020-12, strict)", () => {
  const receivedHooks: string[] = [];
  beforeAll(() => {
    useTestUpstreams({ webhooks: async (_url, init) => {
      receivedHooks.push(String(init.body));
      return new Response("ok");
    } });
  });
  afterAll(() => useTestUpstreams({ webhooks: null }));

  it("account and catalogue: balance, countries, prices", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    expect((await call("get", "/balance", secret)).status).toBe(200);
    expect((await call("get", "/balance", null)).status).toBe(401);
    expect((await call("get", "/balance", `sk_live_${"x".repeat(32)}`)).data.code).toBe("UNAUTHORIZED");
    expect((await call("get", "/countries", secret, { url: "/countries?provider=Dynamic" })).status).toBe(200);
    expect((await call("get", "/countries", secret, { url: "/countries?provider=Nope" })).status).toBe(400);
    expect((await call("get", "/prices", secret, { url: "/prices?provider=Swift&country=5" })).status).toBe(200);
    expect((await call("get", "/prices", secret, { url: `/prices?country=${"9".repeat(20)}` })).status).toBe(400);
  });

  it("SMS orders: buy, list, read, another code, cancel, and each refusal", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const bought = await call("post", "/sms/orders", secret, { json: { country: "5", service: "wa" } });
    expect(bought.status).toBe(201);
    // The replay of the same request: the stored answer, declared the same way.
    const idem = crypto.randomUUID();
    await call("post", "/sms/orders", secret, { json: { country: "5", service: "sbxnosms" }, idem });
    const replay = await call("post", "/sms/orders", secret, { json: { country: "5", service: "sbxnosms" }, idem });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await call("post", "/sms/orders", secret, { json: { country: "5", service: "tg" }, idem })).status).toBe(422);
    expect((await call("post", "/sms/orders", secret, { json: { country: "5", service: "wa" }, idem: null })).status).toBe(400);
    expect((await call("post", "/sms/orders", secret, { json: { country: "5" } })).data.field).toBe("service");
    // A developer's code nobody has (issue 46, decision 075): 400 naming ref, in the declared error body.
    expect((await call("post", "/sms/orders", secret, { json: { country: "5", service: "wa", ref: "NOSUCHCODE" } })).data.field).toBe("ref");
    expect((await call("post", "/sms/orders", secret, { body: "{not json" })).status).toBe(400);
    expect((await call("post", "/sms/orders", secret, { json: { service: "w".repeat(40_000) } })).status).toBe(413);
    const tooDear = await call("post", "/sms/orders", secret, { json: { country: "5", service: "wa", max_price: 1 } });
    expect(tooDear.status).toBe(409);
    expect(tooDear.data).toMatchObject({ code: "PRICE_CHANGED", price: expect.any(Number) });
    const poor = await createKey(await createUser({ balanceKobo: 10 }), "live");
    expect((await call("post", "/sms/orders", poor.secret, { json: { country: "5", service: "wa" } })).status).toBe(402);

    await pollOnce(bought.data.id);
    expect((await call("get", "/sms/orders/{id}", secret, { url: `/sms/orders/${bought.data.id}` })).data.status).toBe("used");
    expect((await call("get", "/sms/orders/{id}", secret, { url: "/sms/orders/nope" })).status).toBe(404);
    expect((await call("get", "/sms/orders/{id}", secret, { url: `/sms/orders/${"x".repeat(65)}` })).status).toBe(400);
    const list = await call("get", "/sms/orders", secret, { url: "/sms/orders?limit=1" });
    expect(list.data.data).toHaveLength(1);
    expect(list.data.next_cursor).toEqual(expect.any(String));
    await call("get", "/sms/orders", secret, { url: `/sms/orders?status=used&cursor=${list.data.next_cursor}` });
    expect((await call("get", "/sms/orders", secret, { url: "/sms/orders?limit=0" })).status).toBe(400);
    expect((await call("get", "/sms/orders", secret, { url: "/sms/orders?cursor=garbage" })).data.field).toBe("cursor");

    expect((await call("post", "/sms/orders/{id}/another-code", secret, { url: `/sms/orders/${bought.data.id}/another-code` })).status).toBe(200);
    expect((await call("post", "/sms/orders/{id}/another-code", secret, { url: "/sms/orders/nope/another-code" })).status).toBe(404);
    expect((await call("post", "/sms/orders/{id}/cancel", secret, { url: `/sms/orders/${bought.data.id}/cancel` })).status).toBe(409);
    expect((await call("post", "/sms/orders/{id}/cancel", secret, { url: "/sms/orders/nope/cancel" })).status).toBe(404);
    const waiting = replay.data.id as string;
    expect((await call("post", "/sms/orders/{id}/another-code", secret, { url: `/sms/orders/${waiting}/another-code` })).status).toBe(409);
    expect((await call("post", "/sms/orders/{id}/cancel", secret, { url: `/sms/orders/${waiting}/cancel` })).data.status).toBe("cancelled");

    // The upstream has nothing: 503 NO_NUMBERS (refunded before answering).
    const empty = new ScriptedSmsProvider();
    empty.buyResult = smsFault("no_numbers", "test");
    await resetSmsTestState({ provider: empty });
    expect((await call("post", "/sms/orders", secret, { json: { country: "5", service: "wa" } })).status).toBe(503);
  });

  it("rentals: catalogue, quote, rent, list, read, cancel, end, and each refusal", async () => {
    const user = await createUser({ balanceKobo: 10_000_000 });
    const { secret } = await createKey(user, "live");
    const countries = await call("get", "/rentals/countries", secret);
    expect(countries.data.data.length).toBeGreaterThan(0);
    expect((await call("get", "/rentals/countries", null)).status).toBe(401);
    const quote = await call("get", "/rentals/quote", secret, { url: "/rentals/quote?country=5&duration=hour&period=1" });
    expect(quote.data).toMatchObject({ in_stock: true, price: expect.any(Number) });
    expect((await call("get", "/rentals/quote", secret, { url: "/rentals/quote?country=5&duration=day&period=8" })).data.field).toBe("period");

    const rented = await call("post", "/rentals", secret, { json: { country: "5", duration: "hour", period: 1 } });
    expect(rented.status).toBe(201);
    // No SMS for an hour on this one, so it stays cancellable.
    const upstream = await env.DB.prepare("SELECT upstream_id FROM rentals WHERE id = ?").bind(rented.data.id).first<{ upstream_id: string }>();
    await patchSandboxRental(env.DB, upstream!.upstream_id, { firstSmsAt: Date.now() + 3_600_000 });
    // The quote was the price paid.
    expect(rented.data.amount).toBe(quote.data.price);
    expect((await call("post", "/rentals", secret, { json: { country: "5", duration: "week", period: 5 } })).status).toBe(400);
    expect((await call("post", "/rentals", secret, { json: { country: "5", duration: "hour", period: 1, max_price: 1 } })).data.code).toBe("PRICE_CHANGED");
    const poor = await createKey(await createUser({ balanceKobo: 10 }), "live");
    expect((await call("post", "/rentals", poor.secret, { json: { country: "5", duration: "hour", period: 1 } })).status).toBe(402);

    const second = await call("post", "/rentals", secret, { json: { country: "5", duration: "day", period: 1 } });
    expect((await call("get", "/rentals/{id}", secret, { url: `/rentals/${rented.data.id}` })).data.rental.id).toBe(rented.data.id);
    expect((await call("get", "/rentals/{id}", secret, { url: "/rentals/nope" })).status).toBe(404);
    const list = await call("get", "/rentals", secret, { url: "/rentals?status=active&limit=1" });
    expect(list.data.next_cursor).toEqual(expect.any(String));
    expect((await call("get", "/rentals", secret, { url: "/rentals?status=lost" })).status).toBe(400);

    expect((await call("post", "/rentals/{id}/end", secret, { url: `/rentals/${second.data.id}/end` })).data.status).toBe("ended");
    expect((await call("post", "/rentals/{id}/end", secret, { url: `/rentals/${second.data.id}/end` })).status).toBe(409);
    expect((await call("post", "/rentals/{id}/end", secret, { url: "/rentals/nope/end" })).status).toBe(404);
    const cancelled = await call("post", "/rentals/{id}/cancel", secret, { url: `/rentals/${rented.data.id}/cancel` });
    expect(cancelled.data).toMatchObject({ status: "cancelled", refund_if_cancelled: null });
    expect((await call("post", "/rentals/{id}/cancel", secret, { url: `/rentals/${second.data.id}/cancel` })).status).toBe(409);
    expect((await call("post", "/rentals/{id}/cancel", secret, { url: "/rentals/nope/cancel" })).status).toBe(404);
    await call("get", "/rentals", secret);
  });

  it("webhook: read, set, delivery log (every payload against its event schema), resend, clear", async () => {
    const user = await createUser({ balanceKobo: 5_000_000 });
    const key = await createKey(user, "live");
    expect((await call("get", "/webhook", key.secret)).data).toMatchObject({ url: null });
    expect((await call("get", "/webhook", null)).status).toBe(401);
    expect((await call("put", "/webhook", key.secret, { json: { url: "ftp://files.example.com/x" } })).status).toBe(400);
    expect((await call("put", "/webhook", key.secret, { json: { url: `https://bot.example.com/${"p".repeat(40_000)}` } })).status).toBe(413);
    const set = await call("put", "/webhook", key.secret, { json: { url: "https://bot.example.com/hook" } });
    expect(set.data.url).toBe("https://bot.example.com/hook");

    // Events of every kind we can cause: a code, an order ended and refunded, a rental ended, balance changes.
    const bought = await call("post", "/sms/orders", key.secret, { json: { country: "5", service: "wa" } });
    await pollOnce(bought.data.id);
    const other = await call("post", "/sms/orders", key.secret, { json: { country: "5", service: "sbxnosms" } });
    await call("post", "/sms/orders/{id}/cancel", key.secret, { url: `/sms/orders/${other.data.id}/cancel` });
    const rented = await call("post", "/rentals", key.secret, { json: { country: "5", duration: "hour", period: 1 } });
    await call("post", "/rentals/{id}/end", key.secret, { url: `/rentals/${rented.data.id}/end` });

    const log = await call("get", "/webhook/deliveries", key.secret);
    const types = new Set((log.data.data as { type: string }[]).map((e) => e.type));
    expect([...types].sort()).toEqual(expect.arrayContaining(["balance.changed", "rental.ended", "sms.code", "sms.ended"]));
    // Each stored body is also the webhooks section's schema for its type (what the receiver is promised).
    const hooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
    for (const e of log.data.data as { type: string; payload: unknown }[]) {
      const validate = ajv.compile(rewriteRefs(hooks[e.type].post.requestBody.content["application/json"].schema) as Json);
      expect(validate(e.payload), `${e.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }

    const first = (log.data.data as { id: string }[])[0].id;
    expect((await call("post", "/webhook/deliveries/{eventId}/resend", key.secret, { url: `/webhook/deliveries/${first}/resend` })).data.id).toBe(first);
    expect((await call("post", "/webhook/deliveries/{eventId}/resend", key.secret, { url: "/webhook/deliveries/evt_nope/resend" })).status).toBe(404);
    // Another key's event is not this key's to resend.
    const stranger = await createKey(await createUser({ balanceKobo: 0 }), "live");
    await call("put", "/webhook", stranger.secret, { json: { url: "https://stranger.example.com/hook" } });
    expect((await call("post", "/webhook/deliveries/{eventId}/resend", stranger.secret, { url: `/webhook/deliveries/${first}/resend` })).status).toBe(404);

    expect((await call("delete", "/webhook", key.secret)).data.url).toBeNull();
    // Nowhere to send: resend is refused until a URL is set again.
    expect((await call("post", "/webhook/deliveries/{eventId}/resend", key.secret, { url: `/webhook/deliveries/${first}/resend` })).status).toBe(409);
    await api(`/api/keys/${key.id}/revoke`, { token: user.token, method: "POST" });
    expect((await call("delete", "/webhook", key.secret)).status).toBe(401);
    expect((await call("get", "/webhook/deliveries", key.secret)).status).toBe(401);
  });

  it("429: a key past its rate limit gets the typed body and Retry-After", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const { secret } = await createKey(user, "live");
    const { id } = await env.DB.prepare("SELECT id FROM api_keys WHERE user_id = ?").bind(user.id).first<{ id: string }>() as { id: string };
    // The key's counter for this minute stands at its limit (services/api-keys.ts API_KEY_RATE_LIMIT, 300 a minute).
    await env.DB.prepare("UPDATE rate_limits SET count = 300 WHERE key = ?").bind(`apikey:${id}`).run();
    await api("/api/v1/balance", { headers: auth(secret) }); // the row exists once the key was used
    await env.DB.prepare("UPDATE rate_limits SET count = 300 WHERE key = ?").bind(`apikey:${id}`).run();
    const limited = await api("/api/v1/balance", { headers: auth(secret) });
    expect(limited.status).toBe(429);
    expectDeclared("get", "/balance", limited);
    expect(limited.headers.get("retry-after")).toBe(String(limited.data.retry_after));
  });

  it("sub-accounts: open, list, read, transfer in and out, freeze, unfreeze, close, and each refusal (issue 46)", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    expect((await call("post", "/subaccounts", secret, { json: { name: "Ada", external_id: "tg-1" } })).status).toBe(403);
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).status).toBe(200);
    const sub = await call("post", "/subaccounts", secret, { json: { name: "Ada", external_id: "tg-1" } });
    expect(sub.status).toBe(201);
    expect((await call("post", "/subaccounts", secret, { json: { name: "Ada", external_id: "tg-1" } })).status).toBe(409);
    expect((await call("post", "/subaccounts", secret, { json: { name: "Ada" } })).data.field).toBe("external_id");
    const at = (tail = "") => ({ url: `/subaccounts/${sub.data.id}${tail}` });
    expect((await call("get", "/subaccounts", secret, { url: "/subaccounts?external_id=tg-1" })).data.data).toHaveLength(1);
    expect((await call("get", "/subaccounts", secret, { url: "/subaccounts?limit=0" })).status).toBe(400);
    expect((await call("get", "/subaccounts/{id}", secret, at())).data.id).toBe(sub.data.id);
    expect((await call("post", "/subaccounts/{id}/transfer-in", secret, { ...at("/transfer-in"), json: { amount: 100 } })).status).toBe(201);
    expect((await call("post", "/subaccounts/{id}/transfer-in", secret, { ...at("/transfer-in"), json: { amount: 1_000_000 } })).status).toBe(402);
    expect((await call("post", "/subaccounts/{id}/transfer-in", secret, { ...at("/transfer-in"), json: { amount: 0 } })).status).toBe(400);
    expect((await call("post", "/subaccounts/{id}/transfer-out", secret, { ...at("/transfer-out"), json: { amount: 40 } })).status).toBe(201);
    expect((await call("post", "/subaccounts/{id}/transfer-out", secret, { ...at("/transfer-out"), json: { amount: 1000 } })).status).toBe(402);
    expect((await call("get", "/subaccounts/{id}/transfers", secret, at("/transfers"))).data.data).toHaveLength(2);
    expect((await call("post", "/subaccounts/{id}/freeze", secret, at("/freeze"))).data.status).toBe("frozen");
    expect((await call("post", "/subaccounts/{id}/unfreeze", secret, at("/unfreeze"))).data.status).toBe("active");
    expect((await call("post", "/subaccounts/{id}/close", secret, at("/close"))).data.status).toBe("closed");
    expect((await call("post", "/subaccounts/{id}/unfreeze", secret, at("/unfreeze"))).status).toBe(409);
    expect((await call("post", "/subaccounts/{id}/freeze", secret, at("/freeze"))).status).toBe(409);
    expect((await call("post", "/subaccounts/{id}/close", secret, { url: "/subaccounts/nope/close" })).status).toBe(404);
    // Markups (issue 46): read, set, and refused above the ceiling or below zero; a non-reseller's 403.
    expect((await call("get", "/markups", secret)).data).toMatchObject({ percent: 0, services: {} });
    expect((await call("put", "/markups", secret, { json: { percent: 12.5, services: { wa: 20 } } })).data).toMatchObject({ percent: 12.5, services: { wa: 20 } });
    expect((await call("put", "/markups", secret, { json: { percent: -1 } })).status).toBe(400);
    expect((await call("put", "/markups", secret, { json: { percent: 500 } })).status).toBe(400);
    const plain = await createKey(await createUser(), "live");
    expect((await call("get", "/markups", plain.secret)).status).toBe(403);
    expect((await call("put", "/markups", plain.secret, { json: { percent: 1 } })).status).toBe(403);
  });

  it("withdrawals: withdraw (a key with the withdraw scope), read, and each refusal (issue 45)", async () => {
    await putSetting(getDb(env.DB), "withdrawals", { ...SETTING_DEFAULTS.withdrawals, cooling_hours: 0 });
    const user = await createUser();
    const accountNumber = `02${String(Date.now()).slice(-8)}`;
    await openSandboxBankAccount(env, { bank_code: "000013", account_number: accountNumber, account_name: "Ada Obi" });
    await postEntry(getDb(env.DB), { at: Date.now(), userId: user.id, key: `fund:transfer:${crypto.randomUUID()}`, amountKobo: 500_000, kind: "fund", note: "test deposit" });
    expect((await api("/api/withdrawals/account", { token: user.token, json: { bank_code: "000013", account_number: accountNumber, full_name: "Ada Obi" } })).status).toBe(200);
    const { id, secret } = await createKey(user, "live");
    expect((await call("post", "/withdrawals", secret, { json: { amount: 1000 } })).status).toBe(403);
    await env.DB.prepare("UPDATE users SET totp_enabled_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ? WHERE id = ?").bind(Date.now(), user.sessionId).run();
    expect((await api(`/api/keys/${id}/scopes`, { method: "PUT", token: user.token, json: { scopes: ["withdraw"] } })).status).toBe(200);
    const made = await call("post", "/withdrawals", secret, { json: { amount: 1000 } });
    expect(made.status).toBe(201);
    expect((await call("post", "/withdrawals", secret, { json: { amount: 999 } })).status).toBe(400);
    expect((await call("post", "/withdrawals", secret, { json: { amount: 9000 } })).status).toBe(422);
    const idem = crypto.randomUUID();
    await call("post", "/withdrawals", secret, { json: { amount: 1000 }, idem });
    expect((await call("post", "/withdrawals", secret, { json: { amount: 1001 }, idem })).status).toBe(422);
    expect((await call("get", "/withdrawals/{id}", secret, { url: `/withdrawals/${made.data.id}` })).data.id).toBe(made.data.id);
    expect((await call("get", "/withdrawals/{id}", secret, { url: "/withdrawals/wd_nope" })).status).toBe(404);
    await env.DB.prepare("DELETE FROM payout_accounts WHERE user_id = ?").bind(user.id).run();
    expect((await call("post", "/withdrawals", secret, { json: { amount: 1000 } })).status).toBe(409);
  });

  it("the document's examples are valid too: every schema example, every error example", () => {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    let checked = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        const validate = ajv.compile({ $ref: `${COMPONENTS}#/$defs/${name}` });
        expect(validate(example), `${name} example: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    // Every error answer's example, on every operation (each status declares its own).
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          const media = ((response.content as Json | undefined)?.["application/json"] ?? {}) as Json;
          if (!("example" in media)) continue;
          const validate = ajv.compile(rewriteRefs(media.schema) as Json);
          expect(validate(media.example), `${method} ${path} ${status} example: ${ajv.errorsText(validate.errors)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("negative probes on every operation answer a declared status with its declared body (issue 44)", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const { secret } = await createKey(user, "live");
    const ops = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method as "get" | "post" | "put" | "delete", path, op })),
    );
    expect(ops.length).toBeGreaterThan(15);
    for (const { method, path, op } of ops) {
      const url = path.replace(/\{\w+\}/g, "no-such-id");
      // No key, and a key that does not exist.
      expect((await call(method, path, null, { url })).status).toBe(401);
      expect((await call(method, path, `sk_live_${"x".repeat(32)}`, { url })).status).toBe(401);
      // A path parameter past its length.
      if (path.includes("{")) expect((await call(method, path, secret, { url: path.replace(/\{\w+\}/g, "x".repeat(100)) })).status).toBe(400);
      // A body that is not JSON, where the operation takes one.
      if (op.requestBody) {
        const res = await api(`/api/v1${url}`, { method: method.toUpperCase(), headers: { ...auth(secret), "content-type": "text/plain", "idempotency-key": crypto.randomUUID() }, body: "service=wa" });
        expect(expectDeclared(method, path, res).status).toBe(415);
      }
      // The same Idempotency-Key with another body, on every POST.
      if (method === "post") {
        const idem = crypto.randomUUID();
        await call(method, path, secret, { url, idem, json: {} });
        expect((await call(method, path, secret, { url, idem, json: { other: true } })).status).toBe(422);
      }
    }
  });

  it("covered every operation of the document, each with a success and at least one error answer", () => {
    const ops = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    for (const op of ops) {
      const statuses = [...seen].filter((k) => k.startsWith(`${op} `)).map((k) => Number(k.split(" ").at(-1)));
      expect(statuses.some((s) => s < 300), `${op}: no success answer validated`).toBe(true);
      expect(statuses.some((s) => s >= 400), `${op}: no error answer validated`).toBe(true);
    }
  });
});
