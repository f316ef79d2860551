import type { SmsProviderName } from "../../../schema/sms";
import type { Env } from "../../env";
import { smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { smsManSimulator } from "../../sandbox/sms-man-simulator";
import { SmsActivateProvider } from "./sms-activate";
import { SmsManProvider } from "./sms-man";
import type { SmsProvider } from "./types";
import { withoutD1Counting } from "../../lib/d1-metrics";

type ProviderFactory = (env: Env, name: SmsProviderName) => SmsProvider;

let override: ProviderFactory | null = null;

/**
 * The adapter for a provider name. In sandbox mode the same real adapters are used, their fetch bound in-process to
 * the protocol simulators in worker/sandbox (no network), so sandbox runs exercise the production parsing code.
 */
export function smsProviderFor(env: Env, name: SmsProviderName): SmsProvider {
  if (override) return override(env, name);
  const sandbox = (env.PROVIDERS ?? "live") === "sandbox";
  if (name === "Dynamic") {
    return new SmsManProvider(
      sandbox
        ? { baseUrl: "https://sandbox.sms-man.invalid", key: env.SMSMAN_TOKEN || "sandbox", fetch: (req) => smsManSimulator.fetch(req, withoutD1Counting(env)) }
        : { baseUrl: env.SMSMAN_BASE_URL || "https://api.sms-man.com", key: env.SMSMAN_TOKEN ?? "" },
    );
  }
  return new SmsActivateProvider(
    sandbox
      ? { baseUrl: "https://sandbox.daisysms.invalid", key: env.SWIFT_API_KEY || "sandbox", fetch: (req) => smsActivateSimulator.fetch(req, withoutD1Counting(env)) }
      : { baseUrl: env.SWIFT_BASE_URL || "https://daisysms.com/stubs/handler_api.php", key: env.SWIFT_API_KEY ?? "" },
  );
}

/** Tests only: replace every SMS provider with a scripted fake (null restores the real wiring). */
export function setSmsProviderFactoryForTests(factory: ProviderFactory | null): void {
  override = factory;
}
