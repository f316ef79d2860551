import { and, eq, inArray, notInArray } from "drizzle-orm";
import type { PaymentStatus } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { payments } from "../../db/tables";
import type { OutboxMessage, PaymentDeps } from "../kernel";

/**
 * The payment as a money entity (docs/decisions/040 and 049): its declared transitions below, and the only module that
 * writes a payment's row after the insert that opens it (scripts/money-writers.ts refuses `update(payments)` and raw
 * `UPDATE payments` anywhere else). Each transition is one compare-and-set on the status the table names, returned as a
 * statement for the caller's `db.batch()` beside the ledger row and the outbox event the table names (those are guarded
 * on the same row: `ledgerRowWritten(key)` or the credited status), so a webhook, a return page, the sweep and an
 * operator racing one another move a payment once.
 */

type PaymentEvent = OutboxMessage["kind"] | "payment.failed (socket)";
/** Who may leave: a list of statuses, every status but these, or any status (a detail written on the row just opened). */
type From = readonly PaymentStatus[] | { not: readonly PaymentStatus[] } | "any";

/**
 * Every way a payment's row moves after its insert (card-payments.ts, crypto-payments.ts, bank-transfers.ts open it
 * 'pending'), with the ledger row and the events written with the move. `to: "provider"` is the status the provider
 * reported (NOWPayments' waiting .. partially_paid, Squad's failed/abandoned), forward only (`advance`).
 */
export const PAYMENT_TRANSITIONS = {
  /** The provider opened the checkout, invoice or account: its details (Squad's checkout URL, the transfer account). */
  opened: { from: "any", to: null, ledger: null, events: [] },
  /** NOWPayments created the invoice: its address and amount, and its first status. */
  invoiced: { from: "any", to: "provider", ledger: null, events: [] },
  /** The provider refused to open it (nothing was charged): visible as failed, the customer tries again. */
  openFailed: { from: "any", to: "failed", ledger: null, events: [] },
  /** The provider's status moved forward (never back, never off credited; STATUS_RANK). */
  advance: { from: { not: ["credited"] }, to: "provider", ledger: null, events: ["payment.failed (socket)"] },
  /** Card or crypto money arrived and is credited (payment-crediting.ts): the ledger key is the payment's own. */
  credit: { from: { not: ["credited"] }, to: "credited", ledger: "fund:squad:<ref> | fund:now:<payment_id>", events: ["payment.credited"] },
  /** A bank transfer's exact amount arrived (bank-transfers.ts; a static account's payment takes what arrived). */
  creditTransfer: { from: ["pending"], to: "credited", ledger: "fund:transfer:<payment id>", events: ["payment.credited"] },
  /** Squad confirmed a card charge of another amount: held for the operator (decision 031). */
  holdCard: { from: ["pending", "amount_mismatch"], to: "review", ledger: null, events: ["payment.failed (socket)"] },
  /** A crypto arrival that cannot be credited on its own holds the invoice whole. */
  holdInvoice: { from: { not: ["credited"] }, to: "review", ledger: null, events: ["payment.failed (socket)"] },
  /** The sweep gives up a card checkout Squad never settled (CARD_GIVE_UP_MS). */
  abandon: { from: ["pending"], to: "abandoned", ledger: null, events: [] },
  /** The sweep gives up a dynamic transfer account nothing arrived in. */
  expire: { from: ["pending"], to: "expired", ledger: null, events: [] },
  /** An operator refuses a card checkout pending too long (console review queue). */
  refuseCard: { from: ["pending"], to: "refused", ledger: null, events: ["payment.failed (socket)"] },
  /** An operator credits a payment held whole for review (payment-reviews.ts). */
  reviewCredit: { from: ["review"], to: "credited", ledger: "fund:review:<review id>", events: ["payment.credited"] },
  /** An operator refuses a payment held whole for review. */
  reviewRefuse: { from: ["review"], to: "refused", ledger: null, events: [] },
} as const satisfies Record<string, { from: From; to: PaymentStatus | "provider" | null; ledger: string | null; events: readonly PaymentEvent[] }>;

export type PaymentMove = keyof typeof PAYMENT_TRANSITIONS;

/** The columns a transition may write besides the status (the status is the table's, or the provider's for `to: "provider"`). */
type PaymentFields = Partial<Omit<typeof payments.$inferInsert, "id" | "userId" | "provider" | "createdAt" | "status">>;

/**
 * The statement of one transition: `update payments set <status, fields, updated_at> where id = <id> and <from>`, for
 * the caller's batch (or run alone when the transition writes nothing else). `providerStatus` is the status a
 * `to: "provider"` transition moves to.
 */
export function paymentTransition(db: Db, move: PaymentMove, paymentId: string, at: number, fields: PaymentFields = {}, providerStatus?: PaymentStatus) {
  const t = PAYMENT_TRANSITIONS[move];
  const to = t.to === "provider" ? providerStatus : t.to;
  if (t.to === "provider" && to === undefined) throw new Error(`payment transition ${move} needs the provider's status`);
  const from: From = t.from;
  const guard = from === "any" ? undefined : "not" in from ? notInArray(payments.status, [...from.not]) : inArray(payments.status, [...from]);
  return db
    .update(payments)
    .set({ ...fields, ...(to ? { status: to } : {}), updatedAt: at })
    .where(and(eq(payments.id, paymentId), guard));
}

/** Statuses after which nothing more is expected (a late 'finished' still credits: the provider has the money). */
export const FINAL = new Set<PaymentStatus>(["credited", "failed", "expired", "refunded", "abandoned", "amount_mismatch", "review", "refused"]);
const STATUS_RANK: Partial<Record<PaymentStatus, number>> = {
  pending: 0,
  waiting: 0,
  confirming: 1,
  confirmed: 2,
  sending: 3,
  partially_paid: 4,
  failed: 5,
  expired: 5,
  refunded: 5,
  abandoned: 5,
  amount_mismatch: 5,
  review: 6,
  refused: 6,
  credited: 6,
};

/**
 * `advance`: moves a payment's status forward only (an out-of-order 'confirming' after 'partially_paid' changes
 * nothing) and never off 'credited'. Conditional on the status we read, so two writers cannot both "win". Returns
 * whether it moved.
 */
export async function moveStatus(deps: PaymentDeps, payment: { id: string; status: PaymentStatus }, status: PaymentStatus): Promise<boolean> {
  if (payment.status === status || payment.status === "credited") return false;
  if ((STATUS_RANK[status] ?? 0) < (STATUS_RANK[payment.status] ?? 0)) return false;
  const result = await deps.db
    .update(payments)
    .set({ status, updatedAt: deps.clock.now() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, payment.status)));
  return (result.meta?.changes ?? 0) > 0;
}
