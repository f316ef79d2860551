import { z } from "zod";
import { MAX_CHAIN_ROUTES } from "./sms";
import { SMS_CHAIN_STATUSES, SMS_ORDER_STATUSES, SMS_PROVIDERS, RENT_PERIOD_MAX, RENT_UNITS, RENTAL_STATUSES } from "./constants";
import { WEBHOOK_EVENT_STATUSES, webhookUrlSchema } from "./api-keys";

/**
 * The JSON developer API (/api/v1), defined once: the worker validates with these schemas and generates its OpenAPI 3.1
 * document from them (z.toJSONSchema), so the document cannot drift from what the server accepts and answers.
 * Money is naira (two decimals at most), times are ISO 8601.
 */

const provider = z.enum(SMS_PROVIDERS).describe("Swift: USA numbers; Dynamic: every other country.");
const id = z.string().min(1).max(64);
/** An ISO 8601 instant (UTC), as every answer writes times. */
const timestamp = z.iso.datetime();

export const v1BalanceSchema = z
  .object({
    balance: z.number().describe("Naira"),
    currency: z.literal("NGN"),
    mode: z.enum(["test", "live"]).describe("test: the sandbox wallet a sk_test_ key spends"),
  })
  .meta({ id: "Balance", examples: [{ balance: 2500.5, currency: "NGN", mode: "live" }] });

export const v1CountriesQuerySchema = z.object({ provider: provider.default("Swift") });
export const v1CountriesSchema = z
  .object({ data: z.array(z.object({ id: z.string(), title: z.string() })) })
  .meta({ id: "CountryList", examples: [{ data: [{ id: "5", title: "USA" }] }] });

export const v1PricesQuerySchema = z.object({
  provider: provider.default("Swift"),
  country: z.string().min(1).max(16).default("5").describe("A country id from /countries (USA is 5)"),
});
export const v1PricesSchema = z
  .object({
    data: z.array(
      z.object({
        service: z.string().describe("The service id to buy with"),
        name: z.string(),
        price: z.number().describe("Your price in naira (your discount tier applied)"),
        count: z.number().int().describe("Numbers in stock"),
      }),
    ),
  })
  .meta({ id: "PriceList", examples: [{ data: [{ service: "wa", name: "WhatsApp", price: 1450, count: 120 }] }] });

/**
 * "If no code comes, try another number" (docs/decisions/022-code-or-next-route.md): the web's `next_route`, in the same
 * shape, so a bot gets what the customer's dialog gets. NOTE: the cap limits each further number, not the first.
 */
const v1NextRouteSchema = z
  .object({
    cap: z
      .number()
      .positive("The cap for another number must be above ₦0.")
      .max(10_000_000, "The cap for another number is too high.")
      .meta({ examples: [2500], description: "Naira: the most any further number may cost (the first is the one you chose)" }),
    routes: z
      .array(z.object({ provider, country: z.string().min(1).max(16).describe("A country id from /countries") }))
      .max(60, "Allow at most 60 routes.")
      .optional()
      .describe("The routes it may try (absent or empty: any that sells the service within the cap), cheapest first"),
  })
  .describe(
    `When this number times out or errors (refunded as usual), buy the cheapest other route of the same service within the cap and carry on, at most ${MAX_CHAIN_ROUTES} numbers in all. Each is its own order, refunded if no code comes: you pay only for the one that delivers. Follow chain.next_order_id (or the sms.ended webhook's next_order_id).`,
  )
  .meta({ id: "NextRoute" });

export const v1BuySmsSchema = z
  .object({
    provider: provider.default("Swift"),
    country: z.string().min(1).max(16).default("5"),
    service: z.string().min(1, "service is required").max(32).meta({ examples: ["wa"], description: "A service id from /prices (wa: WhatsApp)" }),
    max_price: z.number().positive().optional().describe("Refuse (409 PRICE_CHANGED) rather than pay more than this many naira"),
    next_route: v1NextRouteSchema.optional(),
  })
  .meta({ id: "BuySmsRequest" });

/** Where an order of a "next route" purchase stands in its chain (null on every other order). */
const v1SmsChainSchema = z
  .object({
    id: z.string().describe("The chain's id: its first order's id"),
    step: z.number().int().describe("This order's place in the chain, 1 for the first"),
    max_routes: z.number().int(),
    cap: z.number().describe("Naira: the most any further number may cost"),
    status: z.enum(SMS_CHAIN_STATUSES).describe("active: a number is live or being bought; ended; cancelled by you"),
    next_order_id: z.string().nullable().describe("The order the chain moved on to after this one: follow it"),
    moving_on: z.boolean().describe("This order ended without a code and the next number is being bought"),
  })
  .meta({ id: "SmsChain" });

