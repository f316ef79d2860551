import { Hono } from "hono";
import type { Env } from "../config";
import {
  cancelActivation,
  chargeSandbox,
  createActivation,
  finishActivation,
  pollActivation,
  readActivation,
  sandboxBalance,
  SANDBOX_RUB_PER_USD,
} from "./sms-activations";
import { SANDBOX_COUNTRIES, SANDBOX_ERROR, SANDBOX_SERVICES, sandboxCostUsd, sandboxCountry, sandboxStock, serviceByAppId } from "./sms-catalogue";

/**
 * An sms-man activation API v2 simulator written from https://sms-man.com/api (GET /control/<method>?token=..., JSON;
 * errors {"success":false,"error_code","error_msg": string | {field: message}}), not from our adapter:
 *   - the token is checked against the configured one (wrong_token), and a User-Agent is required (403);
 *   - our sandbox account holds ROUBLES, like the documents' samples: get-balance and get-prices answer in roubles;
 *     get-number takes maxPrice as an Integer in `currency` (RUB/USD/EUR, the account's when absent) and refuses a
 *     non-integer one; numbers are charged when taken ("balance" when short) and refunded on reject;
 *   - get-prices answers a map keyed by application ids whose entries carry application_id and country_id (one of
 *     the shapes public clients read), so a country id equal to an application id is a real trap here;
 *   - get-sms: sms_code once the code came, error_code wait_sms before; set-status reject|close|ready|used.
 */
export const smsManSimulator = new Hono<{ Bindings: Env }>().basePath("/control");

// error_msg is a string or, on some errors, an object of strings (both in the documents).
const fail = (error_code: string, error_msg: string | Record<string, string>) => ({ success: false, error_code, error_msg });

/** The token the sandbox account answers to (the same default the sandbox wiring sends; the rent API shares it). */
export function sandboxSmsManToken(env: Env): string {
  return env.SMSMAN_TOKEN || "sandbox-smsman-token";
}

const rub = (usd: number) => Math.round(usd * SANDBOX_RUB_PER_USD * 100) / 100;
const PER_USD: Record<string, number> = { RUB: SANDBOX_RUB_PER_USD, USD: 1, EUR: 0.92 };

smsManSimulator.use("*", async (c, next) => {
  if (!c.req.header("user-agent")) return c.text("Forbidden", 403);
  if (c.req.query("token") !== sandboxSmsManToken(c.env)) return c.json(fail("wrong_token", { token: "Wrong token!" }));
  await next();
});

smsManSimulator.get("/get-balance", async (c) => c.json({ balance: (await sandboxBalance(c.env, "smsman")).toFixed(2) }));

smsManSimulator.get("/countries", (c) =>
  c.json(Object.fromEntries(SANDBOX_COUNTRIES.map((country) => [country.id, { id: country.id, title: country.title }]))),
);

smsManSimulator.get("/applications", (c) =>
  c.json(Object.fromEntries(SANDBOX_SERVICES.map((s) => [s.appId, { id: s.appId, name: s.name, code: s.code }]))),
);

smsManSimulator.get("/get-prices", (c) => {
  const country = sandboxCountry(c.req.query("country_id") ?? "");
  if (!country) return c.json(fail("wrong_country", "Country not found"));
  const prices = Object.fromEntries(
    SANDBOX_SERVICES.map((s) => [
      s.appId,
      { application_id: s.appId, country_id: country.id, cost: rub(sandboxCostUsd(country, s)).toFixed(2), count: sandboxStock(country, s) },
    ]),
  );
  return c.json(prices);
});

smsManSimulator.get("/get-number", async (c) => {
  const country = sandboxCountry(c.req.query("country_id") ?? "");
  const service = serviceByAppId(c.req.query("application_id") ?? "");
  if (!country) return c.json(fail("wrong_country", "Country not found"));
  if (!service) return c.json(fail("wrong_application", "Application not found"));
  if (sandboxStock(country, service) === 0) return c.json(fail("no_numbers", "No numbers"));
  const costRub = rub(sandboxCostUsd(country, service));
  const maxPrice = c.req.query("maxPrice");
  if (maxPrice !== undefined) {
    const currency = (c.req.query("currency") ?? "RUB").toUpperCase();
    if (!/^\d+$/.test(maxPrice) || !PER_USD[currency]) return c.json(fail("wrong_params", { maxPrice: "maxPrice must be an integer" }));
    const costThere = (costRub / SANDBOX_RUB_PER_USD) * PER_USD[currency];
    if (costThere > Number(maxPrice) + 1e-9) return c.json(fail("max_price", "Price is higher than maxPrice"));
  }
  const charged = service.name === SANDBOX_ERROR ? 0 : costRub;
  if (!(await chargeSandbox(c.env, "smsman", charged))) return c.json(fail("balance", "Not enough balance"));
  const activation = await createActivation(c.env, country, service, { account: "smsman", amount: charged });
  return c.json({ request_id: Number(activation.id), country_id: Number(country.id), application_id: Number(service.appId), number: activation.number });
});

smsManSimulator.get("/get-sms", async (c) => {
  const activation = await readActivation(c.env, c.req.query("request_id") ?? "");
  if (!activation) return c.json(fail("wrong_request_id", "Request not found"));
  const base = { request_id: Number(activation.id), country_id: Number(activation.countryId), number: activation.number };
  const poll = pollActivation(c.env, activation);
  if (poll.kind === "code") return c.json({ ...base, sms_code: poll.code });
  if (poll.kind === "cancelled") return c.json(fail("wrong_status", "Request is cancelled"));
  return c.json({ ...base, error_code: "wait_sms", error_msg: "Still waiting..." });
});

smsManSimulator.get("/set-status", async (c) => {
  const activation = await readActivation(c.env, c.req.query("request_id") ?? "");
  if (!activation) return c.json(fail("wrong_request_id", "Request not found"));
  const status = c.req.query("status");
  if (status === "reject") {
    const outcome = await cancelActivation(c.env, activation);
    if (outcome !== "released") return c.json(fail("wrong_status", outcome === "has_code" ? "SMS already received" : "Request is closed"));
  } else if (status === "close" || status === "used") {
    await finishActivation(c.env, activation);
  } else if (status !== "ready") {
    return c.json(fail("wrong_status", "Unknown status"));
  }
  return c.json({ request_id: Number(activation.id), success: true });
});

smsManSimulator.notFound((c) => c.html("<html><body><h1>404 Not Found</h1></body></html>", 404));
