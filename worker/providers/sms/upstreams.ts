import type { SmsProviderName } from "../../../schema/constants";
import type { Env, ProviderMode } from "../../config";
import { withoutD1Counting } from "../../lib/d1-metrics";
import { noteUpstreamCall, runMetricsEnabled } from "../../lib/run-metrics";
import { grizzlySimulator, sandboxGrizzlyKey } from "../../sandbox/grizzly-simulator";
import { heroSmsSimulator, sandboxHeroSmsKey } from "../../sandbox/herosms-simulator";
import { sandboxSwiftKey, smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { sandboxSmsManToken, smsManSimulator } from "../../sandbox/sms-man-simulator";
import { SmsActivateProvider } from "./sms-activate";
import { SMS_ACTIVATE_PROFILES } from "./sms-activate-profiles";
import { SmsManProvider } from "./sms-man";
import { isUpstreamCurrency, type FetchLike, type SmsProvider, type UpstreamCurrency } from "./types";

/**
 * The SMS upstreams (issue 32) and their accounts (issue 30). A customer-facing provider (Swift SMS, Dynamic SMS) is
 * served by an ordered list of upstreams the operator sets (setting sms_routes; services/sms/routing.ts); each
 * upstream may hold several accounts (comma-separated keys), each its own balance and slots. An order records which
 * upstream and account served it (sms_orders.upstream, upstream_account).
 */
export const SMS_UPSTREAMS = ["daisysms", "smsman", "herosms", "grizzly"] as const;
export type SmsUpstream = (typeof SMS_UPSTREAMS)[number];

/** Whose catalogue a provider shows and which upstream an order without a recorded one was bought from. */
export const PRIMARY_UPSTREAM: Record<SmsProviderName, SmsUpstream> = { Swift: "daisysms", Dynamic: "smsman" };

export const UPSTREAM_LABELS: Record<SmsUpstream, string> = { daisysms: "DaisySMS", smsman: "sms-man", herosms: "HeroSMS", grizzly: "Grizzly SMS" };

export function isSmsUpstream(value: unknown): value is SmsUpstream {
  return typeof value === "string" && (SMS_UPSTREAMS as readonly string[]).includes(value);
}

/** Activations one account may hold at once, as each upstream documents it (sms-man documents none). */
export function documentedSlotLimit(upstream: SmsUpstream): number | null {
  return upstream === "smsman" ? null : SMS_ACTIVATE_PROFILES[upstream].slotLimit;
}

/** The deployment's own mode (PROVIDERS): what an adapter is built for unless the container names another. */
const deploymentMode = (env: Env): ProviderMode => ((env.PROVIDERS ?? "live") === "sandbox" ? "sandbox" : "live");

function splitKeys(value: string | undefined): string[] {
  return (value ?? "").split(",").map((k) => k.trim()).filter(Boolean);
}

/** The account keys configured for an upstream, in order (account 0 first). Empty: the upstream is not configured. */
export function upstreamAccountKeys(env: Env, upstream: SmsUpstream, mode: ProviderMode = deploymentMode(env)): string[] {
  // In sandbox mode every upstream has at least the simulator's own key (a list still makes a pool of accounts).
  const or = (keys: string[], sandboxKey: () => string) => (keys.length > 0 || mode !== "sandbox" ? keys : [sandboxKey()]);
  switch (upstream) {
    case "daisysms":
      return or(splitKeys(env.SWIFT_API_KEY), () => sandboxSwiftKey(env));
    case "smsman":
      return or(splitKeys(env.SMSMAN_TOKEN), () => sandboxSmsManToken(env));
    case "herosms":
      return or(splitKeys(env.HEROSMS_API_KEY), () => sandboxHeroSmsKey(env));
    case "grizzly":
      return or(splitKeys(env.GRIZZLY_API_KEY), () => sandboxGrizzlyKey(env));
  }
}

/** The one adapter for an upstream account (worker/container.ts hands it out; a test may build its container with its own). */
/**
 * One upstream account's adapter, for the provider set `mode` names (the container's choice: a sandbox account's calls
 * reach the simulators whatever the deployment's PROVIDERS says; decision 062).
 */
export function smsUpstreamFor(env: Env, upstream: SmsUpstream, account: number, provider: SmsProviderName, mode: ProviderMode = deploymentMode(env)): SmsProvider {
  const keys = upstreamAccountKeys(env, upstream, mode);
  const key = keys[account] ?? keys[0] ?? "";
  const sandbox = mode === "sandbox";
  const simulated = (label: string, app: { fetch: (req: Request, env: Env) => Response | Promise<Response> }): FetchLike => async (req) => {
    const url = new URL(req.url);
    const res = await app.fetch(req, withoutD1Counting(env));
    if (runMetricsEnabled()) {
      const action = `${url.searchParams.get("action") ?? url.pathname.split("/").pop() ?? ""}${url.searchParams.get("status") ? ` ${url.searchParams.get("status")}` : ""}`;
      noteUpstreamCall(label, action, activationsServed(url, await res.clone().text()));
    }
    return res;
  };
  switch (upstream) {
    case "smsman":
      return new SmsManProvider(
        sandbox
          ? { baseUrl: "https://sandbox.sms-man.invalid", key, accountCurrency: smsManCurrency(env), fetch: simulated("smsman", smsManSimulator) }
          : { baseUrl: env.SMSMAN_BASE_URL || "https://api.sms-man.com", key, accountCurrency: smsManCurrency(env) },
      );
    case "daisysms":
      return new SmsActivateProvider(
        sandbox
          ? { baseUrl: "https://sandbox.daisysms.invalid", key, provider, fetch: simulated("swift", smsActivateSimulator) }
          : { baseUrl: env.SWIFT_BASE_URL || SMS_ACTIVATE_PROFILES.daisysms.defaultBaseUrl, key, provider },
      );
    case "herosms":
      return new SmsActivateProvider({
        profile: SMS_ACTIVATE_PROFILES.herosms,
        provider,
        key,
        ...(sandbox ? { baseUrl: "https://sandbox.herosms.invalid", fetch: simulated("herosms", heroSmsSimulator) } : { baseUrl: env.HEROSMS_BASE_URL || SMS_ACTIVATE_PROFILES.herosms.defaultBaseUrl }),
      });
    case "grizzly":
      return new SmsActivateProvider({
        profile: SMS_ACTIVATE_PROFILES.grizzly,
        provider,
        key,
        currency: grizzlyCurrency(env),
        ...(sandbox ? { baseUrl: "https://sandbox.grizzly.invalid", fetch: simulated("grizzly", grizzlySimulator) } : { baseUrl: env.GRIZZLY_BASE_URL || SMS_ACTIVATE_PROFILES.grizzly.defaultBaseUrl }),
      });
  }
}

/**
 * The sms-man account's currency (SMSMAN_CURRENCY: RUB, USD or EUR), used where a reply does not state its own.
 * Default RUB: sms-man's documented samples are roubles, and reading roubles as dollars would overprice 90 times.
 */
export function smsManCurrency(env: Env): UpstreamCurrency {
  const value = (env.SMSMAN_CURRENCY ?? "").trim().toUpperCase();
  return isUpstreamCurrency(value) ? (value as UpstreamCurrency) : "RUB";
}

/** Grizzly SMS's currency (GRIZZLY_CURRENCY), default the profile's (dollars: the safe reading, see the profile). */
export function grizzlyCurrency(env: Env): UpstreamCurrency {
  const value = (env.GRIZZLY_CURRENCY ?? "").trim().toUpperCase();
  return isUpstreamCurrency(value) ? (value as UpstreamCurrency) : SMS_ACTIVATE_PROFILES.grizzly.currency;
}

/**
 * Which activations a simulated upstream call served, for the rate benchmark's calls per delivered order
 * (lib/run-metrics.ts): the one it names (getStatus/setStatus `id`, sms-man `request_id`), the one it created
 * (ACCESS_NUMBER:<id>:<phone>, sms-man's get-number JSON), or every one a batch status call answered.
 */
function activationsServed(url: URL, body: string): string[] {
  const named = url.searchParams.get("id") ?? url.searchParams.get("request_id");
  if (named) return [named];
  const created = /^ACCESS_NUMBER:(\d+):/.exec(body)?.[1];
  if (created) return [created];
  try {
    const json = JSON.parse(body) as { request_id?: unknown; activeActivations?: { activationId?: unknown }[] };
    if (Array.isArray(json.activeActivations)) return json.activeActivations.map((a) => String(a.activationId));
    if (url.pathname.endsWith("/get-number") && json.request_id !== undefined) return [String(json.request_id)];
  } catch {
    // a plain-word reply that names no activation (getBalance, an error word)
  }
  return [];
}