const SMS_ORDER_EXAMPLE = {
  id: "3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04",
  status: "used",
  provider: "Swift",
  country_id: "5",
  country: "USA",
  service_id: "wa",
  service: "WhatsApp",
  number: "+15551234567",
  price: 1450,
  code: "123456",
  codes: ["123456"],
  refunded: false,
  waiting_for_another_code: false,
  can_request_another_code: true,
  chain: null,
  created_at: "2026-11-22T14:05:09.000Z",
};

export const v1SmsOrderSchema = z
  .object({
    id: z.string().describe("The order id (the web's reference_code)"),
    status: z.enum(SMS_ORDER_STATUSES),
    provider: z.string(),
    country_id: z.string(),
    country: z.string(),
    service_id: z.string(),
    service: z.string(),
    number: z.string().nullable(),
    price: z.number().describe("Naira"),
    code: z.string().nullable().describe("The latest code"),
    codes: z.array(z.string()).describe("Every code received, oldest first"),
    refunded: z.boolean(),
    waiting_for_another_code: z.boolean(),
    can_request_another_code: z.boolean(),
    chain: v1SmsChainSchema.nullable().describe("null unless bought with next_route"),
    created_at: timestamp,
  })
  .meta({ id: "SmsOrder", examples: [SMS_ORDER_EXAMPLE] });

export const v1IdParamSchema = z.object({ id });

const PERIOD_LIMITS = RENT_UNITS.map((unit) => `${unit} 1-${RENT_PERIOD_MAX[unit]}`).join(", ");

/**
 * The per-duration ceilings of `period`, in the document too: JSON Schema's if/then per duration, so a generated client
 * or a validator knows that 8 days is refused before it asks (the server checks the same in superRefine).
 */
const periodLimitsJsonSchema = {
  allOf: RENT_UNITS.map((unit) => ({
    if: { properties: { duration: { const: unit } }, required: ["duration"] },
    then: { properties: { period: { maximum: RENT_PERIOD_MAX[unit] } } },
  })),
};

function checkPeriod(v: { duration: (typeof RENT_UNITS)[number]; period: number }, ctx: z.RefinementCtx) {
  if (v.period > RENT_PERIOD_MAX[v.duration]) {
    ctx.addIssue({ code: "custom", path: ["period"], message: `period is at most ${RENT_PERIOD_MAX[v.duration]} for ${v.duration}` });
  }
}

const periodField = z
  .number()
  .int()
  .min(1)
  .max(24)
  .meta({ examples: [1], description: `How many units: ${PERIOD_LIMITS}` });

export const v1RentSchema = z
  .object({
    country: z.string().min(1).max(16).meta({ examples: ["5"], description: "A country id from /rentals/countries" }),
    duration: z.enum(RENT_UNITS),
    period: periodField,
    max_price: z.number().positive().optional().describe("Refuse (409 PRICE_CHANGED) rather than pay more than this many naira"),
  })
  .superRefine(checkPeriod)
  .meta({ id: "RentRequest", ...periodLimitsJsonSchema });

/** GET /rentals/quote: the same choice as a rental, in the query string. */
export const v1RentQuoteQuerySchema = z
  .object({
    country: z.string().min(1).max(16).meta({ examples: ["5"], description: "A country id from /rentals/countries" }),
    duration: z.enum(RENT_UNITS),
    period: z.coerce.number().int().min(1).max(24).meta({ examples: [1], description: `How many units: ${PERIOD_LIMITS}` }),
  })
  .superRefine(checkPeriod);

export const v1RentQuoteSchema = z
  .object({
    country: z.string(),
    duration: z.enum(RENT_UNITS),
    period: z.number().int(),
    price: z.number().nullable().describe("Naira: what renting this now costs you (your tier); null when it cannot be rented now"),
    in_stock: z.boolean(),
    count: z.number().int().describe("Numbers in stock for this choice"),
    message: z.string().nullable().describe("Why it cannot be rented now (null when it can)"),
  })
  .meta({ id: "RentQuote", examples: [{ country: "5", duration: "hour", period: 1, price: 950, in_stock: true, count: 12, message: null }] });

export const v1RentCountriesSchema = z
  .object({ data: z.array(z.object({ id: z.string(), title: z.string() })) })
  .meta({ id: "RentCountryList", examples: [{ data: [{ id: "5", title: "USA" }] }] });

