import { z } from "zod";
import { DEFAULT_SMS_COUNTRY, DEFAULT_SMS_PROVIDER, MAX_SMS_QUANTITY, SMS_PROVIDERS, type SmsChainStatus, type SmsOrderStatus, type SmsPhase, type SmsProviderName } from "./constants";
import { shownPriceSchema } from "./shown-price";

/**
 * Receive-SMS contracts shared by the server's validation and the web screen. Statuses and texts: ./constants.ts.
 */

export const smsProviderSchema = z.enum(SMS_PROVIDERS, { message: "Unknown provider: choose Swift or Dynamic." });

/** The most routes one chain may try, the customer's first choice included. */
export const MAX_CHAIN_ROUTES = 3;

export const SMS_CANCELLED_MESSAGE = "cancelled purchase successfully";
export const MISSING_SERVICE_OR_COUNTRY = "Missing service or country";

// Ids arrive as strings or numbers from the spec's client; they are opaque upstream ids, kept as short strings.
const idSchema = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

/** Without `provider` (the spec's original client sends none): both providers' countries (issue 27). */
export const smsCountriesQuerySchema = z.object({ provider: smsProviderSchema.optional() });

/** Without `provider`: the list of the first provider (Swift, then Dynamic) that sells the country (issue 27). */
export const smsPriceQuerySchema = z.object({
  id: idSchema.pipe(z.string().min(1, "Choose a country.").max(16, "Choose a country.")).default(DEFAULT_SMS_COUNTRY),
  provider: smsProviderSchema.optional(),
});

/** GET /api/sms/public-prices (the public price page, issue 28): one provider's list for one country. */
export const smsPublicPricesQuerySchema = z.object({
  country: idSchema.pipe(z.string().min(1, "Choose a country.").max(16, "Choose a country.")).default(DEFAULT_SMS_COUNTRY),
  provider: smsProviderSchema.default("Swift"),
});

/**
 * The public price page's answer: the starter tier's prices (what a new customer pays; discount tiers lower them) and
 * stock, whoever asks, so one cached copy serves every visitor.
 */
export interface SmsPublicPriceList {
  provider: SmsProviderName;
  country_id: string;
  country: string;
  services: { id: string; name: string; price: number; count: number }[];
  /** When this list was read (ISO 8601): a cached copy says how old it is. */
  read_at: string;
}

/**
 * Which number (issue 49), in the upstreams' own parameter names: DaisySMS's `carriers` (tmo, vz, att) and `areas`
 * (area codes), the SMS-Activate protocol's `operator`. Each list may come as "tmo,vz" (as the upstreams take it) or as
 * a list. What a provider and country offer is the server's (GET /api/sms/offer `choices`); a value no upstream
 * documents is refused before anything is charged.
 */
const commaList = (item: z.ZodString, max: number, tooMany: string) =>
  z
    .union([z.string().max(200, tooMany), z.array(z.string().max(20)).max(max, tooMany)])
    .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(item).max(max, tooMany));
export const smsNumberChoiceSchema = z.object({
  carriers: commaList(z.string().regex(/^[a-z]{2,12}$/, "A carrier is a code such as tmo, vz or att."), 3, "Choose at most 3 carriers.").optional(),
  areas: commaList(z.string().regex(/^[2-9]\d{2}$/, "An area code is three digits and does not start with 0 or 1 (e.g. 212)."), 10, "Choose at most 10 area codes.").optional(),
  operator: z.string().trim().toLowerCase().regex(/^[a-z0-9]{2,20}$/, "An operator is a code such as mts or beeline.").optional(),
});
export type SmsNumberChoiceInput = z.infer<typeof smsNumberChoiceSchema>;

/** What a customer may choose for one provider and country; a kind no upstream documents there is absent. */
export interface SmsNumberChoices {
  carriers?: { options: { value: string; label: string }[]; surcharge_percent: number };
  areas?: { max: number; surcharge_percent: number };
  operator?: { options: { value: string; label: string }[]; surcharge_percent: number };
}

/**
 * POST /api/sms/get-number. NOTE: user_id, email, actual and cost are not listed, so zod drops them: the user comes from
 * the token and the server prices the order. `price` (naira, as displayed) is only compared with the server's price.
 */
