import { eq } from "drizzle-orm";
import type { V1Markups } from "../../../schema/api-v1";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { getSetting, type ResellerMarkup } from "../kernel";
import { requireReseller } from "./reseller";
import { resellers, resellerServiceMarkups } from "./tables";

/**
 * A reseller's markups (issue 46, docs/decisions/072): a flat percentage and per-service ones on what its sub-accounts
 * buy, stored in basis points (1500 = 15%), bounded by the operator's setting `reseller_markups.max_percent`. The markup
 * is the reseller's (the key's owner), so its live and test keys' sub-accounts are priced alike.
 */

const toBasisPoints = (percent: number) => Math.round(percent * 100);
const toPercent = (basisPoints: number) => basisPoints / 100;

async function serviceMarkups(db: Db, ownerId: string): Promise<Record<string, number>> {
  const rows = await db.select().from(resellerServiceMarkups).where(eq(resellerServiceMarkups.resellerId, ownerId));
  return Object.fromEntries(rows.map((r) => [r.service, r.markupBasisPoints]));
}

export async function getMarkups(db: Db, ownerId: string): Promise<V1Markups> {
  const reseller = await requireReseller(db, ownerId);
  const [services, { max_percent }] = await Promise.all([serviceMarkups(db, ownerId), getSetting(db, "reseller_markups")]);
  return {
    percent: toPercent(reseller.markupBasisPoints),
    services: Object.fromEntries(Object.entries(services).map(([service, bp]) => [service, toPercent(bp)])),
    max_percent,
  };
}

/**
 * Replaces the reseller's markups (the flat one and every per-service one) in one batch. A markup above the setting's
 * ceiling is refused (400, naming it), nothing written; below zero is refused by the request's schema.
 */
export async function setMarkups(db: Db, ownerId: string, input: { percent: number; services: Record<string, number> }): Promise<V1Markups> {
  await requireReseller(db, ownerId);
  const { max_percent } = await getSetting(db, "reseller_markups");
  const above = [["percent", input.percent] as const, ...Object.entries(input.services).map(([s, p]) => [`services.${s}`, p] as const)].find(([, p]) => p > max_percent || p < 0);
  if (above) throw new AppError("VALIDATION_FAILED", `A markup is at most ${max_percent}% (${above[0]} is ${above[1]}%).`, { field: above[0] });
  const rows = Object.entries(input.services).map(([service, percent]) => ({ resellerId: ownerId, service, markupBasisPoints: toBasisPoints(percent) }));
  await db.batch([
    db.update(resellers).set({ markupBasisPoints: toBasisPoints(input.percent) }).where(eq(resellers.userId, ownerId)),
    db.delete(resellerServiceMarkups).where(eq(resellerServiceMarkups.resellerId, ownerId)),
    ...(rows.length > 0 ? [db.insert(resellerServiceMarkups).values(rows)] : []),
  ]);
  return getMarkups(db, ownerId);
}

/**
 * The markup a sub-account's purchase carries (middleware/subaccount.ts): the owner's rates, the margin credited to
 * `parentId` (the acting account: a test key's sandbox wallet for its sandbox sub-accounts). Null when none is set. A
 * markup set before the operator lowered the ceiling is capped at the ceiling.
 */
export async function markupForSubaccount(db: Db, ownerId: string, parentId: string, flatBasisPoints: number): Promise<ResellerMarkup | null> {
  const [services, { max_percent }] = await Promise.all([serviceMarkups(db, ownerId), getSetting(db, "reseller_markups")]);
  const ceiling = toBasisPoints(max_percent);
  const capped = Object.fromEntries(Object.entries(services).map(([service, bp]) => [service, Math.min(bp, ceiling)]));
  if (flatBasisPoints === 0 && Object.values(capped).every((bp) => bp === 0)) return null;
  return { resellerId: parentId, basisPoints: Math.min(flatBasisPoints, ceiling), services: capped };
}
