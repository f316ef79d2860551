/**
 * What a money flow's tick (pollSmsOrderTick, rentalTick, invoiceTick) tells its Durable Object: wake again at
 * `wakeAt`, or stop. The time is absolute and read from the flow's own clock (deps.clock), so a deadline the tick
 * aims at (a rental's expiry, a number's closing) is the alarm itself, never shifted by a second clock read in the
 * object after the tick's I/O. The one retry policy of every flow (objects/tick-scheduler.ts):
 *  - an upstream fault is the tick's own business: it logs it and answers "again" (the next look is the retry);
 *  - anything else throws: the runtime retries the alarm with backoff (up to 6 times), then gives up, and the cron
 *    sweep settles the row (sweepSmsOrders, sweepRentals, sweepPayments);
 *  - every tick reads its row from D1 first and again after each upstream call, so a repeated alarm is harmless.
 */
export interface TickResult {
  again: boolean;
  /** When to look again, in ms since the epoch on the flow's clock; 0 when `again` is false. */
  wakeAt: number;
}

export const STOP: TickResult = { again: false, wakeAt: 0 };

/** Look again at `at` (ms since the epoch, on the flow's clock). */
export function wakeAt(at: number): TickResult {
  return { again: true, wakeAt: at };
}
