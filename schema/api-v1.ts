import { z } from "zod";
import { MAX_CHAIN_ROUTES } from "./sms";
import { SMS_CHAIN_STATUSES, SMS_ORDER_STATUSES, SMS_PROVIDERS, RENT_PERIOD_MAX, RENT_UNITS, RENTAL_STATUSES } from "./constants";
import { WEBHOOK_EVENT_STATUSES, webhookUrlSchema } from "./api-keys";
import { WITHDRAWAL_STATES, withdrawSchema } from "./withdrawals";

/**
 * The JSON developer API (/api/v1), defined once: the worker validates with these schemas (each route's definition,
 * worker/contract/api-v1.ts) and its OpenAPI 3.1 document is generated from them, so the document cannot drift from
 * what the server accepts and answers. Money is naira (two decimals at most), times are ISO 8601.
 * Every field carries an example (`exampled`): a generated client, a mock server and the API reference page show one.
 */

/** What an example of an object of this shape may say: any of its fields, each as the field answers it. */
type ExampleOf<Shape extends Record<string, z.ZodType>> = { [K in keyof Shape]?: z.output<Shape[K]> };

/**
 * An object schema with its example written once: the object carries it whole and each field its own value from it.
 * A field that already has examples, or is a named schema (its own component, with its own examples), is left as it is.
 */
function exampled<Shape extends Record<string, z.ZodType>>(shape: Shape, example: ExampleOf<Shape>) {
  const fields: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shape)) {
    const meta = field.meta();
    fields[key] = key in example && !meta?.examples && !meta?.id ? field.meta({ examples: [example[key]] }) : field;
  }
  // The same fields, each with its example added.
  return z.object(fields as Shape).meta({ examples: [example] });
}

/** The example an `exampled` schema carries, as its type. */
function exampleOf<S extends z.ZodType>(schema: S): z.output<S> {
  // exampled() typed it when it was set.
  const [example] = (schema.meta()?.examples ?? []) as z.output<S>[];
  return example;
}

const provider = z.enum(SMS_PROVIDERS).describe("Swift: USA numbers; Dynamic: every other country.").meta({ examples: ["Swift"] });
const id = z.string().min(1).max(64).meta({ examples: ["3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04"] });
/** An ISO 8601 instant (UTC), as every answer writes times. */
const timestamp = z.iso.datetime();

export const v1BalanceSchema = exampled(
  {
    balance: z.number().describe("Naira"),
    currency: z.literal("NGN"),
    mode: z.enum(["test", "live"]).describe("test: the sandbox wallet a sk_test_ key spends"),
  },
  { balance: 2500.5, currency: "NGN", mode: "live" },
).meta({ id: "Balance" });

/** A country to buy or rent numbers from. */
const countryEntry = exampled({ id: z.string().describe("The country id to buy with"), title: z.string() }, { id: "5", title: "USA" });

export const v1CountriesQuerySchema = z.object({ provider: provider.default("Swift") });
export const v1CountriesSchema = exampled({ data: z.array(countryEntry) }, { data: [{ id: "5", title: "USA" }] }).meta({ id: "CountryList" });

export const v1PricesQuerySchema = z.object({
  provider: provider.default("Swift"),
  country: z.string().min(1).max(16).default("5").describe("A country id from /countries (USA is 5)").meta({ examples: ["5"] }),
});
const PRICE_EXAMPLE = { service: "wa", name: "WhatsApp", price: 1450, count: 120, success_rate: 94.2, median_seconds_to_code: 41, sample: 120 };
const CHOICE_OPTION = exampled({ value: z.string().describe("The code to send"), label: z.string() }, { value: "tmo", label: "T-Mobile" });
/**
 * Issue 49: which number may be asked for in this country, in the upstreams' own parameter names (DaisySMS's carriers
 * and areas, the SMS-Activate protocol's operator), each with its documented surcharge; a kind no upstream of the route
 * documents here is absent.
 */
export const v1NumberChoicesSchema = exampled(
  {
    carriers: exampled(
      { options: z.array(CHOICE_OPTION), surcharge_percent: z.number().describe("Percent added to the price when any carrier is asked for") },
      { options: [{ value: "tmo", label: "T-Mobile" }], surcharge_percent: 20 },
    ).optional(),
    areas: exampled(
      { max: z.number().int().describe("How many area codes one purchase may list"), surcharge_percent: z.number().describe("Percent added to the price when area codes are asked for") },
      { max: 10, surcharge_percent: 20 },
    ).optional(),
    operator: exampled(
      { options: z.array(CHOICE_OPTION), surcharge_percent: z.number() },
      { options: [{ value: "mts", label: "MTS" }], surcharge_percent: 0 },
    ).optional(),
  },
  { carriers: { options: [{ value: "tmo", label: "T-Mobile" }], surcharge_percent: 20 }, areas: { max: 10, surcharge_percent: 20 } },
).meta({ id: "NumberChoices" });
export const v1PricesSchema = exampled(
  {
    data: z.array(
      exampled(
        {
          service: z.string().describe("The service id to buy with"),
          name: z.string(),
          price: z.number().describe("Your price in naira (your discount tier applied), before any number choice"),
          count: z.number().int().describe("Numbers in stock"),
          success_rate: z
            .number()
            .nullable()
            .describe("Percent of our own orders of this offer in the last 7 days that got a code (one decimal); null below 30 orders"),
          median_seconds_to_code: z.number().int().nullable().describe("Median seconds from purchase to the first code over the same orders; null below 30"),
          sample: z.number().int().describe("How many ended orders those figures are from (the public status page counts the same)"),
        },
        PRICE_EXAMPLE,
      ),
    ),
    choices: v1NumberChoicesSchema,
  },
  { data: [PRICE_EXAMPLE], choices: { carriers: { options: [{ value: "tmo", label: "T-Mobile" }], surcharge_percent: 20 }, areas: { max: 10, surcharge_percent: 20 } } },
).meta({ id: "PriceList" });