const RENTAL_EXAMPLE = {
  id: "9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58",
  number: "+15557654321",
  status: "active",
  country: "USA",
  country_id: "5",
  unit: "day",
  period: 1,
  duration: "1 day",
  provider: "sms-man",
  amount: 3200,
  created_at: "2026-11-22T14:05:09.000Z",
  expires_at: "2026-11-23T14:05:09.000Z",
  sms_count: 0,
  can_cancel: true,
  cancel_until: "2026-11-22T14:25:09.000Z",
  refund_if_ended: 0,
  refund_if_cancelled: 3200,
};

export const v1RentalSchema = z
  .object({
    id: z.string(),
    number: z.string().nullable(),
    status: z.enum(RENTAL_STATUSES),
    country: z.string(),
    country_id: z.string(),
    unit: z.enum(RENT_UNITS),
    period: z.number().int(),
    duration: z.string(),
    provider: z.string(),
    amount: z.number().describe("Naira"),
    created_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    sms_count: z.number().int(),
    can_cancel: z.boolean(),
    cancel_until: timestamp.nullable(),
    refund_if_ended: z.number().nullable().describe("Naira that ending now gives back (0: ending refunds nothing); null when the rental is not active"),
    refund_if_cancelled: z.number().nullable().describe("Naira that cancelling now gives back (the full price); null once cancelling is closed"),
    auto_renew: z
      .object({
        duration: z.string(),
        unit: z.enum(RENT_UNITS),
        period: z.number().int(),
        price: z.number().describe("Naira: each renewal's price, agreed when auto-renew was turned on"),
        renews_at: timestamp.nullable().describe("When the next renewal is charged; null while paused or ended"),
        paused: z.enum(["price", "funds", "provider"]).nullable().describe("Why auto-renew stopped: the price went up, the wallet was short, the provider refused; null while on"),
      })
      .nullable()
      .optional()
      .describe("Auto-renew (set on the web screen); null when off"),
  })
  .meta({ id: "Rental", examples: [RENTAL_EXAMPLE] });

export const v1RentalDetailSchema = z
  .object({
    rental: v1RentalSchema,
    messages: z.array(z.object({ id: z.number(), sender: z.string(), text: z.string(), code: z.string().nullable(), received_at: timestamp })),
  })
  .meta({
    id: "RentalDetail",
    examples: [{ rental: { ...RENTAL_EXAMPLE, sms_count: 1, can_cancel: false, cancel_until: null, refund_if_cancelled: null }, messages: [{ id: 1, sender: "WhatsApp", text: "Your code is 123-456", code: "123456", received_at: "2026-11-22T14:07:00.000Z" }] }],
  });

// ---------------------------------------------------------------------------------------------------------------
// Lists (docs/decisions/033: cursor paging, newest first)

export const V1_PAGE_DEFAULT = 20;
export const V1_PAGE_MAX = 50;

const pageQuery = {
  limit: z.coerce.number().int().min(1).max(V1_PAGE_MAX).default(V1_PAGE_DEFAULT).describe(`How many per page (1-${V1_PAGE_MAX}, default ${V1_PAGE_DEFAULT})`),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("next_cursor of the previous page; absent for the first (newest) page"),
};

export const v1SmsOrdersQuerySchema = z.object({ status: z.enum(SMS_ORDER_STATUSES).optional().describe("Only orders in this status"), ...pageQuery });
export const v1RentalsQuerySchema = z.object({ status: z.enum(RENTAL_STATUSES).optional().describe("Only rentals in this status"), ...pageQuery });

const nextCursor = z.string().nullable().describe("Pass as cursor for the next (older) page; null on the last page");

export const v1SmsOrderListSchema = z
  .object({ data: z.array(v1SmsOrderSchema), next_cursor: nextCursor })
  .meta({ id: "SmsOrderList", examples: [{ data: [SMS_ORDER_EXAMPLE], next_cursor: null }] });

export const v1RentalListSchema = z
  .object({ data: z.array(v1RentalSchema), next_cursor: nextCursor })
  .meta({ id: "RentalList", examples: [{ data: [RENTAL_EXAMPLE], next_cursor: null }] });

// ---------------------------------------------------------------------------------------------------------------
// Webhooks: the key's own URL and delivery log (docs/developer-api.md "Webhooks"), and the events' bodies

export const V1_WEBHOOK_EVENT_TYPES = ["sms.code", "sms.ended", "rental.sms", "rental.ended", "rental.renewing", "balance.changed", "payment.failed"] as const;

