import { z } from "zod";
import { RENT_PERIOD_MAX, RENT_UNITS, type RentalStatus, type RentUnit } from "./constants";
import { shownPriceSchema } from "./shown-price";

/**
 * Rent Number contracts, shared by the server's validation and the rental form. Units and their period ranges are the
 * spec's (section 4 "Rental": hour 1–24, day 1–7, week 1–4, month 1–12).
 */

/** How long one unit lasts. A month is 30 days (the upstream rents by the same fixed month). */
export const RENT_UNIT_MS: Record<RentUnit, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

/** The answer when the upstream's price for a rental fails the price guard (ceiling or jump): nothing is charged. */
/** Issue 49: an extendable number was asked for and no rent upstream that documents extension has one (no debit). */
export const NO_EXTENDABLE_RENT_MESSAGE =
  "No number that can be extended is available for this choice right now. You can rent one that cannot be extended, or try another country or duration.";

export const RENT_PRICE_REFUSED_MESSAGE =
  "This rental is temporarily unavailable: the provider's price for it did not pass our price check. Please try another duration or country, or try again later.";

/** The upstream lets a rental be cancelled for a refund within this window, and only before any SMS. */
export const RENT_CANCEL_WINDOW_MS = 20 * 60_000;

/** "1 hour", "3 days": used in ledger notes and the orders table. */
export function formatRentDuration(unit: RentUnit, period: number): string {
  return `${period} ${unit}${period === 1 ? "" : "s"}`;
}

const unitSchema = z.enum(RENT_UNITS, { error: "Duration must be one of hour, day, week or month." });

// NOTE: the spec's client sends country ids and periods as strings or numbers; both are accepted, the rest is refused.
const countryIdSchema = z
  .union([z.string(), z.number()], { error: "Please choose a country." })
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,6}$/.test(v), { message: "Please choose a country." });

const periodSchema = z
  .union([z.number(), z.string()], { error: "Please choose a period." })
  .transform((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v))
  .refine((v): v is number => typeof v === "number" && Number.isInteger(v), { message: "The period must be a whole number." });

/**
 * Issue 49: true asks for a number that can be extended (and renewed) before it ends: only a rent upstream whose
 * documents define extension rents it (HeroSMS's continueRentNumber), at that upstream's price. Absent or false: the
 * cheapest number, extendable or not (the quote says which).
 */
const extendableSchema = z.boolean({ error: "extendable must be true or false." }).optional();

const rentChoiceShape = { countryId: countryIdSchema, duration: unitSchema, period: periodSchema, extendable: extendableSchema };

function checkPeriodRange(value: { duration: RentUnit; period: number }, ctx: z.RefinementCtx) {
  const max = RENT_PERIOD_MAX[value.duration];
  if (value.period < 1 || value.period > max) {
    ctx.addIssue({
      code: "custom",
      path: ["period"],
      message: `For ${value.duration} rentals the period must be between 1 and ${max}.`,
    });
  }
}

/** POST /api/rent/countries: stock and price for one choice. Any price or user_id the client adds is ignored. */
export const rentQuoteRequestSchema = z.object(rentChoiceShape).superRefine(checkPeriodRange);
export type RentQuoteRequest = z.infer<typeof rentQuoteRequestSchema>;

/** POST /api/rent-number: the client's price (naira) is only compared with the server's. */
export const rentNumberRequestSchema = z
  .object({ ...rentChoiceShape, price: shownPriceSchema })
  .superRefine(checkPeriodRange);
export type RentNumberRequest = z.infer<typeof rentNumberRequestSchema>;

/** POST /api/rentals/:id/extend: which extension (the server's list) and, optionally, the naira price the client saw. */
export const rentExtendRequestSchema = z.object({
  duration: unitSchema,
  period: periodSchema,
  price: z.union([z.number(), z.string()]).optional().nullable(),
});
export type RentExtendRequest = z.infer<typeof rentExtendRequestSchema>;

export const rentalIdParamSchema = z.object({ id: z.string().min(1).max(64) });

/**
 * POST /api/rentals/:id/auto-renew (issue 32): on, with the renewal length (an Extend choice) and the naira price the
 * customer was shown for each renewal; or off.
 */
