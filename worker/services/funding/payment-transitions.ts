import { and, eq, sql } from "drizzle-orm";
import { NOW_PAYMENT_STATUSES, type PaymentStatus } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { payments } from "./tables";
import { moneyEntity, move, type MoneyStep, type Moved, type MoveEvent, transition, type LedgerEntry } from "../kernel";

/**
 * The payment as a money entity (docs/decisions/040, 049, 062): the only module that writes the payments table. Its
 * moves below are what runs (services/kernel/money-entity.ts): each is a compare-and-set on the statuses it names,
 * with the ledger row and the outbox event it declares written in the same batch only while the row carries that
 * move's id, so a webhook, a return page, the sweep and an operator racing one another move a payment once and tell it
 * once. card-payments.ts, crypto-payments.ts and bank-transfers.ts open it; payment-crediting.ts credits it.
 */

export type Payment = typeof payments.$inferSelect;
export type NewPayment = Omit<typeof payments.$inferInsert, "status" | "moveId">;

/** The statuses NOWPayments reports (its own words, forward only) and the two card ones Squad's verify reports. */
const PROVIDER_STATUSES = [...NOW_PAYMENT_STATUSES, "abandoned"] as const satisfies readonly PaymentStatus[];
/** Statuses that tell the customer their payment failed (socket and webhooks: payment.failed). */
const FAILURES = new Set<PaymentStatus>(["failed", "abandoned", "expired", "refunded"]);

/**
 * The ledger key of a deposit: `fund:<channel>:<id>`, one scheme for every way money comes in. squad: the card
 * checkout's reference; now: NOWPayments' payment_id; transfer: our payment of the bank transfer; review: the review
 * row an operator credited. The key is unique in the ledger, so each deposit is credited once, whoever asks.
 */
export type DepositChannel = "squad" | "now" | "transfer" | "review";
export const depositKey = (channel: DepositChannel, id: string): string => `fund:${channel}:${id}`;

/** A deposit credit's facts: whose wallet, how much, under which key, and what the customer is told. */
export interface DepositCredit {
  userId: string;
  /** Our payment (the ledger row's ref). */
  paymentId: string;
  /** The id the customer's screens and API know the payment by (Squad's reference, NOWPayments' payment_id). */
  publicId: string;
  channel: DepositChannel;
  /** The key's id: see depositKey. */
  keyId: string;
  amountKobo: number;
  note: string;
  /** The toast's sentence when the credit is not simply the invoice (a shortfall, support's credit). */
  message?: string;
}

/** The deposit's ledger row and its payment.credited event (the review item's credit writes the same pair). */
export const depositLedger = (c: DepositCredit): LedgerEntry => ({
  userId: c.userId,
  key: depositKey(c.channel, c.keyId),
  amountKobo: c.amountKobo,
  kind: "fund",
  note: c.note,
  ref: c.paymentId,
});
export const depositEvent = (c: DepositCredit): MoveEvent => ({
  userId: c.userId,
  dedupe: `payment.credited:${depositKey(c.channel, c.keyId)}`,
  message: { kind: "payment.credited", paymentId: c.publicId, amount: koboToNaira(c.amountKobo), ...(c.message ? { message: c.message } : {}) },
});

/** What a customer is told when their payment fails or is held: the event payment.failed (socket and webhooks). */
export interface Told {
  userId: string;
  publicId: string;
  message: string;
}
const failedEvent = (paymentId: string, status: PaymentStatus, told: Told): MoveEvent => ({
  userId: told.userId,
  dedupe: `payment.failed:${paymentId}:${status}`,
  message: { kind: "payment.failed", paymentId: told.publicId, status, message: told.message },
});

interface Credited {
  credit: DepositCredit;
  actuallyPaid?: string | null;
  /** A static transfer's payment takes what arrived as its amount. */
  amountKobo?: number;
}
const creditedColumns = (i: Credited, at: number) => ({
  creditedAt: at,
  creditedKobo: i.credit.amountKobo,
  updatedAt: at,
  ...(i.actuallyPaid !== undefined ? { actuallyPaid: i.actuallyPaid } : {}),
  ...(i.amountKobo !== undefined ? { amountKobo: i.amountKobo } : {}),
});