export const v1WebhookSchema = z
  .object({
    url: z.string().nullable().describe("Where this key's events are POSTed; null: none"),
    events: z.array(z.enum(V1_WEBHOOK_EVENT_TYPES)).describe("The events sent there"),
  })
  .meta({ id: "Webhook", examples: [{ url: "https://bot.example.com/virtualnum", events: [...V1_WEBHOOK_EVENT_TYPES] }] });

/** PUT /webhook: the console's rule for the URL (schema/api-keys.ts), without null (DELETE /webhook removes it). */
export const v1SetWebhookSchema = z
  .object({ url: webhookUrlSchema.shape.url.unwrap().meta({ examples: ["https://bot.example.com/virtualnum"], description: "https:// (http:// only on a local deployment)" }) })
  .meta({ id: "SetWebhookRequest" });

export const v1WebhookEventIdParamSchema = z.object({ eventId: id });

const link = z.url().describe("The JSON API address of the order or rental (from the deployment's PUBLIC_URL)");

const smsCodeData = z.object({ order_id: z.string(), number: z.string(), code: z.string(), url: link }).meta({ id: "SmsCodeEventData" });
const smsEndedData = z
  .object({
    order_id: z.string(),
    status: z.enum(SMS_ORDER_STATUSES),
    refunded: z.boolean(),
    next_order_id: z.string().nullable().describe("The order a next_route chain moved on to, else null"),
    url: link,
  })
  .meta({ id: "SmsEndedEventData" });
const rentalSmsData = z
  .object({ rental_id: z.string(), sender: z.string(), text: z.string(), code: z.string().nullable(), url: link })
  .meta({ id: "RentalSmsEventData" });
const rentalEndedData = z
  .object({ rental_id: z.string(), status: z.enum(RENTAL_STATUSES), refunded: z.boolean(), url: link })
  .meta({ id: "RentalEndedEventData" });
const rentalRenewingData = z
  .object({
    rental_id: z.string(),
    renews_at: timestamp.describe("When the renewal is charged (shortly before the rental would end)"),
    price: z.number().describe("Naira: the price agreed when auto-renew was turned on"),
    currency: z.literal("NGN"),
    funded: z.boolean().describe("Whether the wallet holds the price now; false: top up before renews_at or the rental ends"),
    url: link,
  })
  .meta({ id: "RentalRenewingEventData" });
const balanceData = z.object({ balance: z.number().describe("Naira"), currency: z.literal("NGN") }).meta({ id: "BalanceChangedEventData" });
const paymentFailedData = z
  .object({
    payment_id: z.string().describe("The deposit's reference (the card checkout's, the crypto invoice's payment_id, the bank transfer's)"),
    status: z.string().describe("failed, abandoned, expired or refunded (the provider's word), review (held for a check), refused (by support)"),
    message: z.string().describe("The sentence the customer's screens show"),
  })
  .meta({ id: "PaymentFailedEventData" });

function eventSchema<T extends (typeof V1_WEBHOOK_EVENT_TYPES)[number]>(type: T, data: z.ZodType, name: string, summary: string, example: unknown) {
  return z
    .object({
      id: z.string().describe("evt_...: the same as the webhook-id header; retries and resends repeat it"),
      type: z.literal(type),
      created_at: timestamp,
      data,
    })
    .meta({ id: name, description: summary, examples: [{ id: "evt_0f8fad5bd9cb469fa16570867728950e", type, created_at: "2026-11-22T14:05:39.000Z", data: example }] });
}

