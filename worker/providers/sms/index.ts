import type { SmsProviderName } from "../../../schema/constants";
import type { Env } from "../../config";
import { sandboxSwiftKey, smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { sandboxSmsManToken, smsManSimulator } from "../../sandbox/sms-man-simulator";
import { SmsActivateProvider } from "./sms-activate";
import { SmsManProvider } from "./sms-man";
import { isUpstreamCurrency, type SmsProvider, type UpstreamCurrency } from "./types";
import { withoutD1Counting } from "../../lib/d1-metrics";
import { noteUpstreamCall } from "../../lib/run-metrics";
import { upstreamSeams } from "../test-seams";

/**
 * The adapter for a provider name. In sandbox mode the same real adapters are used, their fetch bound in-process to
 * the protocol simulators in worker/sandbox (no network), so sandbox runs exercise the production parsing code.
 */
export function smsProviderFor(env: Env, name: SmsProviderName): SmsProvider {
  if (upstreamSeams.sms) return upstreamSeams.sms(env, name);
  const sandbox = (env.PROVIDERS ?? "live") === "sandbox";
  if (name === "Dynamic") {
    return new SmsManProvider(
      sandbox
        ? {
            baseUrl: "https://sandbox.sms-man.invalid",
            key: sandboxSmsManToken(env),
            accountCurrency: smsManCurrency(env),
            fetch: (req) => {
              noteUpstreamCall("smsman", new URL(req.url).pathname.split("/").pop() ?? "");
              return smsManSimulator.fetch(req, withoutD1Counting(env));
            },
          }
        : { baseUrl: env.SMSMAN_BASE_URL || "https://api.sms-man.com", key: env.SMSMAN_TOKEN ?? "", accountCurrency: smsManCurrency(env) },
    );
  }
  return new SmsActivateProvider(
    sandbox
      ? {
          baseUrl: "https://sandbox.daisysms.invalid",
          key: sandboxSwiftKey(env),
          fetch: (req) => {
            const url = new URL(req.url);
            noteUpstreamCall("swift", `${url.searchParams.get("action") ?? ""}${url.searchParams.get("status") ? ` ${url.searchParams.get("status")}` : ""}`);
            return smsActivateSimulator.fetch(req, withoutD1Counting(env));
          },
        }
      : { baseUrl: env.SWIFT_BASE_URL || "https://daisysms.com/stubs/handler_api.php", key: env.SWIFT_API_KEY ?? "" },
  );
}

/**
 * The sms-man account's currency (SMSMAN_CURRENCY: RUB, USD or EUR), used where a reply does not state its own.
 * Default RUB: sms-man's documented samples are roubles, and reading roubles as dollars would overprice 90 times.
 */
export function smsManCurrency(env: Env): UpstreamCurrency {
  const value = (env.SMSMAN_CURRENCY ?? "").trim().toUpperCase();
  return isUpstreamCurrency(value) ? (value as UpstreamCurrency) : "RUB";
}