/**
 * "If no code comes, try another number" (docs/decisions/022-code-or-next-route.md): the web's `next_route`, in the same
 * shape, so a bot gets what the customer's dialog gets. NOTE: the cap limits each further number, not the first.
 */
const v1NextRouteSchema = exampled(
  {
    cap: z
      .number()
      .positive("The cap for another number must be above ₦0.")
      .max(10_000_000, "The cap for another number is too high.")
      .describe("Naira: the most any further number may cost (the first is the one you chose)"),
    routes: z
      .array(exampled({ provider, country: z.string().min(1).max(16).describe("A country id from /countries") }, { provider: "Dynamic", country: "16" }))
      .max(60, "Allow at most 60 routes.")
      .optional()
      .describe("The routes it may try (absent or empty: any that sells the service within the cap), cheapest first"),
  },
  { cap: 2500, routes: [{ provider: "Dynamic", country: "16" }] },
)
  .describe(
    `When this number times out or errors (refunded as usual), buy the cheapest other route of the same service within the cap and carry on, at most ${MAX_CHAIN_ROUTES} numbers in all. Each is its own order, refunded if no code comes: you pay only for the one that delivers. Follow chain.next_order_id (or the sms.ended webhook's next_order_id).`,
  )
  .meta({ id: "NextRoute" });

/** A purchase's `ref` (issue 46, decision 075): one field, one check, on an SMS order and on a rental. */
const developerRef = (kept: string) =>
  z
    .string()
    .trim()
    .min(1, "ref is a developer's code")
    .max(32, "ref is a developer's code (at most 32 characters)")
    .optional()
    .describe(`The code of the developer whose tool makes this purchase (the SMS-Activate protocol's \`ref\`): they earn a share of our price when the ${kept}; you pay the same. An unknown code, or your own, is 400`)
    .meta({ examples: ["K7QP3MZX"] });

export const v1BuySmsSchema = exampled(
  {
    provider: provider.default("Swift"),
    country: z.string().min(1).max(16).default("5"),
    service: z.string().min(1, "service is required").max(32).describe("A service id from /prices (wa: WhatsApp)"),
    max_price: z.number().positive().optional().describe("Refuse (409 PRICE_CHANGED) rather than pay more than this many naira"),
    next_route: v1NextRouteSchema.optional(),
    carriers: z
      .string()
      .max(60)
      .optional()
      .describe("Only numbers of these carriers, comma-separated, where /prices lists `choices.carriers` (DaisySMS's parameter: tmo, vz, att); adds its surcharge"),
    areas: z.string().max(60).optional().describe("Only numbers in these area codes, comma-separated (DaisySMS's parameter, e.g. 212,718); adds its surcharge"),
    operator: z
      .string()
      .max(20)
      .optional()
      .describe("Only numbers of this operator, where /prices lists `choices.operator` (the SMS-Activate protocol's parameter)")
      .meta({ examples: ["mts"] }),
    ref: developerRef("order is kept"),
  },
  { service: "wa", country: "5", provider: "Swift", max_price: 1500, carriers: "tmo", areas: "212" },
).meta({ id: "BuySmsRequest" });

/** Where an order of a "next route" purchase stands in its chain (null on every other order). */
const v1SmsChainSchema = exampled(
  {
    id: z.string().describe("The chain's id: its first order's id"),
    step: z.number().int().describe("This order's place in the chain, 1 for the first"),
    max_routes: z.number().int(),
    cap: z.number().describe("Naira: the most any further number may cost"),
    status: z.enum(SMS_CHAIN_STATUSES).describe("active: a number is live or being bought; ended; cancelled by you"),
    next_order_id: z.string().nullable().describe("The order the chain moved on to after this one: follow it"),
    moving_on: z.boolean().describe("This order ended without a code and the next number is being bought"),
  },
  {
    id: "3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04",
    step: 1,
    max_routes: MAX_CHAIN_ROUTES,
    cap: 2500,
    status: "active",
    next_order_id: "7a9c2e4b-1d3f-4a6b-8c0e-2f4a6b8c0e1d",
    moving_on: false,
  },
).meta({ id: "SmsChain" });

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
  number_choice: null,
  subaccount_id: null,
  created_at: "2026-11-22T14:05:09.000Z",
} as const;

export const v1SmsOrderSchema = exampled(
  {
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
    // A union rather than .nullable(): the generator writes a nullable named schema as anyOf [$ref, null] only this way.
    chain: z.union([v1SmsChainSchema, z.null()]).describe("null unless bought with next_route"),
    number_choice: z
      .union([
        exampled(
          { carriers: z.array(z.string()).optional(), areas: z.array(z.string()).optional(), operator: z.string().optional().meta({ examples: ["mts"] }) },
          { carriers: ["tmo"], areas: ["212"] },
        ).meta({ id: "NumberChoice" }),
        z.null(),
      ])
      .describe("The carriers, area codes or operator the number was bought with (issue 49); null: any number"),
    subaccount_id: z.string().nullable().describe("The sub-account it was bought as (X-Subaccount); null: your own wallet"),
    created_at: timestamp,
  },
  { ...SMS_ORDER_EXAMPLE, codes: [...SMS_ORDER_EXAMPLE.codes] },
).meta({ id: "SmsOrder" });

