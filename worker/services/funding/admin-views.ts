import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { AdminDepositRow } from "../../../schema/admin";
import { PAYMENT_STATUSES } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { businessOnly, clampLimit, customerMatch, ledger, type ListFilter, PENDING_TOO_LONG_MS, rowCustomer, type RowCustomer, rowCustomerColumns, statusFilter, users } from "../kernel";
import { payments, transferDeposits } from "./tables";

/**
 * The console's views of deposits (services/console asks the funding room: it owns the payments; issue 42). Amounts
 * leave in naira, like every API answer.
 */

type Payment = typeof payments.$inferSelect;

/** Naira that `amount` of a coin is worth at an invoice's own rate (its naira value for its coin amount). */
function atInvoiceRate(p: Payment, amount: string): number | null {
  const paid = Number(amount);
  const asked = Number(p.payAmount);
  if (!Number.isFinite(paid) || !Number.isFinite(asked) || asked <= 0) return null;
  return koboToNaira(Math.round((paid / asked) * p.amountKobo));
}

/**
 * What arrived by bank transfer for each payment: the sum of its arrivals (transfer_deposits) as Squad reported them,
 * whatever became of them (credited, being checked, refused), the same figures as the console's Bank transfers panel.
 * A column for every list of payments that shows a deposit (issue 43: a short transfer read "Nothing yet · ₦0.00").
 */
export const transferArrivedKobo = sql<number | null>`(SELECT SUM(${transferDeposits.amountKobo}) FROM ${transferDeposits} WHERE ${transferDeposits.paymentId} = ${payments.id})`;

export function depositView(
  p: Payment,
  creditedKobo = p.creditedKobo ?? (p.status === "credited" ? p.amountKobo : 0),
  customer: RowCustomer | null = null,
  arrivedByTransferKobo: number | null = null,
): AdminDepositRow {
  // Card and bank transfer are naira through Squad: no coin. Card: Squad charges exactly the checkout; we know it
  // arrived once Squad confirmed it (credited). Transfer: what Squad reported arriving (its arrivals, the Bank
  // transfers panel's rows), credited or not; an older payment without arrival rows falls back on what was credited.
  // Crypto: what NOWPayments read back as actually_paid, in the invoice's coin.
  const card = p.provider !== "nowpayments";
  const arrived = card
    ? p.provider === "squad_transfer" && arrivedByTransferKobo !== null && arrivedByTransferKobo > 0
      ? { naira: koboToNaira(arrivedByTransferKobo), coin: null, coinAmount: null }
      : p.status === "credited"
      ? { naira: koboToNaira(p.provider === "squad_transfer" ? creditedKobo : p.amountKobo), coin: null, coinAmount: null }
      : null
    : p.actuallyPaid !== null
      ? { naira: atInvoiceRate(p, p.actuallyPaid), coin: p.payCurrency, coinAmount: p.actuallyPaid }
      : null;
  return {
    id: p.id,
    userId: p.userId,
    customer: rowCustomer(customer),
    invoiced: { naira: koboToNaira(p.amountKobo), usd: p.priceUsdCents === null ? null : p.priceUsdCents / 100, coin: card ? null : p.payCurrency, coinAmount: card ? null : p.payAmount },
    arrived,
    credited: koboToNaira(creditedKobo),
    channel: p.provider === "squad" ? "card" : p.provider === "squad_transfer" ? "transfer" : "crypto",
    provider: p.provider,
    status: p.status,
    amount: koboToNaira(p.amountKobo),
    currency: p.currency,
    payCurrency: p.payCurrency,
    payAmount: p.payAmount,
    providerPaymentId: p.providerPaymentId,
    creditedAt: p.creditedAt,
    createdAt: p.createdAt,
  };
}

export async function findDeposit(db: Db, id: string): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row ?? null;
}

export async function listDeposits(db: Db, f: ListFilter & { channel?: "card" | "crypto" | "transfer" }, now: number): Promise<AdminDepositRow[]> {
  const where: (SQL | undefined)[] = [
    statusFilter(PAYMENT_STATUSES, f.status, (status) => eq(payments.status, status)),
    f.channel ? eq(payments.provider, f.channel === "card" ? "squad" : f.channel === "transfer" ? "squad_transfer" : "nowpayments") : undefined,
    f.userId ? eq(payments.userId, f.userId) : undefined,
    f.since ? gte(payments.createdAt, f.since) : undefined,
    f.stuck ? and(eq(payments.status, "pending"), lt(payments.createdAt, now - PENDING_TOO_LONG_MS)) : undefined,
    customerMatch(f.customer ?? ""),
    businessOnly(f.includeTest, payments.userId),
  ];
  // Credited = every ledger credit of this payment (its own fund:<provider>:<ref> row, and reviewed excess), by ref.
  const credited = sql<number>`(SELECT COALESCE(SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.ref} = ${payments.id} AND ${ledger.kind} = 'fund')`;
  const rows = await db
    .select({ payment: payments, credited, customer: rowCustomerColumns, arrivedKobo: transferArrivedKobo })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(and(...where))
    .orderBy(desc(payments.createdAt))
    .limit(clampLimit(f.limit));
  return rows.map((r) => depositView(r.payment, Number(r.credited), r.customer, r.arrivedKobo === null ? null : Number(r.arrivedKobo)));
}

/** One customer's latest deposits, as a query for the console's customer page (its one batch). */
export function customerDepositsQuery(db: Db, userId: string) {
  return db.select({ payment: payments, arrivedKobo: transferArrivedKobo }).from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(50);
}
