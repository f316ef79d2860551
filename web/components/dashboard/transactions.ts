/**
 * The Recent Activities rules (spec sections 4 and 5): which transactions show, in what order, with which sign, colour
 * and date text. Kept free of React so each rule is tested on its own.
 */
import type { TransactionStatus } from "../../../schema/constants";

/**
 * The looser row these rules accept (ids and amounts as numbers or strings, null notes and dates); schema/wallet.ts's
 * Transaction, what GET /api/get-transaction answers, fits it.
 */
export type Transaction = {
  id: string | number;
  user_id: string | number;
  status: string;
  amount: number | string | null;
  note: string | null;
  created_at: string | null;
  /** Issue 28: what arrived, what was credited and what happens next, for a deposit that did not match its invoice. */
  detail?: string;
  /** Which way the money went, as the server's ledger says (schema/wallet.ts). */
  direction?: "in" | "out" | "none";
};

/** The statuses the filter offers (spec: pending is not in the filter menu). */
export const HISTORY_STATUSES = ["successful", "refunded", "failed"] as const;
export type HistoryFilter = (typeof HISTORY_STATUSES)[number] | "all";
/**
 * The statuses history shows. Issue 28 adds pending to the spec's three: a crypto payment held for support's check
 * must be visible ("received, being checked by support"), not missing until decided (docs/decisions/039).
 */
const SHOWN_STATUSES: readonly string[] = [...HISTORY_STATUSES, "pending"];

export const PAGE_SIZE = 10;

const STATUS_LABELS: Record<TransactionStatus, string> = {
  successful: "Successful",
  refunded: "Refunded",
  pending: "Pending",
  failed: "Failed",
};

/** Unknown statuses render in the failed style, so a typo on the server never looks like money arrived. */
export function statusStyle(status: string): TransactionStatus {
  return status in STATUS_LABELS ? (status as TransactionStatus) : "failed";
}

export function statusLabel(status: string): string {
  return status in STATUS_LABELS ? STATUS_LABELS[status as TransactionStatus] : status ? status[0].toUpperCase() + status.slice(1) : "Failed";
}

function timeOf(tx: Transaction): number {
  const t = tx.created_at ? Date.parse(tx.created_at) : Number.NaN;
  // A missing or unreadable date counts as the oldest.
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/**
 * The client filter: the current user's rows only, history statuses only, a present amount; newest first.
 * The server already scopes to the caller, this keeps a stale cache from another account off the screen.
 */
export function historyTransactions(list: readonly Transaction[] | null | undefined, userId: string | null | undefined): Transaction[] {
  if (!list || userId == null) return [];
  return list
    .filter(
      (tx) =>
        String(tx.user_id) === String(userId) &&
        SHOWN_STATUSES.includes(tx.status) &&
        tx.amount !== null &&
        tx.amount !== undefined,
    )
    .sort((a, b) => timeOf(b) - timeOf(a));
}

export function applyFilter(list: readonly Transaction[], filter: HistoryFilter): Transaction[] {
  return filter === "all" ? [...list] : list.filter((tx) => tx.status === filter);
}

export type Direction = "credit" | "refund" | "debit" | "none";

/**
 * Signs follow the money (issue 28, over the spec's "a refunded one is orange with a minus"): a credit and a refund
 * are +, a purchase is -, and a failed or unsettled row moved nothing (no sign, ₦0.00, "No money moved"). The server's
 * `direction` (the ledger's own sign) decides when present; an older answer falls back on status and note.
 */
export function directionOf(tx: Pick<Transaction, "status" | "note" | "direction">): Direction {
  // Issue 43: a refunded purchase is two rows, its charge (money out) and its return (money in).
  if (tx.status === "refunded") return tx.direction === "out" ? "debit" : "refund";
  if (tx.status !== "successful") return "none";
  if (tx.direction === "in") return "credit";
  if (tx.direction === "out") return "debit";
  return /deposit|bonus|credit/i.test(tx.note ?? "") ? "credit" : "debit";
}

/** The sign drawn before the amount: + for money in, - for money out, none when nothing moved. */
export function signOf(direction: Direction): string {
  return direction === "credit" || direction === "refund" ? "+" : direction === "debit" ? "-" : "";
}

/** The figure shown: what moved; a failed row moved nothing, so ₦0 (the attempted amount is said in words). */
export function movedAmount(tx: Pick<Transaction, "status" | "amount">): number {
  return statusStyle(tx.status) === "failed" ? 0 : Math.abs(Number(tx.amount) || 0);
}

/**
 * What the row means for the wallet, in words, beside the spec's sign and colour (which alone read a failed deposit as
 * money taken and a refund as a charge): a failed movement moved nothing, a refund came back.
 */
export function plainMeaning(tx: Pick<Transaction, "status" | "note" | "direction">): string | null {
  if (tx.status === "refunded") return tx.direction === "out" ? "Charged, then returned" : "Returned to your wallet";
  if (tx.status === "failed" || statusStyle(tx.status) === "failed") return "No money moved";
  if (tx.status === "pending") return "Not credited yet";
  return null;
}

