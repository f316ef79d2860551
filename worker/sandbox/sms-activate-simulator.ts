import { Hono } from "hono";
import type { Env } from "../config";
import {
  canReactivate,
  cancelActivation,
  chargeSandbox,
  createActivation,
  finishActivation,
  hasFreeSlot,
  pollActivation,
  readActivation,
  retryActivation,
  sandboxBalance,
  sandboxSmsText,
} from "./sms-activations";
import { commaList, DAISYSMS_SURCHARGE_PER_CHOICE, numberForChoice } from "./number-choices";
import { SANDBOX_ERROR, SANDBOX_SERVICES, sandboxCostUsd, sandboxCountry, sandboxStock, serviceByCode } from "./sms-catalogue";

/**
 * A DaisySMS ("Swift") simulator written from https://daisysms.com/docs/api (an SMS-Activate-compatible
 * GET /stubs/handler_api.php?api_key=&action=..., plain-text replies) and SMS-Activate's protocol words, not from our
 * adapter. What it checks, like the real service:
 *   - the key: api_key in the URL or the X-ApiKey header, compared with the configured one; otherwise BAD_KEY;
 *   - a User-Agent (the service sits behind Cloudflare, which refuses requests without one: 403 "error code: 1010");
 *   - required parameters: getNumber needs service (BAD_SERVICE), getStatus/setStatus need id (NO_ACTIVATION), setStatus
 *     a known status (BAD_STATUS); an unknown action is BAD_ACTION;
 *   - money: our account holds dollars (getBalance: ACCESS_BALANCE:50.30); a number is charged when taken (NO_MONEY
 *     when short) and refunded when cancelled; max_price (alias maxPrice) in dollars, inclusive (MAX_PRICE_EXCEEDED);
 *     the effective price in the X-Price header; at most 20 active rentals (TOO_MANY_ACTIVE_RENTALS): a rental is
 *     active until its code came or it was cancelled (or lapsed), not until setStatus 6 (sms-activations.ts
 *     DOCUMENTED_SLOT_LIMITS; a run may raise the limit like support would, POST /sandbox/upstreams/slots);
 *   - setStatus 8 on a number that already has its code, or no longer exists, answers ACCESS_READY (not a refusal word);
 *   - getNumber's `carriers` (tmo, vz, att) and `areas` (area codes), each "subject to a 20% price increase": the
 *     number matches them (sandbox/number-choices.ts), X-Price and max_price are the raised price, and a carrier or
 *     area code nothing matches answers NO_NUMBERS, the page's word when no number can be rented.
 * The upstream numbers USA as 187; our customers see it as 5.
 */
export const smsActivateSimulator = new Hono<{ Bindings: Env }>();

const UPSTREAM_USA = "187";

/** The key the sandbox account answers to (the same default the sandbox wiring sends). */
export function sandboxSwiftKey(env: Env): string {
  return env.SWIFT_API_KEY || "sandbox";
}

