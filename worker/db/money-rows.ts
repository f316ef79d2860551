import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import { alias, type BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { RealtimeMessage } from "../../schema/realtime";
import { ledger, outboxEvents, users } from "./tables";

/**
 * The two statements every money change is made of, in one place for the worker (services/kernel/ledger.ts and
 * outbox.ts re-export them) and the operator CLI (db/admin-sql.ts, which runs on wrangler's D1 binding and so may not
 * load the worker's runtime): a ledger row and the outbox event that tells it. scripts/money-writers.ts refuses a write
 * to `ledger` or `outbox_events` anywhere else (decisions 001, 040, 062).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = BaseSQLiteDatabase<"async", any, any>;

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

/** A ledger entry with its time: the clock of the flow that writes it (never the database's or the system's own). */
export type LedgerRow = LedgerEntry & { at: number };

function assertAmount(entry: LedgerEntry): void {
  if (!Number.isSafeInteger(entry.amountKobo) || entry.amountKobo === 0) {
    throw new Error(`ledger amount must be a non-zero integer of kobo, got ${entry.amountKobo}`);
  }
}

/**
 * The statement that appends one ledger row. The trigger in migrations/0001 moves the balance in the same statement,
 * so put it in the same db.batch() as the state change it pays for (an order row, a status update): the batch is atomic.
 * A repeated key is a no-op (ON CONFLICT DO NOTHING), which is what makes credits and refunds exactly-once.
 */
export function ledgerInsert(db: AnyDb, entry: LedgerRow) {
  assertAmount(entry);
  return db
    .insert(ledger)
    .values({ userId: entry.userId, key: entry.key, amountKobo: entry.amountKobo, kind: entry.kind, note: entry.note, ref: entry.ref ?? null, createdAt: entry.at })
    .onConflictDoNothing({ target: ledger.key });
}

/**
 * The guarded form of ledgerInsert, for a movement that must follow a state change in the same batch: the row is
 * written only if every guard (an SQL condition, typically "the row carries the id of the move just made") is true
 * when the statement runs. An INSERT ... SELECT, so a transition and its refund or charge stay one atomic batch
 * whatever raced it: a compare-and-set that moved nothing leaves the guard false and no money moves. Same trigger,
 * same ON CONFLICT(key) DO NOTHING (never INSERT OR IGNORE, which would skip the balance CHECK).
 */
export function guardedLedgerInsert(db: AnyDb, entry: LedgerRow, ...guards: [SQL, ...SQL[]]) {
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
          createdAt: sql<number>`${entry.at}`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, entry.userId), ...guards)),
    )
    .onConflictDoNothing({ target: ledger.key });
}

/** A guard that holds once the ledger row `key` exists. */
export function ledgerRowWritten(_db: AnyDb, key: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${ledger} WHERE ${ledger.key} = ${key})`;
}

/** A realtime message as the outbox stores it: a balance it leaves out is the wallet as the writing batch left it. */
export type OutboxMessage = RealtimeMessage extends infer M
  ? M extends { balance: number }
    ? Omit<M, "balance"> & { balance?: number }
    : M
  : never;

export interface OutboxEvent {
  userId: string;
  /**
   * What makes this happening one event: writing it again is a no-op. A money event is keyed by its ledger row
   * (`payment.credited:fund:squad:<ref>`), a code by order and code, a rental's end by the rental.
   */
  dedupe: string;
  message: OutboxMessage;
  /** The flow's clock: the event's time, and the order webhooks are sent in. */
  at: number;
}

/**
 * The statement that writes one event: put it in the same db.batch() as the change it reports, after its ledger row
 * (the stored balance is read in this statement). An INSERT ... SELECT from the customer's row, written only while every
 * guard holds, exactly like guardedLedgerInsert: a compare-and-set that moved nothing leaves the guard false and no
 * event is written. ON CONFLICT(dedupe_key) DO NOTHING makes a repeated happening one event.
 */
export function outboxInsert(db: AnyDb, event: OutboxEvent, ...guards: SQL[]) {
  const id = `ev_${crypto.randomUUID().replaceAll("-", "")}`;
  return db
    .insert(outboxEvents)
    .select(
      db
        // Every column in table order (drizzle's INSERT ... SELECT), from the customer's own row.
        .select({
          id: sql<string>`${id}`.as("id"),
          userId: sql<string>`${users.id}`.as("user_id"),
          kind: sql<string>`${event.message.kind}`.as("kind"),
          message: sql<string>`${JSON.stringify(event.message)}`.as("message"),
          dedupeKey: sql<string>`${event.dedupe}`.as("dedupe_key"),
          balanceKobo: sql<number>`${users.balanceKobo}`.as("balance_kobo"),
          createdAt: sql<number>`${event.at}`.as("created_at"),
          deliveredAt: sql<number | null>`NULL`.as("delivered_at"),
        })
        .from(users)
        .where(and(eq(users.id, event.userId), ...guards)),
    )
    .onConflictDoNothing({ target: outboxEvents.dedupeKey });
}

/**
 * The referral reward (accounts/referrals.ts decides its amount): `rewardKobo` to the referred customer's referrer,
 * once (ledger key referral:<referred user id>), for their FIRST deposit only. Put it in the deposit credit's batch
 * AFTER the deposit's own ledger row (`depositKey`): it is written only while that row is the customer's one 'fund'
 * row and every guard holds (the credit's move was made by this batch), so a replay, a second deposit or a credit that
 * lost its race pays nothing. No referrer, no row: the INSERT ... SELECT selects nothing.
 */
export function referralRewardInsert(db: AnyDb, reward: { referredUserId: string; rewardKobo: number; paymentId: string; depositKey: string; at: number }, ...guards: SQL[]) {
  const referrer = alias(users, "referrer");
  return db
    .insert(ledger)
    .select(
      db
        // drizzle's INSERT ... SELECT wants every column in table order; NULL lets SQLite assign the id.
        .select({
          id: sql<number>`NULL`.as("id"),
          userId: sql<string>`${referrer.id}`.as("user_id"),
          key: sql<string>`'referral:' || ${users.id}`.as("key"),
          amountKobo: sql<number>`${reward.rewardKobo}`.as("amount_kobo"),
          kind: sql<"referral">`'referral'`.as("kind"),
          note: sql<string>`'Referral bonus deposit from ' || ${users.username}`.as("note"),
          ref: sql<string>`${reward.paymentId}`.as("ref"),
          createdAt: sql<number>`${reward.at}`.as("created_at"),
        })
        .from(users)
        .innerJoin(referrer, and(eq(referrer.id, users.referredBy), ne(referrer.id, users.id)))
        .where(
          and(
            eq(users.id, reward.referredUserId),
            sql`NOT EXISTS (SELECT 1 FROM ${ledger} WHERE ${ledger.userId} = ${users.id} AND ${ledger.kind} = 'fund' AND ${ledger.key} <> ${reward.depositKey})`,
            ...guards,
          ),
        ),
    )
    .onConflictDoNothing({ target: ledger.key });
}
