import { nextCheckDelayMs, rentalTick, syncRentalMessages } from "../services/rent";
import type { RentalDeps, TickResult } from "../services/kernel";
import { TickScheduler } from "./tick-scheduler";

/** Two checks closer than this are one: an inbox opened in several tabs must not hammer the upstream. */
const ON_DEMAND_MIN_GAP_MS = 4_000;

/**
 * One per rental (idFromName(rentalId)): its alarm runs rentalTick (read new SMS, remind, expire) for as long as the
 * rental lasts, and the inbox asks it for an on-demand check (objects/tick-scheduler.ts).
 */
export class RentalWatcher extends TickScheduler {
  protected readonly subjectKey = "rentalId";

  private deps(): RentalDeps {
    return this.services().rent;
  }

  /** Called right after the number is rented, and after an extension. Idempotent. */
  async start(rentalId: string): Promise<void> {
    this.noteRequest();
    await this.arm(rentalId, Date.now() + nextCheckDelayMs(0));
  }

  /** The customer is looking at the inbox: check now unless a check just ran. Returns how many SMS were new. */
  async checkNow(rentalId: string): Promise<number> {
    this.noteRequest();
    const last = (await this.ctx.storage.get<number>("lastCheckAt")) ?? 0;
    if (Date.now() - last < ON_DEMAND_MIN_GAP_MS) return 0;
    await this.ctx.storage.put({ rentalId, lastCheckAt: Date.now() });
    return syncRentalMessages(this.deps(), rentalId);
  }

  protected async tick(rentalId: string): Promise<TickResult> {
    await this.ctx.storage.put("lastCheckAt", Date.now());
    return rentalTick(this.deps(), rentalId);
  }
}
