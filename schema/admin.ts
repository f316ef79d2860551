import { z } from "zod";

/**
 * Bodies of the operator console's API (/api/admin/*, worker/routes/admin.ts). Every change carries a reason: the
 * audit log records who, when, what, the previous value and why.
 */

const reason = z.string({ message: "A reason is required for every operator change." }).trim().min(1, "A reason is required for every operator change.").max(500);

export const reasonSchema = z.object({ reason });

export const manualEntrySchema = z.object({
  /** Naira, positive: the path says credit or debit. */
  amount: z.number({ message: "amount must be a number of naira." }).positive("amount must be positive.").max(10_000_000),
  reason,
  /** The console's id for this click: a repeated request with the same id applies once. */
  requestId: z.string().uuid("requestId must be a UUID.").optional(),
});

export const settingChangeSchema = z.object({ value: z.unknown(), reason });

export const notifySchema = z.object({
  target: z.enum(["customer", "online"]),
  userId: z.string().min(1).optional(),
  type: z.enum(["success", "info", "error", "warning"]).default("info"),
  message: z.string().trim().min(1, "Write the notification's text.").max(300),
  reason,
});

const audienceSchema = z.discriminatedUnion("group", [
  z.object({ group: z.literal("all") }),
  z.object({ group: z.literal("tier"), tier: z.string().min(1) }),
  z.object({ group: z.literal("inactive"), days: z.number().int().min(1).max(3650) }),
]);

export const groupMailSchema = z.object({
  audience: audienceSchema,
  subject: z.string().trim().min(1, "Write a subject.").max(150),
  body: z.string().trim().min(1, "Write the message.").max(5000),
});

export const groupMailSendSchema = groupMailSchema.extend({
  reason,
  /** The count the preview showed: sending is refused if the group changed meanwhile (the operator sees it first). */
  expectedCount: z.number().int().min(0),
});

/** GET /admin/reviews: the queue (open), its history (resolved) or both. */
export const reviewListQuerySchema = z.object({
  status: z.enum(["open", "resolved", "all"], { message: "status must be open, resolved or all." }).default("open"),
});

/**
 * POST /admin/reviews/:id/resolve. The server asks the provider again first: a credit is refused unless money arrived,
 * and its amount is at most what the provider's record is worth (without `amount`, exactly that). A refusal takes none.
 */
export const reviewResolveSchema = z.object({
  action: z.enum(["credit", "refuse"], { message: "action must be credit or refuse." }),
  /** Naira to credit (action credit); a card payment is always credited for exactly what Squad charged. */
  amount: z.number({ message: "amount must be a number of naira." }).positive("amount must be positive.").max(10_000_000).optional(),
  reason,
});

export const periodSchema = z.enum(["today", "7d", "30d"]);

// ---- Answers of the review queue (GET /api/admin/reviews, /reviews/:id; docs/decisions/023) ----
// Plain types: the worker builds them (services/review-queue.ts checks its answers against them) and the console reads
// them with `import type`, so neither side keeps a copy.

export type ReviewQueueReason =
  | "other_currency"
  | "repeat_payment"
  | "overpaid"
  | "no_amount"
  | "paid_after_settlement"
  | "card_pending"
  | "card_amount_mismatch";

export interface ReviewQueueItem {
  kind: "crypto" | "card";
  id: string;
  status: "open" | "credited" | "refused";
  reason: ReviewQueueReason;
  payment_id: string;
  provider_payment_id: string;
  user: { id: string; email: string; username: string };
  expected_currency: string | null;
  expected_amount: string | null;
  pay_currency: string | null;
  actually_paid: string | null;
  /** Naira the invoice's own rate gives for what arrived, when the currency matches; null otherwise. */
  suggested_amount: number | null;
  detail: string;
  created_at: string;
  resolution: { outcome: "credited" | "refused"; amount: number | null; operator_id: string; note: string; at: string } | null;
}

/** What the provider says now, and what that allows: the console shows it, resolve enforces it. */
export interface ReviewVerification {
  provider: "nowpayments" | "squad";
  /** The provider's own status word (NOWPayments' payment_status, Squad's transaction_status), or "unknown". */
  status: string;
  pay_currency: string | null;
  actually_paid: string | null;
  /** Whether money arrived that this item may still credit. */
  creditable: boolean;
  /** Naira the provider's record is worth for this item; null when it cannot be priced (another coin) or nothing is due. */
  suggested_amount: number | null;
  /** The most a credit of this item may be. */
  max_amount: number | null;
  message: string;
  checked_at: string;
}

export interface ReviewDetailAnswer {
  review: ReviewQueueItem;
  verification: ReviewVerification | null;
  verifyError: string | null;
}
