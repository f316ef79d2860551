import { and, eq, inArray, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { ResellerView } from "../../../schema/resellers";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { ledger, rowsOf, runBatch, users } from "../kernel";
import { wholesaleVolumeUpdate } from "../../db/wholesale-volume";
import { resellers } from "./tables";
import { wholesaleView } from "./wholesale";

/**
 * The reseller role (issue 46, decision 072): a customer becomes one by accepting the reseller terms (Settings, POST
 * /api/reseller), or an operator grants it (`npm run admin -- grant-reseller`, audited: db/admin-sql.ts). An operator's
 * revocation sticks: accepting the terms again does not undo it.
 */

export const NOT_A_RESELLER = "Sub-accounts are for resellers: accept the reseller terms in Settings first.";
export const RESELLER_TERMS_VERSION = "2026-11";

export type ResellerRow = typeof resellers.$inferSelect;

export async function resellerOf(db: Db, userId: string): Promise<ResellerRow | null> {
  const [row] = await db.select().from(resellers).where(eq(resellers.userId, userId)).limit(1);
  return row ?? null;
}

/** The reseller row of `ownerId` (the key's owner, even for a test key), or 403 with what to do. */
export async function requireReseller(db: Db, ownerId: string): Promise<ResellerRow> {
  const row = await resellerOf(db, ownerId);
  if (!row || row.status !== "active") throw new AppError("FORBIDDEN", row ? "Your reseller access was revoked. Contact support." : NOT_A_RESELLER);
  return row;
}

export function toResellerView(
  row: ResellerRow | null,
  figures: { marginKobo: number; spendKobo: number } = { marginKobo: 0, spendKobo: 0 },
  wholesale: ResellerView["wholesale"] = null,
): ResellerView {
  return {
    wholesale: row?.status === "active" ? wholesale : null,
    margin_earned: koboToNaira(figures.marginKobo),
    subaccount_spend: koboToNaira(figures.spendKobo),
    reseller: row?.status === "active",
    status: row?.status ?? null,
    terms_version: RESELLER_TERMS_VERSION,
    terms_accepted_at: row?.termsAcceptedAt ? new Date(row.termsAcceptedAt).toISOString() : null,
    markup_percent: (row?.markupBasisPoints ?? 0) / 100,
  };
}

/**
 * The partner dashboard's view: the role, the markup, the margin earned (margin rows net of reversals) and what the
 * sub-accounts spent (their purchases and rentals net of refunds), from the ledger in one round trip; and the wholesale
 * tier (decision 074) from the stored 30-day volume.
 */
export async function resellerSummary(db: Db, userId: string): Promise<ResellerView> {
  const row = await resellerOf(db, userId);
  if (!row) return toResellerView(null);
  const [{ margin, spend }, wholesale] = await Promise.all([runBatch(db, {
    margin: rowsOf(db.select({ kobo: sql<number>`COALESCE(SUM(${ledger.amountKobo}), 0)` }).from(ledger).where(and(eq(ledger.userId, userId), eq(ledger.kind, "margin")))),
    spend: rowsOf(
      db
        .select({ kobo: sql<number>`COALESCE(-SUM(${ledger.amountKobo}), 0)` })
        .from(ledger)
        .innerJoin(users, eq(users.id, ledger.userId))
        .where(and(eq(users.parentUserId, userId), inArray(ledger.kind, ["buy", "refund", "rent", "rent_refund"]))),
    ),
  }), wholesaleView(db, userId)]);
  return toResellerView(row, { marginKobo: Number(margin[0]?.kobo ?? 0), spendKobo: Number(spend[0]?.kobo ?? 0) }, wholesale);
}

/** The customer accepts the terms and is a reseller from now (again accepting: nothing changes). */
export async function acceptResellerTerms(db: Db, userId: string, now: number): Promise<ResellerView> {
  const existing = await resellerOf(db, userId);
  if (existing?.status === "revoked") throw new AppError("FORBIDDEN", "Your reseller access was revoked. Contact support.");
  // Priced at its wholesale tier from this request on: the 30-day volume is computed in the same batch (decision 074).
  if (!existing) await db.batch([db.insert(resellers).values({ userId, status: "active", termsAcceptedAt: now, createdAt: now }).onConflictDoNothing(), wholesaleVolumeUpdate(db, userId, now)]);
  return resellerSummary(db, userId);
}
