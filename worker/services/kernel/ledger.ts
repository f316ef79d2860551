import { and, eq, exists, sql, type SQL } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { ledger, users } from "../../db/tables";
import { AppError, isCheckViolation } from "../../lib/errors";

export type LedgerKind = (typeof ledger.$inferInsert)["kind"];

export interface LedgerEntry {
  userId: string;
  /** Idempotency key: fund:squad:<ref>, fund:now:<payment_id>, buy:<orderId>, refund:<orderId>, rent:<id>, admin:<id> ... */
  key: string;
  /** Signed kobo: credits positive, debits negative. Never zero. */
  amountKobo: number;
  kind: LedgerKind;
  note: string;
  ref?: string | null;
}

/**
 * The statement that appends one ledger row. The trigger in migrations/0001 moves the balance in the same statement,
 * so put it in the same db.batch() as the state change it pays for (an order row, a status update): the batch is atomic.
 * A repeated key is a no-op (ON CONFLICT DO NOTHING), which is what makes credits and refunds exactly-once.
 */
export function ledgerInsert(db: Db, entry: LedgerEntry) {
  assertAmount(entry);
  return db
    .insert(ledger)
    .values({
      userId: entry.userId,
      key: entry.key,
      amountKobo: entry.amountKobo,
      kind: entry.kind,
      note: entry.note,
      ref: entry.ref ?? null,
      createdAt: Date.now(),
    })
    .onConflictDoNothing({ target: ledger.key });
}

/**
 * The guarded form of ledgerInsert, for a movement that must follow a state change in the same batch: the row is
 * written only if `guard` (an SQL condition, typically "the row now holds the status the compare-and-set above just
 * gave it"; several are ANDed) is true when the statement runs. An INSERT ... SELECT, so a transition and its refund or charge stay one
 * atomic batch whatever raced it: a compare-and-set that moved nothing leaves the guard false and no money moves.
 * Same trigger, same ON CONFLICT(key) DO NOTHING (never INSERT OR IGNORE, which would skip the balance CHECK).
 */
export function guardedLedgerInsert(db: Db, entry: LedgerEntry, ...guards: [SQL, ...SQL[]]) {
  assertAmount(entry);
  return db
    .insert(ledger)
    .select(
      db
        // drizzle's INSERT ... SELECT wants every column in table order; NULL lets SQLite assign the id. Selected from
        // the entry's own user row, so the statement has a FROM and a missing user writes nothing.
        .select({
          id: sql<number>`NULL`.as("id"),
          userId: sql<string>`${users.id}`.as("user_id"),
          key: sql<string>`${entry.key}`.as("key"),
          amountKobo: sql<number>`${entry.amountKobo}`.as("amount_kobo"),
          kind: sql<LedgerKind>`${entry.kind}`.as("kind"),
          note: sql<string>`${entry.note}`.as("note"),
          ref: sql<string | null>`${entry.ref ?? null}`.as("ref"),
          createdAt: sql<number>`${Date.now()}`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, entry.userId), ...guards)),
    )
    .onConflictDoNothing({ target: ledger.key });
}

/**
 * A guard that holds once the ledger row `key` exists: what an event reporting that movement is written under
 * (services/kernel/outbox.ts outboxInsert), in the same batch, after the row's own insert.
 */
export function ledgerRowWritten(db: Db, key: string): SQL {
  return exists(db.select({ one: sql`1` }).from(ledger).where(eq(ledger.key, key)));
}

function assertAmount(entry: LedgerEntry): void {
  if (!Number.isSafeInteger(entry.amountKobo) || entry.amountKobo === 0) {
    throw new Error(`ledger amount must be a non-zero integer of kobo, got ${entry.amountKobo}`);
  }
}

/** Appends one entry on its own. Returns whether it was applied now (false: the key was already in the ledger). */
export async function postEntry(db: Db, entry: LedgerEntry): Promise<{ applied: boolean }> {
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

/** Whether the key is already in the ledger (e.g. to report a refund's state). */
export async function hasEntry(db: Db, key: string): Promise<boolean> {
  const rows = await db.select({ id: ledger.id }).from(ledger).where(sql`${ledger.key} = ${key}`).limit(1);
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
