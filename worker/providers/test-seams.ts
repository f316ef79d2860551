import type { PaymentFetchInterceptor } from "./payments/providers";
import type { WebhookSend } from "../services/kernel/deps";
import type { SmsProviderName } from "../../schema/constants";
import type { Env } from "../config";
import type { RentalProvider } from "./rent/types";
import type { SmsProvider } from "./sms/types";

/**
 * The one way tests replace an upstream (issue 14). Route and Durable Object tests reach the worker through its fetch
 * handler, so they cannot hand a service its dependencies; instead each upstream's one builder reads its seam here:
 * providers/sms/index.ts (smsProviderFor, which services/deps.ts smsDeps's per-order resolver calls),
 * providers/rent/index.ts (rentalProviderFor, which rentalDeps's per-customer resolver calls),
 * providers/payments/providers.ts (paymentProviders) and services/webhooks.ts (the webhook receiver). A test that calls
 * a service itself hands it the clock and notify it wants over the built deps (worker/test/flow-deps.ts). Production
 * never sets a seam; `overrideUpstreamsForTests({ sms: null })` restores one.
 */

/** Replaces every SMS adapter (scripted fakes: worker/test/scripted-sms-provider.ts). */
export type SmsProviderFactory = (env: Env, name: SmsProviderName) => SmsProvider;

/**
 * Replaces one upstream account's adapter (issue 32's routing: herosms, grizzly, a second DaisySMS account). Answering
 * null leaves that upstream to the real adapter (the simulators in sandbox mode).
 */
export type SmsUpstreamFactory = (env: Env, upstream: string, account: number, provider: SmsProviderName) => SmsProvider | null;

/** Replaces the rent adapter for a provider mode (the mode a customer's rental resolved to: a sandbox account's is
 * always "sandbox"). */
export type RentalProviderFactory = (env: Env, mode: "sandbox" | "live") => RentalProvider;


export interface UpstreamSeams {
  sms: SmsProviderFactory | null;
  smsUpstream: SmsUpstreamFactory | null;
  rent: RentalProviderFactory | null;
  payments: PaymentFetchInterceptor | null;
  webhooks: WebhookSend | null;
}

const seams: UpstreamSeams = { sms: null, smsUpstream: null, rent: null, payments: null, webhooks: null };

/** What the builders read. */
export const upstreamSeams: Readonly<UpstreamSeams> = seams;

/** Tests only: set (or, with null, clear) the named seams; the others stay as they are. */
export function overrideUpstreamsForTests(next: Partial<UpstreamSeams>): void {
  Object.assign(seams, next);
}
