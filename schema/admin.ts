import { z } from "zod";
import { type PaymentStatus, type RentalStatus, type RentUnit, type SmsOrderStatus, TRANSFER_DEPOSIT_STATES, type TransferDepositState } from "./constants";
import { settingSchemas, type SettingKey, type SettingValue } from "./settings";
import { WITHDRAWAL_STATES } from "./withdrawals";

/**
 * Bodies of the operator console's API (/api/admin/*, worker/routes/admin.ts). Every change carries a reason: the
 * audit log records who, when, what, the previous value and why.
 */

/** Internal: kept in the audit log, never shown to the customer. Stored as typed (newlines and quotes too), up to 2,000 characters. */
const reason = z
  .string({ message: "A reason is required for every operator change." })
  .trim()
  .min(1, "A reason is required for every operator change.")
  .max(2000, "A reason is at most 2,000 characters.");

export const reasonSchema = z.object({ reason });

export const manualEntrySchema = z.object({
  /** Naira, positive: the path says credit or debit. */
  amount: z.number({ message: "amount must be a number of naira." }).positive("amount must be positive.").max(10_000_000),
  reason,
  /**
   * Optional, shown to the customer in their history after "Adjustment by support" (the reason never is). One line,
   * at most 200 characters.
   */
  customerMessage: z.string().trim().max(200, "The message to the customer is at most 200 characters.").optional(),
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
/** GET /admin/transfers: bank-transfer arrivals (issue 31), optionally in one state. */
export const transferListQuerySchema = z.object({
  state: z.enum(TRANSFER_DEPOSIT_STATES, { message: `state is one of ${TRANSFER_DEPOSIT_STATES.join(", ")}` }).optional(),
  date: z.string().optional(),
});

/** One transfer Squad told us arrived, as the console lists it. */
export interface AdminTransferDeposit {
  squad_ref: string;
  kind: "dynamic" | "static";
  state: TransferDepositState;
  squad_status: string;
  payment_id: string | null;
  account_number: string | null;
  user: { id: string; email: string } | null;
  amount: number;
  credited_amount: number | null;
  sender_name: string | null;
  detail: string;
  received_at: string;
}

/** GET /admin/transfers/reconcile?date=YYYY-MM-DD: ours against Squad's list for that UTC day, every difference. */
export interface AdminTransferReconciliation {
  date: string;
  ours: { count: number; amount: number };
  squad: { count: number; amount: number };
  differences: { kind: "squad_only" | "ours_only"; account_number: string; amount: number; reference: string; note: string }[];
  ok: boolean;
}

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
  /**
   * Optional, shown to the customer with the decision (issue 43): in their history row, on their transfer card, in the
   * toast and the e-mail. One line; `reason` stays internal.
   */
  customerMessage: z.string().trim().max(200, "The message to the customer is at most 200 characters.").optional(),
});

export const periodSchema = z.enum(["today", "7d", "30d"], { message: "period must be today, 7d or 30d." });

// ---- Path params and query strings of /api/admin/* (issue 29: every one read through a schema, 4xx when it fails) ----

/** An id in a path (a customer, payment, review, order, rental or approval): ours are UUIDs or short provider refs. */
export const adminIdParamSchema = z.object({
  id: z.string().trim().min(1, "The id is missing.").max(128, "The id is at most 128 characters.").regex(/^[A-Za-z0-9_.:-]+$/, "The id may hold only letters, digits and _ . : -"),
});

/** A status incident's number in a path (issue 32). */
export const incidentIdParamSchema = z.object({
  id: z.coerce.number({ message: "The incident id must be a number." }).int("The incident id must be a whole number.").positive("The incident id must be positive.").max(Number.MAX_SAFE_INTEGER, "The incident id is too large."),
});

/** A delivery dead letter's id in a path (issue 44). */
export const deadLetterIdParamSchema = z.object({
  id: z.string().trim().regex(/^dlq_[0-9a-f]{32}$/, "The dead letter id is dlq_ followed by 32 hex digits."),
});

