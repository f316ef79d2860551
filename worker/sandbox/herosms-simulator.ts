import { Hono } from "hono";
import type { Env } from "../config";
import { cancelActivation, chargeSandbox, createActivation, finishActivation, hasFreeSlot, pollActivation, readActivation, retryActivation, sandboxBalance, type SandboxActivation } from "./sms-activations";
import { countryBySmsActivateNumber, SANDBOX_ERROR, SANDBOX_SERVICES, sandboxCostUsd, sandboxStock, serviceByCode, SMS_ACTIVATE_COUNTRY_NUMBERS } from "./sms-catalogue";
import { getDb } from "../db/client";
import { heroSmsRentAction } from "./herosms-rent";
import { sandboxState } from "../db/tables";
import { like } from "drizzle-orm";

/**
 * A HeroSMS simulator written from HeroSMS's API description (https://hero-sms.com/api, its SMS-Activate-compatible
 * handler /stubs/handler_api.php; the page itself is not in our document store, so what public clients of it say was
 * used: see worker/providers/sms/sms-activate-profiles.ts), not from our adapter:
 *   - api_key in the query (or an Authorization header); NO_KEY without one, BAD_KEY for a wrong one;
 *   - SMS-Activate country numbers (USA 187, Nigeria 19, ...); an unknown one is WRONG_COUNTRY;
 *   - our account holds dollars: getBalance ACCESS_BALANCE:<usd>; getPrices {country: {service: {cost, count}}} in
 *     dollars; getNumber takes maxPrice (dollars) and answers WRONG_MAX_PRICE:<its price> when the price is above it,
 *     NO_BALANCE when short, NO_NUMBERS when sold out;
 *   - setStatus 8 within the first 2 minutes answers EARLY_CANCEL_DENIED; later ACCESS_CANCEL (refunded); on a number
 *     that has its code it answers BAD_STATUS; 6 completes (ACCESS_ACTIVATION), 3 asks for another code;
 *   - getNumber's `operator` for Russia, Ukraine and Kazakhstan as the protocol page lists them; another is NO_NUMBERS;
 *   - getActiveActivations: {"status":"success","activeActivations":[{activationId, phoneNumber, smsCode, activationStatus,
 *     ...}]} for every activation still open, or {"status":"error","error":"NO_ACTIVATIONS"}.
 * The market is the sandbox's, priced 10% under DaisySMS's sandbox prices so routing between them has a difference.
 */
export const heroSmsSimulator = new Hono<{ Bindings: Env }>();

/** The protocol page's operators by its own country numbers: Russia 0, Ukraine 1, Kazakhstan 2 ("any" aside). */
export const SMS_ACTIVATE_DOCUMENTED_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  "0": ["megafon", "mts", "beeline", "tele2", "rostelecom"],
  "1": ["kyivstar", "life", "utel", "mts", "vodafone"],
  "2": ["tele2", "beeline", "activ", "altel"],
};

export const HEROSMS_PRICE_FACTOR = 0.9;
export const HEROSMS_EARLY_CANCEL_MS = 2 * 60_000;

export function sandboxHeroSmsKey(env: Env): string {
  return env.HEROSMS_API_KEY || "sandbox-herosms";
}

const cost = (usd: number) => Math.max(0.01, Math.round(usd * HEROSMS_PRICE_FACTOR * 100) / 100);

