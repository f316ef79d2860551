import { z } from "zod";

/**
 * Money helpers shared by worker and web. Kobo (integer) is the only unit inside the system; naira appears only at the
 * API edge (koboToNaira) and on screen (formatNaira).
 */

/** Kobo to naira with at most two decimals, for API answers. */
export function koboToNaira(kobo: number): number {
  return Math.round(kobo) / 100;
}

/** Naira (as a client typed it) to kobo, rounded to the nearest kobo. */
export function nairaToKobo(naira: number): number {
  return Math.round(naira * 100);
}

/**
 * A price as a client showed it (naira): a number, or the displayed text ("1,234.50", "₦1,234.50"). The spec's client
 * sends "price (displayed cost)". Anything that is not a non-negative amount is refused (400), never read as 0.
 */
const shownAmountSchema = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === "number" ? v : Number(v.replace(/[₦,\s]/g, ""));
  if (!Number.isFinite(n) || n < 0) {
    ctx.addIssue({ code: "custom", message: "price must be the amount shown, in naira." });
    return z.NEVER;
  }
  return n;
});
/** Optional: absent, null and "" mean "no price shown" (the server's price is charged). */
export const shownPriceSchema = z.preprocess(
  (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
  shownAmountSchema.optional(),
);

const ngn = new Intl.NumberFormat("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The spec's display: absolute value, two decimals, en-NG grouping; a non-numeric amount counts as 0. */
export function formatNaira(amount: unknown): string {
  const n = typeof amount === "number" ? amount : Number(amount);
  return ngn.format(Math.abs(Number.isFinite(n) ? n : 0));
}