export const payment = moneyEntity(
  { name: "payment", table: payments, id: "id", status: "status" },
  {
    /** A checkout, invoice or transfer account is opened (card-payments.ts, crypto-payments.ts, bank-transfers.ts). */
    open: { from: "new", to: "pending", values: (i: { row: NewPayment }) => i.row },
    /** A transfer into a customer's static account opens its own payment, once per arrival (bank-transfers.ts). */
    openArrival: { from: "new", to: "pending", values: (i: { row: NewPayment }) => i.row, once: true },
    /** The provider opened it: its details (Squad's checkout URL, the transfer account). */
    opened: { from: ["pending"], to: null, set: (i: { details: Partial<NewPayment> }, at) => ({ ...i.details, updatedAt: at }) },
    /** NOWPayments created the invoice: its address and amount, and its first status. */
    invoiced: {
      from: ["pending"],
      to: PROVIDER_STATUSES,
      pick: (i: { status: PaymentStatus; details: Partial<NewPayment> }) => i.status,
      set: (i: { status: PaymentStatus; details: Partial<NewPayment> }, at) => ({ ...i.details, updatedAt: at }),
    },
    /** The provider refused to open it (nothing was charged): visible as failed, the customer tries again. */
    openFailed: { from: ["pending"], to: "failed", set: (_i: object, at) => ({ updatedAt: at }) },
    /**
     * The provider's status moved forward (never back, never off credited: moveStatus checks the rank and claims the
     * status it read). A failure is told: payment.failed.
     */
    advance: {
      from: { not: ["credited"] },
      to: PROVIDER_STATUSES,
      pick: (i: Advance) => i.to,
      claim: (i: Advance) => eq(payments.status, i.from),
      set: (_i: Advance, at) => ({ updatedAt: at }),
      event: (i: Advance) => (FAILURES.has(i.to) && i.told ? failedEvent(i.paymentId, i.to, i.told) : null),
    },
    /** Card or crypto money arrived and is credited (payment-crediting.ts creditDeposit): fund:squad | fund:now. */
    credit: { from: { not: ["credited"] }, to: "credited", set: creditedColumns, ledger: (i: Credited) => depositLedger(i.credit), event: (i: Credited) => depositEvent(i.credit) },
    /** A bank transfer's money arrived (only while the payment still waits): fund:transfer:<payment>. */
    creditTransfer: { from: ["pending"], to: "credited", set: creditedColumns, ledger: (i: Credited) => depositLedger(i.credit), event: (i: Credited) => depositEvent(i.credit) },
    /** Squad confirmed a card charge of another amount: held for the operator (decision 031), the customer told. */
    holdCard: { from: ["pending", "amount_mismatch"], to: "review", set: (i: Held, at) => ({ actuallyPaid: i.actuallyPaid, updatedAt: at }), event: (i: Held) => failedEvent(i.paymentId, "review", i.told) },
    /** A crypto arrival that cannot be credited on its own holds the invoice whole, the customer told. */
    holdInvoice: { from: { not: ["credited"] }, to: "review", set: (i: Held, at) => ({ actuallyPaid: i.actuallyPaid, updatedAt: at }), event: (i: Held) => failedEvent(i.paymentId, "review", i.told) },
    /** The sweep gives up a card checkout Squad never settled (CARD_GIVE_UP_MS). */
    abandon: { from: ["pending"], to: "abandoned", set: (_i: object, at) => ({ updatedAt: at }) },
    /** The sweep gives up a dynamic transfer account nothing arrived in. */
    expire: { from: ["pending"], to: "expired", set: (_i: object, at) => ({ updatedAt: at }) },
    /** An operator refuses a card checkout pending too long (console review queue), the customer told. */
    refuseCard: { from: ["pending"], to: "refused", set: (_i: Told, at) => ({ updatedAt: at }), event: (i: Told & { paymentId: string }) => failedEvent(i.paymentId, "refused", i) },
    /**
     * A review an operator credited moves the payment it is about (held whole, or a bank transfer that waits): credited
     * for what was credited. The review item carries the ledger row and the event (payment-reviews.ts).
     */
    creditReviewed: { from: ["review", "pending", "expired"], to: "credited", set: (i: { amountKobo: number }, at) => ({ creditedAt: at, creditedKobo: i.amountKobo, updatedAt: at }) },
    /** A review an operator refused closes the payment it is about (the review item tells the customer). */
    refuseReviewed: { from: ["review", "pending", "expired"], to: "refused", set: (_i: object, at) => ({ updatedAt: at }) },
  },
);

interface Advance {
  paymentId: string;
  from: PaymentStatus;
  to: PaymentStatus;
  told: Told | null;
}
interface Held {
  paymentId: string;
  actuallyPaid: string | null;
  told: Told;
}

/** Opens a payment row: its statement for the caller's batch (a cost-limit hit rides with it: `when`). */
export function openPayment(db: Db, row: NewPayment, at: number, when?: ReturnType<typeof eq>): MoneyStep<Moved> {
  return move(db, payment.open, row.id, { row }, at, { when });
}

/**
 * NOWPayments refused an invoice's amount before anything existed upstream: the row goes, as if the minimum check had
 * refused it (crypto-payments.ts). Only a row still pending with no upstream payment.
 */
export async function discardUnopenedInvoice(db: Db, paymentId: string): Promise<void> {
  await db.delete(payments).where(and(eq(payments.id, paymentId), eq(payments.status, "pending"), sql`${payments.providerPaymentId} IS NULL`));
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
 * nothing) and never off 'credited', claiming the status we read, so two writers cannot both "win". A failure is told
 * (`told`) in the same batch. Returns whether it moved.
 */
export async function moveStatus(db: Db, at: number, current: { id: string; status: PaymentStatus }, status: PaymentStatus, told: Told | null = null): Promise<boolean> {
  if (current.status === status || current.status === "credited") return false;
  if ((STATUS_RANK[status] ?? 0) < (STATUS_RANK[current.status] ?? 0)) return false;
  if (!(PROVIDER_STATUSES as readonly PaymentStatus[]).includes(status)) return false;
  const r = await transition(db, payment.advance, current.id, { paymentId: current.id, from: current.status, to: status, told }, at);
  return r.moved;
}
