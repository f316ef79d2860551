import type { SmsProviderName } from "../../../schema/sms";

/** One upstream that sells single-use numbers for receiving a verification SMS. */
export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Countries with our public ids (the spec's: USA is 5). */
  countries(): Promise<SmsCountry[]>;
  /** What a country offers: upstream cost in US dollars and stock. */
  services(countryId: string): Promise<SmsOffer[]>;
  /** Takes a number. maxCostUsd stops the upstream from charging more than the price we quoted. */
  buy(request: { countryId: string; serviceId: string; maxCostUsd?: number }): Promise<SmsActivation>;
  /** One status check. Throws SmsProviderError when the upstream fails. */
  poll(upstreamId: string): Promise<SmsPollResult>;
  /** Releases an unused number (the upstream refunds us). */
  cancel(upstreamId: string): Promise<SmsCancelResult>;
  /** Tells the upstream the code was used. Best effort: the order is already settled. */
  finish(upstreamId: string): Promise<void>;
  /**
   * Asks the upstream for another code on a number that already received one (SMS-Activate setStatus 3). Absent where
   * the upstream documents no such request (sms-man): the service answers "not supported" then. Throws SmsProviderError.
   */
  requestAnotherCode?(upstreamId: string): Promise<void>;
}

export interface SmsCountry {
  id: string;
  title: string;
}

export interface SmsOffer {
  countryId: string;
  serviceId: string;
  name: string;
  costUsd: number;
  count: number;
}

export interface SmsActivation {
  upstreamId: string;
  number: string;
  /** What the upstream says it charged, when it says (DaisySMS's X-Price header). */
  costUsd?: number;
}

export type SmsPollResult = { state: "waiting" } | { state: "code"; code: string } | { state: "cancelled" };

/** released: the number went back; refused: the upstream kept it (too early, or a code came: poll to find out). */
export type SmsCancelResult = { outcome: "released" } | { outcome: "refused"; reason: string };

export type SmsFaultKind =
  | "no_numbers"
  | "no_balance"
  | "bad_key"
  | "bad_service"
  | "price_exceeded"
  | "not_found"
  | "rejected"
  | "bad_reply"
  | "unavailable"
  | "timeout";

/** Faults worth trying again on the next tick; the others are the upstream's final word. */
export const TRANSIENT_SMS_FAULTS: ReadonlySet<SmsFaultKind> = new Set(["unavailable", "timeout"]);

/**
 * An upstream failure. `message` is safe to show a customer (never a key, never the raw reply); `detail` is for logs.
 */
export class SmsProviderError extends Error {
  override name = "SmsProviderError";
  constructor(
    readonly kind: SmsFaultKind,
    message: string,
    readonly detail = "",
  ) {
    super(message);
  }
  get transient(): boolean {
    return TRANSIENT_SMS_FAULTS.has(this.kind);
  }
}

/** Customer-facing wording for each fault (our own account's problems are never blamed on the customer). */
export const SMS_FAULT_MESSAGES: Record<SmsFaultKind, string> = {
  no_numbers: "No numbers available for this service right now. Please try another country or service.",
  no_balance: "This provider is temporarily unavailable. Please try another provider or try again later.",
  bad_key: "This provider is temporarily unavailable. Please try another provider or try again later.",
  bad_service: "This service is not available for the selected country.",
  price_exceeded: "The provider's price just went up. Please refresh the prices and try again.",
  not_found: "The provider no longer knows this number.",
  rejected: "The provider refused the request. Please try again.",
  bad_reply: "The provider sent an unexpected reply. Please try again shortly.",
  unavailable: "The provider could not be reached. Please try again shortly.",
  timeout: "The provider took too long to answer. Please try again shortly.",
};

export function smsFault(kind: SmsFaultKind, detail = ""): SmsProviderError {
  return new SmsProviderError(kind, SMS_FAULT_MESSAGES[kind], detail);
}

export type FetchLike = (request: Request) => Promise<Response> | Response;

export interface AdapterOptions {
  baseUrl: string;
  key: string;
  fetch?: FetchLike;
  /** Per-request time limit (tests pass a short one). */
  timeoutMs?: number;
}
