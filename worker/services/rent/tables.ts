import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { RENTAL_STATUSES } from "../../../schema/constants";
import { now, users } from "../kernel/tables";

/**
 * The rent room's tables: rentals and their inbox.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/** Rented numbers. */
export const rentals = sqliteTable(
  "rentals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    provider: text("provider").notNull(),
    countryId: text("country_id").notNull(),
    countryName: text("country_name").notNull(),
    unit: text("unit", { enum: ["hour", "day", "week", "month"] }).notNull(),
    period: integer("period").notNull(),
    priceKobo: integer("price_kobo").notNull(),
    upstreamId: text("upstream_id"),
    number: text("number"),
    // pending -> active -> ended | cancelled | failed
    status: text("status", { enum: RENTAL_STATUSES }).notNull().default("pending"),
    expiresAt: integer("expires_at"),
    smsCount: integer("sms_count").notNull().default(0),
    lastCheckedAt: integer("last_checked_at"),
    // When the "ends in 1 hour" reminder went out for the current expiry (claimed by a conditional UPDATE so a repeated
    // watcher alarm sends it once); cleared when an extension moves the expiry.
    remindedAt: integer("reminded_at"),
    // Extensions paid so far: the n of the ledger key rent_extend:<id>:<n>. Moved from n-1 to n by the same batch that
    // debits extension n, so a double click charges once (docs/decisions/019).
    extendedCount: integer("extended_count").notNull().default(0),
    // Auto-renew (issue 32, services/rent/renewals.ts): the price agreed when it was turned on (kobo, null: off) and the
    // length of each renewal; a renewal above that price pauses (auto_renew_paused: price | funds | provider) and asks.
    autoRenewPriceKobo: integer("auto_renew_price_kobo"),
    autoRenewUnit: text("auto_renew_unit", { enum: ["hour", "day", "week", "month"] }),
    autoRenewPeriod: integer("auto_renew_period"),
    autoRenewPaused: text("auto_renew_paused"),
    // The expiry a renewal was claimed for: one compare-and-set per expiry, batched with its ledger row
    // rent_renew:<id>:<expiry>, so two alarms racing renew (and charge) once.
    renewedExpiry: integer("renewed_expiry"),
    // Which upstream rented the number and which of its accounts (the console shows it, issue 32); null until rented.
    upstream: text("upstream"),
    upstreamAccount: integer("upstream_account").notNull().default(0),
    // When the current period began (the last renewal or extension; null: when rented): reminders fall inside it.
    periodStartedAt: integer("period_started_at"),
    // The "renews in 24 hours" reminder for the current expiry (claimed like reminded_at).
    remindedDayAt: integer("reminded_day_at"),
    // Issue 46 (decision 076): rented as a reseller's sub-account with a markup, the part of price_kobo that is the
    // reseller's margin and the wallet it goes to; credited by the move that keeps the rental for good (end, or a
    // cancel after an SMS), never by one that refunds it.
    marginKobo: integer("margin_kobo").notNull().default(0),
    marginUserId: text("margin_user_id"),
    // Issue 46 (decision 075): rented through /api/v1 with a developer's `ref`, that developer's share of our price
    // (before any markup, fixed at purchase) and the wallet it goes to; credited by the same moves as the margin.
    refShareKobo: integer("ref_share_kobo").notNull().default(0),
    refUserId: text("ref_user_id"),
    // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
    // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("rentals_user_idx").on(t.userId, t.createdAt), index("rentals_status_idx").on(t.status)],
);

export const rentalMessages = sqliteTable(
  "rental_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    rentalId: text("rental_id").notNull().references(() => rentals.id),
    // Identifies one upstream SMS so a message polled twice is stored once.
    fingerprint: text("fingerprint").notNull(),
    sender: text("sender").notNull(),
    text: text("text").notNull(),
    code: text("code"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [uniqueIndex("rental_messages_fingerprint_unique").on(t.rentalId, t.fingerprint)],
);
