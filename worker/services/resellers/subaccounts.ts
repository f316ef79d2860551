import { and, desc, eq, lt, sql } from "drizzle-orm";
import { formatNaira, koboToNaira } from "../../../schema/money";
import type { V1Subaccount, V1SubaccountTransfer } from "../../../schema/api-v1";
import type { Db } from "../../db/client";
import { AppError, isUniqueViolation } from "../../lib/errors";
import { generateReferralCode } from "../accounts";
import { asInsufficientBalance, isSandboxUser, ledger, move, runBatch, sandboxUserIdFor, statement, SUBACCOUNT_WALLET_PREFIX, transition, users } from "../kernel";
import { activeRentalsOf } from "../rent";
import { activeOrdersOf } from "../sms";
import { requireReseller } from "./reseller";
import { subaccount, subaccountTransfer, type SubaccountRow, type TransferInput, type TransferRow } from "./subaccount";
import { subaccounts, subaccountTransfers } from "./tables";

/**
 * Sub-accounts (issue 46, docs/decisions/072): a reseller's wallets for its own customers. Every function takes the
 * acting account (`parentId`: the key's account, or a test key's sandbox account) and answers only that account's
 * sub-accounts: another reseller's is "not found" (404), never "forbidden", so ids cannot be probed.
 */

export const SUBACCOUNT_NOT_FOUND = "Sub-account not found.";
/** How many sub-accounts one reseller may open (each is a wallet row); a bot with more asks support. */
export const MAX_SUBACCOUNTS = 10_000;

const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A sub-account's wallet id: a sandbox account's sub-accounts are sandbox accounts too (the simulators, test money). */
function walletIdFor(parentId: string): string {
  const id = `${SUBACCOUNT_WALLET_PREFIX}${crypto.randomUUID().replaceAll("-", "")}`;
  return isSandboxUser(parentId) ? sandboxUserIdFor(id) : id;
}

type Listed = SubaccountRow & { balanceKobo: number };

export function toSubaccountView(row: Listed): V1Subaccount {
  return {
    id: row.id,
    external_id: row.externalId,
    name: row.name,
    status: row.status,
    balance: koboToNaira(row.balanceKobo),
    currency: "NGN",
    created_at: iso(row.createdAt)!,
    frozen_at: iso(row.frozenAt),
    closed_at: iso(row.closedAt),
  };
}

function toTransferView(row: TransferRow): V1SubaccountTransfer {
  return {
    id: row.id,
    subaccount_id: row.subaccountId,
    direction: row.direction,
    reason: row.reason,
    amount: koboToNaira(row.amountKobo),
    currency: "NGN",
    created_at: iso(row.createdAt)!,
  };
}

/** A sub-account's row and its wallet's balance. */
const listedColumns = {
  id: subaccounts.id,
  parentUserId: subaccounts.parentUserId,
  externalId: subaccounts.externalId,
  name: subaccounts.name,
  status: subaccounts.status,
  moveId: subaccounts.moveId,
  createdAt: subaccounts.createdAt,
  frozenAt: subaccounts.frozenAt,
  closedAt: subaccounts.closedAt,
  balanceKobo: users.balanceKobo,
};

