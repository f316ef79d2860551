import { z } from "zod";

// Apart from schema/money.ts on purpose: the web's dashboard imports money.ts for formatNaira, and money.ts must stay
// zod-free so the dashboard bundle does not carry zod (about 25 kB gzip).

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