export const v1IdParamSchema = z.object({ id });

const PERIOD_LIMITS = RENT_UNITS.map((unit) => `${unit} 1-${RENT_PERIOD_MAX[unit]}`).join(", ");

/**
 * The per-duration ceilings of `period`, in the document too: JSON Schema's if/then per duration, so a generated client
 * or a validator knows that 8 days is refused before it asks (the server checks the same in superRefine).
 */
const periodLimitsJsonSchema = {
  allOf: RENT_UNITS.map((unit) => ({
    if: { properties: { duration: { const: unit, examples: [unit] } }, required: ["duration"] },
    then: { properties: { period: { maximum: RENT_PERIOD_MAX[unit], examples: [RENT_PERIOD_MAX[unit]] } } },
  })),
};

function checkPeriod(v: { duration: (typeof RENT_UNITS)[number]; period: number }, ctx: z.RefinementCtx) {
  if (v.period > RENT_PERIOD_MAX[v.duration]) {
    ctx.addIssue({ code: "custom", path: ["period"], message: `period is at most ${RENT_PERIOD_MAX[v.duration]} for ${v.duration}` });
  }
}

const rentCountry = z.string().min(1).max(16).describe("A country id from /rentals/countries");
const rentUnit = z.enum(RENT_UNITS);
const periodDescription = `How many units: ${PERIOD_LIMITS}`;
const RENT_CHOICE = { country: "5", duration: "hour", period: 1 } as const;

export const v1RentSchema = exampled(
  {
    country: rentCountry,
    duration: rentUnit,
    period: z.number().int().min(1).max(24).describe(periodDescription),
    max_price: z.number().positive().optional().describe("Refuse (409 PRICE_CHANGED) rather than pay more than this many naira"),
    extendable: z
      .boolean({ error: "extendable must be true or false." })
      .optional()
      .describe("true: rent only a number that can be extended (and renewed) before it ends, at its own price (see the quote's extendable_price); 503 NO_NUMBERS when there is none")
      .meta({ examples: [true] }),
    ref: developerRef("rental is kept for good (ended or expired, or cancelled after an SMS; a refunded cancel earns nothing)"),
  },
  { ...RENT_CHOICE, max_price: 1000 },
)
  .superRefine(checkPeriod)
  // No example of the whole request: Redocly checks one with every other property refused, which its reading of the
  // if/then ceilings trips over (each field keeps its own example).
  .meta({ id: "RentRequest", examples: undefined, ...periodLimitsJsonSchema });

/** GET /rentals/quote: the same choice as a rental, in the query string. */
export const v1RentQuoteQuerySchema = exampled(
  {
    country: rentCountry,
    duration: rentUnit,
    period: z.coerce.number().int().min(1).max(24).describe(periodDescription),
    extendable: z
      .enum(["true", "false"], { error: "extendable must be true or false." })
      .meta({ examples: ["true"] })
      .optional()
      .transform((v) => v === "true")
      .describe("true: quote only a number that can be extended (issue 49)"),
  },
  RENT_CHOICE,
).superRefine(checkPeriod);

export const v1RentQuoteSchema = exampled(
  {
    country: z.string(),
    duration: rentUnit,
    period: z.number().int(),
    price: z.number().nullable().describe("Naira: what renting this now costs you (your tier); null when it cannot be rented now"),
    in_stock: z.boolean(),
    count: z.number().int().describe("Numbers in stock for this choice"),
    message: z.string().nullable().describe("Why it cannot be rented now (null when it can)").meta({ examples: ["No numbers are available for this choice right now."] }),
    extendable: z.boolean().describe("Whether the number this price rents can be extended (and renewed) before it ends"),
    extendable_price: z
      .number()
      .nullable()
      .describe("Naira: when the price above rents a number that cannot be extended, what an extendable one costs (rent it with extendable: true); null otherwise"),
  },
  { ...RENT_CHOICE, price: 950, in_stock: true, count: 12, message: null, extendable: false, extendable_price: 1400 },
).meta({ id: "RentQuote" });

export const v1RentCountriesSchema = exampled({ data: z.array(countryEntry) }, { data: [{ id: "5", title: "USA" }] }).meta({ id: "RentCountryList" });

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
} as const;

const v1AutoRenewSchema = exampled(
  {
    duration: z.string(),
    unit: rentUnit,
    period: z.number().int(),
    price: z.number().describe("Naira: each renewal's price, agreed when auto-renew was turned on"),
    renews_at: timestamp.nullable().describe("When the next renewal is charged; null while paused or ended"),
    paused: z
      .enum(["price", "funds", "provider"])
      .nullable()
      .describe("Why auto-renew stopped: the price went up, the wallet was short, the provider refused; null while on")
      .meta({ examples: ["funds"] }),
  },
  { duration: "1 day", unit: "day", period: 1, price: 3200, renews_at: "2026-11-23T13:50:00.000Z", paused: null },
).meta({ id: "AutoRenew" });