/** The parent's sub-account `id` with its balance, or 404 (another reseller's too). */
export async function ownSubaccount(db: Db, parentId: string, id: string): Promise<Listed> {
  const [row] = await db
    .select(listedColumns)
    .from(subaccounts)
    .innerJoin(users, eq(users.id, subaccounts.id))
    .where(and(eq(subaccounts.id, id), eq(subaccounts.parentUserId, parentId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", SUBACCOUNT_NOT_FOUND);
  return row;
}

export async function getSubaccount(db: Db, parentId: string, id: string): Promise<V1Subaccount> {
  return toSubaccountView(await ownSubaccount(db, parentId, id));
}

/** Newest first, `limit` at a time; `cursor` is the last page's next_cursor; `externalId` finds one by the bot's id. */
export async function listSubaccounts(db: Db, parentId: string, q: { limit?: number; cursor?: string; external_id?: string }): Promise<{ data: V1Subaccount[]; next_cursor: string | null }> {
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 100);
  const before = q.cursor ? Number(q.cursor) : null;
  if (before !== null && !Number.isSafeInteger(before)) throw new AppError("VALIDATION_FAILED", "cursor is not one this API gave", { field: "cursor" });
  const rows = await db
    .select(listedColumns)
    .from(subaccounts)
    .innerJoin(users, eq(users.id, subaccounts.id))
    .where(
      and(
        eq(subaccounts.parentUserId, parentId),
        q.external_id !== undefined ? eq(subaccounts.externalId, q.external_id) : undefined,
        before !== null ? lt(subaccounts.createdAt, before) : undefined,
      ),
    )
    .orderBy(desc(subaccounts.createdAt), desc(subaccounts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { data: page.map(toSubaccountView), next_cursor: rows.length > limit ? String(page[page.length - 1]!.createdAt) : null };
}

/**
 * Opens a sub-account: its wallet row (no password, no e-mail of anyone: it never signs in) and its sub-account row, in
 * one batch. `ownerId` is the key's owner (whose reseller status counts; a test key's parent is its sandbox account).
 */
export async function createSubaccount(db: Db, ownerId: string, parentId: string, input: { name: string; external_id: string }, now: number): Promise<V1Subaccount> {
  await requireReseller(db, ownerId);
  const [{ count }] = await db.select({ count: sql<number>`COUNT(*)` }).from(subaccounts).where(eq(subaccounts.parentUserId, parentId));
  if (count >= MAX_SUBACCOUNTS) throw new AppError("CONFLICT", `You have ${MAX_SUBACCOUNTS} sub-accounts, the most one reseller may open. Contact support for more.`);
  for (let attempt = 0; attempt < 4; attempt++) {
    const id = walletIdFor(parentId);
    try {
      await runBatch(db, {
        wallet: statement(
          db.insert(users).values({
            id,
            username: input.name,
            email: `${id}@subaccount.invalid`,
            phone: "",
            passwordHash: "!subaccount-no-login",
            referralCode: generateReferralCode(),
            parentUserId: parentId,
            createdAt: now,
          }),
        ),
        open: move(db, subaccount.open, id, { id, parentUserId: parentId, externalId: input.external_id, name: input.name }, now),
      });
      return toSubaccountView({ id, parentUserId: parentId, externalId: input.external_id, name: input.name, status: "active", moveId: null, createdAt: now, frozenAt: null, closedAt: null, balanceKobo: 0 });
    } catch (err) {
      if (String(err).includes("subaccounts_parent_external_unique") || (isUniqueViolation(err) && String(err).includes("external_id"))) {
        throw new AppError("CONFLICT", `You already have a sub-account with external_id ${input.external_id}.`, { field: "external_id" });
      }
      if (isUniqueViolation(err) && String(err).includes("referral_code")) continue; // a colliding code: draw another
      throw err;
    }
  }
  throw new Error("could not open the sub-account");
}

/** Freeze (it buys and rents nothing) or unfreeze. Freezing a frozen one, or unfreezing an active one, changes nothing. */
export async function setSubaccountFrozen(db: Db, parentId: string, id: string, frozen: boolean, now: number): Promise<V1Subaccount> {
  const row = await ownSubaccount(db, parentId, id);
  if (row.status === "closed") throw new AppError("INVALID_STATE", "This sub-account is closed.", { status: row.status });
  if ((row.status === "frozen") !== frozen) await transition(db, frozen ? subaccount.freeze : subaccount.unfreeze, id, { id, parentUserId: parentId, externalId: row.externalId }, now);
  return getSubaccount(db, parentId, id);
}

/**
 * Closes a sub-account and returns its whole balance to the parent in the same batch (a transfer `out`, reason close).
 * Refused while it has a number waiting for a code or a rental running: their refunds would land in a closed wallet.
 */
export async function closeSubaccount(db: Db, parentId: string, id: string, now: number): Promise<V1Subaccount> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await ownSubaccount(db, parentId, id);
    if (row.status === "closed") return toSubaccountView(row);
    const [orders, rentals] = await Promise.all([activeOrdersOf(db, id, now), activeRentalsOf(db, id)]);
    const waiting = orders.filter((o) => o.status === "pending" || o.status === "waiting").length;
    if (waiting + rentals > 0) {
      throw new AppError("INVALID_STATE", `This sub-account has ${waiting + rentals} number(s) in use. Cancel them or wait until they finish, then close it.`, { status: row.status });
    }
    const closing = move(db, subaccount.close, id, { id, parentUserId: parentId, externalId: row.externalId, balanceKobo: row.balanceKobo }, now);
    const transfer: TransferInput = { id: `str_${crypto.randomUUID().replaceAll("-", "")}`, parentUserId: parentId, subaccountId: id, direction: "out", reason: "close", amountKobo: row.balanceKobo, idempotencyKey: `close:${id}`, label: row.externalId };
    const send = row.balanceKobo > 0 ? move(db, subaccountTransfer.send, transfer.id, transfer, now, { when: closing.madeIt }) : null;
    const result = await runBatch(db, { close: closing, send, arrive: send ? move(db, subaccountTransfer.arrive, transfer.id, transfer, now, { when: send.madeIt }) : null });
    if (result.close.moved) return getSubaccount(db, parentId, id);
    // Its balance moved between the read and the batch (a purchase, a refund): read it again.
  }
  throw new AppError("CONFLICT", "This sub-account's balance is changing right now. Try again in a moment.");
}

/**
 * Moves `amountKobo` between the parent's wallet and a sub-account (`in`: to it, `out`: back), exactly once per
 * Idempotency-Key: the same key again answers the transfer it made (another amount or direction with it: 422). Refused,
 * with nothing moved, when the source holds less than the amount (the balance CHECK decides a race) or the sub-account
 * is closed.
 */
export async function transferSubaccount(
  db: Db,
  parentId: string,
  id: string,
  input: { direction: "in" | "out"; amountKobo: number; idempotencyKey: string },
  now: number,
): Promise<V1SubaccountTransfer> {
  if (!Number.isSafeInteger(input.amountKobo) || input.amountKobo <= 0) throw new AppError("VALIDATION_FAILED", "amount must be more than ₦0 (two decimals at most)", { field: "amount" });
  const row = await ownSubaccount(db, parentId, id);
  const earlier = await transferByKey(db, parentId, input.idempotencyKey);
  if (earlier) return sameTransfer(earlier, id, input);
  if (row.status === "closed") throw new AppError("INVALID_STATE", "This sub-account is closed: it receives and sends no money.", { status: row.status });
  const source = input.direction === "in" ? (await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, parentId)).limit(1))[0]?.balanceKobo ?? 0 : row.balanceKobo;
  if (source < input.amountKobo) throw shortOf(input.direction, source, input.amountKobo);
  const transfer: TransferInput = { id: `str_${crypto.randomUUID().replaceAll("-", "")}`, parentUserId: parentId, subaccountId: id, direction: input.direction, reason: "transfer", amountKobo: input.amountKobo, idempotencyKey: input.idempotencyKey, label: row.externalId };
  const send = move(db, subaccountTransfer.send, transfer.id, transfer, now);
  let result;
  try {
    result = await runBatch(db, { send, arrive: move(db, subaccountTransfer.arrive, transfer.id, transfer, now, { when: send.madeIt }) });
  } catch (err) {
    // Another transfer or a purchase spent the source first: the balance CHECK aborted the whole batch.
    const mapped = asInsufficientBalance(err);
    if (mapped instanceof AppError) throw shortOf(input.direction, source, input.amountKobo, true);
    throw err;
  }
  if (result.send.moved && result.arrive.moved) return toTransferView({ ...transfer, reason: "transfer", status: "completed", moveId: null, createdAt: now });
  // Not made: the same key raced us (answer its transfer), or the sub-account was closed in between.
  const raced = await transferByKey(db, parentId, input.idempotencyKey);
  if (raced) return sameTransfer(raced, id, input);
  throw new AppError("INVALID_STATE", "This sub-account is closed: it receives and sends no money.", { status: "closed" });
}

