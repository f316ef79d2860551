import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { now, users } from "../kernel/tables";

/**
 * The resellers room's tables (issue 46, docs/decisions/072-resellers-and-sub-accounts.md): who is a reseller and its
 * markups, its sub-accounts (each a wallet of its own: a `users` row marked with `parent_user_id`), and the transfers
 * between a reseller's wallet and its sub-accounts (each one ledger pair). worker/db/tables.ts re-exports them for
 * drizzle-kit; inside the services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/**
 * A reseller: the customer accepted the terms (granted_by null) or an operator granted it (the operator CLI, audited).
 * A revoked reseller keeps its sub-accounts' money (it can still move it back and close them) but creates no new ones
 * and buys as none.
 */
export const resellers = sqliteTable("resellers", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  status: text("status", { enum: ["active", "revoked"] }).notNull(),
  termsAcceptedAt: integer("terms_accepted_at"),
  grantedBy: text("granted_by"),
  revokedAt: integer("revoked_at"),
  // The flat markup on its sub-accounts' purchases, in basis points (1500 = 15%); per-service markups override it.
  markupBasisPoints: integer("markup_basis_points").notNull().default(0),
  createdAt: integer("created_at").notNull().default(now),
});

/** A reseller's markup for one SMS service (its service code, e.g. "wa"), overriding the flat one. */
export const resellerServiceMarkups = sqliteTable(
  "reseller_service_markups",
  {
    resellerId: text("reseller_id")
      .notNull()
      .references(() => resellers.userId),
    service: text("service").notNull(),
    markupBasisPoints: integer("markup_basis_points").notNull(),
  },
  (t) => [uniqueIndex("reseller_service_markups_unique").on(t.resellerId, t.service)],
);

/**
 * A sub-account: its id is its wallet's user id (`sub_...`, or `sbx_sub_...` under a sandbox account, so a test key's
 * sub-accounts reach the simulators like their parent). `external_id` is the reseller's own name for it (its bot's
 * user id), unique per reseller. Declared moves only (resellers/subaccount.ts).
 */
export const subaccounts = sqliteTable(
  "subaccounts",
  {
    id: text("id")
      .primaryKey()
      .references(() => users.id),
    parentUserId: text("parent_user_id")
      .notNull()
      .references(() => users.id),
    externalId: text("external_id").notNull(),
    name: text("name").notNull(),
    status: text("status", { enum: ["active", "frozen", "closed"] }).notNull(),
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull(),
    frozenAt: integer("frozen_at"),
    closedAt: integer("closed_at"),
  },
  (t) => [uniqueIndex("subaccounts_parent_external_unique").on(t.parentUserId, t.externalId), index("subaccounts_parent_idx").on(t.parentUserId, t.createdAt)],
);

/**
 * A transfer between a reseller's wallet and one of its sub-accounts: `in` (parent → sub-account) or `out` (back), or
 * the sub-account's whole balance going back when it is closed (`reason` close). One row per Idempotency-Key of the
 * reseller: the same key is the same transfer, made once. Its two moves write the ledger pair (`send` debits the
 * source, `arrive` credits the destination) in one batch (resellers/subaccount-transfer.ts).
 */
export const subaccountTransfers = sqliteTable(
  "subaccount_transfers",
  {
    id: text("id").primaryKey(),
    parentUserId: text("parent_user_id")
      .notNull()
      .references(() => users.id),
    subaccountId: text("subaccount_id")
      .notNull()
      .references(() => subaccounts.id),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    reason: text("reason", { enum: ["transfer", "close"] }).notNull(),
    amountKobo: integer("amount_kobo").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    status: text("status", { enum: ["sent", "completed"] }).notNull(),
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("subaccount_transfers_parent_key_unique").on(t.parentUserId, t.idempotencyKey), index("subaccount_transfers_sub_idx").on(t.subaccountId, t.createdAt)],
);
