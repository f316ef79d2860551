import { lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { telegramUpdates } from "./tables";

/**
 * Replayed updates (issue 48): Telegram repeats an update whose webhook call failed or answered late, and a captured
 * one could be sent again. Every update_id is recorded before its update is handled; a second arrival finds it and is
 * answered 200 without being handled (https://core.telegram.org/bots/api#update: "the update's unique identifier").
 * Recorded first, so an update is handled at most once even when two deliveries race.
 */
export async function firstArrival(db: Db, updateId: number, now: number): Promise<boolean> {
  const rows = await db.insert(telegramUpdates).values({ updateId, receivedAt: now }).onConflictDoNothing().returning({ id: telegramUpdates.updateId });
  return rows.length > 0;
}

/** Two days: long past Telegram's retries of one update. */
export const UPDATE_MEMORY_MS = 2 * 86_400_000;

export async function purgeUpdates(db: Db, now: number): Promise<void> {
  await db.delete(telegramUpdates).where(lt(telegramUpdates.receivedAt, now - UPDATE_MEMORY_MS));
}
