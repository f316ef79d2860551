import { z } from "zod";

/** The reseller role as the web shows it (Settings, the partner dashboard): issue 46, decision 072. */
export const resellerViewSchema = z.object({
  reseller: z.boolean(),
  status: z.enum(["active", "revoked"]).nullable(),
  terms_version: z.string(),
  terms_accepted_at: z.string().nullable(),
  markup_percent: z.number(),
  /** Naira: the margins credited on kept orders, less those reversed by refunds (the live wallet). */
  margin_earned: z.number(),
  /** Naira: what the live wallet's sub-accounts spent on numbers and rentals, net of refunds. */
  subaccount_spend: z.number(),
});
export type ResellerView = z.infer<typeof resellerViewSchema>;

export const acceptResellerTermsSchema = z.object({ accept_terms: z.literal(true, "Accept the reseller terms to become a reseller") });
