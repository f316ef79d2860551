import { Hono } from "hono";
import type { Env } from "../env";
import { cancelActivation, createActivation, finishActivation, pollActivation, readActivation } from "./sms-activations";
import { SANDBOX_COUNTRIES, SANDBOX_SERVICES, sandboxCostUsd, sandboxCountry, sandboxStock, serviceByAppId } from "./sms-catalogue";

/**
 * Speaks sms-man's activation API v2 (GET /control/<method>?token=..., JSON) over the sandbox market, so the real
 * 'Dynamic' adapter runs unchanged in sandbox mode.
 */
export const smsManSimulator = new Hono<{ Bindings: Env }>().basePath("/control");

// error_msg is a string or, on some errors, an object of strings (both seen from sms-man).
const fail = (error_code: string, error_msg: string | Record<string, string>) => ({ success: false, error_code, error_msg });

smsManSimulator.use("*", async (c, next) => {
  if (!c.req.query("token")) return c.json(fail("wrong_token", "Wrong token!"));
  await next();
});

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
    SANDBOX_SERVICES.map((s) => [s.appId, { cost: sandboxCostUsd(country, s).toFixed(2), count: sandboxStock(country, s) }]),
  );
  return c.json({ [country.id]: prices });
});

smsManSimulator.get("/get-number", async (c) => {
  const country = sandboxCountry(c.req.query("country_id") ?? "");
  const service = serviceByAppId(c.req.query("application_id") ?? "");
  if (!country) return c.json(fail("wrong_country", "Country not found"));
  if (!service) return c.json(fail("wrong_application", "Application not found"));
  if (sandboxStock(country, service) === 0) return c.json(fail("no_numbers", "No numbers"));
  const maxPrice = Number(c.req.query("maxPrice"));
  if (Number.isFinite(maxPrice) && maxPrice > 0 && sandboxCostUsd(country, service) > maxPrice + 1e-9) {
    return c.json(fail("max_price", "Price is higher than maxPrice"));
  }
  const activation = await createActivation(c.env, country, service);
  return c.json({ request_id: Number(activation.id), country_id: Number(country.id), application_id: Number(service.appId), number: activation.number });
});

smsManSimulator.get("/get-sms", async (c) => {
  const activation = await readActivation(c.env, c.req.query("request_id") ?? "");
  if (!activation) return c.json(fail("wrong_request_id", "Request not found"));
  const base = { request_id: Number(activation.id), country_id: Number(activation.countryId), number: activation.number };
  const poll = pollActivation(c.env, activation);
  if (poll.kind === "code") return c.json({ ...base, sms_code: poll.code });
  if (poll.kind === "error") return c.json(fail("server_error", { text: "Internal error, try later" }));
  if (poll.kind === "cancelled") return c.json(fail("wrong_status", "Request is cancelled"));
  return c.json({ ...base, error_code: "wait_sms", error_msg: "Still waiting..." });
});

smsManSimulator.get("/set-status", async (c) => {
  const activation = await readActivation(c.env, c.req.query("request_id") ?? "");
  if (!activation) return c.json(fail("wrong_request_id", "Request not found"));
  const status = c.req.query("status");
  if (status === "reject") {
    const outcome = await cancelActivation(c.env, activation);
    if (outcome === "refused") return c.json(fail("wrong_status", "SMS already received"));
  } else if (status === "close" || status === "used") {
    await finishActivation(c.env, activation);
  } else if (status !== "ready") {
    return c.json(fail("wrong_status", "Unknown status"));
  }
  return c.json({ request_id: Number(activation.id), success: true });
});

smsManSimulator.notFound((c) => c.html("<html><body><h1>404 Not Found</h1></body></html>", 404));
