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
};

/** The statuses history shows and the filter offers; pending is deliberately absent from both. */
export const HISTORY_STATUSES = ["successful", "refunded", "failed"] as const;
export type HistoryFilter = (typeof HISTORY_STATUSES)[number] | "all";

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
        (HISTORY_STATUSES as readonly string[]).includes(tx.status) &&
        tx.amount !== null &&
        tx.amount !== undefined,
    )
    .sort((a, b) => timeOf(b) - timeOf(a));
}

export function applyFilter(list: readonly Transaction[], filter: HistoryFilter): Transaction[] {
  return filter === "all" ? [...list] : list.filter((tx) => tx.status === filter);
}

export type Direction = "credit" | "refund" | "debit";

/** A successful deposit is a credit; a refunded purchase is shown orange with a minus; everything else is a debit. */
export function directionOf(tx: Pick<Transaction, "status" | "note">): Direction {
  if (tx.status === "successful" && /deposit/i.test(tx.note ?? "")) return "credit";
  if (tx.status === "refunded") return "refund";
  return "debit";
}

/**
 * What the row means for the wallet, in words, beside the spec's sign and colour (which alone read a failed deposit as
 * money taken and a refund as a charge): a failed movement moved nothing, a refund came back.
 */
export function plainMeaning(tx: Pick<Transaction, "status" | "note">): string | null {
  if (tx.status === "refunded") return "Returned to your wallet";
  if (tx.status === "failed" || statusStyle(tx.status) === "failed") return "No money moved";
  if (tx.status === "pending") return "Not settled yet";
  return null;
}

/** The spec's date text lives in web/lib/dates.ts (the one date format of the app). */
export { formatDateTime as formatTransactionDate } from "../../lib/dates";