export const v1RentalSchema = exampled(
  {
    id: z.string(),
    number: z.string().nullable(),
    status: z.enum(RENTAL_STATUSES),
    country: z.string(),
    country_id: z.string(),
    unit: rentUnit,
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
    auto_renew: z.union([v1AutoRenewSchema, z.null()]).optional().describe("Auto-renew (set on the web screen); null when off"),
    extendable: z.boolean().optional().describe("Whether this rental can be extended and renewed (its provider documents extension)").meta({ examples: [false] }),
    last_message_at: timestamp
      .nullable()
      .optional()
      .describe("When the number last received a message (its health: no upstream documents a check of the line); null before any")
      .meta({ examples: ["2026-11-22T14:07:00.000Z"] }),
    subaccount_id: z.string().nullable().optional().describe("The sub-account it was rented as (X-Subaccount); null: your own wallet").meta({ examples: [null] }),
  },
  { ...RENTAL_EXAMPLE, auto_renew: null },
).meta({ id: "Rental" });

const RENTAL_MESSAGE_EXAMPLE = { id: 1, sender: "WhatsApp", text: "Your code is 123-456", code: "123456", received_at: "2026-11-22T14:07:00.000Z" };

export const v1RentalDetailSchema = exampled(
  {
    rental: v1RentalSchema,
    messages: z.array(
      exampled({ id: z.number(), sender: z.string(), text: z.string(), code: z.string().nullable(), received_at: timestamp }, RENTAL_MESSAGE_EXAMPLE),
    ),
  },
  { rental: { ...RENTAL_EXAMPLE, sms_count: 1, can_cancel: false, cancel_until: null, refund_if_cancelled: null }, messages: [RENTAL_MESSAGE_EXAMPLE] },
).meta({ id: "RentalDetail" });

// ---------------------------------------------------------------------------------------------------------------
// Lists (docs/decisions/033: cursor paging, newest first)

export const V1_PAGE_DEFAULT = 20;
export const V1_PAGE_MAX = 50;
const CURSOR_EXAMPLE = "MTc5NTM1NjMzOTAwMHwzZjJiOGMxZQ";

const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(V1_PAGE_MAX)
    .default(V1_PAGE_DEFAULT)
    .describe(`How many per page (1-${V1_PAGE_MAX}, default ${V1_PAGE_DEFAULT})`)
    .meta({ examples: [V1_PAGE_DEFAULT] }),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("next_cursor of the previous page; absent for the first (newest) page")
    .meta({ examples: [CURSOR_EXAMPLE] }),
};

export const v1SmsOrdersQuerySchema = z.object({ status: z.enum(SMS_ORDER_STATUSES).optional().describe("Only orders in this status").meta({ examples: ["used"] }), ...pageQuery });
export const v1RentalsQuerySchema = z.object({ status: z.enum(RENTAL_STATUSES).optional().describe("Only rentals in this status").meta({ examples: ["active"] }), ...pageQuery });

const nextCursor = z.string().nullable().describe("Pass as cursor for the next (older) page; null on the last page");

// The field's example is the cursor; the list's, a whole page (its items are the SmsOrder and Rental examples).
export const v1SmsOrderListSchema = exampled({ data: z.array(v1SmsOrderSchema), next_cursor: nextCursor }, { next_cursor: CURSOR_EXAMPLE }).meta({
  id: "SmsOrderList",
  examples: [{ data: [SMS_ORDER_EXAMPLE], next_cursor: CURSOR_EXAMPLE }],
});

export const v1RentalListSchema = exampled({ data: z.array(v1RentalSchema), next_cursor: nextCursor }, { next_cursor: CURSOR_EXAMPLE }).meta({
  id: "RentalList",
  examples: [{ data: [RENTAL_EXAMPLE], next_cursor: null }],
});

// ---------------------------------------------------------------------------------------------------------------
// Webhooks: the key's own URL and delivery log (docs/developer-api.md "Webhooks"), and the events' bodies

export const V1_WEBHOOK_EVENT_TYPES = ["sms.code", "sms.ended", "rental.sms", "rental.ended", "rental.renewing", "balance.changed", "payment.failed",
  "withdrawal.requested", "withdrawal.paid", "withdrawal.failed", "withdrawal.reversed",
  "subaccount.created", "subaccount.frozen", "subaccount.unfrozen", "subaccount.closed", "subaccount.transfer"] as const;

const WEBHOOK_URL_EXAMPLE = "https://bot.example.com/virtualnum";

export const v1WebhookSchema = exampled(
  {
    url: z.string().nullable().describe("Where this key's events are POSTed; null: none"),
    events: z.array(z.enum(V1_WEBHOOK_EVENT_TYPES)).describe("The events sent there"),
  },
  { url: WEBHOOK_URL_EXAMPLE, events: [...V1_WEBHOOK_EVENT_TYPES] },
).meta({ id: "Webhook" });

/** PUT /webhook: the console's rule for the URL (schema/api-keys.ts), without null (DELETE /webhook removes it). */
export const v1SetWebhookSchema = exampled(
  { url: webhookUrlSchema.shape.url.unwrap().describe("https:// (http:// only on a local deployment)") },
  { url: WEBHOOK_URL_EXAMPLE },
).meta({ id: "SetWebhookRequest" });

export const v1WebhookEventIdParamSchema = z.object({ eventId: id.meta({ examples: ["evt_0f8fad5bd9cb469fa16570867728950e"] }) });

const link = z.url().describe("The JSON API address of the order or rental (from the deployment's PUBLIC_URL)");

const EXAMPLE_URL = "https://numbers.example.ng/api/v1";
const ORDER_ID = "3f2b8c1e-6d4a-4b7e-9c2f-8a1d5e7b9c04";
const RENTAL_ID = "9b1d7e2a-4c3f-4e8a-b6d5-2f7c9e1a3b58";
const ORDER_URL = `${EXAMPLE_URL}/sms/orders/${ORDER_ID}`;
const RENTAL_URL = `${EXAMPLE_URL}/rentals/${RENTAL_ID}`;

