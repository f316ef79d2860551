import type { Config, Env } from "../../config";
import { NOWPAYMENTS_SIMULATOR_PATH, nowPaymentsSimulator } from "../../sandbox/nowpayments";
import { SQUAD_SIMULATOR_PATH, squadSimulator } from "../../sandbox/squad";
import { createNowPaymentsClient, NOWPAYMENTS_LIVE_BASE_URL } from "./nowpayments";
import { createSquadClient, SQUAD_LIVE_BASE_URL } from "./squad";
import { createSquadVirtualAccountClient } from "./squad-virtual-accounts";
import { createSquadPayoutClient } from "./squad-payouts";
import { SANDBOX_SQUAD_MERCHANT_ID, squadPayoutSimulator } from "../../sandbox/squad-payouts";
import type { PaymentFetchInterceptor, PaymentProviders } from "./types";

export type { PaymentFetchInterceptor, PaymentProviders } from "./types";
import { squadTransferSimulator } from "../../sandbox/squad-transfers";
import { withoutD1Counting } from "../../lib/d1-metrics";

/**
 * The real adapters, always. Live: the base URLs from wrangler vars (SQUAD_BASE_URL chooses Squad's sandbox or live
 * host) and the network. Sandbox: the same adapters with fetch bound in-process to the protocol simulators, at a base
 * URL on our own configured origin (PUBLIC_URL) so the simulated checkout_url is one the browser can open.
 */
export function paymentProviders(env: Env, config: Pick<Config, "providers" | "publicUrl">, intercept?: PaymentFetchInterceptor): PaymentProviders {
  if (config.providers === "sandbox") {
    const origin = config.publicUrl;
    const squadFetch = (request: Request) => Promise.resolve(squadSimulator.fetch(request, withoutD1Counting(env)));
    const nowFetch = (request: Request) => Promise.resolve(nowPaymentsSimulator.fetch(request, withoutD1Counting(env)));
    const transferFetch = (request: Request) => Promise.resolve(squadTransferSimulator.fetch(request, withoutD1Counting(env)));
    const payoutFetch = (request: Request) => Promise.resolve(squadPayoutSimulator.fetch(request, withoutD1Counting(env)));
    return {
      squadPayouts: createSquadPayoutClient({
        baseUrl: `${origin}${SQUAD_SIMULATOR_PATH}`,
        secretKey: env.SQUAD_SECRET_KEY ?? "",
        merchantId: SANDBOX_SQUAD_MERCHANT_ID,
        fetch: intercept ? (request) => intercept("squad", request, payoutFetch) : payoutFetch,
        timeoutMs: intercept ? 200 : undefined,
      }),
      squadTransfers: createSquadVirtualAccountClient({
        baseUrl: `${origin}${SQUAD_SIMULATOR_PATH}`,
        secretKey: env.SQUAD_SECRET_KEY ?? "",
        fetch: intercept ? (request) => intercept("squad", request, transferFetch) : transferFetch,
        timeoutMs: intercept ? 200 : undefined,
      }),
      squad: createSquadClient({
        baseUrl: `${origin}${SQUAD_SIMULATOR_PATH}`,
        secretKey: env.SQUAD_SECRET_KEY ?? "",
        fetch: intercept ? (request) => intercept("squad", request, squadFetch) : squadFetch,
        timeoutMs: intercept ? 200 : undefined,
      }),
      nowpayments: createNowPaymentsClient({
        baseUrl: `${origin}${NOWPAYMENTS_SIMULATOR_PATH}`,
        apiKey: env.NOWPAYMENTS_API_KEY ?? "",
        fetch: intercept ? (request) => intercept("nowpayments", request, nowFetch) : nowFetch,
        timeoutMs: intercept ? 200 : undefined,
      }),
    };
  }
  return {
    squad: createSquadClient({ baseUrl: env.SQUAD_BASE_URL ?? SQUAD_LIVE_BASE_URL, secretKey: env.SQUAD_SECRET_KEY ?? "", fetch: (r) => fetch(r) }),
    squadTransfers: createSquadVirtualAccountClient({ baseUrl: env.SQUAD_BASE_URL ?? SQUAD_LIVE_BASE_URL, secretKey: env.SQUAD_SECRET_KEY ?? "", fetch: (r) => fetch(r) }),
    squadPayouts: createSquadPayoutClient({
      baseUrl: env.SQUAD_BASE_URL ?? SQUAD_LIVE_BASE_URL,
      secretKey: env.SQUAD_SECRET_KEY ?? "",
      merchantId: env.SQUAD_MERCHANT_ID ?? "",
      fetch: (r) => fetch(r),
    }),
    nowpayments: createNowPaymentsClient({
      baseUrl: env.NOWPAYMENTS_BASE_URL ?? NOWPAYMENTS_LIVE_BASE_URL,
      apiKey: env.NOWPAYMENTS_API_KEY ?? "",
      fetch: (r) => fetch(r),
    }),
  };
}
