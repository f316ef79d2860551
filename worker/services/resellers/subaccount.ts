import { sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import { moneyEntity, type MoveEvent, users } from "../kernel";
import { subaccounts, subaccountTransfers } from "./tables";

/**
 * A reseller's sub-accounts and the transfers between them and the reseller's wallet, as money entities (issue 46,
 * docs/decisions/062 and 072): the only module that writes `subaccounts` and `subaccount_transfers`.
 *
 * A sub-account is a wallet of its own (a `users` row with `parent_user_id`), so the ledger's trigger and the balance
 * CHECK keep it exactly as they keep a customer's: it can never go below zero and never spends its parent's money. A
 * transfer is two declared moves in one batch: `send` writes the transfer's row and debits the source, `arrive` credits
 * the destination, each with its ledger row and its `balance.changed` event; the pair is written or nothing is.
 */

export type SubaccountRow = typeof subaccounts.$inferSelect;
export type TransferRow = typeof subaccountTransfers.$inferSelect;

export interface NewSubaccount {
  id: string;
  parentUserId: string;
  externalId: string;
  name: string;
}

/** What a sub-account's own moves need to tell its reseller (`subaccount.*` webhooks): whose it is and the bot's id. */
export interface SubaccountTold {
  parentUserId: string;
  externalId: string;
}

/**
 * A sub-account's lifecycle event, told to its reseller (the parent: its room, its keys' webhooks), written with the
 * move. Freezing can happen again after unfreezing: the move's time names each happening.
 */
const lifecycleEvent = (id: string, i: SubaccountTold, change: "created" | "frozen" | "unfrozen" | "closed", at: number): MoveEvent => ({
  userId: i.parentUserId,
  dedupe: change === "created" || change === "closed" ? `subaccount.${change}:${id}` : `subaccount.${change}:${id}:${at}`,
  message: { kind: "subaccount.changed", subaccountId: id, externalId: i.externalId, change },
});

/** The sub-account's life: opened active, frozen (it buys nothing) and back, closed (its balance back to the parent). */
export const subaccount = moneyEntity(
  { name: "sub-account", table: subaccounts, id: "id", status: "status" },
  {
    /** Opened by its reseller, with its wallet row written first in the same batch (resellers/subaccounts.ts). */
    open: { from: "new", to: "active", values: (i: NewSubaccount, at) => ({ ...i, createdAt: at }), event: (i: NewSubaccount, at) => lifecycleEvent(i.id, i, "created", at) },
    /** Its reseller froze it: it buys and rents nothing until unfrozen; money may still move in and out. */
    freeze: { from: ["active"], to: "frozen", set: (_i: SubaccountTold & { id: string }, at) => ({ frozenAt: at }), event: (i: SubaccountTold & { id: string }, at) => lifecycleEvent(i.id, i, "frozen", at) },
    unfreeze: { from: ["frozen"], to: "active", set: () => ({ frozenAt: null }), event: (i: SubaccountTold & { id: string }, at) => lifecycleEvent(i.id, i, "unfrozen", at) },
    /**
     * Closed for good: only while its wallet holds exactly what the close read (`balanceKobo`), so the transfer of that
     * balance back to the parent, which follows this move in the batch, empties it; a purchase or refund in between
     * makes the move fail and the caller reads again.
     */
    close: {
      from: ["active", "frozen"],
      to: "closed",
      set: (_i: CloseInput, at) => ({ closedAt: at }),
      claim: (i: CloseInput) => sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${subaccounts.id} AND ${users.balanceKobo} = ${i.balanceKobo})`,
      event: (i: CloseInput, at) => lifecycleEvent(i.id, i, "closed", at),
    },
  },
);

type CloseInput = SubaccountTold & { id: string; balanceKobo: number };

export interface TransferInput {
  id: string;
  parentUserId: string;
  subaccountId: string;
  /** in: the reseller's wallet to the sub-account; out: back. */
  direction: "in" | "out";
  reason: "transfer" | "close";
  amountKobo: number;
  idempotencyKey: string;
  /** For the ledger's note (the reseller's history says which sub-account). */
  label: string;
}

const sourceOf = (i: TransferInput) => (i.direction === "in" ? i.parentUserId : i.subaccountId);
const destinationOf = (i: TransferInput) => (i.direction === "in" ? i.subaccountId : i.parentUserId);
const noteOf = (i: TransferInput) =>
  i.reason === "close" ? `Sub-account ${i.label} closed: balance returned` : i.direction === "in" ? `Transfer to sub-account ${i.label}` : `Transfer from sub-account ${i.label}`;

/** The wallet a side of the transfer moved: its socket and webhook get the new balance (the outbox reads it). */
const balanceEvent = (userId: string, dedupe: string): MoveEvent => ({ userId, dedupe, message: { kind: "balance.changed" } });

const transferEvent = (i: TransferInput): MoveEvent => ({
  userId: i.parentUserId,
  dedupe: `subaccount.transfer:${i.id}`,
  message: {
    kind: "subaccount.changed",
    subaccountId: i.subaccountId,
    externalId: i.label,
    change: "transfer",
    transfer: { id: i.id, direction: i.direction, reason: i.reason, amount: koboToNaira(i.amountKobo) },
  },
});

export const subaccountTransfer = moneyEntity(
  { name: "sub-account transfer", table: subaccountTransfers, id: "id", status: "status" },
  {
    /**
     * The transfer's row, once per Idempotency-Key of the reseller (a repeat writes nothing: `once`), and the source's
     * debit. An ordinary transfer only while the sub-account is its parent's and not closed (checked in the batch, so a
     * close racing it wins or loses whole); a close's own transfer follows the close move instead.
     */
    send: {
      from: "new",
      to: "sent",
      once: true,
      values: (i: TransferInput, at) => ({
        id: i.id,
        parentUserId: i.parentUserId,
        subaccountId: i.subaccountId,
        direction: i.direction,
        reason: i.reason,
        amountKobo: i.amountKobo,
        idempotencyKey: i.idempotencyKey,
        createdAt: at,
      }),
      claim: (i: TransferInput) =>
        i.reason === "close"
          ? undefined
          : sql`EXISTS (SELECT 1 FROM ${subaccounts} WHERE ${subaccounts.id} = ${i.subaccountId} AND ${subaccounts.parentUserId} = ${i.parentUserId} AND ${subaccounts.status} <> 'closed')`,
      ledger: (i: TransferInput) => ({ userId: sourceOf(i), key: `sub:${i.id}:debit`, amountKobo: -i.amountKobo, kind: "transfer", note: noteOf(i), ref: i.id }),
      event: (i: TransferInput) => balanceEvent(sourceOf(i), `balance.changed:sub:${i.id}:debit`),
    },
    /** The destination's credit, in the same batch right after `send`. */
    arrive: {
      from: ["sent"],
      to: "completed",
      ledger: (i: TransferInput) => ({ userId: destinationOf(i), key: `sub:${i.id}:credit`, amountKobo: i.amountKobo, kind: "transfer", note: noteOf(i), ref: i.id }),
      // The reseller also hears of the transfer as one happening (subaccount.transfer), whichever way it went.
      event: (i: TransferInput) => [balanceEvent(destinationOf(i), `balance.changed:sub:${i.id}:credit`), transferEvent(i)],
    },
  },
);
