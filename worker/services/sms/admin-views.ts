import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { AdminOrderRow } from "../../../schema/admin";
import { SMS_ORDER_STATUSES } from "../../../schema/constants";
import { koboToNaira } from "../../../schema/money";
import type { Db } from "../../db/client";
import { PRIMARY_UPSTREAM } from "../../providers/sms/upstreams";
import { offerOutcomesQuery } from "./offer-record";
import { businessOnly, clampLimit, customerMatch, ledger, type ListFilter, notSandboxUser, PENDING_TOO_LONG_MS, rowCustomer, type RowCustomer, rowCustomerColumns, statusFilter, upstreamPrices, users } from "../kernel";
import { smsOrders, upstreamHealth } from "./tables";

/** The console's views of Receive-SMS orders (services/console asks the sms room: it owns the orders; issue 42). */

export function orderView(o: typeof smsOrders.$inferSelect, customer: RowCustomer | null = null): AdminOrderRow {
  return {
    id: o.id,
    userId: o.userId,
    customer: rowCustomer(customer),
    provider: o.provider,
    country: o.countryName,
    service: o.serviceName,
    serviceId: o.serviceId,
    price: koboToNaira(o.priceKobo),
    number: o.number,
    code: o.code,
    status: o.status,
    attempts: o.attempts,
    failureReason: o.failureReason,
    // An order served before routing recorded its upstream (issue 32) was its provider's primary's.
    upstream: o.upstream ?? (o.number !== null ? (PRIMARY_UPSTREAM[o.provider === "Dynamic" ? "Dynamic" : "Swift"] ?? null) : null),
    upstreamAccount: o.upstreamAccount,
    margin: koboToNaira(o.marginKobo),
    refShare: koboToNaira(o.refShareKobo),
    refundedAfterCodeAt: o.keptRefundedAt,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export async function listOrders(db: Db, f: ListFilter, now: number): Promise<AdminOrderRow[]> {
  const where: (SQL | undefined)[] = [
    statusFilter(SMS_ORDER_STATUSES, f.status, (status) => eq(smsOrders.status, status)),
    f.provider ? eq(smsOrders.provider, f.provider) : undefined,
    f.service ? or(eq(smsOrders.serviceId, f.service), eq(smsOrders.serviceName, f.service)) : undefined,
    f.userId ? eq(smsOrders.userId, f.userId) : undefined,
    f.since ? gte(smsOrders.createdAt, f.since) : undefined,
    f.stuck ? and(sql`${smsOrders.status} IN ('pending', 'waiting')`, lt(smsOrders.createdAt, now - PENDING_TOO_LONG_MS)) : undefined,
    customerMatch(f.customer ?? ""),
    businessOnly(f.includeTest, smsOrders.userId),
  ];
  const rows = await db
    .select({ order: smsOrders, customer: rowCustomerColumns })
    .from(smsOrders)
    .innerJoin(users, eq(users.id, smsOrders.userId))
    .where(and(...where))
    .orderBy(desc(smsOrders.createdAt))
    .limit(clampLimit(f.limit));
  return rows.map((r) => orderView(r.order, r.customer));
}

/** One customer's latest orders, as a query for the console's customer page (its one batch). */
export function customerOrdersQuery(db: Db, userId: string) {
  return db.select().from(smsOrders).where(eq(smsOrders.userId, userId)).orderBy(desc(smsOrders.createdAt)).limit(50);
}

/** Orders by outcome since `since` (the Overview). */
export function orderOutcomesQuery(db: Db, since: number, includeTest: boolean | undefined) {
  return db
    .select({ status: smsOrders.status, count: sql<number>`COUNT(*)` })
    .from(smsOrders)
    .where(and(gte(smsOrders.createdAt, since), businessOnly(includeTest, smsOrders.userId)))
    .groupBy(smsOrders.status);
}

/** Delivered orders per provider and service since `since`, with the upstream's last accepted price for each offer. */
export function deliveredByServiceQuery(db: Db, since: number, includeTest: boolean | undefined) {
  return db
    .select({
      provider: smsOrders.provider,
      service: smsOrders.serviceName,
      orders: sql<number>`COUNT(*)`,
      paidKobo: sql<number>`SUM(${smsOrders.priceKobo})`,
      costUsd: sql<number | null>`SUM(${upstreamPrices.costUsd})`,
      priced: sql<number>`COUNT(${upstreamPrices.costUsd})`,
    })
    .from(smsOrders)
    .leftJoin(
      upstreamPrices,
      and(eq(upstreamPrices.provider, smsOrders.provider), eq(upstreamPrices.countryId, smsOrders.countryId), eq(upstreamPrices.serviceId, smsOrders.serviceId)),
    )
    .where(and(eq(smsOrders.status, "used"), gte(smsOrders.createdAt, since), businessOnly(includeTest, smsOrders.userId)))
    .groupBy(smsOrders.provider, smsOrders.serviceName);
}

/** Each upstream's health as the sweep last read it (the Overview). */
export function upstreamHealthQuery(db: Db) {
  return db.select().from(upstreamHealth);
}

/**
 * The public status page's counted orders in [since, until): the offer record's one reading (offer-record.ts), so the
 * status page, the purchase card's record and v1's price list count the same orders the same way (issue 49).
 */
export function statusOutcomesQuery(db: Db, since: number, until: number) {
  return offerOutcomesQuery(db, since, until);
}

/** How long each automatic refund in the same window took (from the order to its refund:<id> ledger row). */
export function statusRefundWaitsQuery(db: Db, since: number, until: number) {
  return db
    .select({ waited: sql<number>`${ledger.createdAt} - ${smsOrders.createdAt}` })
    .from(smsOrders)
    .innerJoin(ledger, eq(ledger.key, sql`'refund:' || ${smsOrders.id}`))
    .where(and(statusWindow(since, until), inArray(smsOrders.status, ["timeout", "error"])));
}

const statusWindow = (since: number, until: number) => and(gte(smsOrders.createdAt, since), lt(smsOrders.createdAt, until), notSandboxUser(smsOrders.userId));
