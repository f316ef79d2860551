import { and, desc, eq, gte, like, lt, sql, type SQL } from "drizzle-orm";
import type { AdminAuditRow, AdminCustomer, AdminCustomerDetail, AdminOverview, AdminPeriod, AdminReconcile, AdminStuckItem } from "../../../schema/admin";
import { koboToNaira } from "../../../schema/money";
import { tierFor } from "../../../schema/tiers";
import { RECONCILE_SQL, stuckSql } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { auditLog } from "./tables";
import { businessOnly, clampLimit, customerMatch, getSetting, isSandboxUser, ledger, reconcileLedger, rowsOf, runBatch, STUCK_MINUTES, users } from "../kernel";
import { listLiveSessions } from "../accounts";
import { customerDepositsQuery, depositView, heldForWithdrawalsKobo, reviewQueueCount } from "../funding";
import { activeRentalsQuery, customerRentalsQuery, rentalAdminView } from "../rent";
import { customerOrdersQuery, deliveredByServiceQuery, orderOutcomesQuery, orderView, providerStats, slotsInUseByAccount, upstreamHealthQuery } from "../sms";

/**
 * The operator console's reads (routes/admin.ts). Changes go through the same builders the CLI runs (db/admin-sql.ts)
 * or the customer-facing services' own guarded transitions; nothing here writes. The console owns its audit log; every
 * other room's rows it asks that room for, through its index (issue 42: the deposits, orders and rentals lists and
 * their views are funding's, sms's and rent's: services/<room>/admin-views.ts).
 * Amounts leave in naira, like every API answer.
 */


/** "Today" starts at midnight in Lagos (UTC+1 all year, no daylight saving); 7 and 30 days are rolling. */
export function periodStart(period: AdminPeriod, now: number): number {
  if (period === "7d") return now - 7 * 86_400_000;
  if (period === "30d") return now - 30 * 86_400_000;
  const lagosOffset = 3_600_000;
  return Math.floor((now + lagosOffset) / 86_400_000) * 86_400_000 - lagosOffset;
}