/**
 * A delivery given up (issue 44, decision 073): a developer webhook, a push or forward ("channels") or a Telegram message
 * that failed for good, or a whole delivery job the queue gave up on (no delivery_id). Replayed once, audited.
 */
export interface DeadLetterView {
  id: string;
  kind: "webhook" | "channels" | "telegram";
  /** The API key, customer or Telegram chat whose deliveries the job drains. */
  target: string;
  delivery_id: string | null;
  reason: string;
  attempts: number;
  created_at: string;
  replayed_at: string | null;
  replayed_by: string | null;
}

/** PATCH /admin/settings/:key: one of the settings the product reads. */
export const settingKeyParamSchema = z.object({
  key: z.enum(Object.keys(settingSchemas) as [SettingKey, ...SettingKey[]], { message: `Unknown setting. Known: ${Object.keys(settingSchemas).join(", ")}` }),
});

/** A yes/no switch in a query string (?test=1, ?stuck=1): absent, empty, 0 or false is off. */
const querySwitch = z
  .enum(["1", "0", "true", "false", ""], { message: "Use 1 or 0." })
  .optional()
  .transform((v) => v === "1" || v === "true");
/** A free-text filter: trimmed, empty means "no filter". */
const queryText = (name: string, max = 200) =>
  z
    .string()
    .trim()
    .max(max, `${name} is at most ${max} characters.`)
    .optional()
    .transform((v) => v || undefined);
const queryLimit = z.coerce.number({ message: "limit must be a number." }).int("limit must be a whole number.").min(1, "limit is at least 1.").max(500, "limit is at most 500.").optional();

/** The console's "show test activity" toggle: sandbox accounts' rows are left out unless it is on. */
const testToggle = { test: querySwitch };

export const overviewQuerySchema = z.object({ period: periodSchema.default("today"), ...testToggle });

export const customerSearchQuerySchema = z.object({ q: z.string().trim().max(200, "q is at most 200 characters.").default(""), ...testToggle });

/** GET /admin/orders, /admin/rentals, /admin/deposits: the console's filters. */
export const listQuerySchema = z.object({
  status: z.string().trim().max(40).regex(/^[a-z_]*$/, "status is one status word (e.g. waiting).").optional().transform((v) => v || undefined),
  provider: queryText("provider", 60),
  service: queryText("service", 100),
  user: queryText("user", 128),
  customer: queryText("customer"),
  since: z.coerce.number({ message: "since must be a time in milliseconds." }).int("since must be a whole number.").min(0, "since must not be negative.").optional(),
  stuck: querySwitch,
  limit: queryLimit,
  ...testToggle,
});

export const depositListQuerySchema = listQuerySchema.extend({
  channel: z.enum(["card", "crypto", "transfer", ""], { message: "channel is one of card, crypto, transfer." }).optional().transform((v) => v || undefined),
});

/** GET /admin/audit: who, what (a prefix), which subject; pages by id. */
export const auditListQuerySchema = z.object({
  actor: queryText("actor"),
  action: queryText("action", 60),
  subject: queryText("subject", 128),
  before: z.coerce.number({ message: "before must be an audit row id." }).int("before must be an audit row id.").min(1, "before must be an audit row id.").optional(),
  limit: queryLimit,
  ...testToggle,
});

/**
 * GET /admin/withdrawals: a state, and pages like the audit log (`before` = the last row's id seen). Here, not in
 * schema/withdrawals.ts, which the customer's Settings imports for its bank list: the console's query stays off that chunk.
 */
export const withdrawalListQuerySchema = z.object({
  state: z.enum(WITHDRAWAL_STATES, { message: `state is one of ${WITHDRAWAL_STATES.join(", ")}.` }).optional(),
  before: z.string().regex(/^wd_[0-9a-f]{24}$/, "before must be a withdrawal id.").optional(),
  limit: z.coerce.number({ message: "limit must be a number." }).int("limit must be a whole number.").min(1, "limit is at least 1.").max(200, "limit is at most 200.").optional(),
});