const EXAMPLE_URL = "https://numbers.example.ng/api/v1";
/** Each event's body, by type: the document's `webhooks` section and the delivery log's `payload` (docs/developer-api.md). */
export const v1WebhookEventSchemas = {
  "sms.code": eventSchema("sms.code", smsCodeData, "SmsCodeEvent", "A code arrived (also each further code after another-code)", {
    order_id: "3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04",
    number: "+15551234567",
    code: "123456",
    url: `${EXAMPLE_URL}/sms/orders/3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04`,
  }),
  "sms.ended": eventSchema("sms.ended", smsEndedData, "SmsEndedEvent", "An order ended without a code: timeout, upstream error or cancelled (each refunded)", {
    order_id: "3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04",
    status: "timeout",
    refunded: true,
    next_order_id: null,
    url: `${EXAMPLE_URL}/sms/orders/3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04`,
  }),
  "rental.sms": eventSchema("rental.sms", rentalSmsData, "RentalSmsEvent", "A rented number received a message", {
    rental_id: "9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58",
    sender: "WhatsApp",
    text: "Your code is 123-456",
    code: "123456",
    url: `${EXAMPLE_URL}/rentals/9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58`,
  }),
  "rental.ended": eventSchema("rental.ended", rentalEndedData, "RentalEndedEvent", "A rental ended, was cancelled (refunded) or failed", {
    rental_id: "9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58",
    status: "ended",
    refunded: false,
    url: `${EXAMPLE_URL}/rentals/9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58`,
  }),
  "rental.renewing": eventSchema("rental.renewing", rentalRenewingData, "RentalRenewingEvent", "A rental set to auto-renew renews in 24 hours, and again in 1 hour", {
    rental_id: "9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58",
    renews_at: "2026-11-23T13:50:00.000Z",
    price: 1850,
    currency: "NGN",
    funded: true,
    url: `${EXAMPLE_URL}/rentals/9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58`,
  }),
  "balance.changed": eventSchema(
    "balance.changed",
    balanceData,
    "BalanceChangedEvent",
    "Money arrived or came back without an API call of yours: a deposit, a refund, an operator's adjustment, a sandbox top-up",
    { balance: 2500.5, currency: "NGN" },
  ),
  "payment.failed": eventSchema(
    "payment.failed",
    paymentFailedData,
    "PaymentFailedEvent",
    "A deposit did not go through (failed, abandoned, expired, refunded), is held for a check, or was refused by support: nothing was credited",
    { payment_id: "VNMX1BB1RQDF6CCA8315602C82", status: "failed", message: "Transaction not successful" },
  ),
} satisfies Record<(typeof V1_WEBHOOK_EVENT_TYPES)[number], z.ZodType>;

export const v1WebhookDeliverySchema = z
  .object({
    id: z.string(),
    type: z.enum(V1_WEBHOOK_EVENT_TYPES),
    status: z.enum(WEBHOOK_EVENT_STATUSES).describe("pending (queued or retrying), delivered (a 2xx came back), failed (24 hours without a 2xx, or nowhere to send)"),
    attempts: z.number().int(),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: timestamp,
    next_attempt_at: timestamp.nullable(),
    delivered_at: timestamp.nullable(),
    payload: z
      .union(Object.values(v1WebhookEventSchemas))
      .describe("The body the receiver gets"),
  })
  .meta({ id: "WebhookDelivery" });

export const v1WebhookDeliveryListSchema = z
  .object({ data: z.array(v1WebhookDeliverySchema).describe("The last 100 events, newest first") })
  .meta({ id: "WebhookDeliveryList" });

// ---------------------------------------------------------------------------------------------------------------
// Errors: the one error body (schema/errors.ts), with the extra fields some codes carry typed

const errorBase = {
  code: z.string().describe("VALIDATION_FAILED, UNAUTHORIZED, INSUFFICIENT_BALANCE, NOT_FOUND, PRICE_CHANGED, ..."),
  message: z.string().describe("For a person"),
  error: z.string().describe("The same text as message"),
  field: z.string().optional().describe("The request field at fault (VALIDATION_FAILED)"),
};

export const v1ErrorSchema = z.object(errorBase).loose().meta({ id: "Error" });

/** 409 PRICE_CHANGED: the price now, so a client can decide to pay it. */
const v1PriceChangedErrorSchema = z
  .object({ ...errorBase, code: z.literal("PRICE_CHANGED"), price: z.number().describe("Naira: the price now") })
  .loose()
  .meta({ id: "PriceChangedError" });

/** 409 otherwise: INVALID_STATE carries the order's status (and its code once one came); CONFLICT a reason only. */
const v1StateConflictErrorSchema = z
  .object({
    ...errorBase,
    status: z.string().optional().describe("The order's or rental's status (INVALID_STATE)"),
    refunded: z.boolean().optional(),
    sms: z.string().nullable().optional().describe("The code that already arrived (INVALID_STATE on a cancel)"),
  })
  .loose()
  .meta({ id: "StateConflictError" });

export const v1ConflictErrorSchema = z.union([v1PriceChangedErrorSchema, v1StateConflictErrorSchema]).meta({ id: "ConflictError" });

/** 429: retry_after seconds, the same as the Retry-After header. */
export const v1RateLimitedErrorSchema = z
  .object({ ...errorBase, code: z.literal("RATE_LIMITED"), retry_after: z.number().int().describe("Seconds to wait (the Retry-After header says the same)") })
  .loose()
  .meta({ id: "RateLimitedError" });
