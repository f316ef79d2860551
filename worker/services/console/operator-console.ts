import { and, desc, eq, gte, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type {
  AdminRowCustomer,
  AdminAuditRow,
  AdminCustomer,
  AdminCustomerDetail,
  AdminDepositRow,
  AdminOrderRow,
  AdminOverview,
  AdminPeriod,
  AdminReconcile,
  AdminRentalRow,
  AdminStuckItem,
} from "../../../schema/admin";
import { koboToNaira } from "../../../schema/money";
import { RENTAL_STATUSES } from "../../../schema/constants";
import { SMS_ORDER_STATUSES } from "../../../schema/constants";
import { PAYMENT_STATUSES } from "../../../schema/constants";
import { tierFor } from "../../../schema/tiers";
import { RECONCILE_SQL, stuckSql } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { auditLog, ledger, payments, rentals, sessions, smsOrders, upstreamHealth, upstreamPrices, users } from "../../db/tables";
import { getSetting, isSandboxUser, notSandboxUser, reconcileLedger, rowsOf, runBatch } from "../kernel";
import { reviewQueueCount } from "./review-queue";
import { providerStats, slotsInUseByAccount } from "../sms";
import { PRIMARY_UPSTREAM } from "../../providers/sms/upstreams";
import { RENT_UPSTREAM } from "../../providers/rent";

/**
 * The operator console's reads (routes/admin.ts). Changes go through the same builders the CLI runs (db/admin-sql.ts)
 * or the customer-facing services' own guarded transitions; nothing here writes.
 * Amounts leave in naira, like every API answer.
 */


/** "Today" starts at midnight in Lagos (UTC+1 all year, no daylight saving); 7 and 30 days are rolling. */
export function periodStart(period: AdminPeriod, now: number): number {
  if (period === "7d") return now - 7 * 86_400_000;
  if (period === "30d") return now - 30 * 86_400_000;
  const lagosOffset = 3_600_000;
  return Math.floor((now + lagosOffset) / 86_400_000) * 86_400_000 - lagosOffset;
}

const STUCK_MINUTES = 30;

/** Test activity is not business: without `includeTest`, sandbox accounts' rows are left out (issue 28). */
const businessOnly = (includeTest: boolean | undefined, userIdColumn: AnySQLiteColumn): SQL | undefined => (includeTest ? undefined : notSandboxUser(userIdColumn));

export async function overview(db: Db, period: AdminPeriod, now: number, opts: { includeTest?: boolean } = {}): Promise<AdminOverview> {
  const since = periodStart(period, now);
  const only = (column: AnySQLiteColumn) => businessOnly(opts.includeTest, column);
  const [held, deposits, flows, outcomes, delivered, active, stuck, upstreams, stats, rate, reviews] = await Promise.all([
    db.select({ kobo: sql<number>`COALESCE(SUM(${users.balanceKobo}), 0)`, customers: sql<number>`COUNT(*)` }).from(users).where(only(users.id)),
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
    db
      .select({ status: smsOrders.status, count: sql<number>`COUNT(*)` })
      .from(smsOrders)
      .where(and(gte(smsOrders.createdAt, since), only(smsOrders.userId)))
      .groupBy(smsOrders.status),
    // Delivered orders per provider and service, with the upstream's last accepted price for the same offer.
    db
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
      .where(and(eq(smsOrders.status, "used"), gte(smsOrders.createdAt, since), only(smsOrders.userId)))
      .groupBy(smsOrders.provider, smsOrders.serviceName),
    db.select({ count: sql<number>`COUNT(*)` }).from(rentals).where(and(eq(rentals.status, "active"), only(rentals.userId))),
    db.all<AdminStuckItem>(sql.raw(stuckSql(STUCK_MINUTES, now))),
    db.select().from(upstreamHealth),
    // The same per provider/service figures `npm run admin -- health` prints (services/upstream-health.ts).
    providerStats(db, { since, where: only(smsOrders.userId) }),
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

/**
 * The significant digits of a Nigerian phone number however it is typed: 0809..., +234809..., 234809..., with spaces
 * or dashes. Null when the text is not a phone number (fewer than 4 digits, or letters).
 */
export function nationalDigits(text: string): string | null {
  const compact = text.replace(/[\s()-]/g, "");
  if (!/^\+?\d{4,15}$/.test(compact)) return null;
  const digits = compact.replace(/^\+/, "");
  if (digits.startsWith("234") && digits.length > 6) return digits.slice(3);
  if (digits.startsWith("0")) return digits.slice(1);
  return digits;
}

/** The stored phone with its punctuation removed (stored as typed at sign-up), for nationalDigits' comparison. */
const phoneDigits = sql`replace(replace(replace(replace(replace(${users.phone}, '+', ''), ' ', ''), '-', ''), '(', ''), ')', '')`;

/**
 * Which customers a search box means: e-mail, name (contains, case-insensitive), phone in any common form, or an exact
 * id. instr, not LIKE: D1 refuses LIKE patterns over 50 bytes (a whole e-mail address is often longer), and a search
 * box's % and _ are meant literally.
 */
export function customerMatch(q: string): SQL | undefined {
  const term = q.trim();
  if (!term) return undefined;
  const lower = term.toLowerCase();
  const national = nationalDigits(term);
  return or(
    eq(users.id, term),
    sql`instr(${users.email}, ${lower}) > 0`,
    sql`instr(lower(${users.username}), ${lower}) > 0`,
    sql`instr(${users.phone}, ${term}) > 0`,
    national ? sql`instr(${phoneDigits}, ${national}) > 0` : undefined,
  );
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
    orders: rowsOf(db.select().from(smsOrders).where(eq(smsOrders.userId, userId)).orderBy(desc(smsOrders.createdAt)).limit(50)),
    rentalRows: rowsOf(db.select().from(rentals).where(eq(rentals.userId, userId)).orderBy(desc(rentals.createdAt)).limit(50)),
    deposits: rowsOf(db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(50)),
    sessionRows: rowsOf(db
      .select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, userAgent: sessions.userAgent, country: sessions.country, city: sessions.city })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), sql`${sessions.revokedAt} IS NULL`, sql`${sessions.expiresAt} > ${now}`))
      .orderBy(desc(sessions.createdAt))),
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
    deposits: deposits.map((d) => depositView(d)),
    sessions: sessionRows,
    audit: auditRows.map(auditView),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Deposits, orders, rentals

