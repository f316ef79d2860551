import type { Db } from "../../db/client";
import { purgeOldEmailVerifications } from "./email-verification";
import { purgeExpiredChallenges } from "./passkeys";
import { purgeOldPasswordResets } from "./password-reset";
import { purgeExpiredRateLimits } from "../kernel";
import { purgeDeadSessions } from "./sessions";

/** Cron: drops sessions, reset and verification links and rate-limit windows nobody can use any more, so those tables stay small. */
export async function sweepAccountRows(db: Db, now: number): Promise<void> {
  await purgeDeadSessions(db, now);
  await purgeOldPasswordResets(db, now);
  await purgeOldEmailVerifications(db, now);
  await purgeExpiredRateLimits(db, now);
  await purgeExpiredChallenges(db, now);
}
