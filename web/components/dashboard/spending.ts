import { directionOf, type Transaction } from "./transactions";

export type SpendingDay = { day: string; deposited: number; spent: number };
export type SpendingPicture = { days: SpendingDay[]; deposited: number; spent: number };

const DAY_MS = 24 * 3600_000;
/** Lagos is UTC+1 all year (no daylight saving): its days start an hour before UTC's. */
const LAGOS_OFFSET_MS = 3600_000;

function amountOf(tx: Transaction): number {
  const n = typeof tx.amount === "number" ? tx.amount : Number(tx.amount);
  return Number.isFinite(n) ? Math.abs(n) : 0;
}

/**
 * Deposits and spend per Lagos day (the app's one clock, schema/datetime.ts) over the last `days` days (today
 * included), from the history rows.
 * Spend counts successful debits only: a refunded purchase gave its money back, a failed one never took it.
 * Sums are kept in kobo while adding so thirty days of ₦x.yy never drift, and returned in naira.
 */
export function spendingPicture(list: readonly Transaction[], now: Date = new Date(), days = 30): SpendingPicture {
  const today = Math.floor((now.getTime() + LAGOS_OFFSET_MS) / DAY_MS) * DAY_MS - LAGOS_OFFSET_MS;
  const first = today - (days - 1) * DAY_MS;
  const buckets = Array.from({ length: days }, (_, i) => ({
    // The Lagos day from the fixed offset (no Intl here: this module is on the dashboard's first load).
    day: new Date(first + i * DAY_MS + LAGOS_OFFSET_MS).toISOString().slice(0, 10),
    depositedKobo: 0,
    spentKobo: 0,
  }));
  for (const tx of list) {
    const t = tx.created_at ? Date.parse(tx.created_at) : Number.NaN;
    if (!Number.isFinite(t)) continue;
    const index = Math.floor((t - first) / DAY_MS);
    if (index < 0 || index >= days || tx.status !== "successful") continue;
    const kobo = Math.round(amountOf(tx) * 100);
    if (directionOf(tx) === "credit") buckets[index].depositedKobo += kobo;
    else buckets[index].spentKobo += kobo;
  }
  const out = buckets.map((b) => ({ day: b.day, deposited: b.depositedKobo / 100, spent: b.spentKobo / 100 }));
  return {
    days: out,
    deposited: buckets.reduce((s, b) => s + b.depositedKobo, 0) / 100,
    spent: buckets.reduce((s, b) => s + b.spentKobo, 0) / 100,
  };
}