const smsCodeData = exampled(
  { order_id: z.string(), number: z.string(), code: z.string(), url: link },
  { order_id: ORDER_ID, number: "+15551234567", code: "123456", url: ORDER_URL },
).meta({ id: "SmsCodeEventData" });
const smsEndedData = exampled(
  {
    order_id: z.string(),
    status: z.enum(SMS_ORDER_STATUSES),
    refunded: z.boolean(),
    next_order_id: z.string().nullable().describe("The order a next_route chain moved on to, else null"),
    url: link,
  },
  { order_id: ORDER_ID, status: "timeout", refunded: true, next_order_id: null, url: ORDER_URL },
).meta({ id: "SmsEndedEventData" });
const rentalSmsData = exampled(
  { rental_id: z.string(), sender: z.string(), text: z.string(), code: z.string().nullable(), url: link },
  { rental_id: RENTAL_ID, sender: "WhatsApp", text: "Your code is 123-456", code: "123456", url: RENTAL_URL },
).meta({ id: "RentalSmsEventData" });
const rentalEndedData = exampled(
  { rental_id: z.string(), status: z.enum(RENTAL_STATUSES), refunded: z.boolean(), url: link },
  { rental_id: RENTAL_ID, status: "ended", refunded: false, url: RENTAL_URL },
).meta({ id: "RentalEndedEventData" });
const rentalRenewingData = exampled(
  {
    rental_id: z.string(),
    renews_at: timestamp.describe("When the renewal is charged (shortly before the rental would end)"),
    price: z.number().describe("Naira: the price agreed when auto-renew was turned on"),
    currency: z.literal("NGN"),
    funded: z.boolean().describe("Whether the wallet holds the price now; false: top up before renews_at or the rental ends"),
    url: link,
  },
  { rental_id: RENTAL_ID, renews_at: "2026-11-23T13:50:00.000Z", price: 1850, currency: "NGN", funded: true, url: RENTAL_URL },
).meta({ id: "RentalRenewingEventData" });
const balanceData = exampled({ balance: z.number().describe("Naira"), currency: z.literal("NGN") }, { balance: 2500.5, currency: "NGN" }).meta({
  id: "BalanceChangedEventData",
});
const paymentFailedData = exampled(
  {
    payment_id: z.string().describe("The deposit's reference (the card checkout's, the crypto invoice's payment_id, the bank transfer's)"),
    status: z.string().describe("failed, abandoned, expired or refunded (the provider's word), review (held for a check), refused (by support)"),
    message: z.string().describe("The sentence the customer's screens show"),
  },
  { payment_id: "VNMX1BB1RQDF6CCA8315602C82", status: "failed", message: "Transaction not successful" },
).meta({ id: "PaymentFailedEventData" });

const WITHDRAWAL_ID = "wd_4f1c2b9e8d7a6b5c4d3e2f1a";
const withdrawalEventData = (name: string, statuses: readonly [string, ...string[]], example: { status: string; message: string }) =>
  exampled(
    {
      withdrawal_id: z.string(),
      status: z.enum(statuses).describe("The withdrawal's state (GET /withdrawals/{id} for the whole of it)"),
      amount: z.number().describe("Naira sent to the bank account (the fee apart)"),
      currency: z.literal("NGN"),
      message: z.string().describe("The sentence the customer's screens show"),
      url: z.url().describe("The JSON API address of the withdrawal (from the deployment's PUBLIC_URL)"),
    },
    { withdrawal_id: WITHDRAWAL_ID, amount: 25000, currency: "NGN", url: `${EXAMPLE_URL}/withdrawals/${WITHDRAWAL_ID}`, ...example },
  ).meta({ id: name });
const withdrawalRequestedData = withdrawalEventData("WithdrawalRequestedEventData", ["held", "approval"], {
  status: "held",
  message: "Sending ₦25,000 to GTBank ····1234…",
});
const withdrawalPaidData = withdrawalEventData("WithdrawalPaidEventData", ["paid"], { status: "paid", message: "Paid into GTBank ····1234" });
const withdrawalFailedData = withdrawalEventData("WithdrawalFailedEventData", ["failed", "refused"], {
  status: "failed",
  message: "Failed — ₦25,000 is back in your wallet",
});
const withdrawalReversedData = withdrawalEventData("WithdrawalReversedEventData", ["reversed"], {
  status: "reversed",
  message: "Reversed by the bank — ₦25,000 is back in your wallet",
});

const SUBACCOUNT_ID = "sub_7b2e4c9a1f3d4e5b8c6a0d2f4e6b8a1c";
const subaccountEventData = (name: string, status: "active" | "frozen" | "closed") =>
  exampled(
    {
      subaccount_id: z.string(),
      external_id: z.string().describe("Your own id for it, as you opened it"),
      status: z.enum(["active", "frozen", "closed"]).describe("The sub-account's state after the change"),
      url: z.url().describe("The JSON API address of the sub-account (from the deployment's PUBLIC_URL)"),
    },
    { subaccount_id: SUBACCOUNT_ID, external_id: "tg-5512", status, url: `${EXAMPLE_URL}/subaccounts/${SUBACCOUNT_ID}` },
  ).meta({ id: name });
