import { and, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { AdminRentalRow } from "../../../schema/admin";
import { RENTAL_STATUSES } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { RENT_UPSTREAM } from "../../providers/rent";
import { businessOnly, clampLimit, customerMatch, type ListFilter, PENDING_TOO_LONG_MS, rowCustomer, type RowCustomer, rowCustomerColumns, statusFilter, users } from "../kernel";
import { rentals } from "./tables";

/** The console's views of rentals (services/console asks the rent room: it owns the rentals; issue 42). */

export function rentalAdminView(r: typeof rentals.$inferSelect, customer: RowCustomer | null = null): AdminRentalRow {
  return {
    id: r.id,
    userId: r.userId,
    customer: rowCustomer(customer),
    provider: r.provider,
    country: r.countryName,
    unit: r.unit,
    period: r.period,
    price: koboToNaira(r.priceKobo),
    number: r.number,
    status: r.status,
    expiresAt: r.expiresAt,
    smsCount: r.smsCount,
    // A rental rented before the row recorded its upstream was sms-man's (the one rent upstream then).
    upstream: r.upstream ?? (r.number !== null ? RENT_UPSTREAM : null),
    upstreamAccount: r.upstreamAccount,
    createdAt: r.createdAt,
  };
}

export async function listRentals(db: Db, f: ListFilter, now: number): Promise<AdminRentalRow[]> {
  const where: (SQL | undefined)[] = [
    statusFilter(RENTAL_STATUSES, f.status, (status) => eq(rentals.status, status)),
    f.provider ? eq(rentals.provider, f.provider) : undefined,
    f.userId ? eq(rentals.userId, f.userId) : undefined,
    f.since ? gte(rentals.createdAt, f.since) : undefined,
    f.stuck
      ? or(and(eq(rentals.status, "pending"), lt(rentals.createdAt, now - PENDING_TOO_LONG_MS)), and(eq(rentals.status, "active"), lt(rentals.expiresAt, now)))
      : undefined,
    customerMatch(f.customer ?? ""),
    businessOnly(f.includeTest, rentals.userId),
  ];
  const rows = await db
    .select({ rental: rentals, customer: rowCustomerColumns })
    .from(rentals)
    .innerJoin(users, eq(users.id, rentals.userId))
    .where(and(...where))
    .orderBy(desc(rentals.createdAt))
    .limit(clampLimit(f.limit));
  return rows.map((r) => rentalAdminView(r.rental, r.customer));
}

/** One customer's latest rentals, as a query for the console's customer page (its one batch). */
export function customerRentalsQuery(db: Db, userId: string) {
  return db.select().from(rentals).where(eq(rentals.userId, userId)).orderBy(desc(rentals.createdAt)).limit(50);
}

/** How many rentals are active (the Overview), test activity left out unless asked for. */
export function activeRentalsQuery(db: Db, includeTest: boolean | undefined) {
  return db.select({ count: sql<number>`COUNT(*)` }).from(rentals).where(and(eq(rentals.status, "active"), businessOnly(includeTest, rentals.userId)));
}