export const smsGetNumberSchema = z.object({
  provider: smsProviderSchema.default(DEFAULT_SMS_PROVIDER),
  country: idSchema.pipe(z.string().max(16)).optional(),
  service: idSchema.pipe(z.string().max(32)).optional(),
  price: shownPriceSchema,
  /**
   * The customer's ceiling for this purchase, in naira: a server price above it is never charged (409 PRICE_CHANGED
   * with the price and this ceiling, nothing debited). Like `price`, a lower server price is simply charged.
   */
  max_price: z.coerce.number().positive("Max price must be above ₦0.").max(10_000_000, "Max price is too high.").optional(),
  /**
   * "If no code comes, try another number": when this order times out or errors, the server buys the cheapest other
   * route of the same service the customer allowed (`routes`; absent or empty: any), priced at most `cap` naira, and
   * carries on. Each route is its own order, charged and refunded on its own; only one holds money at a time.
   */
  next_route: z
    .object({
      cap: z.coerce.number().positive("The cap for another number must be above ₦0.").max(10_000_000, "The cap for another number is too high."),
      routes: z
        .array(z.object({ provider: smsProviderSchema, country: idSchema.pipe(z.string().min(1).max(16)) }))
        .max(60, "Allow at most 60 routes.")
        .optional(),
    })
    .optional(),
}).extend(smsNumberChoiceSchema.shape);
export type SmsGetNumberInput = z.infer<typeof smsGetNumberSchema>;
/** What a client sends (before coercion): the web's request type. */
export type SmsGetNumberRequest = z.input<typeof smsGetNumberSchema>;

/** POST /api/sms/get-numbers: the same fields plus how many numbers (1-5), each bought as its own order. */
export const smsGetNumbersSchema = smsGetNumberSchema.extend({
  quantity: z.coerce
    .number()
    .int("Quantity must be a whole number.")
    .min(1, "Choose at least 1 number.")
    .max(MAX_SMS_QUANTITY, `At most ${MAX_SMS_QUANTITY} numbers at once.`),
});
export type SmsGetNumbersInput = z.infer<typeof smsGetNumbersSchema>;

export interface SmsGetNumbersResponse {
  /** One entry per number bought, each its own order with its own debit (and, if no code comes, its own refund). */
  orders: SmsGetNumberResponse[];
  requested: number;
  /** Why buying stopped before `requested` numbers (nothing was charged for the ones not bought); null when all were. */
  error: { code: string; message: string } | null;
}

export const smsOrderRefSchema = z.object({
  request_id: idSchema.pipe(z.string().min(1, "request_id is required").max(64, "request_id is not valid")),
});

/**
 * One entry of GET /api/sms/price, keyed by application_id. `cost` is the spec's: the upstream cost in minor units (US
 * cents), which cost/100 × get-rate's rate × (1 + low_cost or high_cost) turns into the starter-tier price; `price` is
 * the caller's own final price (tier discount applied), what the server charges them.
 */
export interface SmsServiceEntry {
  country_id: string;
  application_id: string;
  application: string;
  /** Upstream cost in US cents (at most four decimals): the spec's "minor units, divided by 100". */
  cost: number;
  /** Stock. */
  count: number;
  /** The caller's final price in naira (discount tier applied; the starter tier without a token). */
  price: number;
}

export interface SmsCountryEntry {
  id: string;
  title: string;
}

export interface SmsGetNumberResponse {
  phone: { request_id: string; number: string };
  /** reference_code is the order id (= request_id), the key for status, cancel and the orders list. */
  table: { purchased_number: string; sms: string | null; reference_code: string };
  debitRef: string;
  /** Naira charged. */
  price: number;
  /** Only when the server charged less than the price the client showed: that shown price, and a sentence saying so. */
  shown_price?: number;
  message?: string;
}

/**
 * GET /api/sms/status's `status`, in the spec's original client's words (issue 27): it polls until `completed` (then
 * shows `sms_code`), `timeout` or `error`. Our own states are in `state`.
 */
export type SmsClientStatus = "pending" | "waiting" | "completed" | "timeout" | "error" | "cancelled";

/** Our state in the original client's words: a stored code is `completed`, an order that failed upstream `error`. */
export function smsClientStatus(state: SmsOrderStatus): SmsClientStatus {
  if (state === "used") return "completed";
  if (state === "failed") return "error";
  return state;
}

/**
 * POST /api/sms/check/:request_id ("Check Now" in the spec's original client, issue 27): the caller's own order, asked
 * of the upstream now. `success` with `sms_code` once a code is stored; otherwise a sentence saying where it stands.
 */
export interface SmsCheckResponse {
  success: boolean;
  sms_code?: string;
  message: string;
}

export const SMS_CHECK_MESSAGES = {
  received: "SMS code received.",
  waiting: "No SMS yet. We are still waiting for it.",
  unreachable: "The provider did not answer. Please try again in a moment.",
  cancelled: "This order was cancelled.",
} as const;