const subaccountCreatedData = subaccountEventData("SubaccountCreatedEventData", "active");
const subaccountFrozenData = subaccountEventData("SubaccountFrozenEventData", "frozen");
const subaccountUnfrozenData = subaccountEventData("SubaccountUnfrozenEventData", "active");
const subaccountClosedData = subaccountEventData("SubaccountClosedEventData", "closed");
const subaccountTransferData = exampled(
  {
    subaccount_id: z.string(),
    external_id: z.string().describe("Your own id for it, as you opened it"),
    transfer_id: z.string(),
    direction: z.enum(["in", "out"]).describe("in: from your wallet to the sub-account; out: back to your wallet"),
    reason: z.enum(["transfer", "close"]).describe("transfer: POST /subaccounts/{id}/transfers; close: its balance returned when it was closed"),
    amount: z.number().describe("Naira moved"),
    currency: z.literal("NGN"),
    url: z.url().describe("The JSON API address of the sub-account's transfers"),
  },
  {
    subaccount_id: SUBACCOUNT_ID,
    external_id: "tg-5512",
    transfer_id: "str_0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f",
    direction: "in",
    reason: "transfer",
    amount: 5000,
    currency: "NGN",
    url: `${EXAMPLE_URL}/subaccounts/${SUBACCOUNT_ID}/transfers`,
  },
).meta({ id: "SubaccountTransferEventData" });

function eventSchema<T extends (typeof V1_WEBHOOK_EVENT_TYPES)[number], D extends z.ZodType>(type: T, data: D, name: string, summary: string) {
  const example = { id: "evt_0f8fad5bd9cb469fa16570867728950e", type, created_at: "2026-11-22T14:05:39.000Z", data: exampleOf(data) };
  return exampled(
    {
      id: z.string().describe("evt_...: the same as the webhook-id header; retries and resends repeat it"),
      type: z.literal(type),
      created_at: timestamp,
      data,
    },
    example,
  ).meta({ id: name, description: summary });
}

/** Each event's body, by type: the document's `webhooks` section and the delivery log's `payload` (docs/developer-api.md). */
export const v1WebhookEventSchemas = {
  "sms.code": eventSchema("sms.code", smsCodeData, "SmsCodeEvent", "A code arrived (also each further code after another-code)"),
  "sms.ended": eventSchema("sms.ended", smsEndedData, "SmsEndedEvent", "An order ended without a code: timeout, upstream error or cancelled (each refunded)"),
  "rental.sms": eventSchema("rental.sms", rentalSmsData, "RentalSmsEvent", "A rented number received a message"),
  "rental.ended": eventSchema("rental.ended", rentalEndedData, "RentalEndedEvent", "A rental ended, was cancelled (refunded) or failed"),
  "rental.renewing": eventSchema("rental.renewing", rentalRenewingData, "RentalRenewingEvent", "A rental set to auto-renew renews in 24 hours, and again in 1 hour"),
  "balance.changed": eventSchema(
    "balance.changed",
    balanceData,
    "BalanceChangedEvent",
    "Money arrived or came back without an API call of yours: a deposit, a refund, an operator's adjustment, a sandbox top-up",
  ),
  "payment.failed": eventSchema(
    "payment.failed",
    paymentFailedData,
    "PaymentFailedEvent",
    "A deposit did not go through (failed, abandoned, expired, refunded), is held for a check, or was refused by support: nothing was credited",
  ),
  "withdrawal.requested": eventSchema(
    "withdrawal.requested",
    withdrawalRequestedData,
    "WithdrawalRequestedEvent",
    "A withdrawal was asked for and its money held: sent at once (held), or waiting for an operator's approval (approval)",
  ),
  "withdrawal.paid": eventSchema("withdrawal.paid", withdrawalPaidData, "WithdrawalPaidEvent", "The bank transfer landed"),
  "withdrawal.failed": eventSchema(
    "withdrawal.failed",
    withdrawalFailedData,
    "WithdrawalFailedEvent",
    "The transfer failed, or an operator refused it (status refused): the held money is back in the wallet",
  ),
  "withdrawal.reversed": eventSchema(
    "withdrawal.reversed",
    withdrawalReversedData,
    "WithdrawalReversedEvent",
    "A paid transfer was reversed by the bank later: the money is back in the wallet, once",
  ),
  "subaccount.created": eventSchema("subaccount.created", subaccountCreatedData, "SubaccountCreatedEvent", "You (any of your keys) opened a sub-account"),
  "subaccount.frozen": eventSchema("subaccount.frozen", subaccountFrozenData, "SubaccountFrozenEvent", "A sub-account was frozen: it buys and rents nothing until unfrozen"),
  "subaccount.unfrozen": eventSchema("subaccount.unfrozen", subaccountUnfrozenData, "SubaccountUnfrozenEvent", "A frozen sub-account was unfrozen: it buys again"),
  "subaccount.closed": eventSchema(
    "subaccount.closed",
    subaccountClosedData,
    "SubaccountClosedEvent",
    "A sub-account was closed for good; a balance it held came back to your wallet (a subaccount.transfer with reason close beside it)",
  ),
  "subaccount.transfer": eventSchema(
    "subaccount.transfer",
    subaccountTransferData,
    "SubaccountTransferEvent",
    "Money moved between your wallet and a sub-account (a transfer in or out, or its balance returned at close), once per transfer",
  ),
} satisfies Record<(typeof V1_WEBHOOK_EVENT_TYPES)[number], z.ZodType>;

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals (issue 45, decision 071): cash out to the account owner's own name-matched bank account

