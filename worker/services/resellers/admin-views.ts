import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { AdminResellerRow, AdminResellerSubaccounts, AdminSubaccountRow } from "../../../schema/admin";
import { type AdminChange, setResellerSql } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { ledger, users } from "../kernel";
import { resellers, subaccounts } from "./tables";

/**
 * The console's resellers page (issue 46, decision 072): every reseller with its sub-accounts (how many, how many
 * open, what they hold), its margin earned net of reversals and its flat markup; and the operator's grant and revoke,
 * each with its audit row in one batch (db/admin-sql.ts setResellerSql, the CLI's own statement).
 */
export async function listResellers(db: Db): Promise<AdminResellerRow[]> {
  const rows = await db
    .select({
      userId: resellers.userId,
      email: users.email,
      username: users.username,
      status: resellers.status,
      markupBasisPoints: resellers.markupBasisPoints,
      grantedBy: resellers.grantedBy,
      createdAt: resellers.createdAt,
      subaccounts: sql<number>`(SELECT COUNT(*) FROM ${subaccounts} WHERE ${subaccounts.parentUserId} = ${resellers.userId})`,
      openSubaccounts: sql<number>`(SELECT COUNT(*) FROM ${subaccounts} WHERE ${subaccounts.parentUserId} = ${resellers.userId} AND ${subaccounts.status} <> 'closed')`,
      subaccountBalanceKobo: sql<number>`(SELECT COALESCE(SUM(u.balance_kobo), 0) FROM ${users} u WHERE u.parent_user_id = ${resellers.userId})`,
      marginKobo: sql<number>`(SELECT COALESCE(SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.userId} = ${resellers.userId} AND ${ledger.kind} = 'margin')`,
    })
    .from(resellers)
    .innerJoin(users, eq(users.id, resellers.userId))
    .orderBy(desc(resellers.createdAt))
    .limit(200);
  return rows.map((r) => ({
    userId: r.userId,
    email: r.email,
    username: r.username,
    status: r.status,
    markupPercent: r.markupBasisPoints / 100,
    grantedBy: r.grantedBy,
    createdAt: r.createdAt,
    subaccounts: Number(r.subaccounts),
    openSubaccounts: Number(r.openSubaccounts),
    subaccountBalance: koboToNaira(Number(r.subaccountBalanceKobo)),
    marginEarned: koboToNaira(Number(r.marginKobo)),
  }));
}

/** What a sub-account spends: purchases and rentals, their refunds netted out (resellerSummary's kinds). */
const SPEND_KINDS = ["buy", "refund", "rent", "rent_refund"] as const;

/**
 * One reseller's sub-accounts for the console (its live wallet's: a test key's sandbox sub-accounts are test activity),
 * newest first, a status at a time, paged like the withdrawals: `before` is the last row's id seen, (created_at, id)
 * breaks ties, and an id not among this reseller's sub-accounts is an empty page. Each with its balance and its spend
 * (purchases and rentals net of refunds, the partner dashboard's figure per sub-account). 404 for an id that is no
 * reseller, as the customer page answers an unknown customer.
 */
export async function listResellerSubaccounts(
  db: Db,
  resellerId: string,
  q: { status?: AdminSubaccountRow["status"]; before?: string; limit?: number },
): Promise<AdminResellerSubaccounts> {
  const [reseller] = await db
    .select({ userId: resellers.userId, email: users.email, username: users.username, status: resellers.status })
    .from(resellers)
    .innerJoin(users, eq(users.id, resellers.userId))
    .where(eq(resellers.userId, resellerId))
    .limit(1);
  if (!reseller) throw new AppError("NOT_FOUND", "No reseller with this id.");
  let after: SQL | undefined;
  if (q.before) {
    const [mark] = await db
      .select({ createdAt: subaccounts.createdAt })
      .from(subaccounts)
      .where(and(eq(subaccounts.id, q.before), eq(subaccounts.parentUserId, resellerId)));
    if (!mark) return { reseller, data: [] };
    after = or(lt(subaccounts.createdAt, mark.createdAt), and(eq(subaccounts.createdAt, mark.createdAt), lt(subaccounts.id, q.before)));
  }
  const rows = await db
    .select({
      id: subaccounts.id,
      externalId: subaccounts.externalId,
      name: subaccounts.name,
      status: subaccounts.status,
      createdAt: subaccounts.createdAt,
      balanceKobo: users.balanceKobo,
      spendKobo: sql<number>`(SELECT COALESCE(-SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.userId} = ${subaccounts.id} AND ${inArray(ledger.kind, [...SPEND_KINDS])})`,
    })
    .from(subaccounts)
    .innerJoin(users, eq(users.id, subaccounts.id))
    .where(and(eq(subaccounts.parentUserId, resellerId), q.status ? eq(subaccounts.status, q.status) : undefined, after))
    .orderBy(desc(subaccounts.createdAt), desc(subaccounts.id))
    .limit(Math.max(1, Math.min(200, Math.floor(q.limit ?? 50))));
  return {
    reseller,
    data: rows.map((r) => ({
      id: r.id,
      externalId: r.externalId,
      name: r.name,
      status: r.status,
      balance: koboToNaira(r.balanceKobo),
      createdAt: r.createdAt,
      spend: koboToNaira(Number(r.spendKobo)),
    })),
  };
}

/** Grants (or revokes) the reseller role of the customer with this e-mail, audited with the operator and the reason. */
export async function setResellerRole(db: Db, operatorEmail: string, input: { email: string; grant: boolean; reason: string }, now: number): Promise<AdminResellerRow[]> {
  const [customer] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, input.email.trim().toLowerCase()), sql`${users.parentUserId} IS NULL`))
    .limit(1);
  if (!customer) throw new AppError("NOT_FOUND", "No customer with this e-mail address.", { field: "email" });
  if (!input.grant) {
    const [row] = await db.select({ status: resellers.status }).from(resellers).where(eq(resellers.userId, customer.id)).limit(1);
    if (!row) throw new AppError("INVALID_STATE", "This customer is not a reseller.");
  }
  const change = setResellerSql(db, customer.id, input.grant, operatorEmail, input.reason, now);
  await db.batch(change as [AdminChange[number], ...AdminChange]);
  return listResellers(db);
}
