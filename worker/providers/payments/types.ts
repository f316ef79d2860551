import type { NowPaymentsClient } from "./nowpayments";
import type { SquadClient } from "./squad";
import type { SquadVirtualAccountClient } from "./squad-virtual-accounts";
import type { SquadPayoutClient } from "./squad-payouts";

// The payment adapters' shapes, apart from their builder (providers.ts), which imports the sandbox simulators: the
// services container's types (services/kernel/deps.ts) import these without leading back through the sandbox to the
// routes' types (no import cycle, scripts/lint.ts).

export interface PaymentProviders {
  squad: SquadClient;
  /** Squad's virtual accounts (bank transfer): same host and key as the card checkout. */
  squadTransfers: SquadVirtualAccountClient;
  /** Squad's payouts (cash out to a customer's bank account, issue 45): same host and key, our merchant ID. */
  squadPayouts: SquadPayoutClient;
  nowpayments: NowPaymentsClient;
}

/**
 * Sandbox mode only: a test's stand-in for the network between an adapter and its simulator (worker/container.ts
 * UpstreamOverrides): it may answer itself (a 500, HTML, a hang) or pass the request on to the simulator; upstream calls
 * then time out after 200 ms.
 */
export type PaymentFetchInterceptor = (
  provider: "squad" | "nowpayments",
  request: Request,
  simulator: (request: Request) => Promise<Response>,
) => Promise<Response>;