export interface SmsStatusResponse {
  request_id: string;
  /** The original client's vocabulary (smsClientStatus): completed | timeout | error end its polling. */
  status: SmsClientStatus;
  /** Our own state (pending | waiting | used | timeout | error | cancelled | failed). */
  state: SmsOrderStatus;
  /** What the customer sees (issue 29): the one field our SMS screen reads to know where the order stands. */
  phase: SmsPhase;
  /** Polls of the upstream so far (the original client shows it). */
  attempts: number;
  /** Whole seconds from the purchase to now, or to the order's end once it ended (the original client shows it). */
  elapsed_seconds: number;
  number: string | null;
  /** null while waiting, the code, or one of the failure texts. */
  sms: string | null;
  sms_code: string | null;
  refunded: boolean;
  /** Every code the order received, oldest first (several after "request another code"); sms_code is the latest. */
  codes: string[];
  /** Another code was asked for and has not arrived yet. */
  waiting_for_another_code: boolean;
  /**
   * Issue 43: while another code is awaited, when the number closes and the wait ends (ISO 8601; the dialog counts
   * down to it and offers to stop waiting, POST /api/sms/finish); null otherwise.
   */
  another_code_until?: string | null;
  /** The number is still open upstream and nothing is awaited: POST /api/sms/another-code may be called. */
  can_request_another_code: boolean;
  /**
   * What another code costs, in naira, said before the click: 0 (free; SMS-Activate's setStatus 3 and DaisySMS charge
   * nothing for it), or null where the provider has no "another code" at all (sms-man).
   */
  another_code_price: number | null;
  /**
   * Issue 28: while waiting, when the server gives up on this number and refunds it (ISO 8601), from its own polls left
   * and the operator's polling setting; null once the order is no longer waiting.
   */
  refund_at?: string | null;
  /**
   * Issue 28: the whole SMS that brought the latest code, where the provider gives it (Swift SMS / DaisySMS); null while
   * waiting and where the provider sends only the code (Dynamic SMS / sms-man), which the screen then says.
   */
  sms_text?: string | null;
  /** The order's country and provider (issue 28: "try another number" says when the next number's country changed). */
  country?: string;
  provider?: SmsProviderName;
  /**
   * "Code or next route": null for an order bought without it. `next_request_id` is the order the chain moved on to
   * after this one (follow it); `moving_on` says this order ended without a code and the next route is being bought.
   */
  chain: SmsChainState | null;
}

export interface SmsChainState {
  /** The chain's id (its first order's request_id). */
  id: string;
  /** This order's place in the chain, 1 for the first route. */
  step: number;
  max_routes: number;
  /** Naira: the most any further route may cost. */
  cap: number;
  status: SmsChainStatus;
  next_request_id: string | null;
  moving_on: boolean;
}

/** POST /api/sms/another-code: the order waits for another code on the same number. */
export interface SmsAnotherCodeResponse {
  request_id: string;
  status: "used";
  waiting_for_another_code: true;
  codes: string[];
}

/** POST /api/sms/finish (issue 43): the used number is closed now; no other code comes and nothing is charged. */
export interface SmsFinishResponse {
  request_id: string;
  status: "used";
  waiting_for_another_code: false;
  codes: string[];
}

export interface SmsCancelResponse {
  status: "cancelled";
  refunded: boolean;
  message: string;
}

export interface SmsRefundStateResponse {
  request_id: string;
  status: SmsOrderStatus;
  refunded: boolean;
  /** Naira returned to the wallet (0 when none). */
  amount: number;
}

/** A row of GET /api/orders (rentals add kind "rental" rows with their extra fields). */
export interface OrderRow {
  kind: "sms" | "rental";
  reference_code: string;
  purchased_number: string;
  /** The code (an SMS order's, or a rental's latest), or null: never a failure text. */
  sms: string | null;
  country: string;
  service: string;
  provider: string;
  /** Naira. */
  amount: number;
  status: string;
  /** The wallet balance in naira (the spec reads the first row's). */
  balance: number;
  created_at: string;
  expires_at?: string | null;
  sms_count?: number;
  can_cancel?: boolean;
  /** Rentals (issue 49, the number's health): when the number last received a message (ISO 8601), null before any. */
  last_message_at?: string | null;
  /** SMS orders of a "code or next route" chain: the chain's id and this route's place in it (1 = the first). */
  chain_id?: string | null;
  chain_step?: number | null;
  /** Present (true) only on a past SMS order whose number can be taken again ("Use this number again", issue 32). */
  use_again?: true;
}

// ---------------------------------------------------------------------------------------------------------------
// "Use this number again" (issue 32): a past number taken again for a new code, a new order like any other

/** POST /api/sms/use-again: the past order, and the price the customer was shown (a higher server price is refused). */
export const smsUseAgainSchema = smsOrderRefSchema
  .extend({ price: shownPriceSchema })
  .refine((v) => v.price !== undefined, { message: "price is required: send the price you were shown.", path: ["price"] });
