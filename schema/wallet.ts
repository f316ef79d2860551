import { z } from "zod";

/**
 * The wallet's request and answer shapes (docs/api.md "Wallet"). Amounts a client sends are naira (card) or US dollars
 * (crypto); the server converts to kobo once and never trusts a client-sent user id, e-mail or cost.
 */

/** Numbers may arrive as JSON numbers or numeric strings (the spec's form posts an integer from a text field). */
const amount = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z.number({ message }).finite({ message }).positive({ message }),
  );

export const initializeTransactionSchema = z.object({
  amount: amount("Enter the amount to fund in naira"),
  // NOTE: the spec's client sends NGN; card funding is naira only, anything else is refused rather than converted.
  currency: z.literal("NGN", { message: "Card payments are in NGN only" }).optional(),
  // Sent by the spec's client and ignored: the user comes from the token.
  id: z.unknown().optional(),
  email: z.unknown().optional(),
});

export const transactionRefSchema = z.object({
  transaction_ref: z.string({ message: "transaction_ref is required" }).trim().min(1, "transaction_ref is required").max(100),
});

export const createInvoiceSchema = z.object({
  price_amount: amount("Enter the amount in US dollars"),
  pay_currency: z
    .string({ message: "Choose a payment currency" })
    .trim()
    .regex(/^[A-Za-z0-9]{2,20}$/, "Choose a payment currency"),
  // Sent by the spec's client and ignored (order_description is always 'deposit').
  order_id: z.unknown().optional(),
  email: z.unknown().optional(),
  order_description: z.unknown().optional(),
});

export const nowStatusQuerySchema = z.object({
  payment_id: z.string({ message: "payment_id is required" }).trim().min(1, "payment_id is required").max(64),
});

export const transactionStatusSchema = z.enum(["successful", "refunded", "pending", "failed"]);
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

/** One row of the spec's transaction history (a projection of the ledger and payment attempts). */
export const transactionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  status: transactionStatusSchema,
  /** Naira, always positive: the status and the note say which way the money went. */
  amount: z.number(),
  note: z.string(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export type PaymentConfirmation = "success" | "pending" | "failed";

/**
 * A payment attempt's states (the payments table). pending: created, nothing heard yet; the NOWPayments statuses as the
 * upstream reports them (waiting ... expired); abandoned: a card checkout never completed; amount_mismatch: Squad
 * confirmed another amount; review: held for an operator; then credited or refused. Moved forward only.
 */
export const PAYMENT_STATUSES = [
  "pending",
  "waiting",
  "confirming",
  "confirmed",
  "sending",
  "partially_paid",
  "finished",
  "failed",
  "refunded",
  "expired",
  "abandoned",
  "amount_mismatch",
  "review",
  "refused",
  "credited",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const squadCallbackAnswerSchema = z.object({
  data: z.enum(["success", "pending", "failed"]),
  message: z.string(),
});

export const invoiceAnswerSchema = z.object({
  payment_id: z.string(),
  pay_amount: z.number(),
  pay_currency: z.string(),
  network: z.string().nullable(),
  pay_address: z.string(),
  /** ISO 8601: the invoice is given up 1,000,000 ms after creation. */
  expires_at: z.string(),
});
export type InvoiceAnswer = z.infer<typeof invoiceAnswerSchema>;

/** An invoice lives this long (the spec's 1,000,000 ms), then the invoice watcher expires it. */
export const INVOICE_LIFETIME_MS = 1_000_000;

/** Confirmation messages (docs/api.md); 'Transaction not successful' is the spec's text the web matches on. */
export const PAYMENT_MESSAGES = {
  success: "Payment confirmed successfully!",
  pending: "Payment is still being processed. Please try again in a few moments.",
  failed: "Transaction not successful",
} as const;
