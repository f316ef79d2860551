import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { ResellerView } from "../../../schema/resellers";
import { nextTier, tierFor } from "../../../schema/tiers";
import type { Db } from "../../db/client";
import { wholesaleVolumeUpdate } from "../../db/wholesale-volume";
import { getSetting, users } from "../kernel";
import { resellers } from "./tables";

/**
 * Wholesale tiers (issue 46, docs/decisions/074-wholesale-tiers.md): an active reseller's price falls with its last-30-day
 * spend. The spend is a stored figure on its users row (db/wholesale-volume.ts), so every price reads it with the
 * signed-in user; this file keeps it fresh and shows it.
 */

/** A stored volume older than this is refreshed by the next cron run (every 5 minutes). */
export const WHOLESALE_REFRESH_MS = 3600 * 1000;
/** Resellers refreshed per cron run: each is one statement of two index seeks, all in one batch. */
export const WHOLESALE_REFRESH_BATCH = 50;

/**
 * The cron's refresh: the active resellers whose figure is the stalest (never computed first, then older than an hour),
 * at most WHOLESALE_REFRESH_BATCH of them, each recomputed by one UPDATE in one batch. With 600 resellers or fewer each is
 * refreshed every hour; more wait their turn (oldest first), so the work per run stays bounded.
 */
export async function refreshWholesaleVolumes(db: Db, now: number): Promise<number> {
  const stale = await db
    .select({ id: resellers.userId })
    .from(resellers)
    .innerJoin(users, eq(users.id, resellers.userId))
    .where(and(eq(resellers.status, "active"), or(isNull(users.wholesaleVolumeAt), lt(users.wholesaleVolumeAt, now - WHOLESALE_REFRESH_MS))))
    .orderBy(asc(users.wholesaleVolumeAt))
    .limit(WHOLESALE_REFRESH_BATCH);
  const [first, ...rest] = stale.map((r) => wholesaleVolumeUpdate(db, r.id, now));
  if (first) await db.batch([first, ...rest]);
  return stale.length;
}

/** The partner dashboard's wholesale line: the stored spend, the tier it earns and what the next one needs. */
export async function wholesaleView(db: Db, userId: string): Promise<ResellerView["wholesale"]> {
  const [[row], tiers] = await Promise.all([
    db.select({ kobo: users.wholesaleVolumeKobo, at: users.wholesaleVolumeAt }).from(users).where(eq(users.id, userId)).limit(1),
    getSetting(db, "wholesale_tiers"),
  ]);
  if (!row || row.kobo === null) return null;
  const spend = koboToNaira(row.kobo);
  const { name, threshold, percentage } = tierFor(tiers, spend);
  const next = nextTier(tiers, spend);
  return {
    spend_30d: spend,
    as_of: row.at === null ? null : new Date(row.at).toISOString(),
    tier: { name, threshold, percentage },
    next: next ? { name: next.tier.name, threshold: next.tier.threshold, percentage: next.tier.percentage, remaining: next.remaining } : null,
  };
}