/** GET /admin/transfers/reconcile?date=YYYY-MM-DD: one UTC day. */
export const transferReconcileQuerySchema = z.object({
  date: z
    .string({ message: "date must be YYYY-MM-DD." })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD.")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "date must be a real day (YYYY-MM-DD)."),
});

/** GET /admin/unsubscribe?u=&t= (the link in a group e-mail): an invalid one is answered as "not valid", never 500. */
export const unsubscribeQuerySchema = z.object({
  u: z.string().max(128).catch(""),
  t: z.string().max(256).catch(""),
});

// ---- What the console sends (the bodies above as a client writes them, before the server's defaults) ----

export type ReasonBody = z.input<typeof reasonSchema>;
export type ManualEntryBody = z.input<typeof manualEntrySchema>;
export type SettingChangeBody = z.input<typeof settingChangeSchema>;
export type NotifyBody = z.input<typeof notifySchema>;
export type GroupMailBody = z.input<typeof groupMailSchema>;
export type GroupMailSendBody = z.input<typeof groupMailSendSchema>;
export type ReviewResolveBody = z.input<typeof reviewResolveSchema>;
export type AdminPeriod = z.infer<typeof periodSchema>;

// ---- What the console is answered (GET/POST/PATCH /api/admin/*) ----
// Plain types, like the review queue's below: the worker builds each with it as its declared type (the views in
// services/operator-console.ts, `satisfies` in routes/admin.ts), and the console reads them with `import type`
// (web/admin/api.ts and its pages), so neither side keeps a copy. Amounts are naira; times are epoch milliseconds.

/** GET /admin/me */
export interface AdminMe {
  id: string;
  email: string;
  username: string;
}

/** A list answer: GET /admin/customers, /deposits, /orders, /rentals, /audit, /reviews. */
export interface AdminList<T> {
  data: T[];
}

/** Something that needs an operator: a row pending or active past its time (db/admin-sql.ts stuckSql). */
export interface AdminStuckItem {
  kind: "sms_order" | "rental" | "payment";
  id: string;
  user_id: string;
  status: string;
  amount_kobo: number;
  created: string;
}

/** GET /admin/overview?period=&test= */
export interface AdminOverview {
  period: AdminPeriod;
  /** Whether sandbox accounts' activity (test keys) is counted: off unless the operator asks (`test=1`). */
  includesTest: boolean;
  since: number;
  moneyHeld: number;
  /**
   * Issue 45: what we owe customers: every wallet's balance (resellers' sub-accounts included: they are wallets,
   * decision 072) and, apart, what is held for withdrawals waiting for approval or in flight (it left the balances and
   * is still owed until the bank is paid). total = balances + heldForWithdrawals.
   */
  owedToCustomers?: { balances: number; heldForWithdrawals: number; total: number };
  customers: number;
  deposits: { channel: string; count: number; amount: number }[];
  manualCredits: number;
  spend: number;
  refunds: number;
  /**
   * Per provider and service: what customers paid for orders that delivered a code (refunded ones cost them nothing),
   * the upstream cost estimated from the last accepted upstream price (upstream_prices, US$) at today's exchange rate,
   * and the difference. Null where no upstream price is on record.
   */
  margin: { provider: string; service: string; orders: number; paid: number; upstreamCost: number | null; margin: number | null }[];
  ordersByOutcome: { status: SmsOrderStatus; count: number }[];
  performance: { provider: string; service: string; orders: number; codes: number; refunds: number; successRate: number; medianSecondsToCode: number | null }[];
  activeRentals: number;
  upstreams: { provider: string; status: "ok" | "low" | "unreachable"; balanceUsd: number | null; floorUsd: number | null; checkedAt: number | null }[];
  /** Slots in use per upstream account (issue 30); absent from older servers. */
  slots?: { upstream: string; account: number; inUse: number; limit: number | null }[];
  attention: { stuck: AdminStuckItem[]; reviews: number };
}

export interface AdminCustomer {
  id: string;
  username: string;
  email: string;
  phone: string;
  role: "customer" | "operator";
  balance: number;
  totalDeposited: number;
  blocked: boolean;
  blockedAt: number | null;
  emailVerified: boolean;
  twoFactor: boolean;
  emailOptOut: boolean;
  createdAt: number;
}

