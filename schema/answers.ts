import type { PasskeyView, StepUpState } from "./passkeys";
import type { MerchantCurrency } from "./wallet";

/**
 * Answers that belong to no one domain's module: the `data` wrapper the spec's original client reads, and the small
 * answers routes build inline, named once here. The route definitions (worker/contract/) declare each route's answer
 * with these and the domains' types; the web reads them through its typed client.
 */

/** The answers that wrap their content in `data` (the spec's client reads `response.data.data`). */
export interface DataOf<T> {
  data: T;
}

/** GET /api/user-balance, GET /api/keys/sandbox and its top-up: naira. */
export interface Balance {
  balance: number;
}

export interface SessionsRevoked {
  revoked: number;
}

export interface TwoFactorEnabled {
  message: string;
  /** Shown once: the ten single-use codes for a lost authenticator. */
  recovery_codes: string[];
}

export interface PasskeySaved {
  message: string;
  passkey: PasskeyView;
}

export type StepUpDone = StepUpState & { message: string };

export interface Health {
  status: string;
  /** "sandbox" shows the sandbox tools (the crypto invoice's Simulate payment). */
  providers: string;
}

export interface RealtimeToken {
  token: string;
  /** The room's path on this origin, e.g. /parties/notification-room/<userId>. */
  url: string;
}

export interface MerchantCurrencies {
  currencies: MerchantCurrency[];
}

/** The sandbox NOWPayments' "pay this invoice" tool (worker/sandbox/nowpayments.ts), only with sandbox providers. */
export interface SandboxPaymentStatus {
  payment_id: string;
  parent_payment_id: string | null;
  payment_status: string;
  /** The status our webhook answered the simulated IPN with. */
  webhook_status: number;
}