/** POST /withdrawals: naira, whole kobo (the customer screen's rule). */
export const v1WithdrawRequestSchema = exampled(
  { amount: withdrawSchema.shape.amount.describe("Naira to send (whole kobo); the fee, if any, is held beside it") },
  { amount: 25000 },
).meta({ id: "WithdrawRequest" });

export const v1WithdrawalSchema = exampled(
  {
    id: z.string(),
    status: z
      .enum(WITHDRAWAL_STATES)
      .describe("approval (waits for an operator), held, sending, then paid, failed (money back), refused (by an operator, money back), reversed (paid, then sent back by the bank; money back)"),
    amount: z.number().describe("Naira"),
    fee: z.number().describe("Naira, held beside the amount"),
    currency: z.literal("NGN"),
    bank_name: z.string(),
    account_last4: z.string(),
    reference: z.string().describe("The transfer's reference at Squad"),
    message: z.string().describe("The sentence the customer's screens show"),
    created_at: timestamp,
    updated_at: timestamp,
  },
  {
    id: WITHDRAWAL_ID,
    status: "paid",
    amount: 25000,
    fee: 0,
    currency: "NGN",
    bank_name: "GTBank",
    account_last4: "1234",
    reference: `SBABCKDY_${WITHDRAWAL_ID}`,
    message: "Paid into GTBank ····1234",
    created_at: "2026-11-22T14:05:39.000Z",
    updated_at: "2026-11-22T14:05:41.000Z",
  },
).meta({ id: "Withdrawal" });

export const v1WithdrawalIdParamSchema = z.object({ id: z.string().min(1).max(64).meta({ examples: [WITHDRAWAL_ID] }) });

const DELIVERY_EXAMPLE = {
  id: "evt_0f8fad5bd9cb469fa16570867728950e",
  attempts: 1,
  last_response_code: 200,
  last_error: null,
  created_at: "2026-11-22T14:05:39.000Z",
  next_attempt_at: null,
  delivered_at: "2026-11-22T14:05:40.000Z",
};

export const v1WebhookDeliverySchema = exampled(
  {
    id: z.string(),
    type: z.enum(V1_WEBHOOK_EVENT_TYPES),
    status: z.enum(WEBHOOK_EVENT_STATUSES).describe("pending (queued or retrying), delivered (a 2xx came back), failed (24 hours without a 2xx, or nowhere to send)"),
    attempts: z.number().int(),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable().meta({ examples: ["timeout after 10 s"] }),
    created_at: timestamp,
    next_attempt_at: timestamp.nullable().meta({ examples: ["2026-11-22T14:06:39.000Z"] }),
    delivered_at: timestamp.nullable(),
    payload: z.union(Object.values(v1WebhookEventSchemas)).describe("The body the receiver gets"),
  },
  { ...DELIVERY_EXAMPLE, type: "sms.code", status: "delivered", payload: exampleOf(v1WebhookEventSchemas["sms.code"]) },
).meta({ id: "WebhookDelivery" });

export const v1WebhookDeliveryListSchema = exampled(
  { data: z.array(v1WebhookDeliverySchema).describe("The last 100 events, newest first") },
  { data: [] },
).meta({ id: "WebhookDeliveryList" });

// ---------------------------------------------------------------------------------------------------------------
// Sub-accounts (issue 46, docs/decisions/072): a reseller's wallets for its own customers

const SUBACCOUNT_EXAMPLE = {
  id: "sub_6c1f0e2a9b7d4c3e8f5a1b2c3d4e5f60",
  external_id: "tg-5550123",
  name: "Ada (Telegram)",
  status: "active" as const,
  balance: 1500,
  currency: "NGN" as const,
  created_at: "2026-11-22T14:05:39.000Z",
  frozen_at: null,
  closed_at: null,
};

export const v1SubaccountSchema = exampled(
  {
    id: z.string().describe("The sub-account id: name it in X-Subaccount to buy or rent as it"),
    external_id: z.string().describe("Your own id for it (your bot's user id), unique among your sub-accounts"),
    name: z.string(),
    status: z.enum(["active", "frozen", "closed"]).describe("frozen: buys and rents nothing until unfrozen; closed: for good, its balance returned to you"),
    balance: z.number().describe("Naira"),
    currency: z.literal("NGN"),
    created_at: timestamp,
    frozen_at: timestamp.nullable(),
    closed_at: timestamp.nullable(),
  },
  SUBACCOUNT_EXAMPLE,
).meta({ id: "Subaccount" });
export type V1Subaccount = z.infer<typeof v1SubaccountSchema>;

export const v1SubaccountListSchema = exampled({ data: z.array(v1SubaccountSchema), next_cursor: z.string().nullable().describe("Pass as cursor for the next (older) page; null on the last page") }, { next_cursor: null }).meta({
  id: "SubaccountList",
  examples: [{ data: [SUBACCOUNT_EXAMPLE], next_cursor: null }],
});

export const v1SubaccountsQuerySchema = z.object({
  external_id: z.string().min(1).max(64).optional().describe("Only the sub-account with this external_id").meta({ examples: ["tg-5550123"] }),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("At most 100").meta({ examples: [50] }),
  cursor: z.string().max(32).optional().describe("next_cursor of the previous page").meta({ examples: ["1795356339000"] }),
});

export const v1CreateSubaccountSchema = exampled(
  {
    name: z.string().trim().min(1, "name is required").max(80, "name is at most 80 characters"),
    external_id: z
      .string()
      .trim()
      .min(1, "external_id is required")
      .max(64, "external_id is at most 64 characters")
      .regex(/^[A-Za-z0-9._:@-]+$/, "external_id may hold letters, digits and . _ : @ - only"),
  },
  { name: "Ada (Telegram)", external_id: "tg-5550123" },
).meta({ id: "CreateSubaccount" });

