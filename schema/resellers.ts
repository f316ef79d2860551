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
  /**
   * Issue 46 (decision 074): the wholesale tier an active reseller is priced at (null otherwise): its last-30-day spend
   * (own and sub-accounts', at our price) as last refreshed (`as_of`, at most about an hour old), the tier it earns, and
   * the next tier with the naira of spend still needed (null on the top tier).
   */
  wholesale: z
    .object({
      spend_30d: z.number(),
      as_of: z.string().nullable(),
      tier: z.object({ name: z.string(), threshold: z.number(), percentage: z.number() }),
      next: z.object({ name: z.string(), threshold: z.number(), percentage: z.number(), remaining: z.number() }).nullable(),
    })
    .nullable(),
});
export type ResellerView = z.infer<typeof resellerViewSchema>;

export const acceptResellerTermsSchema = z.object({ accept_terms: z.literal(true, "Accept the reseller terms to become a reseller") });
