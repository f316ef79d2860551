import { and, eq, getTableColumns, getTableName, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { rowAsSelect } from "../../db/insert-select";
import { guardedLedgerInsert, type LedgerEntry, outboxInsert, type OutboxMessage } from "../../db/money-rows";

/**
 * The money core, executable (issue 42, docs/decisions/062-money-core-as-executable-declarations.md). A money entity
 * (an SMS order, a chain, a rental, a payment, a bank-transfer deposit, a review item) is one module that declares its
 * moves with `moneyEntity(...)`: from which statuses, to which, the other columns it writes, the ledger row and the
 * outbox event it writes with them. `move(...)` turns one declared move into the statements of one D1 batch, so the
 * declaration is what runs and a table and the code cannot disagree; `runBatch(...)` runs steps and answers each by
 * name (never `results[2]`, never a cast). scripts/money-writers.ts refuses a write to the entity's table anywhere but
 * its module.
 *
 * "This call moved it" is a fact in the database, never a timestamp match: the move writes a fresh id into the row's
 * `move_id`, and every statement written with it (its ledger row, its event, another entity's move that follows it) is
 * guarded on the row holding that id. So a batch that lost the race (its compare-and-set matched no row) writes nothing
 * else, whatever order its statements run in, and a replay finds the ledger key taken and its event's dedupe key too.
 */

type Status = string;

/** One outbox event of a move: who is told, what makes it one happening (its dedupe key), and the message. */
export interface MoveEvent {
  userId: string;
  dedupe: string;
  message: OutboxMessage;
  /** Written only while this holds too (a ledger row declared with `onlyIf`: its event is guarded on that row). */
  onlyIf?: SQL;
}

/**
 * A ledger row of a move. `onlyIf`: a row the move may go without (a developer's share reversed only while its wallet
 * holds it, decision 075): written only while this holds too, and left out of `ledgerWritten`, so the move itself never
 * depends on it.
 */
export type MoveLedgerEntry = LedgerEntry & { onlyIf?: SQL };

/**
 * One declared move. `from`: the statuses it may leave ("any": a detail written whatever the status; "new": the move
 * that writes the row). `to`: the status it leaves (null: the status stays; a list: the one `pick` names). The functions take the move's input (and
 * the clock's time): `set` the other columns, `values` the new row of a "new" move, `claim` conditions on the row beside
 * its status (a compare-and-set on an expiry, a count), `ledger` the row the move pays or refunds, `event` the outbox
 * event it writes (after the ledger row: its balance is the wallet the batch leaves). `tells` names socket-only pushes
 * the caller sends after the batch (documentation: they carry no money and no webhook).
 */
export interface MoveSpec<S extends Status, I, T extends SQLiteTable, K extends string = never> {
  from: readonly S[] | { not: readonly S[] } | "any" | "new";
  /** A list: one of these, the one `pick` names for this call (a provider's own status, forward only). */
  to: S | readonly S[] | null;
  pick?: (input: I) => S;
  set?: (input: I, at: number) => SQLiteUpdateSetSource<T>;
  /** A "new" move's row (its status and move id are the move's own). */
  values?: (input: I, at: number) => Omit<T["$inferInsert"], K | "moveId">;
  claim?: (input: I) => SQL | undefined;
  /** Its ledger row, or rows (a kept order's refund and its reseller's margin reversal: issue 46); null ones are left out. */
  ledger?: (input: I) => MoveLedgerEntry | readonly (MoveLedgerEntry | null)[] | null;
  /** Its outbox event, or events (a kept order's margin tells the reseller's wallet too); null ones are left out. */
  event?: (input: I, at: number) => MoveEvent | readonly (MoveEvent | null)[] | null;
  tells?: readonly string[];
  /** A "new" move whose row may exist already (a replayed notice): writing it again is a no-op, not an error. */
  once?: boolean;
}

export interface EntityDef<T extends SQLiteTable> {
  /** What the lint and the walk call it ("payment", "transfer deposit"). */
  name: string;
  table: T;
  /** The primary key's field and the status's field. */
  id: keyof T["$inferSelect"] & string;
  status: keyof T["$inferSelect"] & string;
}

/** A declared move bound to its entity: what `move()` and `transition()` take. */
export interface Move<S extends Status, I, T extends SQLiteTable> {
  readonly entity: EntityDef<T>;
  readonly name: string;
  /** (Its "new" row's fields checked where it was declared; here any row.) */
  readonly spec: MoveSpec<S, I, T, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InputOf<M> = M extends MoveSpec<any, infer I, any, any> ? I : never;
/** The statuses of an entity: its status column's values. */
type StatusOf<T extends SQLiteTable, K extends keyof T["$inferSelect"]> = T["$inferSelect"][K] & Status;

export type Entity<S extends Status, T extends SQLiteTable, M> = {
  readonly [K in keyof M]: Move<S, InputOf<M[K]>, T>;
};

const declared: { name: string; table: SQLiteTable; moves: string[] }[] = [];

/**
 * Declares a money entity: its table, its id and status fields, and its moves (statuses checked against the status
 * column's own). Returns the moves by name (`payment.credit`), each bound to the entity.
 */
export function moneyEntity<
  T extends SQLiteTable,
  K extends keyof T["$inferSelect"] & string,
  const M extends Record<string, MoveSpec<StatusOf<T, K>, never, T, K>>,
>(def: EntityDef<T> & { status: K }, moves: M): Entity<StatusOf<T, K>, T, M> {
  const bound: Record<string, Move<StatusOf<T, K>, never, T>> = {};
  // A "new" move's row type names its entity's status field (K); bound, the move takes any row its declaration allowed.
  for (const [name, spec] of Object.entries(moves)) bound[name] = { entity: def, name, spec: spec as MoveSpec<StatusOf<T, K>, never, T, string> };
  declared.push({ name: def.name, table: def.table, moves: Object.keys(moves) });
  return bound as Entity<StatusOf<T, K>, T, M>;
}

/** Every entity declared so far with its moves (the walk test reads it: every declared move is exercised). */
export function declaredEntities(): readonly { name: string; tableName: string; moves: string[] }[] {
  return declared.map(({ name, table, moves }) => ({ name, tableName: getTableName(table), moves }));
}

// ---------------------------------------------------------------------------------------------------------------------
// Steps and batches

/** Statements for one batch and how to read what they did. */
export interface MoneyStep<R> {
  readonly statements: BatchItem<"sqlite">[];
  read(results: readonly unknown[]): R;
}

/** What one move did: whether it moved the row, wrote its ledger row and its event; the id it wrote into the row. */
export interface Moved {
  moved: boolean;
  ledgerWritten: boolean;
  eventWritten: boolean;
  moveId: string;
}

/** A move's statements, with the guard that holds once the batch made it: for the steps that follow it. */
export interface MoveStep extends MoneyStep<Moved> {
  /** True while the row carries this move's id, i.e. once this move was made in this batch. */
  readonly madeIt: SQL;
  readonly moveId: string;
}

/** Rows a statement wrote (D1's meta.changes). */
export function changesOf(result: unknown): number {
  if (typeof result === "object" && result !== null && "meta" in result) {
    const meta = result.meta;
    if (typeof meta === "object" && meta !== null && "changes" in meta && typeof meta.changes === "number") return meta.changes;
  }
  return 0;
}

/** A statement that is no move (an audit row, a cost-limit hit, a referral reward), read as the rows it wrote. */
export function statement(query: BatchItem<"sqlite">): MoneyStep<{ written: number }> {
  return { statements: [query], read: ([result]) => ({ written: changesOf(result) }) };
}

/** Several statements of one kind (an inbox's new messages and their events), read as their rows written or returned. */
export function statements(queries: BatchItem<"sqlite">[]): MoneyStep<{ written: number; returned: number }> {
  return {
    statements: queries,
    read: (results) => ({
      written: results.reduce<number>((n, r) => n + changesOf(r), 0),
      returned: results.reduce<number>((n, r) => n + (Array.isArray(r) ? r.length : 0), 0),
    }),
  };
}

/** A query whose rows are read back (a `.returning()` or a select in the batch). */
export function rowsOf<R>(query: BatchItem<"sqlite"> & PromiseLike<R[]>): MoneyStep<R[]> {
  return { statements: [query], read: ([result]) => (Array.isArray(result) ? (result as R[]) : []) };
}

type Results<S> = { [K in keyof S]: S[K] extends MoneyStep<infer R> ? R : S[K] extends MoneyStep<infer R> | null | undefined ? R | null : never };

/**
 * Runs the steps in one D1 batch (one transaction), in the order they are named, and answers each by its name. A step
 * given as null is left out (its answer is null).
 */
export async function runBatch<S extends Record<string, MoneyStep<unknown> | null | undefined>>(db: Db, steps: S): Promise<Results<S>> {
  const named = Object.entries(steps);
  return answersOf<S>(named, await db.batch(batchOf(named)));
}

/**
 * A read a signed-in route runs in the same batch as its session check (middleware/auth.ts readAsSignedInUser): named
 * steps, and how to shape their answers (by name) for the token's user.
 */
export function namedRead<S extends Record<string, MoneyStep<unknown>>, U, R>(steps: S, shape: (answers: Results<S>, user: U) => R) {
  const named = Object.entries(steps);
  return { queries: batchOf(named), shape: (results: readonly unknown[], user: U): R => shape(answersOf<S>(named, results), user) };
}

/** Every step's statements in order, as db.batch takes them (at least one). */
function batchOf(named: [string, MoneyStep<unknown> | null | undefined][]): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const [first, ...rest] = named.flatMap(([, step]) => step?.statements ?? []);
  if (!first) throw new Error("runBatch: no statement to run");
  return [first, ...rest];
}

/** The batch's results read back into each step's answer, by its name (the one place that counts positions). */
function answersOf<S>(named: [string, MoneyStep<unknown> | null | undefined][], results: readonly unknown[]): Results<S> {
  let at = 0;
  const answers: Record<string, unknown> = {};
  for (const [name, step] of named) {
    if (!step) {
      answers[name] = null;
      continue;
    }
    answers[name] = step.read(results.slice(at, at + step.statements.length));
    at += step.statements.length;
  }
  return answers as Results<S>;
}

// ---------------------------------------------------------------------------------------------------------------------
// Moves

export interface MoveOptions {
  /** More conditions on the move (the row's or the batch's: "the deposit is still verifying"). */
  when?: SQL;
  /** The move id to write (an id another step's guard already names); a fresh one by default. */
  moveId?: string;
}

/** A fresh id for one move. */
export function newMoveId(): string {
  return `mv_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * The statements of one declared move of the row `id`, for a batch: the compare-and-set (or the insert of a "new"
 * move), then its ledger row and its event, each written only while the row holds this move's id.
 */
export function move<S extends Status, I, T extends SQLiteTable>(db: Db, m: Move<S, I, T>, id: string, input: I, at: number, options: MoveOptions = {}): MoveStep {
  const { entity, spec } = m;
  const columns = getTableColumns(entity.table) as Record<string, SQLiteColumn>;
  const idColumn = columns[entity.id];
  const statusColumn = entity.status ? columns[entity.status] : null;
  const moveIdColumn = columns.moveId;
  if (!idColumn || !moveIdColumn) throw new Error(`${entity.name}: its table needs an id and a move_id column`);
  const moveId = options.moveId ?? newMoveId();
  const to = statusColumn ? targetStatus(m, input) : null;
  const status = to === null ? {} : { [entity.status!]: to };
  const madeIt = sql`EXISTS (SELECT 1 FROM ${entity.table} WHERE ${idColumn} = ${id} AND ${moveIdColumn} = ${moveId})`;
  const statements: BatchItem<"sqlite">[] = [];
  if (spec.from === "new") {
    if (!spec.values) throw new Error(`${entity.name}.${m.name}: a "new" move declares its row's values`);
    const row = { ...spec.values(input, at), moveId, ...status };
    // Always a WHERE: SQLite would read a bare "FROM (SELECT 1) ON CONFLICT" as a join's ON (its upsert rule).
    const conditions = and(spec.claim?.(input), options.when) ?? sql`1`;
    const insert = db.insert(entity.table).select(db.select(rowAsSelect(entity.table, row)).from(sql`(SELECT 1)`).where(conditions));
    statements.push(spec.once ? insert.onConflictDoNothing() : insert);
  } else {
    const fromGuard =
      spec.from === "any" || !statusColumn
        ? undefined
        : "not" in spec.from
          ? notInArray(statusColumn, [...spec.from.not])
          : inArray(statusColumn, [...spec.from]);
    const values = { ...spec.set?.(input, at), moveId, ...status } as SQLiteUpdateSetSource<T>;
    statements.push(db.update(entity.table).set(values).where(and(eq(idColumn, id), fromGuard, spec.claim?.(input), options.when)));
  }
  const declaredRows = spec.ledger?.(input) ?? null;
  const entries = (Array.isArray(declaredRows) ? declaredRows : [declaredRows]).filter((e): e is MoveLedgerEntry => e !== null);
  for (const { onlyIf, ...entry } of entries) statements.push(guardedLedgerInsert(db, { ...entry, at }, madeIt, ...(onlyIf ? [onlyIf] : [])));
  const declaredEvents = spec.event?.(input, at) ?? null;
  const events = (Array.isArray(declaredEvents) ? declaredEvents : [declaredEvents]).filter((e): e is MoveEvent => e !== null);
  for (const { onlyIf, ...event } of events) statements.push(outboxInsert(db, { ...event, at }, madeIt, ...(onlyIf ? [onlyIf] : [])));
  return {
    statements,
    madeIt,
    moveId,
    read(results) {
      // The statements are [the move, its ledger rows, its events], in that order; written: every one of them was
      // (a conditional one, `onlyIf`, is not counted: the move is made without it).
      const [moved, ...rest] = results.map((r) => changesOf(r) > 0);
      const required = <E extends { onlyIf?: SQL }>(declared: E[], written: boolean[]) => declared.some((e) => !e.onlyIf) && declared.every((e, n) => e.onlyIf !== undefined || written[n]);
      const ledgerWritten = required(entries, rest.splice(0, entries.length));
      const eventWritten = required(events, rest.splice(0, events.length));
      return { moved: moved ?? false, ledgerWritten, eventWritten, moveId };
    },
  };
}

/** The status a move leaves: its declared one, or for a list the one `pick` names (refused when it is not listed). */
function targetStatus<S extends Status, I, T extends SQLiteTable>(m: Move<S, I, T>, input: I): S | null {
  const { to, pick } = m.spec;
  if (to === null || typeof to === "string") return to;
  const chosen = pick?.(input);
  if (chosen === undefined || !to.includes(chosen)) throw new Error(`${m.entity.name}.${m.name}: ${String(chosen)} is not one of its statuses`);
  return chosen;
}

/** One declared move in a batch of its own: what it did, by name. */
export async function transition<S extends Status, I, T extends SQLiteTable>(db: Db, m: Move<S, I, T>, id: string, input: I, at: number, options: MoveOptions = {}): Promise<Moved> {
  return (await runBatch(db, { move: move(db, m, id, input, at, options) })).move;
}