heroSmsSimulator.get("/stubs/handler_api.php", async (c) => {
  if (!c.req.header("user-agent")) return c.text("Forbidden", 403);
  const q = (name: string) => c.req.query(name) ?? "";
  const key = q("api_key") || (c.req.header("authorization") ?? "").replace(/^Bearer\s+/i, "");
  if (!key) return c.text("NO_KEY");
  if (key !== sandboxHeroSmsKey(c.env)) return c.text("BAD_KEY");
  switch (q("action")) {
    case "getBalance":
      return c.text(`ACCESS_BALANCE:${(await sandboxBalance(c.env, "herosms")).toFixed(2)}`);
    case "getPrices": {
      const numbers = q("country") ? [q("country")] : Object.keys(SMS_ACTIVATE_COUNTRY_NUMBERS);
      const out: Record<string, Record<string, { cost: number; count: number }>> = {};
      for (const number of numbers) {
        const country = countryBySmsActivateNumber(number);
        if (!country) continue;
        const services = q("service") ? SANDBOX_SERVICES.filter((s) => s.code === q("service")) : SANDBOX_SERVICES;
        out[number] = Object.fromEntries(services.map((s) => [s.code, { cost: cost(sandboxCostUsd(country, s)), count: sandboxStock(country, s) }]));
      }
      return c.json(out);
    }
    case "getNumber": {
      const country = countryBySmsActivateNumber(q("country"));
      if (!country) return c.text("WRONG_COUNTRY");
      const service = serviceByCode(q("service"));
      if (!service) return c.text("BAD_SERVICE");
      // operator (the protocol's, https://sms-activate.org/en/api2): only the countries and operators that page lists;
      // "any" is no choice. An operator the country does not list has no number: NO_NUMBERS.
      const operator = q("operator");
      if (operator !== "" && operator !== "any" && !(SMS_ACTIVATE_DOCUMENTED_OPERATORS[q("country")] ?? []).includes(operator)) return c.text("NO_NUMBERS");
      const price = cost(sandboxCostUsd(country, service));
      if (q("maxPrice") !== "") {
        const max = Number(q("maxPrice"));
        if (!Number.isFinite(max) || price > max + 1e-9) return c.text(`WRONG_MAX_PRICE:${price.toFixed(2)}`);
      }
      if (sandboxStock(country, service) === 0) return c.text("NO_NUMBERS");
      if (!(await hasFreeSlot(c.env, "herosms"))) return c.text("NO_NUMBERS");
      const charged = service.name === SANDBOX_ERROR ? 0 : price;
      if (!(await chargeSandbox(c.env, "herosms", charged))) return c.text("NO_BALANCE");
      const activation = await createActivation(c.env, country, service, { account: "herosms", amount: charged });
      return c.text(`ACCESS_NUMBER:${activation.id}:${activation.number}`);
    }
    case "getStatus": {
      const activation = await own(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      return c.text(statusWord(c.env, activation));
    }
    case "getActiveActivations": {
      const open = (await ownActivations(c.env)).filter((a) => a.status === "waiting");
      if (open.length === 0) return c.json({ status: "error", error: "NO_ACTIVATIONS" });
      return c.json({
        status: "success",
        activeActivations: open.map((a) => {
          const poll = pollActivation(c.env, a);
          return {
            activationId: a.id,
            phoneNumber: a.number,
            smsCode: poll.kind === "code" || poll.kind === "retry" ? [poll.code] : null,
            activationStatus: poll.kind === "cancelled" ? "8" : poll.kind === "code" ? "2" : "4",
          };
        }),
      });
    }
    case "setStatus": {
      const status = q("status");
      if (!["3", "6", "8"].includes(status)) return c.text("BAD_STATUS");
      const activation = await own(c.env, q("id"));
      if (!activation) return c.text("NO_ACTIVATION");
      if (status === "8") {
        if (activation.status === "waiting" && Date.now() - activation.createdAt < HEROSMS_EARLY_CANCEL_MS && pollActivation(c.env, activation).kind === "waiting") {
          return c.text("EARLY_CANCEL_DENIED");
        }
        const outcome = await cancelActivation(c.env, activation);
        return c.text(outcome === "released" ? "ACCESS_CANCEL" : outcome === "gone" ? "ACCESS_CANCEL_ALREADY" : "BAD_STATUS");
      }
      if (status === "6") {
        await finishActivation(c.env, activation);
        return c.text("ACCESS_ACTIVATION");
      }
      return c.text((await retryActivation(c.env, activation)) === "accepted" ? "ACCESS_RETRY_GET" : "BAD_STATUS");
    }
    default:
      // The rent protocol's actions (issue 49: sandbox/herosms-rent.ts), else the protocol's word for an unknown action.
      return (await heroSmsRentAction(c.env, q("action"), q)) ?? c.text("BAD_ACTION");
  }
});

function statusWord(env: Env, activation: SandboxActivation): string {
  const poll = pollActivation(env, activation);
  if (poll.kind === "code") return `STATUS_OK:${poll.code}`;
  if (poll.kind === "retry") return `STATUS_WAIT_RETRY:${poll.code}`;
  if (poll.kind === "cancelled") return "STATUS_CANCEL";
  return "STATUS_WAIT_CODE";
}

/** Only this account's activations are visible (another upstream's id is NO_ACTIVATION here). */
async function own(env: Env, id: string): Promise<SandboxActivation | null> {
  const activation = id ? await readActivation(env, id) : null;
  return activation?.account === "herosms" ? activation : null;
}

async function ownActivations(env: Env): Promise<SandboxActivation[]> {
  const rows = await getDb(env.DB).select().from(sandboxState).where(like(sandboxState.key, "sms-activation:%"));
  return rows.map((r) => JSON.parse(r.value) as SandboxActivation).filter((a) => a.account === "herosms");
}
