import { z } from "zod";

/**
 * Cash out to the customer's own bank account (issue 45, docs/decisions/071). Amounts are naira at this edge like every
 * API answer; the server holds kobo and decides what may be withdrawn.
 */

/**
 * The banks a payout can reach, by their NIP institution code (six digits: NIBSS's NIP list, which Squad's transfer API
 * takes as `bank_code`; https://squadinc.gitbook.io/squad-api-documentation/transfer-api "Available Bank Codes" names
 * 000013 GTB, 000014 Access, 000023 Providus, 100004 OPay). Not Paystack's three-digit CBN codes: "058" is no NIP code.
 */
export const PAYOUT_BANKS = [
  { code: "000013", name: "GTBank" },
  { code: "000014", name: "Access Bank" },
  { code: "000016", name: "First Bank" },
  { code: "000015", name: "Zenith Bank" },
  { code: "000004", name: "UBA" },
  { code: "000007", name: "Fidelity Bank" },
  { code: "000010", name: "Ecobank" },
  { code: "000012", name: "Stanbic IBTC" },
  { code: "000001", name: "Sterling Bank" },
  { code: "000017", name: "Wema Bank" },
  { code: "000023", name: "Providus Bank" },
  { code: "100004", name: "OPay" },
  { code: "100033", name: "PalmPay" },
  { code: "090267", name: "Kuda" },
] as const;

export type PayoutBankCode = (typeof PAYOUT_BANKS)[number]["code"];

export function payoutBankName(code: string): string | null {
  return PAYOUT_BANKS.find((b) => b.code === code)?.name ?? null;
}

/** POST /api/withdrawals/account: the bank (NIP code) and the 10-digit NUBAN. */
export const payoutAccountSchema = z.object({
  /** Needed once when we hold no BVN-checked name for the customer: their full name as their bank has it. */
  full_name: z.string().trim().max(120).optional(),
  bank_code: z
    .string({ message: "Choose your bank" })
    .refine((c) => payoutBankName(c) !== null, { message: "We do not know that bank code: choose your bank from the list" }),
  account_number: z.string({ message: "Enter your 10-digit account number" }).regex(/^\d{10}$/, "An account number is 10 digits (NUBAN)"),
});
export type PayoutAccountInput = z.infer<typeof payoutAccountSchema>;

/** POST /api/withdrawals: naira with at most two decimals (whole kobo), above zero. */
export const withdrawSchema = z.object({
  amount: z
    .number({ message: "Enter the amount to withdraw in naira" })
    .finite()
    .positive("Enter an amount above zero")
    .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      message: "Amounts are in whole kobo: at most two decimals",
    }),
});
export type WithdrawInput = z.infer<typeof withdrawSchema>;

/** A withdrawal's states, as the customer and the console see them. */
export const WITHDRAWAL_STATES = ["approval", "held", "sending", "paid", "failed", "reversed", "refused"] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export interface PayoutAccountView {
  bank_code: string;
  bank_name: string;
  /** Last four digits only. */
  account_last4: string;
  account_name: string;
  /** The cooling period's end (ISO); withdrawals wait until then. */
  usable_from: string;
}

export interface WithdrawableView {
  balance: number;
  /** What may be withdrawn now, naira. */
  available: number;
  /** Held for withdrawals in flight, naira. */
  held: number;
  /** Why the rest may not be withdrawn (card deposits still in their chargeback window, crypto, rewards). */
  reasons: string[];
  minimum: number;
  fee: number;
  per_transaction_cap: number;
  daily_cap: number;
  approval_above: number;
  account: PayoutAccountView | null;
  /** The cooling period's end when one is running (a new account, a new device), else null. */
  cooling_until: string | null;
}

export interface WithdrawalView {
  id: string;
  state: WithdrawalState;
  amount: number;
  fee: number;
  bank_name: string;
  account_last4: string;
  reference: string;
  message: string;
  created_at: string;
  updated_at: string;
}

/** POST /api/admin/withdrawals/{id}/approve|refuse */
export const withdrawalDecisionSchema = z.object({
  reason: z.string({ message: "Give a reason" }).trim().min(3, "Give a reason (at least 3 characters)").max(500),
});

/** GET /api/admin/withdrawals: one row of the console's withdrawals panel. */
export interface AdminWithdrawalRow {
  id: string;
  user_id: string;
  email: string;
  state: WithdrawalState;
  amount: number;
  fee: number;
  /** "GTBank ····1234" */
  account: string;
  /** The holder's name the bank gave, and the verified name it was matched against. */
  account_name: string;
  verified_name: string | null;
  reference: string;
  squad_status: string | null;
  detail: string;
  decided_by: string | null;
  decision_reason: string | null;
  created_at: string;
}

export const withdrawalIdParamSchema = z.object({ id: z.string().regex(/^wd_[0-9a-f]{24}$/, "Not a withdrawal id") });
