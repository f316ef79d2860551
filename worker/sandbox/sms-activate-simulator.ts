import { Hono } from "hono";
import type { Env } from "../env";
import { cancelActivation, createActivation, finishActivation, pollActivation, readActivation, retryActivation } from "./sms-activations";
import { SANDBOX_SERVICES, sandboxCostUsd, sandboxCountry, sandboxStock, serviceByCode } from "./sms-catalogue";

/**
 * Speaks the SMS-Activate-compatible protocol as DaisySMS does (GET /stubs/handler_api.php?api_key=&action=..., plain
 * text), selling the sandbox's USA numbers, so the real 'Swift' adapter runs unchanged in sandbox mode.
 * The upstream numbers USA as 187; our customers see it as 5.
 */
export const smsActivateSimulator = new Hono<{ Bindings: Env }>();

const UPSTREAM_USA = "187";

smsActivateSimulator.get("/stubs/handler_api.php", async (c) => {
  const q = (name: string) => c.req.query(name) ?? "";
  if (!q("api_key")) return c.text("BAD_KEY", 401);
  const usa = sandboxCountry("5")!;
  switch (q("action")) {
    case "getBalance":
      return c.text("ACCESS_BALANCE:250.00");
    case "getPrices": {
      if (q("country") && q("country") !== UPSTREAM_USA) return c.json({});
      const prices = Object.fromEntries(
        SANDBOX_SERVICES.map((s) => [s.code, { cost: sandboxCostUsd(usa, s), count: sandboxStock(usa, s), name: s.name }]),
      );
      return c.json({ [UPSTREAM_USA]: prices });
    }
    case "getNumber": {
      const service = serviceByCode(q("service"));
      if (!service) return c.text("BAD_SERVICE");
      if (q("country") && q("country") !== UPSTREAM_USA) return c.text("BAD_COUNTRY");
      const cost = sandboxCostUsd(usa, service);
      const maxPrice = Number(q("max_price") || q("maxPrice"));
      if (Number.isFinite(maxPrice) && maxPrice > 0 && cost > maxPrice + 1e-9) return c.text("MAX_PRICE_EXCEEDED");
      if (sandboxStock(usa, service) === 0) return c.text("NO_NUMBERS");
      const activation = await createActivation(c.env, usa, service);
      c.header("X-Price", cost.toFixed(2));
      return c.text(`ACCESS_NUMBER:${activation.id}:${activation.number}`);
    }
    case "getStatus": {
      const activation = await readActivation(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      const poll = pollActivation(c.env, activation);
      if (poll.kind === "code") return c.text(`STATUS_OK:${poll.code}`);
      if (poll.kind === "retry") return c.text(`STATUS_WAIT_RETRY:${poll.code}`);
      if (poll.kind === "cancelled") return c.text("STATUS_CANCEL");
      if (poll.kind === "error") return c.text("ERROR_SQL");
      return c.text("STATUS_WAIT_CODE");
    }
    case "setStatus": {
      const activation = await readActivation(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      if (q("status") === "8") return c.text((await cancelActivation(c.env, activation)) === "released" ? "ACCESS_CANCEL" : "BAD_STATUS");
      if (q("status") === "6") {
        await finishActivation(c.env, activation);
        return c.text("ACCESS_ACTIVATION");
      }
      if (q("status") === "1") return c.text("ACCESS_READY");
      // "Request another code": STATUS_WAIT_RETRY:<last code> until the next SMS (https://sms-activate.org/en/api2).
      if (q("status") === "3") return c.text((await retryActivation(c.env, activation)) === "accepted" ? "ACCESS_RETRY_GET" : "BAD_STATUS");
      return c.text("BAD_STATUS");
    }
    default:
      return c.text("BAD_ACTION", 400);
  }
});
