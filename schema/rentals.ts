import { z } from "zod";
import { shownPriceSchema } from "./shown-price";

/**
 * Rent Number contracts, shared by the server's validation and the rental form. Units and their period ranges are the
 * spec's (section 4 "Rental": hour 1–24, day 1–7, week 1–4, month 1–12).
 */

export const RENT_UNITS = ["hour", "day", "week", "month"] as const;
export type RentUnit = (typeof RENT_UNITS)[number];

export const RENT_PERIOD_MAX: Record<RentUnit, number> = { hour: 24, day: 7, week: 4, month: 12 };

/** How long one unit lasts. A month is 30 days (the upstream rents by the same fixed month). */
export const RENT_UNIT_MS: Record<RentUnit, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

/** The spec's red box, also the server's answer when the upstream has no number for the choice. */
export const NO_RENT_STOCK_MESSAGE = "No stock available for the selected duration";

/** The answer when the upstream's price for a rental fails the price guard (ceiling or jump): nothing is charged. */
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

const rentChoiceShape = { countryId: countryIdSchema, duration: unitSchema, period: periodSchema };

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

/** Rental statuses: pending (paid, upstream being asked) -> active -> ended | cancelled; failed when the upstream refused. */
export const RENTAL_STATUSES = ["pending", "active", "ended", "cancelled", "failed"] as const;
export type RentalStatus = (typeof RENTAL_STATUSES)[number];
