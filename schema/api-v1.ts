import { z } from "zod";
import { SMS_ORDER_STATUSES, SMS_PROVIDERS } from "./constants";
import { RENT_PERIOD_MAX, RENT_UNITS, RENTAL_STATUSES } from "./constants";

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

export const v1BuySmsSchema = z
  .object({
    provider: provider.default("Swift"),
    country: z.string().min(1).max(16).default("5"),
    service: z.string().min(1, "service is required").max(32).meta({ examples: ["wa"], description: "A service id from /prices (wa: WhatsApp)" }),
    max_price: z.number().positive().optional().describe("Refuse (409 PRICE_CHANGED) rather than pay more than this many naira"),
  })
  .meta({ id: "BuySmsRequest" });

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
