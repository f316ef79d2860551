import { eq, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { ledgerInsert, type LedgerRow } from "../../db/money-rows";
import { ledger, users } from "./tables";
import { AppError, isCheckViolation } from "../../lib/errors";

export { guardedLedgerInsert, type LedgerEntry, type LedgerKind, ledgerInsert, type LedgerRow, ledgerRowWritten, referralRewardInsert } from "../../db/money-rows";

/** Appends one entry on its own. Returns whether it was applied now (false: the key was already in the ledger). */
export async function postEntry(db: Db, entry: LedgerRow): Promise<{ applied: boolean }> {
  try {
    const result = await ledgerInsert(db, entry).run();
    return { applied: (result.meta?.changes ?? 0) > 0 };
  } catch (err) {
    throw asInsufficientBalance(err);
  }
}

/** Maps the balance CHECK failing inside a batch to the customer's message; other errors pass through unchanged. */
export function asInsufficientBalance(err: unknown): unknown {
  if (isCheckViolation(err, "users_balance_non_negative") || isCheckViolation(err, "balance_kobo")) {
    return new AppError("INSUFFICIENT_BALANCE", "Insufficient balance");
  }
  return err;
}

/**
 * The refusal of a purchase the wallet cannot pay, with what is missing (issue 28: "You need ₦880 more" and a Fund
 * wallet button prefilled with it): `shortfall`, `balance` and `price` in naira beside the spec's message. The balance
 * is read after the refusal, so the figure is today's, not the one a client showed.
 */
export async function insufficientBalanceFor(db: Db, userId: string, priceKobo: number): Promise<AppError> {
  const [row] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, userId)).limit(1);
  const balanceKobo = row?.balanceKobo ?? 0;
  return new AppError("INSUFFICIENT_BALANCE", "Insufficient balance", {
    shortfall: koboToNaira(Math.max(1, priceKobo - balanceKobo)),
    balance: koboToNaira(balanceKobo),
    price: koboToNaira(priceKobo),
  });
}

/** The signed amount of the ledger row `key`, or null when there is none. */
export async function ledgerAmount(db: Db, key: string): Promise<number | null> {
  const [row] = await db.select({ amountKobo: ledger.amountKobo }).from(ledger).where(eq(ledger.key, key)).limit(1);
  return row?.amountKobo ?? null;
}

/** Whether the key is already in the ledger (e.g. to report a refund's state). */
export async function hasEntry(db: Db, key: string): Promise<boolean> {
  const rows = await db.select({ id: ledger.id }).from(ledger).where(eq(ledger.key, key)).limit(1);
  return rows.length > 0;
}

export interface ReconciliationReport {
  users: number;
  mismatches: { userId: string; balanceKobo: number; ledgerKobo: number }[];
  negative: { userId: string; balanceKobo: number }[];
  ok: boolean;
}

/** Proves balance = sum(ledger) and balance >= 0 for every user. The operator CLI and the tests run it. */
export async function reconcileLedger(db: Db): Promise<ReconciliationReport> {
  const rows = await db.all<{ user_id: string; balance_kobo: number; ledger_kobo: number }>(sql`
    SELECT u.id AS user_id, u.balance_kobo AS balance_kobo, COALESCE(SUM(l.amount_kobo), 0) AS ledger_kobo
      FROM users u LEFT JOIN ledger l ON l.user_id = u.id
     GROUP BY u.id`);
  const mismatches = rows
    .filter((r) => r.balance_kobo !== r.ledger_kobo)
    .map((r) => ({ userId: r.user_id, balanceKobo: r.balance_kobo, ledgerKobo: r.ledger_kobo }));
  const negative = rows.filter((r) => r.balance_kobo < 0).map((r) => ({ userId: r.user_id, balanceKobo: r.balance_kobo }));
  return { users: rows.length, mismatches, negative, ok: mismatches.length === 0 && negative.length === 0 };
}
