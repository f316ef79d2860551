import { eq, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { users } from "./tables";

/**
 * A reseller's wholesale volume (issue 46, docs/decisions/074-wholesale-tiers.md): what it and its sub-accounts spent
 * with us over the last 30 days, at our price. Statements, not reads: the role's grant (db/admin-sql.ts, the customer's
 * acceptance) and the cron's refresh (resellers/wholesale.ts) each store it on the reseller's users row in one
 * statement, so a price reads it with the signed-in user at no extra round trip. Here beside the CLI's builders because
 * both the CLI and the services write it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the worker's D1 and the CLI's database alike
type Db = BaseSQLiteDatabase<"async", any, any>;

export const WHOLESALE_WINDOW_MS = 30 * 24 * 3600 * 1000;

/**
 * The volume over the window ending at `now`, stored with its time. Purchases and rentals (kinds buy, rent) less their
 * refunds (refund, rent_refund), of the reseller's own wallet and its live sub-accounts' (users.parent_user_id; a test
 * key's sandbox sub-accounts hang on the sandbox wallet, so test money never counts). The margin rows (kind margin,
 * credited to the reseller when a sub-account's order is kept, reversed with a refund) bring a marked-up purchase back
 * to our price: a reseller's markup is its own earning, not volume. Each row counts when it was written; a refund of a
 * purchase older than the window can leave the figure below what was kept, so it is floored at 0.
 */
export function wholesaleVolumeUpdate(db: Db, resellerId: string, now: number) {
  const since = now - WHOLESALE_WINDOW_MS;
  // Two index seeks (users_parent_idx, then ledger_user_idx per wallet), never a scan of the ledger.
  const volume = sql`MAX(0, COALESCE((
    SELECT -SUM(l.amount_kobo) FROM ledger l
    WHERE l.user_id IN (SELECT ${resellerId} UNION ALL SELECT u.id FROM users u WHERE u.parent_user_id = ${resellerId})
      AND l.created_at >= ${since}
      AND l.kind IN ('buy', 'refund', 'rent', 'rent_refund', 'margin')
  ), 0))`;
  return db.update(users).set({ wholesaleVolumeKobo: volume, wholesaleVolumeAt: now }).where(eq(users.id, resellerId));
}

/** A revoked reseller loses its wholesale tier at once: no volume, priced by its deposit tier alone. */
export function wholesaleVolumeClear(db: Db, userId: string) {
  return db.update(users).set({ wholesaleVolumeKobo: null, wholesaleVolumeAt: null }).where(eq(users.id, userId));
}
