/**
 * The Recent Activities rules (spec sections 4 and 5): which transactions show, in what order, with which sign, colour
 * and date text. Kept free of React so each rule is tested on its own.
 */

export type TransactionStatus = "successful" | "refunded" | "pending" | "failed";

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

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The spec's date text: month abbreviation, day, and HH:MM read from the raw timestamp text with AM before noon and
 * PM after, e.g. "2024-03-05T14:07:09Z" -> "Mar 5, 14:07 PM". Reading the text (not a local Date) keeps the figure
 * identical to what the server stored whatever the viewer's time zone.
 */
export function formatTransactionDate(raw: string | null | undefined): string {
  const m = raw ? /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(raw) : null;
  if (!m) return "—";
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) return "—";
  const hour = Number(m[4]);
  return `${month} ${Number(m[3])}, ${m[4]}:${m[5]} ${hour < 12 ? "AM" : "PM"}`;
}
