import type { RentUnit } from "../../../schema/constants";
import type { UpstreamCurrency, UpstreamMoney } from "../sms/types";

/**
 * A rented-number upstream. The service layer only ever talks to this interface; the sms-man rent-API adapter
 * implements it for both live and sandbox mode (in sandbox its fetch is bound to worker/sandbox/rent-simulator.ts).
 */
export interface RentalProvider {
  /** Which upstream rents (smsman, herosms): rentals record it. Absent on test fakes (read as sms-man). */
  readonly upstream?: string;
  /** Stock and upstream cost for one country, unit and period. An empty list means no stock. */
  limits(choice: RentChoice): Promise<RentLimit[]>;
  /** Rents a number. Throws RentProviderError("no_stock") when the upstream has none. */
  getNumber(choice: RentChoice): Promise<{ upstreamId: string; number: string }>;
  /** Every SMS the rented number has received so far (an empty list while none). */
  getAllSms(upstreamId: string): Promise<RentSms[]>;
  /** cancel: give the number back for a refund (upstream allows it early and before any SMS); close: end it. */
  setStatus(upstreamId: string, status: "cancel" | "close"): Promise<void>;
  /** Countries the upstream knows (id and name). */
  countries(): Promise<{ id: string; title: string }[]>;
  /** Our own balance at the upstream (read-only). */
  balance(): Promise<UpstreamMoney>;
  /**
   * Extending a rental before it ends, only where the upstream documents it (decision 019). sms-man's rent API does not
   * (https://sms-man.com/api/rent: get-balance, limits, get-number, set-status cancel|close, get-sms, get-all-sms), so
   * its adapter leaves this out and the product offers no Extend for its rentals.
   */
  readonly extension?: RentalExtension;
}

/**
 * The SMS-Activate rent protocol's prolongation, as its hosts document it: getContinueRentPrice / continueRentInfo
 * (price for `rent_time` more hours, in the account's currency) and continueRentNumber&id=&rent_time= ->
 * {"status":"success","phone":{"id","endDate","number"}} (https://sms.online/help/api-docs/continueRentNumber,
 * https://sms-online.pro/docs/api/en/continue_rent_number.html). Hours only.
 */
export interface RentalExtension {
  /** What `hours` more would cost upstream. Throws RentProviderError("refused") when this rental cannot be extended. */
  price(upstreamId: string, hours: number): Promise<UpstreamMoney>;
  /** Extends the rental upstream by `hours`; resolves only once the upstream confirmed it. */
  extend(upstreamId: string, hours: number): Promise<void>;
}

export interface RentChoice {
  countryId: string;
  unit: RentUnit;
  period: number;
}

export interface RentLimit {
  countryId: string;
  count: number;
  /** Upstream cost in decimal units of `currency` (the rent API documents no currency parameter: see the adapter). */
  cost: number;
  currency: UpstreamCurrency;
}

export interface RentSms {
  /** The upstream's own id for the message when it gives one (the best de-duplication key). */
  upstreamId: string | null;
  /** Stable across polls: identifies this one message so it is stored once. */
  fingerprint: string;
  sender: string;
  text: string;
  code: string | null;
  /** Epoch ms; the time we first saw it when the upstream gives no usable date. */
  receivedAt: number;
}

export type RentProviderErrorKind =
  /** The upstream has no number for this choice. */
  | "no_stock"
  /** The upstream refused this action on this rental (e.g. cancel after an SMS or outside its window). */
  | "refused"
  /** Our account is misconfigured (wrong token) or out of money upstream: an operator problem, not the customer's. */
  | "account"
  /** Network failure or a 5xx. */
  | "unavailable"
  | "timeout"
  /** HTML, garbage, or JSON of an unexpected shape. */
  | "bad_reply";

export class RentProviderError extends Error {
  override name = "RentProviderError";
  constructor(
    readonly kind: RentProviderErrorKind,
    message: string,
    /** The upstream's error_code, when it sent one (for logs only). */
    readonly upstreamCode?: string,
  ) {
    super(message);
  }
}
