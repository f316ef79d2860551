import { and, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { formatRentDuration } from "../../../schema/rentals";
import type { RentUnit } from "../../../schema/constants";
import { rentalMessages, rentals } from "./tables";
import { type LedgerEntry, moneyEntity, type MoveEvent, type OutboxMessage } from "../kernel";

/**
 * The rental as a money entity (docs/decisions/040, 049, 062): the only module that writes the rentals table. Its moves
 * below are what runs (services/kernel/money-entity.ts): the purchase (the row and its rent:<id> debit), then every
 * compare-and-set on its status or on a claim of its own (the extension count it moves from, the expiry a renewal or a
 * reminder was claimed for), each with the ledger row and the event it declares, written in the same batch only while
 * the row carries that move's id, so two alarms, a click and the sweep move a rental once and tell it once. An
 * extension's and a renewal's charge are told with their money (balance.changed), and so are their refunds.
 */

type NewRental = Omit<typeof rentals.$inferInsert, "status" | "moveId">;
// The margin and share columns are required, not optional: a caller passing a row read without them would end the rental
// without crediting them, and nothing could credit them afterwards.
type Row = Pick<typeof rentals.$inferSelect, "id" | "userId" | "priceKobo" | "countryName" | "unit" | "period" | "marginKobo" | "marginUserId" | "refShareKobo" | "refUserId">;

const balanceChanged = (userId: string, key: string): MoveEvent => ({ userId, dedupe: `balance.changed:${key}`, message: { kind: "balance.changed" } });
const ended = (row: Row, status: "ended" | "cancelled", refunded: boolean): MoveEvent => ({
  userId: row.userId,
  dedupe: `rental.ended:${row.id}`,
  message: { kind: "rental.ended", rentalId: row.id, status, refunded },
});
const touched = (_i: object, at: number) => ({ updatedAt: at });
/** A rental's refund (failed at purchase, cancelled in time): rent_refund:<id>, once. */
const refundOf = (i: { row: Row; reason: string }): LedgerEntry => ({
  userId: i.row.userId,
  key: `rent_refund:${i.row.id}`,
  amountKobo: i.row.priceKobo,
  kind: "rent_refund",
  note: `Refund: ${i.row.countryName} number rental, ${formatRentDuration(i.row.unit, i.row.period)} (${i.reason})`,
  ref: i.row.id,
});
/**
 * A reseller's margin on a rental its sub-account rented with a markup (issue 46, decision 076): credited by the move
 * that keeps the rental for good (it ended or expired, or was cancelled after an SMS: no refund can follow), never by
 * one that refunds it (fail, cancel), so nothing is ever reversed; rent_margin:<id> makes it once.
 */
const marginOf = (row: Row): LedgerEntry | null =>
  row.marginKobo && row.marginUserId
    ? { userId: row.marginUserId, key: `rent_margin:${row.id}`, amountKobo: row.marginKobo, kind: "margin", note: `Margin: ${row.countryName} number rental for a sub-account`, ref: row.id }
    : null;
const marginEvent = (row: Row): MoveEvent | null => (row.marginKobo && row.marginUserId ? balanceChanged(row.marginUserId, `rent_margin:${row.id}`) : null);
/**
 * A developer's `ref` share of a rental rented through /api/v1 with a ref (issue 46, decision 075): credited by the same
 * moves as the margin, for the same reason (nothing refunds the rental after them, so it is never reversed);
 * rent-ref-share:<id> makes it once.
 */
const refShareOf = (row: Row): LedgerEntry | null =>
  row.refShareKobo && row.refUserId
    ? { userId: row.refUserId, key: `rent-ref-share:${row.id}`, amountKobo: row.refShareKobo, kind: "ref_share", note: `Developer share: ${row.countryName} number rental made with your ref`, ref: row.id }
    : null;
const refShareEvent = (row: Row): MoveEvent | null => (row.refShareKobo && row.refUserId ? balanceChanged(row.refUserId, `rent-ref-share:${row.id}`) : null);
/** What keeping a rental for good credits: a reseller's margin and a developer's share, each when it has one. */
const keptLedger = (i: { row: Row }): (LedgerEntry | null)[] => [marginOf(i.row), refShareOf(i.row)];
/** An SMS is stored for the rental: a cancel is then no longer refunded. */
const smsStored = (rentalId: string): SQL => sql`EXISTS (SELECT 1 FROM ${rentalMessages} WHERE ${rentalMessages.rentalId} = ${rentalId})`;

/** A charge on the rental (an extension, a renewal) and its refund: each told to the wallet's screens and webhooks. */
interface Charge {
  row: Row;
  key: string;
  kobo: number;
  note: string;
}
const chargeOf = (i: Charge): LedgerEntry => ({ userId: i.row.userId, key: i.key, amountKobo: -i.kobo, kind: "rent", note: i.note, ref: i.row.id });
const chargeRefundOf = (i: Charge): LedgerEntry => ({ userId: i.row.userId, key: i.key, amountKobo: i.kobo, kind: "rent_refund", note: i.note, ref: i.row.id });

export const rental = moneyEntity(
  { name: "rental", table: rentals, id: "id", status: "status" },
  {
    /** The purchase: the row and its rent:<id> debit, before the upstream is asked. */
    rent: {
      from: "new",
      to: "pending",
      values: (i: { row: NewRental; note: string }) => i.row,
      ledger: (i: { row: NewRental; note: string }) => ({ userId: i.row.userId, key: `rent:${i.row.id}`, amountKobo: -i.row.priceKobo, kind: "rent", note: i.note, ref: i.row.id }),
    },
    /** The upstream gave the number: the period starts. */
    rented: { from: ["pending"], to: "active", set: (i: { upstreamId: string; number: string; expiresAt: number; upstream: string; upstreamAccount: number }, at) => ({ ...i, updatedAt: at }) },
    /** The upstream gave no number: refunded at once. */
    fail: { from: ["pending"], to: "failed", set: touched, ledger: refundOf },
    /** The customer ended it, or its time ran out: no refund; a reseller's margin and a developer's share are credited. */
    end: { from: ["active"], to: "ended", set: touched, ledger: keptLedger, event: (i: { row: Row }) => [ended(i.row, "ended", false), marginEvent(i.row), refShareEvent(i.row)] },
    /** Cancelled within the window before any SMS: refunded; a message stored meanwhile stops this move... */
    cancel: { from: ["active"], to: "cancelled", claim: (i: { row: Row; reason: string }) => sql`NOT ${smsStored(i.row.id)}`, set: touched, ledger: refundOf, event: (i: { row: Row }) => ended(i.row, "cancelled", true) },
    /** ...and this one cancels it unrefunded instead (the upstream already accepted the cancel): kept, margin and share credited. */
    cancelAfterSms: {
      from: ["active"],
      to: "cancelled",
      claim: (i: { row: Row }) => smsStored(i.row.id),
      set: touched,
      ledger: keptLedger,
      event: (i: { row: Row }) => [ended(i.row, "cancelled", false), marginEvent(i.row), refShareEvent(i.row)],
    },
    /** Extension n is claimed (extended_count n-1 -> n) and charged rent_extend:<id>:<n>, told with its money. */
    claimExtension: {
      from: ["active"],
      to: null,
      claim: (i: Charge & { n: number }) => eq(rentals.extendedCount, i.n - 1),
      set: (i: Charge & { n: number }, at) => ({ extendedCount: i.n, updatedAt: at }),
      ledger: chargeOf,
      event: (i: Charge) => balanceChanged(i.row.userId, i.key),
    },
    /** The upstream extended it: the expiry moves by the extension's length. */
    extended: {
      from: ["active"],
      to: null,
      set: (i: { byMs: number }, at) => ({ expiresAt: sql`${rentals.expiresAt} + ${i.byMs}`, remindedAt: null, remindedDayAt: null, periodStartedAt: at, updatedAt: at }),
    },
    /** The upstream did not extend it (or the rental ended first): rent_extend_refund:<id>:<n>, told. */
    refundExtension: { from: "any", to: null, set: touched, ledger: chargeRefundOf, event: (i: Charge) => balanceChanged(i.row.userId, i.key) },
    /** Auto-renew's charge for expiry E is claimed (renewed_expiry) and charged rent_renew:<id>:<E>, told with its money. */
    claimRenewal: {
      from: ["active"],
      to: null,
      claim: (i: Charge & { expiry: number; agreedKobo: number }) =>
        and(eq(rentals.expiresAt, i.expiry), eq(rentals.autoRenewPriceKobo, i.agreedKobo), isNull(rentals.autoRenewPaused), or(isNull(rentals.renewedExpiry), ne(rentals.renewedExpiry, i.expiry))),
      set: (i: Charge & { expiry: number; agreedKobo: number }, at) => ({ renewedExpiry: i.expiry, updatedAt: at }),
      ledger: chargeOf,
      event: (i: Charge) => balanceChanged(i.row.userId, i.key),
    },
    /** The upstream renewed it: the expiry claimed moves on (the customer's toast follows the batch). */
    renewed: {
      from: ["active"],
      to: null,
      claim: (i: { expiry: number; expiresAt: number }) => eq(rentals.expiresAt, i.expiry),
      set: (i: { expiry: number; expiresAt: number }, at) => ({ expiresAt: i.expiresAt, periodStartedAt: at, remindedAt: null, remindedDayAt: null, updatedAt: at }),
      tells: ["toast"],
    },
    /** The upstream did not renew it (or the rental ended first): rent_renew_refund:<id>:<E>, told. */
    refundRenewal: { from: "any", to: null, set: touched, ledger: chargeRefundOf, event: (i: Charge) => balanceChanged(i.row.userId, i.key) },
    /** Auto-renew turned on at an agreed price. */
    autoRenewOn: { from: ["active"], to: null, set: (i: { priceKobo: number; unit: RentUnit; period: number }, at) => ({ autoRenewPriceKobo: i.priceKobo, autoRenewUnit: i.unit, autoRenewPeriod: i.period, autoRenewPaused: null, updatedAt: at }) },
    /** Auto-renew turned off (whatever the status). */
    autoRenewOff: { from: "any", to: null, set: (_i: object, at) => ({ autoRenewPriceKobo: null, autoRenewUnit: null, autoRenewPeriod: null, autoRenewPaused: null, updatedAt: at }) },
    /** Auto-renew paused (price, funds, provider): told once, by the call that set it (a toast and an e-mail after). */
    pauseRenewal: { from: "any", to: null, claim: () => isNull(rentals.autoRenewPaused), set: (i: { why: string }, at) => ({ autoRenewPaused: i.why, updatedAt: at }), tells: ["toast"] },
    /**
     * A reminder claimed for the current expiry (sent once by the call that claimed it: a toast and an e-mail after),
     * with its event written with the claim: rental.renewing (a renewal's, also a developer webhook) or rental.ending
     * (a rental that ends in about an hour: Web Push and rental forwarding carry it, issue 47).
     */
    remind: {
      from: ["active"],
      to: null,
      claim: (i: Reminder) => and(isNull(i.column === "remindedAt" ? rentals.remindedAt : rentals.remindedDayAt), eq(rentals.expiresAt, i.expiresAt)),
      set: (i: Reminder, at) => (i.column === "remindedAt" ? { remindedAt: at } : { remindedDayAt: at }),
      event: (i: Reminder) => ({ userId: i.userId, dedupe: i.told.dedupe, message: i.told.message }),
      tells: ["toast"],
    },
    /** The inbox was read: the SMS count (counted, not added) and the time; its new messages' rental.sms ride the batch. */
    inboxRead: {
      from: "any",
      to: null,
      set: (i: { rentalId: string; updatedAt: number }, at) => ({
        // Counted, not incremented: correct however many polls overlap.
        smsCount: sql`(SELECT COUNT(*) FROM ${rentalMessages} WHERE ${rentalMessages.rentalId} = ${i.rentalId})`,
        lastCheckedAt: at,
        updatedAt: i.updatedAt,
      }),
    },
  },
);

interface Reminder {
  userId: string;
  column: "remindedAt" | "remindedDayAt";
  expiresAt: number;
  /** What the reminder tells, once per rental, expiry and reminder (its dedupe). */
  told: { dedupe: string; message: Extract<OutboxMessage, { kind: "rental.renewing" | "rental.ending" }> };
}
