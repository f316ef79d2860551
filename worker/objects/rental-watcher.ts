import { DurableObject } from "cloudflare:workers";
import { getDb } from "../db/client";
import { configFor, type Env } from "../env";
import { log } from "../lib/log";
import { rentalProviderFor } from "../providers/rent";
import { reminderDueAt, remindIfDue } from "../services/rental-reminder";
import { expireRental, findRental, nextCheckDelayMs, syncRentalMessages, type RentalDeps } from "../services/rentals";

/** Two checks closer than this are one: an inbox opened in several tabs must not hammer the upstream. */
const ON_DEMAND_MIN_GAP_MS = 4_000;

/**
 * One per rental (idFromName(rentalId)). While the rental lasts, its alarm checks the upstream for new SMS on a
 * schedule that is frequent in the first minutes and sparse later (services/rentals.ts nextCheckDelayMs), and at the
 * expiry time closes the rental. The alarm never throws: an upstream failure is logged and the next check scheduled,
 * because a thrown alarm is retried only a few times and then dropped. All state that matters is in D1 and re-read
 * after every network call (the services do that), so a repeated or late alarm is harmless.
 */
export class RentalWatcher extends DurableObject<Env> {
  private deps(): RentalDeps {
    return { env: this.env, db: getDb(this.env.DB), provider: rentalProviderFor(this.env, configFor(this.env)) };
  }

  /** Called right after the number is rented. Idempotent. */
  async start(rentalId: string): Promise<void> {
    await this.ctx.storage.put("rentalId", rentalId);
    await this.ctx.storage.setAlarm(Date.now() + nextCheckDelayMs(0));
  }

  /** The rental ended or was cancelled: no more checks. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
  }

  /** The customer is looking at the inbox: check now unless a check just ran. Returns how many SMS were new. */
  async checkNow(rentalId: string): Promise<number> {
    const last = (await this.ctx.storage.get<number>("lastCheckAt")) ?? 0;
    if (Date.now() - last < ON_DEMAND_MIN_GAP_MS) return 0;
    await this.ctx.storage.put({ rentalId, lastCheckAt: Date.now() });
    return syncRentalMessages(this.deps(), rentalId);
  }

  override async alarm(): Promise<void> {
    const rentalId = await this.ctx.storage.get<string>("rentalId");
    if (!rentalId) return;
    const deps = this.deps();
    const row = await findRental(deps.db, rentalId);
    if (!row || row.status !== "active" || row.expiresAt === null) return;

    if (Date.now() >= row.expiresAt) {
      await expireRental(deps, rentalId);
      return;
    }
    try {
      await this.ctx.storage.put("lastCheckAt", Date.now());
      await syncRentalMessages(deps, rentalId);
    } catch (err) {
      log("warn", "rental check failed, will retry", { rentalId, error: err instanceof Error ? err.message : String(err) });
    }
    // Re-read: the rental may have ended, been cancelled or extended while we were talking to the upstream.
    let after = await findRental(deps.db, rentalId);
    if (!after || after.status !== "active" || after.expiresAt === null) return;
    // The "ends in an hour" reminder: sent once per expiry whatever the number of alarms (services/rental-reminder.ts).
    try {
      if (await remindIfDue(deps, after)) after = (await findRental(deps.db, rentalId)) ?? after;
    } catch (err) {
      log("warn", "rental reminder failed", { rentalId, error: err instanceof Error ? err.message : String(err) });
    }
    const expiresAt = after.expiresAt;
    if (after.status !== "active" || expiresAt === null) return;
    await this.ctx.storage.setAlarm(nextAlarmAt({ ...after, expiresAt }, Date.now()));
  }
}

/** The next wake-up: the next upstream check, the reminder when it is due sooner, never past the expiry. */
export function nextAlarmAt(row: Parameters<typeof reminderDueAt>[0] & { expiresAt: number }, now: number): number {
  let at = Math.min(now + nextCheckDelayMs(now - row.createdAt), row.expiresAt);
  const remind = reminderDueAt(row);
  if (remind !== null && remind > now) at = Math.min(at, remind);
  return at;
}
