import type { Config, Env } from "../../config";
import { rentSimulator } from "../../sandbox/rent-simulator";
import { sandboxSmsManToken } from "../../sandbox/sms-man-simulator";
import { smsManCurrency } from "../sms";
import { SmsManRentProvider } from "./sms-man-rent";
import type { RentalProvider } from "./types";
import { withoutD1Counting } from "../../lib/d1-metrics";

/** Shown on rental rows: sms-man is the product's "Dynamic SMS" upstream. */
export const RENT_PROVIDER_NAME = "Dynamic";
/** The upstream that rents numbers (the console's rental rows name it: issue 32), and its one account. */
export const RENT_UPSTREAM = "smsman";

const SANDBOX_BASE_URL = "https://sandbox.sms-man.invalid";

/**
 * The one place that picks the rent upstream. Sandbox mode uses the same real adapter, with its fetch bound in-process
 * to the protocol simulator (no network); live mode talks to sms-man.
 */
export function rentalProviderFor(env: Env, config: Pick<Config, "providers">): RentalProvider {
  if (config.providers === "sandbox") {
    return new SmsManRentProvider({
      baseUrl: SANDBOX_BASE_URL,
      token: sandboxSmsManToken(env),
      fetch: async (request) => rentSimulator.fetch(request, withoutD1Counting(env)),
    });
  }
  return new SmsManRentProvider({
    baseUrl: env.SMSMAN_BASE_URL || "https://api.sms-man.com",
    token: env.SMSMAN_TOKEN ?? "",
    accountCurrency: smsManCurrency(env),
  });
}
