import { RECONCILE_SQL } from "../db/admin-sql";

/**
 * The money invariants a load run ends with (bench/load.ts, bench/rate-core.ts), each a query whose rows are the
 * violations: 0 rows everywhere means nothing was lost or doubled. Run over every row in the database, so over every
 * row the run wrote. The rate run reads them through the server (GET /sandbox/metrics/invariants): a second process
 * opening the local database (`wrangler d1 execute --local`) while the local server writes to it makes the server's own
 * queries fail with SQLITE_BUSY ("database is locked"), which the first rate runs did to their alarms.
 */
export const INVARIANT_SQL: Record<string, string> = {
  // rows = users whose balance differs from their ledger or is negative (the operator's `npm run reconcile`)
  "balance drift or overdraft (users)": RECONCILE_SQL,
  "payments credited twice or unconfirmed": `SELECT p.id FROM payments p JOIN ledger l ON l.ref = p.id AND l.kind = 'fund'
     GROUP BY p.id HAVING COUNT(*) > 1 OR MIN(p.status) <> 'credited' OR SUM(l.amount_kobo) <> MIN(p.amount_kobo)`,
  "orders with a wrong debit/refund": `SELECT o.id FROM sms_orders o LEFT JOIN ledger l ON l.ref = o.id AND l.kind IN ('buy', 'refund')
     GROUP BY o.id HAVING SUM(l.kind = 'buy') <> 1 OR SUM(l.kind = 'refund') > 1
        OR (o.status IN ('timeout', 'error', 'cancelled', 'failed') AND COALESCE(SUM(l.amount_kobo), 0) <> 0)
        OR (o.status IN ('used', 'waiting', 'pending') AND COALESCE(SUM(l.amount_kobo), 0) <> -o.price_kobo)`,
  "money not conserved (in <> spent + balances + reserved)": `SELECT 1 WHERE
     (SELECT COALESCE(SUM(amount_kobo), 0) FROM ledger WHERE kind IN ('fund', 'admin', 'referral')) <>
     (SELECT COALESCE(SUM(price_kobo), 0) FROM sms_orders WHERE status IN ('used', 'waiting', 'pending')) +
     (SELECT COALESCE(SUM(balance_kobo), 0) FROM users) +
     (SELECT COALESCE(SUM(r.price_kobo), 0) FROM rentals r WHERE r.status IN ('pending', 'active', 'ended')
        OR (r.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM ledger WHERE key = 'rent_refund:' || r.id)))`,
};

