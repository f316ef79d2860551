/**
 * The contract's constants, with no zod: status lists, the texts the server writes and the screens match on, lifetimes.
 * The web imports them by value (the zod schema modules it imports only with `import type`), so using a shared
 * constant never pulls zod (about 25 kB gzip) into the customer bundle. The zod modules build their enums from these.
 */

// ---------------------------------------------------------------------------------------------------------------
// Receive SMS (spec sections 6 and 8)

export const SMS_PROVIDERS = ["Swift", "Dynamic"] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];
/** The spec's defaults (section 9): provider Swift, country id 5 (USA on Swift SMS). */
export const DEFAULT_SMS_PROVIDER: SmsProviderName = "Swift";
export const DEFAULT_SMS_COUNTRY = "5";
/** The most numbers one "several numbers at once" purchase may buy. */
export const MAX_SMS_QUANTITY = 5;

/**
 * The D1 session bookmark header (issue 30, worker/lib/d1-session.ts): every answer carries it; a client that sends its
 * last one back reads at least its own earlier writes.
 */
export const D1_BOOKMARK_HEADER = "x-d1-bookmark";

/** Order states. pending: debited, upstream not asked yet; waiting: a number is out and polled. The rest are final. */
export const SMS_ORDER_STATUSES = ["pending", "waiting", "used", "timeout", "error", "cancelled", "failed"] as const;
export type SmsOrderStatus = (typeof SMS_ORDER_STATUSES)[number];
/** Final states whose money goes back to the wallet. `used` is the only final state that keeps it. */
export const REFUNDED_SMS_STATUSES = ["timeout", "error", "cancelled", "failed"] as const;
/** "Code or next route" chains: active (a route is live or being bought), ended, cancelled by the customer. */
export const SMS_CHAIN_STATUSES = ["active", "ended", "cancelled"] as const;
export type SmsChainStatus = (typeof SMS_CHAIN_STATUSES)[number];

/**
 * Where an SMS order stands for the customer (issue 29), sent by the server as GET /api/sms/status's `phase` and shown
 * as sent: waiting (for a code, or for the next route of "try another number"), received (a code is stored), timeout
 * (no code came: refunded), error (the upstream failed it: refunded), cancelled (refunded). The server derives it from
 * its own state in one place (worker/services/sms/sms-views.ts `smsOrderPhase`); the screen never reads it from texts.
 */
export const SMS_PHASES = ["waiting", "received", "timeout", "error", "cancelled"] as const;
export type SmsPhase = (typeof SMS_PHASES)[number];

/** The `sms` field of a status answer when no code will come (the spec's cached-request texts). */
export const SMS_TIMEOUT_TEXT = "SMS polling timed out, code not sent.";
export const SMS_ERROR_TEXT = "Error polling SMS";
/** What the screen shows when an order ends without a code (sms.ended messages carry these). */
export const SMS_TIMEOUT_MESSAGE = "⏰ Timeout: No code received";
export const SMS_ERROR_MESSAGE = "❌ Error polling SMS";

// ---------------------------------------------------------------------------------------------------------------
// Rent Number (spec section 4 "Rental")

export const RENT_UNITS = ["hour", "day", "week", "month"] as const;
export type RentUnit = (typeof RENT_UNITS)[number];

/** The spec's period ranges: hour 1–24, day 1–7, week 1–4, month 1–12. */
export const RENT_PERIOD_MAX: Record<RentUnit, number> = { hour: 24, day: 7, week: 4, month: 12 };

/** Rental statuses: pending (paid, upstream being asked) -> active -> ended | cancelled; failed when the upstream refused. */
/**
 * A bank transfer's arrival (transfer_deposits.state, issue 31): verifying (heard, Squad not yet asked), credited,
 * review (held for an operator), refused (an operator refused it), unmatched (an account we do not know).
 */
export const TRANSFER_DEPOSIT_STATES = ["verifying", "credited", "review", "refused", "unmatched"] as const;
export type TransferDepositState = (typeof TRANSFER_DEPOSIT_STATES)[number];

export const RENTAL_STATUSES = ["pending", "active", "ended", "cancelled", "failed"] as const;
export type RentalStatus = (typeof RENTAL_STATUSES)[number];
/** A rental that may still receive SMS (its inbox keeps reading). */
export const ACTIVE_RENTAL_STATUSES: readonly RentalStatus[] = ["pending", "active"];

/** The spec's red box, also the server's answer when the upstream has no number for the choice. */
export const NO_RENT_STOCK_MESSAGE = "No stock available for the selected duration";

// ---------------------------------------------------------------------------------------------------------------
// Wallet (docs/api.md "Wallet")

export const TRANSACTION_STATUSES = ["successful", "refunded", "pending", "failed"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A NOWPayments payment's statuses, as its API documents them (https://documenter.getpostman.com/view/7907941/2s93JusNJt). */
export const NOW_PAYMENT_STATUSES = ["waiting", "confirming", "confirmed", "sending", "partially_paid", "finished", "failed", "refunded", "expired"] as const;

/**
 * A payment attempt's states (the payments table). pending: created, nothing heard yet; the NOWPayments statuses as the
 * upstream reports them (waiting ... expired); abandoned: a card checkout never completed; amount_mismatch: Squad
 * confirmed another amount (before decision 031; such a charge is now held as review); review: held for an operator
 * (a crypto arrival that does not match, a card charged another amount); then credited or refused. Moved forward only.
 */
export const PAYMENT_STATUSES = ["pending", ...NOW_PAYMENT_STATUSES, "abandoned", "amount_mismatch", "review", "refused", "credited"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** An invoice lives this long (the spec's 1,000,000 ms), then the invoice watcher expires it. */
export const INVOICE_LIFETIME_MS = 1_000_000;

/** Confirmation messages (docs/api.md); 'Transaction not successful' is the spec's text the web matches on. */
export const PAYMENT_MESSAGES = {
  success: "Payment confirmed successfully!",
  pending: "Payment is still being processed. Please try again in a few moments.",
  failed: "Transaction not successful",
} as const;
