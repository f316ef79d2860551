import type { Config, Env } from "../../config";
import { rentSimulator } from "../../sandbox/rent-simulator";
import { sandboxSmsManToken } from "../../sandbox/sms-man-simulator";
import { smsManCurrency } from "../sms";
import { SmsManRentProvider } from "./sms-man-rent";
import type { RentalProvider } from "./types";
import { withoutD1Counting } from "../../lib/d1-metrics";
import { heroSmsSimulator, sandboxHeroSmsKey } from "../../sandbox/herosms-simulator";
import { SMS_ACTIVATE_PROFILES } from "../sms/sms-activate-profiles";
import { SmsActivateRentProvider } from "./sms-activate-rent";

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

/**
 * The rent upstreams (issue 49): sms-man's rent API, and the SMS-Activate rent protocol at HeroSMS, whose documents
 * define extension (continueRentNumber). Rent Number routes a rental over the ones configured (services/rent).
 */
export const RENT_UPSTREAMS = ["smsman", "herosms"] as const;
export type RentUpstream = (typeof RENT_UPSTREAMS)[number];

/**
 * Whether each rent upstream's documents define extension (its adapter's `extension`): sms-man's rent API has no
 * prolongation, the SMS-Activate rent protocol has continueRentNumber. What a rental's view says without asking upstream.
 */
export const RENT_UPSTREAM_EXTENDS: Record<RentUpstream, boolean> = { smsman: false, herosms: true };

export function isRentUpstream(value: unknown): value is RentUpstream {
  return typeof value === "string" && (RENT_UPSTREAMS as readonly string[]).includes(value);
}

/** Whether the deployment holds a key for the upstream (in sandbox mode every one is the simulator's). */
export function rentUpstreamConfigured(env: Env, upstream: RentUpstream, sandbox: boolean): boolean {
  if (sandbox) return true;
  return upstream === "smsman" ? Boolean(env.SMSMAN_TOKEN) : Boolean((env.HEROSMS_API_KEY ?? "").split(",")[0]?.trim());
}

/** One rent upstream's adapter; sandbox mode binds its fetch to the upstream's protocol simulator in-process. */
export function rentUpstreamFor(env: Env, upstream: RentUpstream, sandbox: boolean): RentalProvider {
  if (upstream === "smsman") return rentalProviderFor(env, { providers: sandbox ? "sandbox" : "live" });
  // HeroSMS's first account rents (a key list is a pool for activations; rentals stay on one account, which holds them).
  const key = (env.HEROSMS_API_KEY ?? "").split(",")[0]?.trim() ?? "";
  return sandbox
    ? new SmsActivateRentProvider({
        profile: SMS_ACTIVATE_PROFILES.herosms,
        baseUrl: "https://sandbox.herosms.invalid",
        key: sandboxHeroSmsKey(env),
        fetch: async (request) => heroSmsSimulator.fetch(request, withoutD1Counting(env)),
      })
    : new SmsActivateRentProvider({ profile: SMS_ACTIVATE_PROFILES.herosms, baseUrl: env.HEROSMS_BASE_URL || SMS_ACTIVATE_PROFILES.herosms.defaultBaseUrl, key });
}