smsActivateSimulator.get("/stubs/handler_api.php", async (c) => {
  if (!c.req.header("user-agent")) return c.text("error code: 1010", 403);
  const q = (name: string) => c.req.query(name) ?? "";
  const key = q("api_key") || c.req.header("x-apikey") || "";
  if (key !== sandboxSwiftKey(c.env)) return c.text("BAD_KEY");
  const usa = sandboxCountry("5")!;
  switch (q("action")) {
    case "getBalance":
      return c.text(`ACCESS_BALANCE:${(await sandboxBalance(c.env, "swift")).toFixed(2)}`);
    case "getPrices": {
      if (q("country") && q("country") !== UPSTREAM_USA) return c.json({});
      const services = q("service") ? SANDBOX_SERVICES.filter((s) => s.code === q("service")) : SANDBOX_SERVICES;
      const prices = Object.fromEntries(
        services.map((s) => [s.code, { cost: sandboxCostUsd(usa, s).toFixed(2), count: sandboxStock(usa, s), name: s.name }]),
      );
      return c.json({ [UPSTREAM_USA]: prices });
    }
    case "getNumber": {
      const service = serviceByCode(q("service"));
      if (!service) return c.text("BAD_SERVICE");
      if (q("country") && q("country") !== UPSTREAM_USA) return c.text("BAD_SERVICE");
      // carriers / areas: each asked for adds the page's 20% to the price (and max_price is compared with that price).
      const carriers = commaList(q("carriers"));
      const areas = commaList(q("areas"));
      const surcharges = (carriers.length > 0 ? 1 : 0) + (areas.length > 0 ? 1 : 0);
      const cost = Math.round(sandboxCostUsd(usa, service) * (1 + DAISYSMS_SURCHARGE_PER_CHOICE * surcharges) * 100) / 100;
      const maxPrice = q("max_price") || q("maxPrice");
      if (maxPrice !== "") {
        const max = Number(maxPrice);
        if (!Number.isFinite(max) || cost > max + 1e-9) return c.text("MAX_PRICE_EXCEEDED");
      }
      if (sandboxStock(usa, service) === 0) return c.text("NO_NUMBERS");
      const chosen = numberForChoice(crypto.randomUUID(), carriers, areas);
      if (chosen === "none") return c.text("NO_NUMBERS");
      if (!(await hasFreeSlot(c.env, "swift"))) return c.text("TOO_MANY_ACTIVE_RENTALS");
      const charged = service.name === SANDBOX_ERROR ? 0 : cost;
      if (!(await chargeSandbox(c.env, "swift", charged))) return c.text("NO_MONEY");
      const activation = await createActivation(c.env, usa, service, { account: "swift", amount: charged }, chosen ? { number: chosen.number } : undefined);
      c.header("X-Price", cost.toFixed(2));
      return c.text(`ACCESS_NUMBER:${activation.id}:${activation.number}`);
    }
    // getExtraActivation&activationId=<past id> (https://daisysms.com/docs/api): the same number again for a new code,
    // charged like getNumber (max_price and X-Price alike); BAD_ID when that activation never had a code or is unknown.
    case "getExtraActivation": {
      const previous = q("activationId") ? await readActivation(c.env, q("activationId")) : null;
      if (!previous || !canReactivate(c.env, previous)) return c.text("BAD_ID");
      const service = SANDBOX_SERVICES.find((s) => s.name === previous.serviceName);
      if (!service) return c.text("BAD_ID");
      const cost = sandboxCostUsd(usa, service);
      const maxPrice = q("max_price") || q("maxPrice");
      if (maxPrice !== "" && (!Number.isFinite(Number(maxPrice)) || cost > Number(maxPrice) + 1e-9)) return c.text("MAX_PRICE_EXCEEDED");
      if (!(await hasFreeSlot(c.env, "swift"))) return c.text("TOO_MANY_ACTIVE_RENTALS");
      if (!(await chargeSandbox(c.env, "swift", cost))) return c.text("NO_MONEY");
      const activation = await createActivation(c.env, usa, service, { account: "swift", amount: cost }, previous);
      c.header("X-Price", cost.toFixed(2));
      return c.text(`ACCESS_NUMBER:${activation.id}:${activation.number}`);
    }
    case "getStatus": {
      const activation = q("id") ? await readActivation(c.env, q("id")) : null;
      if (!activation) return c.text("NO_ACTIVATION");
      const poll = pollActivation(c.env, activation);
      // text=1: the whole SMS in the X-Text header (https://daisysms.com/docs/api, "Get status"), percent-encoded here
      // so any letter survives a header.
      if ((poll.kind === "code" || poll.kind === "retry") && q("text") === "1") c.header("X-Text", encodeURIComponent(sandboxSmsText(activation.serviceName, poll.code)));
      if (poll.kind === "code") return c.text(`STATUS_OK:${poll.code}`);
      if (poll.kind === "retry") return c.text(`STATUS_WAIT_RETRY:${poll.code}`);
      if (poll.kind === "cancelled") return c.text("STATUS_CANCEL");
      return c.text("STATUS_WAIT_CODE");
    }
    case "setStatus": {
      const status = q("status");
      if (!["1", "3", "6", "8"].includes(status)) return c.text("BAD_STATUS");
      const activation = q("id") ? await readActivation(c.env, q("id")) : null;
      if (status === "8") {
        // No longer exists, already ended, or has its code: ACCESS_READY (the number is not given back).
        if (!activation) return c.text("ACCESS_READY");
        return c.text((await cancelActivation(c.env, activation)) === "released" ? "ACCESS_CANCEL" : "ACCESS_READY");
      }
      if (!activation) return c.text("NO_ACTIVATION");
      if (status === "6") {
        await finishActivation(c.env, activation);
        return c.text("ACCESS_ACTIVATION");
      }
      // "Request another code": STATUS_WAIT_RETRY:<last code> until the next SMS (https://sms-activate.org/en/api2).
      if (status === "3") return c.text((await retryActivation(c.env, activation)) === "accepted" ? "ACCESS_RETRY_GET" : "BAD_STATUS");
      return c.text("ACCESS_READY");
    }
    default:
      return c.text("BAD_ACTION");
  }
});