function shortOf(direction: "in" | "out", balanceKobo: number, amountKobo: number, raced = false): AppError {
  const holder = direction === "in" ? "Your wallet" : "The sub-account";
  const now = raced ? " after another payment" : "";
  return new AppError("INSUFFICIENT_BALANCE", `${holder} holds less than ${ngn(amountKobo)}${now}: nothing was moved.`, { balance: koboToNaira(balanceKobo), amount: koboToNaira(amountKobo) });
}

async function transferByKey(db: Db, parentId: string, key: string): Promise<TransferRow | null> {
  const [row] = await db
    .select()
    .from(subaccountTransfers)
    .where(and(eq(subaccountTransfers.parentUserId, parentId), eq(subaccountTransfers.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

function sameTransfer(row: TransferRow, id: string, input: { direction: "in" | "out"; amountKobo: number }): V1SubaccountTransfer {
  if (row.subaccountId !== id || row.direction !== input.direction || row.amountKobo !== input.amountKobo) {
    throw new AppError("UNPROCESSABLE", "This Idempotency-Key was already used for another transfer. Use a new key for a new transfer.");
  }
  return toTransferView(row);
}

/** A sub-account's transfers, newest first (its statement beside its orders). */
export async function listSubaccountTransfers(db: Db, parentId: string, id: string): Promise<V1SubaccountTransfer[]> {
  await ownSubaccount(db, parentId, id);
  const rows = await db.select().from(subaccountTransfers).where(eq(subaccountTransfers.subaccountId, id)).orderBy(desc(subaccountTransfers.createdAt)).limit(100);
  return rows.map(toTransferView);
}

/**
 * The wallet an API request acts as when it names a sub-account (`X-Subaccount`): the parent's sub-account, not
 * closed; a frozen one only for requests that spend nothing (`spends` false). Anything else is 404 / 409, nothing run.
 */
export async function actingSubaccount(db: Db, parentId: string, id: string, spends: boolean): Promise<Listed> {
  const row = await ownSubaccount(db, parentId, id);
  if (row.status === "closed") throw new AppError("INVALID_STATE", "This sub-account is closed.", { status: row.status });
  if (row.status === "frozen" && spends) throw new AppError("INVALID_STATE", "This sub-account is frozen: it cannot buy or rent until you unfreeze it.", { status: row.status });
  return row;
}

/** Whether a wallet may still receive money: every wallet but a closed sub-account's (an operator's refund asks). */
export async function walletReceives(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ status: subaccounts.status }).from(subaccounts).where(eq(subaccounts.id, userId)).limit(1);
  return row?.status !== "closed";
}

/**
 * For a reseller's exports: whether it has sub-accounts at all (its CSV then carries a sub-account column), and those
 * whose wallets moved in [start, end) (every purchase is a ledger row), so an export reads only the ones that bought,
 * never one read per sub-account of thousands.
 */
export async function subaccountsMovedBetween(db: Db, parentId: string, start: number, end: number): Promise<{ any: boolean; moved: { id: string; balanceKobo: number }[] }> {
  const [first] = await db.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.parentUserId, parentId)).limit(1);
  if (!first) return { any: false, moved: [] };
  const moved = await db
    .select({ id: subaccounts.id, balanceKobo: users.balanceKobo })
    .from(subaccounts)
    .innerJoin(users, eq(users.id, subaccounts.id))
    .where(
      and(
        eq(subaccounts.parentUserId, parentId),
        sql`EXISTS (SELECT 1 FROM ${ledger} WHERE ${ledger.userId} = ${subaccounts.id} AND ${ledger.createdAt} >= ${start} AND ${ledger.createdAt} < ${end})`,
      ),
    );
  return { any: true, moved };
}
