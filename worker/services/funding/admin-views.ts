import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { AdminDepositRow } from "../../../schema/admin";
import { PAYMENT_STATUSES } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { businessOnly, clampLimit, customerMatch, ledger, type ListFilter, PENDING_TOO_LONG_MS, rowCustomer, type RowCustomer, rowCustomerColumns, statusFilter, users } from "../kernel";
import { payments } from "./tables";

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

export function depositView(p: Payment, creditedKobo = p.creditedKobo ?? (p.status === "credited" ? p.amountKobo : 0), customer: RowCustomer | null = null): AdminDepositRow {
  // Card and bank transfer are naira through Squad: no coin. Card: Squad charges exactly the checkout; we know it
  // arrived once Squad confirmed it (credited). Transfer: what was credited after Squad's re-query (another amount goes
  // through review; the transfer panel lists each notice's own amount). Crypto: what NOWPayments read back as
  // actually_paid, in the invoice's coin.
  const card = p.provider !== "nowpayments";
  const arrived = card
    ? p.status === "credited"
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
    .select({ payment: payments, credited, customer: rowCustomerColumns })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(and(...where))
    .orderBy(desc(payments.createdAt))
    .limit(clampLimit(f.limit));
  return rows.map((r) => depositView(r.payment, Number(r.credited), r.customer));
}

/** One customer's latest deposits, as a query for the console's customer page (its one batch). */
export function customerDepositsQuery(db: Db, userId: string) {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(50);
}
