/**
 * What a money flow's tick (pollSmsOrderTick, rentalTick, invoiceTick) tells its Durable Object: wake again after
 * `delayMs`, or stop. The one retry policy of every flow (objects/tick-scheduler.ts):
 *  - an upstream fault is the tick's own business: it logs it and answers "again" (the next look is the retry);
 *  - anything else throws: the runtime retries the alarm with backoff (up to 6 times), then gives up, and the cron
 *    sweep settles the row (sweepSmsOrders, sweepRentals, sweepPayments);
 *  - every tick reads its row from D1 first and again after each upstream call, so a repeated alarm is harmless.
 */
export interface TickResult {
  again: boolean;
  delayMs: number;
}

export const STOP: TickResult = { again: false, delayMs: 0 };
