import { z } from "zod";

/**
 * Funding by bank transfer into a Squad virtual account (issue 31, docs/decisions/036). Amounts are naira at this edge
 * like every API answer; the server decides what is credited.
 */

/** POST /api/transfers: a dynamic account for this amount (the card's minimum applies). */
export const startTransferSchema = z.object({
  amount: z.number({ message: "Enter the amount to fund in naira" }).finite().positive("Enter the amount to fund in naira"),
});

/** How long a dynamic account waits for the transfer: Squad's `duration`, in seconds. */
export const TRANSFER_WINDOW_SECONDS = 30 * 60;

/**
 * What the customer sees of one transfer payment. waiting: nothing arrived yet; checking: money arrived that an
 * operator must look at (another amount, late, not confirmed) — "received, being checked"; credited (on its own, or by
 * the operator after the check); refused: the operator checked what arrived and did not credit it (issue 43); expired:
 * the window closed with nothing received; failed: Squad could not give an account.
 */
export type TransferState = "waiting" | "checking" | "credited" | "refused" | "expired" | "failed";

export interface TransferView {
  ref: string;
  state: TransferState;
  bank_name: string | null;
  account_number: string | null;
  account_name: string | null;
  /** The exact amount to send, naira. */
  amount: number;
  /** What was credited, naira (null until credited). */
  credited_amount: number | null;
  /** What arrived and waits for the operator, naira (0 when nothing does). */
  checking_amount: number;
  expires_at: string | null;
  /**
   * The sentence for an arrival that was checked (checking, or credited / refused by an operator), the same as its
   * history row's: what arrived, what happens next or what was decided, with the operator's words to the customer.
   * Null for a plain waiting, credited or expired transfer.
   */
  detail: string | null;
}

/**
 * POST /api/transfers/static-account: what Squad requires to open a permanent account in the customer's name, checked
 * here before Squad is asked (https://docs.squadco.com/Virtual-accounts/api-specifications, Customer Model: Squad
 * matches the BVN strictly against names, date of birth, gender and phone). The BVN is sent to Squad once and never
 * stored or sent back in full.
 */
const name = (label: string) =>
  z
    .string({ message: `Enter your ${label}` })
    .trim()
    .min(2, `Enter your ${label} as on your BVN`)
    .max(50, `Your ${label} is too long`)
    .regex(/^[A-Za-z][A-Za-z' -]*$/, `Your ${label} may contain letters, spaces, apostrophes and hyphens only`);

export const staticAccountSchema = z.object({
  first_name: name("first name"),
  last_name: name("last name"),
  middle_name: z.union([name("middle name"), z.literal("")]).optional(),
  // "08012345678 (doesn't take more than 11 digits)".
  mobile_num: z.string({ message: "Enter your phone number" }).trim().regex(/^0[789][01]\d{8}$/, "Enter your 11-digit phone number, e.g. 08012345678"),
  // yyyy-mm-dd from a date field; sent to Squad as mm/dd/yyyy.
  dob: z
    .string({ message: "Enter your date of birth" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter your date of birth")
    .refine((d) => isAdultBirthDate(d), "You must be at least 18, with the date of birth on your BVN"),
  gender: z.enum(["male", "female"], { message: "Choose the gender on your BVN" }),
  address: z.string({ message: "Enter your address" }).trim().min(5, "Enter your address").max(200, "Your address is too long"),
  bvn: z.string({ message: "Enter your BVN" }).trim().regex(/^\d{11}$/, "Your BVN is 11 digits"),
});
export type StaticAccountRequest = z.infer<typeof staticAccountSchema>;

function isAdultBirthDate(value: string): boolean {
  const at = Date.parse(`${value}T00:00:00Z`);
  if (!Number.isFinite(at)) return false;
  const date = new Date(at);
  if (date.toISOString().slice(0, 10) !== value) return false;
  const now = new Date();
  const eighteen = Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate());
  return at <= eighteen && date.getUTCFullYear() >= 1900;
}

/** GET /api/transfers/static-account: the customer's permanent account, or null. The BVN only masked. */
export interface StaticAccountView {
  bank_name: string;
  account_number: string;
  account_name: string;
  bvn: string;
}
