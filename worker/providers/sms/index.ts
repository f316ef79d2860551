import type { SmsProviderName } from "../../../schema/constants";
import type { Env } from "../../config";
import type { SmsProvider } from "./types";
import { PRIMARY_UPSTREAM, smsUpstreamFor } from "./upstreams";

export { smsManCurrency, smsUpstreamFor } from "./upstreams";

/**
 * The adapter for a provider name: its primary upstream's first account (DaisySMS for Swift, sms-man for Dynamic).
 * In sandbox mode the same real adapters are used, their fetch bound in-process to the protocol simulators in
 * worker/sandbox (no network), so sandbox runs exercise the production parsing code. Other upstreams and accounts:
 * smsUpstreamFor (upstreams.ts).
 */
export function smsProviderFor(env: Env, name: SmsProviderName): SmsProvider {
  return smsUpstreamFor(env, PRIMARY_UPSTREAM[name], 0, name);
}
