import { sql, type SQL } from "drizzle-orm";
import { formatNaira, koboToNaira } from "../../../schema/money";
import { payoutBankName, type WithdrawalState } from "../../../schema/withdrawals";
import { withdrawals } from "./tables";
import { type LedgerEntry, moneyEntity, type MoveEvent } from "../kernel";

/**
 * A withdrawal (cash out to the customer's own bank account, issue 45, docs/decisions/071) as a money entity: the only
 * module that writes the withdrawals table. Its money is two ledger rows at most:
 * - withdraw:<id>, the hold: amount + fee debited when the row is written (the balance drops at once, and the users
 *   CHECK refuses a hold the wallet does not have), whether it is sent at once or waits for an operator;
 * - withdraw_back:<id>, the hold credited back: by a failure, an operator's refusal or Squad's later reversal. One key
 *   for all three, so however they race or repeat, the money comes back once.
 * requested → held (or approval → held) → sending (claimed before Squad is called, so a transfer is sent once) → paid
 * | failed; paid → reversed later.
 */

export type Withdrawal = typeof withdrawals.$inferSelect;
export type NewWithdrawal = Omit<typeof withdrawals.$inferInsert, "status" | "moveId">;

const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;
export const holdKey = (id: string) => `withdraw:${id}`;
export const backKey = (id: string) => `withdraw_back:${id}`;

/** Where the money went, as the customer reads it: "GTBank ····1234". */
export const accountLabel = (w: Pick<Withdrawal, "bankCode" | "accountNumber">) => `${payoutBankName(w.bankCode) ?? w.bankCode} ····${w.accountNumber.slice(-4)}`;

/** The customer's sentence for a state. */
export function stateMessage(w: Pick<Withdrawal, "bankCode" | "accountNumber" | "amountKobo" | "feeKobo">, state: WithdrawalState): string {
  const total = ngn(w.amountKobo + w.feeKobo);
  switch (state) {
    case "approval":
      return `${total} is held for your withdrawal, which waits for our team's approval.`;
    case "held":
    case "sending":
      return `Sending ${ngn(w.amountKobo)} to ${accountLabel(w)}…`;
    case "paid":
      return `Paid into ${accountLabel(w)}`;
    case "failed":
      return `Failed — ${total} is back in your wallet`;
    case "reversed":
      return `Reversed by the bank — ${total} is back in your wallet`;
    case "refused":
      return `Refused — ${total} is back in your wallet`;
  }
}

interface Told {
  userId: string;
  row: Pick<Withdrawal, "bankCode" | "accountNumber" | "amountKobo" | "feeKobo">;
}

const event =
  (state: WithdrawalState) =>
  (i: Told & { id: string }): MoveEvent => ({
    userId: i.userId,
    dedupe: `withdrawal.${state}:${i.id}`,
    message: { kind: "withdrawal.changed", withdrawalId: i.id, state, amount: koboToNaira(i.row.amountKobo), message: stateMessage(i.row, state) },
  });

const back = (i: Told & { id: string }): LedgerEntry => ({
  userId: i.userId,
  key: backKey(i.id),
  amountKobo: i.row.amountKobo + i.row.feeKobo,
  kind: "withdraw_refund",
  note: `Withdrawal to ${accountLabel(i.row)} returned`,
  ref: i.id,
});

interface Requested {
  row: NewWithdrawal;
  /** approval: above the threshold, waits for an operator (the money is held all the same). */
  state: "held" | "approval";
  /** The limits checked in the insert itself (what may be withdrawn, the day's cap and count): a racing second
   *  withdrawal finds the first one's hold and is refused by the database, not by a read made before it. */
  within: SQL;
}

export const withdrawal = moneyEntity(
  { name: "withdrawal", table: withdrawals, id: "id", status: "status" },
  {
    /** The customer asked: the row and its hold, in one statement pair, only within the limits. */
    request: {
      from: "new",
      to: ["held", "approval"],
      pick: (i: Requested) => i.state,
      values: (i: Requested) => i.row,
      claim: (i: Requested) => i.within,
      ledger: (i: Requested): LedgerEntry => ({
        userId: i.row.userId,
        key: holdKey(i.row.id),
        amountKobo: -(i.row.amountKobo + i.row.feeKobo),
        kind: "withdraw",
        note: `Withdrawal to ${accountLabel(i.row)}`,
        ref: i.row.id,
      }),
      event: (i: Requested) => event(i.state)({ userId: i.row.userId, id: i.row.id, row: i.row }),
    },
    /** An operator approved a large one (audited by the caller in the same batch). */
    approve: {
      from: ["approval"],
      to: "held",
      set: (i: Told & { id: string; operatorId: string; reason: string }, at) => ({ decidedBy: i.operatorId, decisionReason: i.reason, updatedAt: at }),
    },
    /** An operator refused it: the hold comes back. */
    refuse: {
      from: ["approval"],
      to: "refused",
      set: (i: Told & { id: string; operatorId: string; reason: string }, at) => ({ decidedBy: i.operatorId, decisionReason: i.reason, updatedAt: at }),
      ledger: back,
      event: event("refused"),
    },
    /** Claimed for sending, before Squad is called: whoever wins sends it, once. */
    send: { from: ["held"], to: "sending", set: (_i: object, at) => ({ updatedAt: at }) },
    /** Squad says it landed. */
    pay: {
      from: ["sending"],
      to: "paid",
      set: (i: Told & { id: string; nipReference: string | null; squadStatus: string }, at) => ({ nipReference: i.nipReference, squadStatus: i.squadStatus, updatedAt: at }),
      event: event("paid"),
    },
    /** Squad refused it, or its re-query says failed: the hold comes back. */
    fail: {
      from: ["sending", "held"],
      to: "failed",
      set: (i: Told & { id: string; squadStatus: string; detail: string }, at) => ({ squadStatus: i.squadStatus, detail: i.detail.slice(0, 500), updatedAt: at }),
      ledger: back,
      event: event("failed"),
    },
    /** Squad reversed it (412, or its re-query says reversed), even days after it was paid: the hold comes back once. */
    reverse: {
      from: ["paid", "sending"],
      to: "reversed",
      set: (i: Told & { id: string; detail: string }, at) => ({ squadStatus: "reversed", detail: i.detail.slice(0, 500), updatedAt: at }),
      ledger: back,
      event: event("reversed"),
    },
    /** Squad's word on a transfer still in flight (pending, a timeout), kept for the console. */
    note: { from: ["sending"], to: null, set: (i: { squadStatus: string; detail: string }, at) => ({ squadStatus: i.squadStatus, detail: i.detail.slice(0, 500), updatedAt: at }) },
  },
);

/** Statuses whose money is still held (counted apart in "owed to customers"). */
export const HELD_STATES = ["approval", "held", "sending"] as const;
export const heldStatesSql = sql.raw(HELD_STATES.map((s) => `'${s}'`).join(", "));
