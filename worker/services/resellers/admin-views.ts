import { and, desc, eq, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { AdminResellerRow } from "../../../schema/admin";
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