export interface AdminLedgerRow {
  id: number;
  key: string;
  kind: "fund" | "buy" | "refund" | "rent" | "rent_refund" | "admin" | "referral" | "withdraw" | "withdraw_refund" | "transfer" | "margin" | "ref_share";
  amount: number;
  note: string;
  ref: string | null;
  createdAt: number;
}

/** Whose row it is (Deposits, Orders, Rentals): the console links it to the customer's page. Null on a customer's own page. */
export interface AdminRowCustomer {
  id: string;
  name: string;
  email: string;
  phone: string;
  /** A sandbox account's row (test keys), shown only when the list's "test activity" toggle is on. */
  test: boolean;
}

export interface AdminOrderRow {
  id: string;
  userId: string;
  customer: AdminRowCustomer | null;
  provider: string;
  country: string;
  service: string;
  serviceId: string;
  price: number;
  number: string | null;
  code: string | null;
  status: SmsOrderStatus;
  attempts: number;
  failureReason: string | null;
  /** Issue 32: which upstream served it (daisysms, smsman, herosms, grizzly) and which of its accounts (0: the first
   *  key); null while no upstream has served it yet. Operators only: customers see the provider. */
  upstream: string | null;
  upstreamAccount: number;
  /** Issue 46: a reseller's margin on it (naira, 0: none), and when an operator refunded it after its code (null: not). */
  margin: number;
  /** Issue 46 (decision 075): a developer's ref share on it (naira, 0: none; paid from our revenue when kept). */
  refShare: number;
  refundedAfterCodeAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** GET /admin/resellers (issue 46): a reseller, its sub-accounts and its margin (naira). */
export interface AdminResellerRow {
  userId: string;
  email: string;
  username: string;
  status: "active" | "revoked";
  markupPercent: number;
  /** The operator who granted it; null: the customer accepted the terms. */
  grantedBy: string | null;
  createdAt: number;
  subaccounts: number;
  openSubaccounts: number;
  /** What its sub-accounts hold (owed to its customers, inside "money held"). */
  subaccountBalance: number;
  /** Margins credited, net of reversals. */
  marginEarned: number;
}

/** GET /admin/resellers/{id}/subaccounts (issue 46): one sub-account of the reseller's live wallet (naira). */
export interface AdminSubaccountRow {
  id: string;
  externalId: string;
  name: string;
  status: "active" | "frozen" | "closed";
  balance: number;
  createdAt: number;
  /** Its purchases and rentals, net of refunds. */
  spend: number;
}

/** The reseller a sub-account page is about, and one page of its sub-accounts, newest first. */
export interface AdminResellerSubaccounts {
  reseller: { userId: string; email: string; username: string; status: "active" | "revoked" };
  data: AdminSubaccountRow[];
}

export const SUBACCOUNT_STATES = ["active", "frozen", "closed"] as const;

/** GET /admin/resellers/{id}/subaccounts: a status, and pages like the withdrawals (`before` = the last row's id seen). */
export const resellerSubaccountListQuerySchema = z.object({
  status: z.enum(SUBACCOUNT_STATES, { message: `status is one of ${SUBACCOUNT_STATES.join(", ")}.` }).optional(),
  before: z.string().regex(/^sub_[0-9a-f]{32}$/, "before must be a sub-account id.").optional(),
  limit: z.coerce.number({ message: "limit must be a number." }).int("limit must be a whole number.").min(1, "limit is at least 1.").max(200, "limit is at most 200.").optional(),
});

/** POST /admin/resellers: grant or revoke the role by the customer's e-mail, with a reason (audited). */
export const resellerRoleSchema = z.object({
  email: z.string().trim().email("Enter the customer's e-mail address"),
  grant: z.boolean(),
  reason,
});

export interface AdminRentalRow {
  id: string;
  userId: string;
  customer: AdminRowCustomer | null;
  provider: string;
  country: string;
  unit: RentUnit;
  period: number;
  price: number;
  number: string | null;
  status: RentalStatus;
  expiresAt: number | null;
  smsCount: number;
  /** Which upstream rented the number and which of its accounts (0: the first key); null while none has. */
  upstream: string | null;
  upstreamAccount: number;
  createdAt: number;
}

export interface AdminDepositRow {
  id: string;
  userId: string;
  customer: AdminRowCustomer | null;
  channel: "card" | "crypto" | "transfer";
  provider: "squad" | "nowpayments" | "squad_transfer";
  status: PaymentStatus;
  /** What the wallet would receive at the invoice's value (the checkout's naira): kept for older readers; see `invoiced`. */
  amount: number;
  /**
   * Issue 28: three separate amounts, so an underpaid invoice never reads as its full value. What was asked (naira,
   * and for crypto the US$ price and the coin amount), what arrived (card: what Squad charged once it confirmed; crypto:
   * NOWPayments' actually_paid in its coin and that at the invoice's own rate in naira; null while nothing arrived),
   * and what the wallet was credited for it (every ledger credit of this payment, reviews included).
   */
  invoiced: { naira: number; usd: number | null; coin: string | null; coinAmount: string | null };
  arrived: { naira: number | null; coin: string | null; coinAmount: string | null } | null;
  credited: number;
  currency: string;
  payCurrency: string | null;
  payAmount: string | null;
  providerPaymentId: string | null;
  creditedAt: number | null;
  createdAt: number;
}

export interface AdminAuditRow {
  id: number;
  actor: string;
  action: string;
  subject: string | null;
  /** The JSON the change recorded (or its text when it is not JSON). */
  detail: unknown;
  previous: unknown;
  reason: string | null;
  createdAt: number;
}

/** A live session of the customer (Settings' device list, seen by the operator). */
export interface AdminSession {
  id: string;
  createdAt: number;
  lastSeenAt: number | null;
  userAgent: string | null;
  country: string | null;
  city: string | null;
}

/** GET /admin/customers/:id */
export interface AdminCustomerDetail {
  customer: AdminCustomer;
  tier: { name: string; percentage: number } | null;
  ledger: AdminLedgerRow[];
  orders: AdminOrderRow[];
  rentals: AdminRentalRow[];
  deposits: AdminDepositRow[];
  sessions: AdminSession[];
  audit: AdminAuditRow[];
}

export type AdminSettingValues = { [K in SettingKey]: SettingValue<K> };

/** GET /admin/settings: every setting, its default, and the audit of the last changes. */
export interface AdminSettings {
  settings: AdminSettingValues;
  defaults: AdminSettingValues;
  history: AdminAuditRow[];
}

/** PATCH /admin/settings/:key: the value now stored. */
export interface AdminSettingChanged {
  key: string;
  value: unknown;
}

/** GET /admin/reconcile: balances against the ledger, and the money held against everything the ledger moved. */
export interface AdminReconcile {
  ok: boolean;
  customers: number;
  ledgerRows: number;
  moneyHeld: number;
  ledgerTotal: number;
  conserved: boolean;
  differences: { userId: string; email: string; balance: number; ledger: number; difference: number }[];
  checkedAt: number;
}

/** The customer actions' answer (resend verification, reset two-factor). */
export interface AdminMessage {
  message: string;
}

/**
 * POST /admin/customers/:id/credit | debit: the balance after the entry. Above the approval_threshold setting the entry
 * waits for a second operator instead (issue 33): the answer is a 202 with the balance unchanged and the `approval`.
 */
export interface ManualEntryAnswer extends AdminMessage {
  balance: number;
  approval?: AdminApproval;
}

/** POST /admin/customers/:id/block | unblock */
export interface BlockAnswer extends AdminMessage {
  blocked: boolean;
}

/** POST /admin/deposits/:id/verify: the status before and after asking the provider again. */
export interface DepositVerifyAnswer {
  id: string;
  before: PaymentStatus;
  status: PaymentStatus;
}

/** POST /admin/orders/:id/settle and /admin/rentals/:id/settle */
export interface SettleAnswer {
  from: string;
  status: string;
  settled: boolean;
}

/**
 * POST /admin/orders/:id/refund (issue 46): a settle answer, plus the developer's ref share the refund could not take
 * back (naira, 0 when it was taken back or the order had none: the developer's wallet no longer held it, decision 075)
 * and what moved, in words, which the console shows.
 */
export interface RefundKeptAnswer extends SettleAnswer {
  refShareKept: number;
  message: string;
}

/** POST /admin/notify: how many customers it reached. */
export interface NotifyAnswer {
  recipients: number;
  /** Issue 43: to whom it went, in words ("Sent to Ada Obi (ada@example.com) …"), not a bare "done". */
  message: string;
}

/** POST /admin/email/preview: the group's size (at most one send's worth) and the first recipient's e-mail. */
export interface GroupMailPreview {
  count: number;
  more: boolean;
  preview: { to: string; subject: string; text: string };
}

/** POST /admin/email/send */
export interface GroupMailSent {
  sent: number;
}

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
  | "card_amount_mismatch"
  // A bank transfer into a Squad virtual account (issue 31): another amount, after the window, not confirmed by Squad.
  | "transfer_amount_mismatch"
  | "transfer_late"
  | "transfer_unverified"
  // A transfer into an account we do not know: no customer; closed here, credited only by a manual credit to its owner.
  | "transfer_unknown_account";

export interface ReviewQueueItem {
  kind: "crypto" | "card" | "transfer";
  id: string;
  status: "open" | "credited" | "refused";
  reason: ReviewQueueReason;
  payment_id: string;
  provider_payment_id: string;
  /** Null for a transfer into an account we do not know (nobody to credit). */
  user: { id: string; email: string; username: string } | null;
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

/** POST /admin/reviews/:id/resolve: the item as resolved, what the provider said, and the customer's balance after. */
export interface ReviewResolveAnswer {
  message: string;
  review: ReviewQueueItem;
  verification: ReviewVerification;
  balance: number | null;
}

// ---- Two-operator approvals (issue 33, ASVS 5.0 2.3.5 and 7.4.5; worker/services/operator-approvals.ts) ----

/** POST /admin/approvals/:id/approve | reject, and POST /admin/customers/:id/sessions/revoke: the reason is required. */
export const approvalDecisionSchema = z.object({ reason });
export type ApprovalDecisionBody = z.input<typeof approvalDecisionSchema>;

/** POST /admin/customers/:id/sessions/revoke: every live session of the customer, or the one named. */
export const endSessionsSchema = z.object({ reason, sessionId: z.string().trim().min(1).max(100).optional() });
export type EndSessionsBody = z.input<typeof endSessionsSchema>;

export const approvalListQuerySchema = z.object({
  status: z.enum(["pending", "decided"], { message: "status must be pending or decided." }).default("pending"),
});

export type ApprovalKind = "ledger_entry" | "reset_2fa" | "setting" | "withdrawal";
export type ApprovalStatus = "pending" | "approved" | "rejected";

/** A change waiting for (or decided by) a second operator. Amounts are naira; times epoch milliseconds. */
export interface AdminApproval {
  id: string;
  kind: ApprovalKind;
  /** The customer's id, or the setting's key. */
  subject: string;
  /** What a person reads: "Credit ₦75,000.00 to ada@example.com", "Reset two-factor of ...", "Set approval_threshold to ...". */
  summary: string;
  /** Signed naira of a credit (+) or debit (-); null for other kinds. */
  amount: number | null;
  reason: string;
  requestedBy: string;
  /** The caller asked for it: the console offers no Approve (the server refuses it with a 403 anyway). */
  requestedByMe: boolean;
  status: ApprovalStatus;
  decidedBy: string | null;
  decisionReason: string | null;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
}

/** The answer of a change that now waits for a second operator (HTTP 202), and of approve / reject. */
export interface ApprovalAnswer extends AdminMessage {
  approval: AdminApproval;
}

/** POST /admin/customers/:id/sessions/revoke: how many sessions ended (their sockets closed before the answer). */
export interface EndSessionsAnswer extends AdminMessage {
  revoked: number;
}
