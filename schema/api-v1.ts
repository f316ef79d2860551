import { z } from "zod";
import { MAX_CHAIN_ROUTES } from "./sms";
import { SMS_CHAIN_STATUSES, SMS_ORDER_STATUSES, SMS_PROVIDERS, RENT_PERIOD_MAX, RENT_UNITS, RENTAL_STATUSES } from "./constants";

/**
 * The JSON developer API (/api/v1), defined once: the worker validates with these schemas and generates its OpenAPI 3.1
 * document from them (z.toJSONSchema), so the document cannot drift from what the server accepts and answers.
 * Money is naira (two decimals at most), times are ISO 8601.
 */

const provider = z.enum(SMS_PROVIDERS).describe("Swift: USA numbers; Dynamic: every other country.");
const id = z.string().min(1).max(64);

export const v1BalanceSchema = z
  .object({
    balance: z.number().describe("Naira"),
    currency: z.literal("NGN"),
    mode: z.enum(["test", "live"]).describe("test: the sandbox wallet a sk_test_ key spends"),
  })
  .meta({ id: "Balance" });

export const v1CountriesQuerySchema = z.object({ provider: provider.default("Swift") });
export const v1CountriesSchema = z
  .object({ data: z.array(z.object({ id: z.string(), title: z.string() })) })
  .meta({ id: "CountryList" });

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
  .meta({ id: "PriceList" });

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
    created_at: z.string(),
  })
  .meta({ id: "SmsOrder" });

export const v1IdParamSchema = z.object({ id });

export const v1RentSchema = z
  .object({
    country: z.string().min(1).max(16).meta({ examples: ["5"] }),
    duration: z.enum(RENT_UNITS),
    period: z.number().int().min(1).max(24).meta({ examples: [1] }),
    max_price: z.number().positive().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.period > RENT_PERIOD_MAX[v.duration]) {
      ctx.addIssue({ code: "custom", path: ["period"], message: `period is at most ${RENT_PERIOD_MAX[v.duration]} for ${v.duration}` });
    }
  })
  .meta({ id: "RentRequest" });

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
    created_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    sms_count: z.number().int(),
    can_cancel: z.boolean(),
    cancel_until: z.string().nullable(),
  })
  .meta({ id: "Rental" });

export const v1RentalDetailSchema = z
  .object({
    rental: v1RentalSchema,
    messages: z.array(z.object({ id: z.number(), sender: z.string(), text: z.string(), code: z.string().nullable(), received_at: z.string() })),
  })
  .meta({ id: "RentalDetail" });

export const v1ErrorSchema = z
  .object({ code: z.string(), message: z.string(), error: z.string() })
  .loose()
  .meta({ id: "Error" });
