import { z } from "zod";
import type { TransactionStatus } from "./constants";

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

/** One row of the spec's transaction history (a projection of the ledger and payment attempts). */
export interface Transaction {
  id: string;
  user_id: string;
  status: TransactionStatus;
  /** Naira, always positive: the status and the note say which way the money went. */
  amount: number;
  note: string;
  /** ISO 8601. */
  created_at: string;
  /**
   * Issue 28: for a deposit that did not simply match its invoice (underpaid, another coin, an excess, refused by
   * support), what arrived, what was credited and what happens next, in one sentence.
   */
  detail?: string;
  /**
   * Which way the money went (issue 28: signs follow the money): in (a deposit, a refund, a credit), out (a purchase,
   * a debit), none (failed or not settled). A refunded purchase is `in`: its money came back.
   */
  direction?: "in" | "out" | "none";
}

/** A crypto (or card) deposit that did not match its invoice, as the customer is told (worker/services/deposit-outcome.ts). */
export interface DepositOutcome {
  /** underpaid: credited at what arrived; held / excess_held: waiting for support; refused / support_credited: decided. */
  state: "underpaid" | "held" | "excess_held" | "refused" | "support_credited";
  /** What arrived, in the coin ("5 USDTTRC20"); null when unknown. */
  arrived: string | null;
  /** The invoice's naira value and what was credited for this arrival (naira). */
  invoiced: number;
  credited: number;
  message: string;
}

export type PaymentConfirmation = "success" | "pending" | "failed";

// Answers the server builds (never parsed from a client), so plain types: `import type` costs the web nothing.

/**
 * POST /api/squad-callback, as the spec's original client reads it (issue 27): `body.data === "success"` toasts and
 * refetches the balance, any truthy body stops its polling, its Verify button shows `body.message`. While the payment
 * is still pending the body is `null` (HTTP 200): falsy, so that client keeps polling and says "still being processed".
 */
export type SquadCallbackAnswer = { data: "success" | "failed"; message: string } | null;

/**
 * POST /api/initialize-transaction: `{ data: { data: CheckoutStart } }` (issue 27: the spec's original client reads
 * `body.data.data.checkout_url`), a Squad checkout to send the customer to.
 */
export interface CheckoutStart {
  checkout_url: string;
  transaction_ref: string;
}

/** POST /api/verify-payment: the verdict and the sentence to show (PAYMENT_MESSAGES). */
export interface PaymentVerdict {
  data: PaymentConfirmation;
  message: string;
}

/** GET /api/payments/pending: `{ data: PendingCardPayment[] }`, card payments still pending (naira). */
export interface PendingCardPayment {
  ref: string;
  amount: number;
  currency: string;
  created_at: string;
}

/** GET /api/now-merchant: `{ currencies: MerchantCurrency[] }`; only those available_for_payment may be chosen. */
export interface MerchantCurrency {
  code: string;
  name: string;
  available_for_payment: boolean;
}

/** POST /api/invoice: a NOWPayments payment to send coins to. */
export interface InvoiceAnswer {
  payment_id: string;
  pay_amount: number;
  pay_currency: string;
  network: string | null;
  pay_address: string;
  /** ISO 8601: the invoice is given up INVOICE_LIFETIME_MS after creation. */
  expires_at: string;
}

/** GET /api/now-status?payment_id=: the upstream's status and whether the deposit is in the wallet. */
export interface InvoiceStatusAnswer {
  payment_status: string;
  credited: boolean;
  /** Issue 28: present when what arrived did not match the invoice (an underpayment, another coin, an excess). */
  outcome?: DepositOutcome | null;
}