export const rentAutoRenewRequestSchema = z.discriminatedUnion("enabled", [
  z.object({ enabled: z.literal(true), duration: unitSchema, period: periodSchema, price: shownPriceSchema }),
  z.object({ enabled: z.literal(false) }),
], { error: "enabled must be true or false." });
export type RentAutoRenewRequest = z.infer<typeof rentAutoRenewRequestSchema>;

// Answers the server builds (never parsed from a client), so plain types: `import type` costs the web nothing.

/** GET /api/rent/country-list. */
export interface RentCountryEntry {
  id: string;
  title: string;
}

/**
 * POST /api/rent/countries (SPEC 7 "data.limits[]"): cost is the upstream cost in US cents. No stock (or a price the
 * guard refused) is an answer, not an error: price null, in_stock false and the message to show.
 */
/**
 * POST /api/rent/countries (issue 27): the spec's original client reads `const { data } = body; data.limits[0]`, so the
 * limits sit in the body's `data` (`limits: []` when sold out); the price and stock beside it.
 */
export interface RentQuoteResponse {
  data: { limits: { country_id: string; count: number; cost: number }[] };
  price: number | null;
  in_stock: boolean;
  message?: string;
  /**
   * Issue 43: a longer unit that covers at least the same time for less (24 hours at ₦9,027.20, 1 day at ₦2,822.40),
   * the cheapest such; absent when none is cheaper. Price in naira for this customer, as `price`.
   */
  cheaper?: { duration: RentUnit; period: number; price: number };
  /** Issue 49: whether the number this price rents can be extended (and renewed) before it ends; said before purchase. */
  extendable?: boolean;
  /**
   * Issue 49: when the price above rents a number that cannot be extended, an extendable one for the same choice at its
   * own price (rent it with `extendable: true`); absent when there is none or the price above is already extendable.
   */
  extendable_offer?: { price: number };
}

/** A rental as the API answers it (amounts in naira, times ISO 8601). */
export interface RentalView {
  id: string;
  number: string | null;
  status: RentalStatus;
  country: string;
  country_id: string;
  unit: RentUnit;
  period: number;
  duration: string;
  provider: string;
  amount: number;
  created_at: string | null;
  expires_at: string | null;
  sms_count: number;
  can_cancel: boolean;
  cancel_until: string | null;
  /** What ending / cancelling now gives back (naira), decided by the server; null when that way out is closed. */
  refund_if_ended: number | null;
  refund_if_cancelled: number | null;
  /**
   * Auto-renew (issue 32): null when off; otherwise each renewal's length and agreed price (naira), when the next one is
   * charged, and why it is paused (price went up, wallet short, provider refused), null while it is on.
   */
  auto_renew?: { duration: string; unit: RentUnit; period: number; price: number; renews_at: string | null; paused: "price" | "funds" | "provider" | null } | null;
  /**
   * Issue 49: whether this rental can be extended (its upstream documents extension: HeroSMS's continueRentNumber), so
   * Extend and auto-renew are offered; false on sms-man's rentals.
   */
  extendable?: boolean;
  /** Issue 49, the number's health: when it last received a message (ISO 8601), null before any; on the inbox's answer. */
  last_message_at?: string | null;
}

/** One SMS in a rental's inbox. */
export interface RentalMessageView {
  id: number;
  sender: string;
  text: string;
  code: string | null;
  received_at: string;
}

/** GET /api/rentals/:id: the rental and its inbox, newest first. */
export interface RentalDetailResponse {
  rental: RentalView;
  messages: RentalMessageView[];
}

/** POST /api/rent-number (201): the number, the rental and the naira charged (with the shown price when less). */
export interface RentNumberResponse {
  number: string | null;
  rental: RentalView;
  price: number;
  shown_price?: number;
  message?: string;
}

/** POST /api/rentals/:id/end and /cancel. */
export interface RentalEndResponse {
  rental: RentalView;
  refunded: boolean;
  /** Naira given back (end only: always 0, said so a client never has to assume it). */
  refund?: number;
}

/** One extension the server offers, with its price in naira (decision 019). */
export interface RentExtendOption {
  unit: RentUnit;
  period: number;
  duration: string;
  price: number;
}

/** GET /api/rentals/:id/extend-options: empty where the upstream documents no extension. */
export interface RentExtendOptionsResponse {
  extendable: boolean;
  options: RentExtendOption[];
}

/** POST /api/rentals/:id/extend: the rental with its new end and the naira charged. */
export interface RentExtendResponse {
  rental: RentalView;
  charged: number;
}
