import { and, desc, eq, ne } from "drizzle-orm";
import { koboToNaira } from "../../schema/money";
import type { Transaction } from "../../schema/wallet";
import type { PaymentStatus, TransactionStatus } from "../../schema/constants";
import type { Db } from "../db/client";
import type { UserRead } from "./sessions";
import { ledger, payments } from "../db/tables";
import { CARD_DEPOSIT_NOTE, cryptoDepositNote } from "./payments";
import { SUPPORT_CREDIT_NOTE, SUPPORT_DEBIT_NOTE } from "../db/admin-sql";

/**
 * The spec's transaction history, projected from the ledger (money that moved) and the payment attempts (money that
 * has not: pending, failed, expired). Rules:
 * - a deposit, referral bonus or admin movement is one 'successful' row with its note;
 * - a purchase (buy:<id>) or rental (rent:<id>) is 'successful', or 'refunded' when its refund row exists; the refund
 *   row itself is not listed, so a refunded purchase appears once;
 * - a credited payment appears through its ledger row only; other attempts appear as 'pending' or 'failed'.
 * Amounts are positive naira; newest first.
 */

/** How far back the history goes (the screen pages through 10 at a time; thousands of rows are never needed). */
const HISTORY_LIMIT = 500;

const REFUND_OF: Record<string, "buy" | "rent"> = { refund: "buy", rent_refund: "rent" };

// 'review': a crypto payment that did not match its invoice, or a card charged another amount, waits for an operator
// (services/payment-reviews.ts).
const PENDING_PAYMENT_STATUSES = new Set<PaymentStatus>(["pending", "waiting", "confirming", "confirmed", "sending", "review"]);

/**
 * The history as a read for readAsSignedInUser (middleware/auth.ts): the route's session check and these two queries
 * go to D1 in one batch, one round trip for the dashboard's most frequent call.
 */
export function transactionsRead(db: Db, userId: string) {
  const queries = [
    db
      .select({ id: ledger.id, key: ledger.key, amountKobo: ledger.amountKobo, kind: ledger.kind, note: ledger.note, ref: ledger.ref, createdAt: ledger.createdAt })
      .from(ledger)
      .where(eq(ledger.userId, userId))
      .orderBy(desc(ledger.createdAt), desc(ledger.id))
      .limit(HISTORY_LIMIT),
    db
      .select({ id: payments.id, provider: payments.provider, status: payments.status, amountKobo: payments.amountKobo, payCurrency: payments.payCurrency, createdAt: payments.createdAt })
      .from(payments)
      .where(and(eq(payments.userId, userId), ne(payments.status, "credited")))
      .orderBy(desc(payments.createdAt))
      .limit(HISTORY_LIMIT),
  ] as const;
  return {
    queries: queries as unknown as UserRead<Transaction[]>["queries"],
    shape: (results: unknown[], user: { id: string }) =>
      projectHistory(user.id, results[0] as Awaited<(typeof queries)[0]>, results[1] as Awaited<(typeof queries)[1]>),
  } satisfies UserRead<Transaction[]>;
}

type LedgerRow = { id: number; key: string; amountKobo: number; kind: string; note: string; ref: string | null; createdAt: number };
type AttemptRow = { id: string; provider: string; status: PaymentStatus; amountKobo: number; payCurrency: string | null; createdAt: number };

/**
 * Manual entries written before issue 28 carried the operator's reason in their note ("Manual deposit adjustment:
 * <reason>"); the ledger is append-only, so the customer is shown the neutral label instead. Newer entries already
 * say "Adjustment by support" (db/admin-sql.ts supportNote) and are shown as written.
 */
function customerNote(row: LedgerRow): string {
  if (row.kind === "admin" && /^Manual (deposit adjustment|debit):/.test(row.note)) return row.amountKobo > 0 ? SUPPORT_CREDIT_NOTE : SUPPORT_DEBIT_NOTE;
  return row.note;
}

function projectHistory(userId: string, ledgerRows: LedgerRow[], attemptRows: AttemptRow[]): Transaction[] {
  // Purchases and rentals whose money came back: "buy:<ref>" / "rent:<ref>" keyed by the refunded movement.
  const refunded = new Set<string>();
  for (const row of ledgerRows) {
    const of = REFUND_OF[row.kind];
    if (of && row.ref) refunded.add(`${of}:${row.ref}`);
  }

  const out: (Transaction & { sortKey: number })[] = [];
  for (const row of ledgerRows) {
    if (REFUND_OF[row.kind]) continue;
    let status: TransactionStatus = "successful";
    if ((row.kind === "buy" || row.kind === "rent") && row.ref && refunded.has(`${row.kind}:${row.ref}`)) status = "refunded";
    out.push({
      id: row.key,
      user_id: userId,
      status,
      amount: koboToNaira(Math.abs(row.amountKobo)),
      note: customerNote(row),
      created_at: new Date(row.createdAt).toISOString(),
      sortKey: row.createdAt,
    });
  }
  for (const attempt of attemptRows) {
    out.push({
      id: attempt.id,
      user_id: userId,
      status: PENDING_PAYMENT_STATUSES.has(attempt.status) ? "pending" : "failed",
      amount: koboToNaira(attempt.amountKobo),
      note: attempt.provider === "squad" ? CARD_DEPOSIT_NOTE : cryptoDepositNote(attempt.payCurrency),
      created_at: new Date(attempt.createdAt).toISOString(),
      sortKey: attempt.createdAt,
    });
  }
  // Stable: equal timestamps keep the ledger's own newest-first order.
  out.sort((a, b) => b.sortKey - a.sortKey);
  return out.map(({ sortKey: _sortKey, ...t }) => t);
}
