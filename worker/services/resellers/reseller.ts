import { eq } from "drizzle-orm";
import type { ResellerView } from "../../../schema/resellers";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { resellers } from "./tables";

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

export function toResellerView(row: ResellerRow | null): ResellerView {
  return {
    reseller: row?.status === "active",
    status: row?.status ?? null,
    terms_version: RESELLER_TERMS_VERSION,
    terms_accepted_at: row?.termsAcceptedAt ? new Date(row.termsAcceptedAt).toISOString() : null,
    markup_percent: (row?.markupBasisPoints ?? 0) / 100,
  };
}

/** The customer accepts the terms and is a reseller from now (again accepting: nothing changes). */
export async function acceptResellerTerms(db: Db, userId: string, now: number): Promise<ResellerView> {
  const existing = await resellerOf(db, userId);
  if (existing?.status === "revoked") throw new AppError("FORBIDDEN", "Your reseller access was revoked. Contact support.");
  if (!existing) await db.insert(resellers).values({ userId, status: "active", termsAcceptedAt: now, createdAt: now }).onConflictDoNothing();
  return toResellerView(await resellerOf(db, userId));
}
