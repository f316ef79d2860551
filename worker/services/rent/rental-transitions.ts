import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { RentalStatus } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { rentals } from "../../db/tables";
import type { OutboxMessage } from "../kernel";

/**
 * The rental as a money entity (docs/decisions/040 and 049): its declared transitions below, and the only module that
 * writes a rental's row after the purchase batch inserts it (scripts/money-writers.ts refuses `update(rentals)` and raw
 * `UPDATE rentals` anywhere else). A transition is one compare-and-set: the statuses the table names plus the caller's
 * own claim (the expiry a renewal was claimed for, the extension count it moves from), returned as a statement for the
 * caller's `db.batch()` beside the ledger row and the outbox event the table names, each guarded on the row the move
 * leaves (or on `ledgerRowWritten(key)`), so two alarms, a click and the sweep move a rental once.
 */

type RentalEvent = OutboxMessage["kind"] | "toast (socket)";

/**
 * Every way a rental's row is written after its purchase batch (rentals.ts inserts it 'pending' with its rent:<id>
 * debit). `to: null`: the status stays; `from: "any"`: whatever the status (a count or a setting, no money).
 */
export const RENTAL_TRANSITIONS = {
  /** The upstream gave the number: the period starts. */
  rented: { from: ["pending"], to: "active", ledger: null, events: [] },
  /** The upstream gave no number: refunded at once. */
  fail: { from: ["pending"], to: "failed", ledger: "rent_refund:<id>", events: [] },
  /** The customer ended it, or its time ran out: no refund. */
  end: { from: ["active"], to: "ended", ledger: null, events: ["rental.ended"] },
  /** Cancelled within the window before any SMS; the refund is written only while no SMS is stored. */
  cancel: { from: ["active"], to: "cancelled", ledger: "rent_refund:<id> (no SMS yet)", events: ["rental.ended"] },
  /** Extension n is claimed (extended_count n-1 -> n) and charged in the same batch. */
  claimExtension: { from: ["active"], to: null, ledger: "rent_extend:<id>:<n>", events: [] },
  /** The upstream extended it: the expiry moves and the charge is told; else refunded (rent_extend_refund). */
  extended: { from: ["active"], to: null, ledger: null, events: ["balance.changed"] },
  /** Auto-renew's charge for one expiry is claimed (renewed_expiry) and charged in the same batch. */
  claimRenewal: { from: ["active"], to: null, ledger: "rent_renew:<id>:<expiry>", events: ["balance.changed"] },
  /** The upstream renewed it: the expiry moves; else refunded (rent_renew_refund, its own balance.changed). */
  renewed: { from: ["active"], to: null, ledger: null, events: ["toast (socket)"] },
  /** Auto-renew turned on at an agreed price. */
  autoRenewOn: { from: ["active"], to: null, ledger: null, events: [] },
  /** Auto-renew turned off (whatever the status). */
  autoRenewOff: { from: "any", to: null, ledger: null, events: [] },
  /** Auto-renew paused (price, funds, provider): told once, by the call that set it. */
  pauseRenewal: { from: "any", to: null, ledger: null, events: ["toast (socket)"] },
  /** A reminder claimed for the current expiry (sent once by the call that claimed it). */
  remind: { from: ["active"], to: null, ledger: null, events: ["toast (socket)", "rental.renewing", "rental.ending"] },
  /** The inbox was read: the SMS count (counted, not added) and the time; its new messages' rental.sms ride the batch. */
  inboxRead: { from: "any", to: null, ledger: null, events: ["rental.sms"] },
} as const satisfies Record<string, { from: readonly RentalStatus[] | "any"; to: RentalStatus | null; ledger: string | null; events: readonly RentalEvent[] }>;

export type RentalMove = keyof typeof RENTAL_TRANSITIONS;

type RentalFields = Omit<SQLiteUpdateSetSource<typeof rentals>, "id" | "userId" | "createdAt" | "status">;

/**
 * The statement of one transition: `update rentals set <status, fields> where id = <id> and status in <from> and
 * <claim>` (`.returning()` may follow), for the caller's batch or run alone. `fields` carries updated_at where the move
 * touches it (a reminder's claim does not).
 */
export function rentalTransition(db: Db, move: RentalMove, rentalId: string, fields: RentalFields, ...claim: (SQL | undefined)[]) {
  const t = RENTAL_TRANSITIONS[move];
  const from: readonly RentalStatus[] | "any" = t.from;
  return db
    .update(rentals)
    .set({ ...fields, ...(t.to ? { status: t.to } : {}) })
    .where(and(eq(rentals.id, rentalId), from === "any" ? undefined : inArray(rentals.status, [...from]), ...claim));
}