/** Naira with at most two decimals, above zero, at most ₦10,000,000 per transfer. */
export const v1TransferSchema = exampled(
  {
    amount: z
      .number()
      .positive("amount must be more than ₦0")
      .max(10_000_000, "amount is at most ₦10,000,000 per transfer")
      .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "amount has at most two decimals")
      .describe("Naira"),
  },
  { amount: 1500 },
).meta({ id: "SubaccountTransferRequest" });

export const v1SubaccountTransferSchema = exampled(
  {
    id: z.string(),
    subaccount_id: z.string(),
    direction: z.enum(["in", "out"]).describe("in: from your wallet to the sub-account; out: back to your wallet"),
    reason: z.enum(["transfer", "close"]).describe("close: its balance returned when it was closed"),
    amount: z.number().describe("Naira"),
    currency: z.literal("NGN"),
    created_at: timestamp,
  },
  { id: "str_0f8fad5bd9cb469fa16570867728950e", subaccount_id: SUBACCOUNT_EXAMPLE.id, direction: "in", reason: "transfer", amount: 1500, currency: "NGN", created_at: "2026-11-22T14:06:39.000Z" },
).meta({ id: "SubaccountTransfer" });
export type V1SubaccountTransfer = z.infer<typeof v1SubaccountTransferSchema>;

export const v1SubaccountTransferListSchema = exampled({ data: z.array(v1SubaccountTransferSchema).describe("The last 100, newest first") }, { data: [] }).meta({ id: "SubaccountTransferList" });

/** A markup in percent of the reseller's own price: 0 or more, two decimals at most (the ceiling is a setting). */
const markupPercent = z
  .number("a markup is a number of percent, e.g. 15")
  .min(0, "a markup is 0% or more")
  .max(1000, "a markup is at most 1000%")
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "a markup has at most two decimals");

/**
 * A reseller's markups (issue 46, docs/decisions/072): what its sub-accounts pay on top of its own price. `percent` is
 * the flat markup; `services` overrides it per service code (the `service` of GET /prices).
 */
export const v1MarkupsSchema = exampled(
  {
    percent: z.number().describe("The flat markup, percent of your price"),
    services: z.record(z.string(), z.number()).describe("Per-service markups (service code → percent), overriding the flat one"),
    max_percent: z.number().describe("The highest markup allowed"),
  },
  { percent: 15, services: { wa: 25 }, max_percent: 100 },
).meta({ id: "Markups" });
export type V1Markups = z.infer<typeof v1MarkupsSchema>;

export const v1SetMarkupsSchema = exampled(
  {
    percent: markupPercent.describe("The flat markup, percent of your price"),
    services: z
      .record(z.string(), markupPercent)
      // The key's own check here, not as the record's key schema: zod would answer "Invalid key in record".
      .refine((r) => Object.keys(r).every((k) => /^[A-Za-z0-9_-]{1,32}$/.test(k)), "a service code holds letters, digits, _ and - (at most 32)")
      .refine((r) => Object.keys(r).length <= 500, "at most 500 per-service markups")
      .default({})
      .describe("Per-service markups (service code → percent); replaces the ones set before"),
  },
  { percent: 15, services: { wa: 25 } },
).meta({ id: "SetMarkups" });

// ---------------------------------------------------------------------------------------------------------------
// Errors: the one error body (schema/errors.ts), with every extra field a code carries declared (optional), so a
// generated client reads `price` on a 409 or `field` on a 400 without a cast.

const errorFields = {
  code: z.string().describe("VALIDATION_FAILED, UNAUTHORIZED, INSUFFICIENT_BALANCE, NOT_FOUND, PRICE_CHANGED, ..."),
  message: z.string().describe("For a person"),
  error: z.string().describe("The same text as message"),
  field: z.string().optional().describe("The request field at fault (VALIDATION_FAILED)").meta({ examples: ["service"] }),
  price: z.number().optional().describe("Naira: the price now (PRICE_CHANGED)").meta({ examples: [1450] }),
  retry_after: z.number().int().optional().describe("Seconds to wait (RATE_LIMITED; the Retry-After header says the same)").meta({ examples: [42] }),
  status: z.string().optional().describe("The order's or rental's status (INVALID_STATE)").meta({ examples: ["used"] }),
  refunded: z.boolean().optional().describe("Whether the order was refunded (INVALID_STATE)").meta({ examples: [false] }),
  sms: z.string().nullable().optional().describe("The code that already arrived (INVALID_STATE on a cancel)").meta({ examples: ["123456"] }),
};
const ERROR_EXAMPLE = { code: "NOT_FOUND", message: "Order not found.", error: "Order not found." };

export const v1ErrorSchema = exampled(errorFields, ERROR_EXAMPLE).loose().meta({ id: "Error" });

/** 429: retry_after is always there (the same as the Retry-After header). */
export const v1RateLimitedErrorSchema = exampled(
  { ...errorFields, code: z.literal("RATE_LIMITED"), retry_after: errorFields.retry_after.unwrap() },
  { code: "RATE_LIMITED", message: "Too many attempts. Please try again in 1 minute.", error: "Too many attempts. Please try again in 1 minute.", retry_after: 42 },
)
  .loose()
  .meta({ id: "RateLimitedError" });