export async function overview(db: Db, period: AdminPeriod, now: number, opts: { includeTest?: boolean } = {}): Promise<AdminOverview> {
  const since = periodStart(period, now);
  const only = (column: Parameters<typeof businessOnly>[1]) => businessOnly(opts.includeTest, column);
  const [held, withdrawalsHeld, deposits, flows, outcomes, delivered, active, stuck, upstreams, stats, rate, reviews] = await Promise.all([
    // Every wallet is money held, resellers' sub-accounts included (issue 46); only customers are counted as customers
    // (issue 43: the count included operators), and a sub-account is its reseller's wallet, not a customer.
    db
      .select({
        kobo: sql<number>`COALESCE(SUM(${users.balanceKobo}), 0)`,
        customers: sql<number>`COALESCE(SUM(CASE WHEN ${users.role} = 'customer' AND ${users.parentUserId} IS NULL THEN 1 ELSE 0 END), 0)`,
      })
      .from(users)
      .where(only(users.id)),
    // Issue 45: money held for withdrawals has left the balances but is still owed until the bank is paid.
    heldForWithdrawalsKobo(db, opts.includeTest),
    db
      .select({
        channel: sql<string>`CASE WHEN ${ledger.key} LIKE 'fund:squad:%' THEN 'card' WHEN ${ledger.key} LIKE 'fund:now:%' THEN 'crypto' WHEN ${ledger.key} LIKE 'fund:transfer:%' THEN 'transfer' WHEN ${ledger.key} LIKE 'fund:review:%' THEN 'crypto (reviewed)' ELSE 'other' END`,
        count: sql<number>`COUNT(*)`,
        kobo: sql<number>`SUM(${ledger.amountKobo})`,
      })
      .from(ledger)
      .where(and(eq(ledger.kind, "fund"), gte(ledger.createdAt, since), only(ledger.userId)))
      .groupBy(sql`1`),
    db
      .select({ kind: ledger.kind, kobo: sql<number>`SUM(${ledger.amountKobo})` })
      .from(ledger)
      .where(and(gte(ledger.createdAt, since), only(ledger.userId)))
      .groupBy(ledger.kind),
    orderOutcomesQuery(db, since, opts.includeTest),
    // Delivered orders per provider and service, with the upstream's last accepted price for the same offer.
    deliveredByServiceQuery(db, since, opts.includeTest),
    activeRentalsQuery(db, opts.includeTest),
    db.all<AdminStuckItem>(sql.raw(stuckSql(STUCK_MINUTES, now))),
    upstreamHealthQuery(db),
    // The same per provider/service figures `npm run admin -- health` prints (services/upstream-health.ts).
    providerStats(db, { since, includeTest: opts.includeTest === true }),
    getSetting(db, "exchange_rate"),
    // The Deposits page's review queue: crypto arrivals held for review and card payments pending too long.
    reviewQueueCount(db, now),
  ]);
  const kindSum = (kinds: string[]) => flows.filter((f) => kinds.includes(f.kind)).reduce((n, f) => n + Number(f.kobo), 0);
  const performance = stats.map((g) => ({
    provider: g.provider,
    service: g.serviceName,
    orders: g.purchases,
    codes: g.codes,
    refunds: g.refunds,
    successRate: g.purchases ? Math.round((g.codes / g.purchases) * 1000) / 10 : 0,
    medianSecondsToCode: g.medianSecondsToCode,
  }));
  const margin = delivered.map((d) => {
    const paid = koboToNaira(Number(d.paidKobo));
    // Only when every delivered order of the group has a price on record; a partial sum would flatter the margin.
    const upstreamCost = Number(d.priced) === Number(d.orders) && d.costUsd !== null ? Math.round(Number(d.costUsd) * rate.rate * 100) / 100 : null;
    return { provider: d.provider, service: d.service, orders: Number(d.orders), paid, upstreamCost, margin: upstreamCost === null ? null : Math.round((paid - upstreamCost) * 100) / 100 };
  });

  return {
    period,
    includesTest: opts.includeTest === true,
    since,
    moneyHeld: koboToNaira(Number(held[0]?.kobo ?? 0)),
    owedToCustomers: {
      balances: koboToNaira(Number(held[0]?.kobo ?? 0)),
      heldForWithdrawals: koboToNaira(withdrawalsHeld),
      total: koboToNaira(Number(held[0]?.kobo ?? 0) + withdrawalsHeld),
    },
    customers: Number(held[0]?.customers ?? 0),
    deposits: deposits.map((d) => ({ channel: d.channel, count: Number(d.count), amount: koboToNaira(Number(d.kobo)) })),
    manualCredits: koboToNaira(kindSum(["admin"])),
    spend: koboToNaira(-kindSum(["buy", "rent"])),
    refunds: koboToNaira(kindSum(["refund", "rent_refund"])),
    margin,
    ordersByOutcome: outcomes.map((o) => ({ status: o.status, count: Number(o.count) })),
    performance,
    activeRentals: Number(active[0]?.count ?? 0),
    upstreams: upstreams.map((u) => ({ provider: u.provider, status: u.status, balanceUsd: u.balanceUsd, floorUsd: u.floorUsd, checkedAt: u.checkedAt })),
    // Issue 30: numbers waiting for a code per upstream account (each holds a slot until its code or its end).
    slots: await slotsInUseByAccount(db),
    attention: { stuck: opts.includeTest ? stuck : stuck.filter((item) => !isSandboxUser(item.user_id)), reviews },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Customers

const customerColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  phone: users.phone,
  role: users.role,
  balanceKobo: users.balanceKobo,
  totalDepositedKobo: users.totalDepositedKobo,
  blockedAt: users.blockedAt,
  emailVerifiedAt: users.emailVerifiedAt,
  totpEnabledAt: users.totpEnabledAt,
  emailOptOutAt: users.emailOptOutAt,
  createdAt: users.createdAt,
};

type CustomerRow = { [K in keyof typeof customerColumns]: (typeof users.$inferSelect)[K] };

export function customerSummary(row: CustomerRow): AdminCustomer {
  const { balanceKobo, totalDepositedKobo, totpEnabledAt, emailVerifiedAt, blockedAt, emailOptOutAt, ...rest } = row;
  return {
    ...rest,
    balance: koboToNaira(balanceKobo),
    totalDeposited: koboToNaira(totalDepositedKobo),
    blocked: blockedAt !== null,
    blockedAt,
    emailVerified: emailVerifiedAt !== null,
    twoFactor: totpEnabledAt !== null,
    emailOptOut: emailOptOutAt !== null,
  };
}

/** Search by e-mail, name, phone (any common form) or exact id; sandbox accounts only when `includeTest`. */
export async function searchCustomers(db: Db, q: string, limit = 25, opts: { includeTest?: boolean } = {}): Promise<AdminCustomer[]> {
  const rows = await db
    .select(customerColumns)
    .from(users)
    .where(and(customerMatch(q), businessOnly(opts.includeTest, users.id)))
    .orderBy(desc(users.createdAt))
    .limit(limit);
  return rows.map(customerSummary);
}

function escapeLike(text: string): string {
  // Audit actions are short known prefixes ("setting."); a % or _ typed in the filter is dropped, not a wildcard.
  return text.replaceAll("%", "").replaceAll("_", "").slice(0, 40);
}

/** Everything about one customer: profile, tier, ledger, orders, rentals, deposits, live sessions, recent audit. */
export async function customerDetail(db: Db, userId: string, now: number): Promise<AdminCustomerDetail | null> {
  const { profile, ledgerRows, orders, rentalRows, deposits, sessionRows, auditRows } = await runBatch(db, {
    profile: rowsOf(db.select(customerColumns).from(users).where(eq(users.id, userId)).limit(1)),
    ledgerRows: rowsOf(db.select().from(ledger).where(eq(ledger.userId, userId)).orderBy(desc(ledger.id)).limit(100)),
    // Each room's rows from its own query, still one round trip.
    orders: rowsOf(customerOrdersQuery(db, userId)),
    rentalRows: rowsOf(customerRentalsQuery(db, userId)),
    deposits: rowsOf(customerDepositsQuery(db, userId)),
    sessionRows: rowsOf(listLiveSessions(db, userId, now)),
    auditRows: rowsOf(db.select().from(auditLog).where(eq(auditLog.subject, userId)).orderBy(desc(auditLog.id)).limit(50)),
  });
  const row = profile[0];
  if (!row) return null;
  const tiers = await getSetting(db, "tiers");
  const tier = tierFor(tiers, koboToNaira(row.totalDepositedKobo));
  return {
    customer: customerSummary(row),
    tier: tier ? { name: tier.text, percentage: tier.percentage } : null,
    ledger: ledgerRows.map((l) => ({ id: l.id, key: l.key, kind: l.kind, amount: koboToNaira(l.amountKobo), note: l.note, ref: l.ref, createdAt: l.createdAt })),
    orders: orders.map((o) => orderView(o)),
    rentals: rentalRows.map((r) => rentalAdminView(r)),
    deposits: deposits.map((d) => depositView(d.payment, undefined, null, d.arrivedKobo === null ? null : Number(d.arrivedKobo))),
    sessions: sessionRows.map((x) => ({ id: x.id, createdAt: x.createdAt, lastSeenAt: x.lastSeenAt, userAgent: x.userAgent, country: x.country, city: x.city })),
    audit: auditRows.map(auditView),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Deposits, orders, rentals

/** Who receives the console's live refresh (admin.changed) in their own notification room. */
export async function operatorIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, "operator")).limit(50);
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Audit and reconcile

export function auditView(a: typeof auditLog.$inferSelect): AdminAuditRow {
  const parse = (text: string | null) => {
    if (text === null) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  return { id: a.id, actor: a.actor, action: a.action, subject: a.subject, detail: parse(a.detail), previous: parse(a.previous), reason: a.reason, createdAt: a.createdAt };
}

export async function listAudit(db: Db, f: { actor?: string; action?: string; subject?: string; since?: number; before?: number; limit?: number }): Promise<AdminAuditRow[]> {
  const where: (SQL | undefined)[] = [
    f.actor ? eq(auditLog.actor, f.actor) : undefined,
    f.action ? like(auditLog.action, `${escapeLike(f.action)}%`) : undefined,
    f.subject ? eq(auditLog.subject, f.subject) : undefined,
    f.since ? gte(auditLog.createdAt, f.since) : undefined,
    f.before ? lt(auditLog.id, f.before) : undefined,
  ];
  const rows = await db.select().from(auditLog).where(and(...where)).orderBy(desc(auditLog.id)).limit(clampLimit(f.limit));
  return rows.map(auditView);
}

/**
 * Reconcile now: the CLI's RECONCILE_SQL (every customer whose balance differs from the sum of their ledger rows or is
 * negative) plus the conservation check: the money held equals everything the ledger ever moved.
 */
export async function reconcileNow(db: Db, now: number): Promise<AdminReconcile> {
  const [report, differences, totals] = await Promise.all([
    reconcileLedger(db),
    db.all<{ user_id: string; email: string; balance_kobo: number; ledger_kobo: number }>(sql.raw(RECONCILE_SQL)),
    db.all<{ balances: number; ledger: number; rows: number }>(
      sql`SELECT (SELECT COALESCE(SUM(balance_kobo), 0) FROM users) AS balances, (SELECT COALESCE(SUM(amount_kobo), 0) FROM ledger) AS ledger, (SELECT COUNT(*) FROM ledger) AS rows`,
    ),
  ]);
  const t = totals[0] ?? { balances: 0, ledger: 0, rows: 0 };
  return {
    ok: report.ok && Number(t.balances) === Number(t.ledger),
    customers: report.users,
    ledgerRows: Number(t.rows),
    moneyHeld: koboToNaira(Number(t.balances)),
    ledgerTotal: koboToNaira(Number(t.ledger)),
    conserved: Number(t.balances) === Number(t.ledger),
    differences: differences.map((d) => ({
      userId: d.user_id,
      email: d.email,
      balance: koboToNaira(Number(d.balance_kobo)),
      ledger: koboToNaira(Number(d.ledger_kobo)),
      difference: koboToNaira(Number(d.balance_kobo) - Number(d.ledger_kobo)),
    })),
    checkedAt: now,
  };
}
