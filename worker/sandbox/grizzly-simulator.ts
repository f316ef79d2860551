import { Hono } from "hono";
import type { Env } from "../config";
import { cancelActivation, chargeSandbox, createActivation, finishActivation, hasFreeSlot, pollActivation, readActivation, retryActivation, sandboxBalance, type SandboxActivation } from "./sms-activations";
import { countryBySmsActivateNumber, SANDBOX_ERROR, SANDBOX_SERVICES, sandboxCostUsd, sandboxStock, serviceByCode, SMS_ACTIVATE_COUNTRY_NUMBERS } from "./sms-catalogue";

/**
 * A Grizzly SMS simulator written from https://grizzlysms.com/docs ("Our API is compatible with the sms-activate
 * API"; https://api.grizzlysms.com/stubs/handler_api.php?api_key=...&action=...), not from our adapter:
 *   - api_key required (BAD_KEY);
 *   - getNumber: service and country (a missing country means Russia, as the page says: "If not specified, the
 *     Russian number will be selected by default"), maxPrice ("the maximum price for which you are ready to buy a
 *     number": above it, no number), NO_NUMBERS, NO_BALANCE; ACCESS_NUMBER:<id>:<phone>;
 *   - setStatus: -1 or 8 cancel (ACCESS_CANCEL), 1 ready (ACCESS_READY), 3 another code (ACCESS_RETRY_GET),
 *     6 complete (ACCESS_ACTIVATION); an unknown status BAD_STATUS, an unknown id NO_ACTIVATION;
 *   - getStatus: STATUS_WAIT_CODE, STATUS_WAIT_RETRY:<code>, STATUS_OK:<code>, STATUS_CANCEL;
 *   - getBalance ACCESS_BALANCE:<amount>; getPrices {country: {service: {cost, count}}}.
 * The page names no limit on active activations and no batch status call, so neither exists here. A key whose region
 * is refused is simulated by the key "region-blocked" (SERVICE_UNAVAILABLE_REGION, documented on getNumber).
 * The market is the sandbox's, priced 10% over DaisySMS's sandbox prices.
 */
export const grizzlySimulator = new Hono<{ Bindings: Env }>();

export const GRIZZLY_PRICE_FACTOR = 1.1;

export function sandboxGrizzlyKey(env: Env): string {
  return env.GRIZZLY_API_KEY || "sandbox-grizzly";
}

const cost = (usd: number) => Math.max(0.01, Math.round(usd * GRIZZLY_PRICE_FACTOR * 100) / 100);

grizzlySimulator.get("/stubs/handler_api.php", async (c) => {
  if (!c.req.header("user-agent")) return c.text("Forbidden", 403);
  const q = (name: string) => c.req.query(name) ?? "";
  if (q("api_key") === "region-blocked") return c.text("SERVICE_UNAVAILABLE_REGION");
  if (q("api_key") !== sandboxGrizzlyKey(c.env)) return c.text("BAD_KEY");
  switch (q("action")) {
    case "getBalance":
      return c.text(`ACCESS_BALANCE:${(await sandboxBalance(c.env, "grizzly")).toFixed(2)}`);
    case "getPrices": {
      const numbers = q("country") ? [q("country")] : Object.keys(SMS_ACTIVATE_COUNTRY_NUMBERS);
      const out: Record<string, Record<string, { cost: string; count: number }>> = {};
      for (const number of numbers) {
        const country = countryBySmsActivateNumber(number);
        if (!country) continue;
        const services = q("service") ? SANDBOX_SERVICES.filter((s) => s.code === q("service")) : SANDBOX_SERVICES;
        out[number] = Object.fromEntries(services.map((s) => [s.code, { cost: cost(sandboxCostUsd(country, s)).toFixed(2), count: sandboxStock(country, s) }]));
      }
      return c.json(out);
    }
    case "getNumber": {
      const country = countryBySmsActivateNumber(q("country") || "0");
      const service = serviceByCode(q("service"));
      if (!service || !country) return c.text("BAD_SERVICE");
      const price = cost(sandboxCostUsd(country, service));
      if (q("maxPrice") !== "" && !(price <= Number(q("maxPrice")) + 1e-9)) return c.text("NO_NUMBERS");
      if (sandboxStock(country, service) === 0 || !(await hasFreeSlot(c.env, "grizzly"))) return c.text("NO_NUMBERS");
      const charged = service.name === SANDBOX_ERROR ? 0 : price;
      if (!(await chargeSandbox(c.env, "grizzly", charged))) return c.text("NO_BALANCE");
      const activation = await createActivation(c.env, country, service, { account: "grizzly", amount: charged });
      return c.text(`ACCESS_NUMBER:${activation.id}:${activation.number}`);
    }
    case "getStatus": {
      const activation = await own(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      const poll = pollActivation(c.env, activation);
      if (poll.kind === "code") return c.text(`STATUS_OK:${poll.code}`);
      if (poll.kind === "retry") return c.text(`STATUS_WAIT_RETRY:${poll.code}`);
      if (poll.kind === "cancelled") return c.text("STATUS_CANCEL");
      return c.text("STATUS_WAIT_CODE");
    }
    case "setStatus": {
      const status = q("status");
      if (!["-1", "1", "3", "6", "8"].includes(status)) return c.text("BAD_STATUS");
      const activation = await own(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      if (status === "-1" || status === "8") {
        const outcome = await cancelActivation(c.env, activation);
        return c.text(outcome === "released" ? "ACCESS_CANCEL" : "BAD_STATUS");
      }
      if (status === "6") {
        await finishActivation(c.env, activation);
        return c.text("ACCESS_ACTIVATION");
      }
      if (status === "3") return c.text((await retryActivation(c.env, activation)) === "accepted" ? "ACCESS_RETRY_GET" : "BAD_STATUS");
      return c.text("ACCESS_READY");
    }
    default:
      return c.text("BAD_ACTION");
  }
});

async function own(env: Env, id: string): Promise<SandboxActivation | null> {
  const activation = id ? await readActivation(env, id) : null;
  return activation?.account === "grizzly" ? activation : null;
}