/** The columns a list joins to say whose row it is. */
const rowCustomerColumns = { id: users.id, name: users.username, email: users.email, phone: users.phone };
type RowCustomer = { id: string; name: string; email: string; phone: string };
const rowCustomer = (c: RowCustomer | null): AdminRowCustomer | null => (c ? { ...c, test: isSandboxUser(c.id) } : null);

/** Naira that `amount` of a coin is worth at an invoice's own rate (its naira value for its coin amount). */
function atInvoiceRate(p: typeof payments.$inferSelect, amount: string): number | null {
  const paid = Number(amount);
  const asked = Number(p.payAmount);
  if (!Number.isFinite(paid) || !Number.isFinite(asked) || asked <= 0) return null;
  return koboToNaira(Math.round((paid / asked) * p.amountKobo));
}

export function depositView(p: typeof payments.$inferSelect, creditedKobo = p.creditedKobo ?? (p.status === "credited" ? p.amountKobo : 0), customer: RowCustomer | null = null): AdminDepositRow {
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
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

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

export interface ListFilter {
  status?: string;
  provider?: string;
  service?: string;
  userId?: string;
  /** Whose rows: a customer's name, e-mail or phone (any common form), as the customers' search reads it. */
  customer?: string;
  /** Sandbox accounts' rows too (test keys); off by default. */
  includeTest?: boolean;
  since?: number;
  stuck?: boolean;
  limit?: number;
}

const PENDING_TOO_LONG_MS = STUCK_MINUTES * 60_000;

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** The status filter from the query string: a status the table cannot hold matches no row. */
function statusFilter<T extends string>(statuses: readonly T[], value: string | undefined, match: (status: T) => SQL): SQL | undefined {
  if (!value) return undefined;
  return isOneOf(statuses, value) ? match(value) : sql`0`;
}

export async function findDeposit(db: Db, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row ?? null;
}

/** Who receives the console's live refresh (admin.changed) in their own notification room. */
export async function operatorIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, "operator")).limit(50);
  return rows.map((r) => r.id);
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

function clampLimit(limit: number | undefined): number {
  return Math.max(1, Math.min(200, Math.floor(limit ?? 50)));
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