export type SmsUseAgainInput = z.infer<typeof smsUseAgainSchema>;

/** GET /api/sms/use-again/:request_id: what taking this number again costs and how long a code usually takes. */
export interface SmsUseAgainQuote {
  request_id: string;
  number: string;
  service: string;
  country: string;
  /** Naira, the customer's own price for a new number of this service now. */
  price: number;
  /** Median seconds to a code for this service on this provider over our last 30 days; null below the minimum sample. */
  typical_wait_seconds: number | null;
  /** Seconds the new number waits for its code before the automatic refund. */
  refund_after_seconds: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Choosing well (issue 17): favourites and the compare view

/** The most services one customer may star (a bound on one row per star). */
export const MAX_SMS_FAVOURITES = 100;

export const smsFavouriteSchema = z.object({
  provider: smsProviderSchema,
  service_id: idSchema.pipe(z.string().min(1, "Choose a service.").max(32, "Choose a service.")),
  starred: z.boolean({ message: "starred must be true or false." }),
});

export interface SmsFavourite {
  provider: SmsProviderName;
  service_id: string;
}

/** GET /api/sms/favourites and the answer of PUT: the caller's starred services, newest first. */
export interface SmsFavouritesResponse {
  favourites: SmsFavourite[];
}

/**
 * Success rate and time to code are shown for a route only when our own last 7 days hold at least this many of its
 * orders: below it, a rate is noise (3 of 4 reads as 75%), so the sample size is shown instead.
 */
/**
 * GET /api/sms/offer (issue 49): the chosen provider × country × service as the purchase card shows it before the
 * click: the price with the number choice's documented surcharge, what may be chosen there, the offer's own record
 * (the status page's figures for the same offer), and a better route within the customer's cap when there clearly is
 * one. `cap` is the most the customer will pay (their max price, else the price of this offer).
 */
export const smsOfferQuerySchema = z
  .object({
    provider: smsProviderSchema.default(DEFAULT_SMS_PROVIDER),
    country: idSchema.pipe(z.string().min(1, "Choose a country.").max(16, "Choose a country.")),
    service: idSchema.pipe(z.string().min(1, "Choose a service.").max(32, "Choose a service.")),
    cap: z.coerce.number().positive("The cap must be above ₦0.").max(10_000_000, "The cap is too high.").optional(),
  })
  .extend(smsNumberChoiceSchema.shape);
export type SmsOfferQuery = z.input<typeof smsOfferQuerySchema>;

/** An offer's record over the last `window_days`: the sample always, the figures only from `min_sample` orders. */
export interface SmsOfferRecord {
  sample: number;
  /** Percent of counted orders that got a code, one decimal (the status page's figure); null below the minimum. */
  success_rate: number | null;
  median_seconds_to_code: number | null;
}

export interface SmsOfferResponse {
  provider: SmsProviderName;
  country_id: string;
  country: string;
  service_id: string;
  service: string;
  /** Naira for this customer with the choice (what the purchase charges). */
  price: number;
  /** Naira without any choice. */
  base_price: number;
  /** The choice's documented surcharge, percent of the number's price (0 without a choice). */
  surcharge_percent: number;
  choices: SmsNumberChoices;
  record: SmsOfferRecord;
  min_sample: number;
  window_days: number;
  /** Another provider or country selling the same service with a clearly better record within the cap, or null. */
  better: { provider: SmsProviderName; country_id: string; country: string; service_id: string; service: string; price: number; record: SmsOfferRecord } | null;
}

export const COMPARE_MIN_SAMPLE = 20;
export const COMPARE_WINDOW_DAYS = 7;

export const smsCompareQuerySchema = z.object({
  provider: smsProviderSchema.default(DEFAULT_SMS_PROVIDER),
  service: idSchema.pipe(z.string().min(1, "Choose a service.").max(32, "Choose a service.")),
});

/** One route (provider + country) that sells the chosen service. */
export interface SmsCompareRoute {
  provider: SmsProviderName;
  country_id: string;
  country: string;
  service_id: string;
  service: string;
  /** The caller's price in naira. */
  price: number;
  /** Stock. */
  count: number;
  /** Orders of this route in our last 7 days that got a number (the sample). */
  sample: number;
  /** Null below COMPARE_MIN_SAMPLE. */
  stats: { success_rate: number; median_seconds_to_code: number | null } | null;
}

/** GET /api/sms/compare?provider=&service=: every route selling the service (matched by its name across providers). */
export interface SmsCompareResponse {
  service: string;
  min_sample: number;
  window_days: number;
  routes: SmsCompareRoute[];
}

/** GET /api/sms/hold-time: how long a bought number waits for its code before the automatic refund (issue 28). */
export interface SmsHoldTime {
  seconds: number;
}
