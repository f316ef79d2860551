import type { Db } from "../db/client";
import { purgeOldPasswordResets } from "./password-reset";
import { purgeExpiredRateLimits } from "./rate-limit";
import { purgeDeadSessions } from "./sessions";

/** Cron: drops sessions, reset links and rate-limit windows nobody can use any more, so those tables stay small. */
export async function sweepAccountRows(db: Db, now = Date.now()): Promise<void> {
  await purgeDeadSessions(db, now);
  await purgeOldPasswordResets(db, now);
  await purgeExpiredRateLimits(db, now);
}
