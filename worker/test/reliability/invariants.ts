import { env } from "cloudflare:workers";
import type { AdminChange } from "../../db/admin-sql";
import { getDb } from "../../db/client";
import { fileUsersRowidMark } from "../file-scope";

/**
 * The money invariants the whole reliability suite checks, as plain SQL over the test D1 so one batch answers them all.
 * Each returns human-readable violations (empty = holds), so a failing property prints what broke, not just "false".
 * They read the money of the users the running test file created (worker/test/file-scope.ts: the D1 is shared with
 * the lane's earlier files, decision 054), which is every row a fresh database held when each file had its own.
 */

const REFUNDED_SMS = ["timeout", "error", "cancelled", "failed"];
const SPENT_SMS = ["used"];
const OPEN_SMS = ["pending", "waiting"];

export async function moneyViolations(): Promise<string[]> {
  const mark = fileUsersRowidMark();
  const [balances, credits, reviewCredits, orders, margins, refShares, rentals, rentalMargins, rentalShares, renewalRefunds, withdrawalMoney, totals] = await env.DB.batch([
    // 1. every balance = the sum of its ledger rows, and never below zero
    env.DB.prepare(
      `SELECT u.id, u.balance_kobo AS balance, COALESCE(SUM(l.amount_kobo), 0) AS ledger
         FROM users u LEFT JOIN ledger l ON l.user_id = u.id WHERE u.rowid > ?1 GROUP BY u.id
       HAVING balance <> ledger OR balance < 0`,
    ),
    // 2. a deposit is credited at most once (the key is UNIQUE: also proven here by ref) and only once the provider
    //    confirmed it, for the payment's own amount (crypto: what arrived, recorded as credited_kobo, never more than
    //    the invoice) and to its own owner. Operator credits of reviewed arrivals (fund:review:) are checked in 2b.
    env.DB.prepare(
      `SELECT p.id, p.status, p.provider, p.amount_kobo, COUNT(l.id) AS credits, SUM(l.amount_kobo) AS credited,
              MIN(l.user_id = p.user_id) AS same_owner,
              (SELECT json_extract(value, '$.status') FROM sandbox_state WHERE key = 'squad:' || p.id) AS squad_status,
              (SELECT json_extract(value, '$.payment_status') FROM sandbox_state WHERE key = 'nowpayments:' || p.provider_payment_id) AS now_status
         FROM payments p LEFT JOIN ledger l ON l.ref = p.id AND l.kind = 'fund' AND l.key NOT LIKE 'fund:review:%'
        WHERE p.user_id IN (SELECT id FROM users WHERE rowid > ?1)
        GROUP BY p.id
       HAVING credits > 1
           OR (credits = 1 AND (credited <> COALESCE(p.credited_kobo, p.amount_kobo) OR credited > p.amount_kobo OR same_owner = 0 OR p.status <> 'credited'))
           OR (credits = 1 AND p.provider = 'squad' AND credited <> p.amount_kobo)
           OR (credits = 0 AND p.status = 'credited' AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.key LIKE 'fund:review:%' AND r.ref = p.id))
           OR (credits = 1 AND p.provider = 'squad' AND squad_status IS NOT 'Success')
           OR (credits = 1 AND p.provider = 'nowpayments' AND now_status NOT IN ('finished', 'partially_paid'))
           OR (credits = 1 AND p.provider = 'squad_transfer' AND p.provider_payment_id IS NULL
               AND NOT EXISTS (SELECT 1 FROM sandbox_state WHERE key = 'squadva:dva:' || p.id AND value LIKE '%"transaction_status":"SUCCESS"%'))`,
    ),
    // 2b. an operator's credit of a reviewed arrival exists only for a review resolved as credited, once, for the
    //     resolution's amount, to the review's customer
    env.DB.prepare(
      `SELECT l.key FROM ledger l
         LEFT JOIN payment_reviews rv ON l.key = 'fund:review:' || rv.id
         LEFT JOIN payment_review_resolutions rr ON rr.review_id = rv.id
        WHERE l.key LIKE 'fund:review:%' AND l.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND (rv.id IS NULL OR rv.status <> 'credited' OR rr.outcome IS NOT 'credited' OR rr.amount_kobo <> l.amount_kobo OR rv.user_id <> l.user_id)`,
    ),
    // 3. every SMS order has one outcome and at most one refund; refunded outcomes net to zero, the rest cost its price
    env.DB.prepare(
      `SELECT o.id, o.status, o.price_kobo,
              SUM(CASE WHEN l.kind = 'buy' THEN 1 ELSE 0 END) AS debits,
              SUM(CASE WHEN l.kind = 'refund' THEN 1 ELSE 0 END) AS refunds,
              COALESCE(SUM(l.amount_kobo), 0) AS net
         FROM sms_orders o LEFT JOIN ledger l ON l.ref = o.id AND l.kind IN ('buy', 'refund')
        WHERE o.user_id IN (SELECT id FROM users WHERE rowid > ?1)
        GROUP BY o.id
       HAVING debits <> 1 OR refunds > 1
           OR (o.status IN (${REFUNDED_SMS.map((s) => `'${s}'`).join(",")}) AND (refunds <> 1 OR net <> 0))
           OR (o.status IN (${[...SPENT_SMS, ...OPEN_SMS].map((s) => `'${s}'`).join(",")}) AND o.kept_refunded_at IS NULL AND (refunds <> 0 OR net <> -o.price_kobo))
           -- an operator's refund of a kept order (issue 46): still 'used', refunded once, netting to zero
           OR (o.kept_refunded_at IS NOT NULL AND (o.status <> 'used' OR refunds <> 1 OR net <> 0))
           OR o.status NOT IN (${[...REFUNDED_SMS, ...SPENT_SMS, ...OPEN_SMS].map((s) => `'${s}'`).join(",")})`,
    ),
    // 3b. a reseller's margin (issue 46): credited once, for the order's margin, to its reseller, exactly when the order
    //     was kept; reversed once, for the same amount, exactly when a kept order was refunded
    env.DB.prepare(
      `SELECT o.id, o.status, o.margin_kobo, o.kept_refunded_at FROM sms_orders o
        WHERE o.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND ((SELECT COUNT(*) FROM ledger l WHERE l.key = 'margin:' || o.id) <> (CASE WHEN o.status = 'used' AND o.margin_kobo > 0 THEN 1 ELSE 0 END)
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'margin:' || o.id AND (l.amount_kobo <> o.margin_kobo OR l.user_id IS NOT o.margin_user_id))
            OR (SELECT COUNT(*) FROM ledger l WHERE l.key = 'margin-reversal:' || o.id) <> (CASE WHEN o.kept_refunded_at IS NOT NULL AND o.margin_kobo > 0 THEN 1 ELSE 0 END)
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'margin-reversal:' || o.id AND (l.amount_kobo <> -o.margin_kobo OR l.user_id IS NOT o.margin_user_id)))`,
    ),
    // 3c. a developer's ref share (decision 075): credited once, for the order's share, to its developer's wallet,
    //     exactly when the order was kept; reversed at most once, for the same amount and wallet, only when a kept
    //     order was refunded (the reversal may be forgone when the developer's wallet no longer held it)
    env.DB.prepare(
      `SELECT o.id, o.status, o.ref_share_kobo, o.ref_user_id, o.kept_refunded_at FROM sms_orders o
        WHERE o.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND ((SELECT COUNT(*) FROM ledger l WHERE l.key = 'ref-share:' || o.id) <> (CASE WHEN o.status = 'used' AND o.ref_share_kobo > 0 THEN 1 ELSE 0 END)
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'ref-share:' || o.id AND (l.amount_kobo <> o.ref_share_kobo OR l.user_id IS NOT o.ref_user_id OR l.kind <> 'ref_share'))
            OR ((SELECT COUNT(*) FROM ledger l WHERE l.key = 'ref-share-reversal:' || o.id) > 0 AND (o.kept_refunded_at IS NULL OR o.ref_share_kobo = 0))
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'ref-share-reversal:' || o.id AND (l.amount_kobo <> -o.ref_share_kobo OR l.user_id IS NOT o.ref_user_id)))`,
    ),
    // 4. rentals likewise: failed is always refunded, a cancel at most once, active/ended keep the money
    env.DB.prepare(
      `SELECT r.id, r.status, r.price_kobo,
              SUM(CASE WHEN l.kind = 'rent' THEN 1 ELSE 0 END) AS debits,
              SUM(CASE WHEN l.kind = 'rent_refund' THEN 1 ELSE 0 END) AS refunds,
              COALESCE(SUM(l.amount_kobo), 0) AS net
         FROM rentals r LEFT JOIN ledger l ON l.ref = r.id AND l.key IN ('rent:' || r.id, 'rent_refund:' || r.id)
        WHERE r.user_id IN (SELECT id FROM users WHERE rowid > ?1)
        GROUP BY r.id
       HAVING debits <> 1 OR refunds > 1
           OR (r.status = 'failed' AND net <> 0)
           OR (r.status IN ('pending', 'active', 'ended') AND net <> -r.price_kobo)
           OR (r.status = 'cancelled' AND net NOT IN (0, -r.price_kobo))
           OR r.status NOT IN ('pending', 'active', 'ended', 'cancelled', 'failed')`,
    ),
    // 4a. a reseller's margin on a rental (decision 076): credited once, for the rental's margin, to its reseller,
    //     exactly when the rental was kept for good (ended, or cancelled unrefunded); never for one refunded
    env.DB.prepare(
      `SELECT r.id, r.status, r.margin_kobo FROM rentals r
        WHERE r.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND ((SELECT COUNT(*) FROM ledger l WHERE l.key = 'rent_margin:' || r.id) <>
                 (CASE WHEN r.margin_kobo > 0 AND (r.status = 'ended' OR (r.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM ledger f WHERE f.key = 'rent_refund:' || r.id))) THEN 1 ELSE 0 END)
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'rent_margin:' || r.id AND (l.amount_kobo <> r.margin_kobo OR l.user_id IS NOT r.margin_user_id)))`,
    ),
    // 4a'. a developer's ref share on a rental (decision 075): credited once, for the rental's share, to its developer,
    //     exactly when the rental was kept for good (as its margin); never for one refunded, never reversed
    env.DB.prepare(
      `SELECT r.id, r.status, r.ref_share_kobo, r.ref_user_id FROM rentals r
        WHERE r.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND ((SELECT COUNT(*) FROM ledger l WHERE l.key = 'rent-ref-share:' || r.id) <>
                 (CASE WHEN r.ref_share_kobo > 0 AND (r.status = 'ended' OR (r.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM ledger f WHERE f.key = 'rent_refund:' || r.id))) THEN 1 ELSE 0 END)
            OR EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'rent-ref-share:' || r.id AND (l.amount_kobo <> r.ref_share_kobo OR l.user_id IS NOT r.ref_user_id OR l.kind <> 'ref_share')))`,
    ),
    // 4b. renewals (issue 32): a refund only for a renewal that was charged, and for exactly what it charged
    env.DB.prepare(
      `SELECT f.key, f.amount_kobo FROM ledger f
        WHERE f.key LIKE 'rent\\_renew\\_refund:%' ESCAPE '\\' AND f.user_id IN (SELECT id FROM users WHERE rowid > ?1)
          AND NOT EXISTS (SELECT 1 FROM ledger d WHERE d.key = 'rent_renew:' || substr(f.key, 19) AND d.amount_kobo = -f.amount_kobo)`,
    ),
    // 4c. withdrawals (issue 45): one hold of amount + fee each; its return (withdraw_back:) exactly when it failed, was
    //     refused or was reversed, for the whole hold, and never otherwise
    env.DB.prepare(
      `SELECT * FROM (SELECT w.id, w.status, w.amount_kobo + w.fee_kobo AS total,
              (SELECT COUNT(*) FROM ledger h WHERE h.key = 'withdraw:' || w.id AND h.amount_kobo = -(w.amount_kobo + w.fee_kobo) AND h.user_id = w.user_id) AS holds,
              (SELECT COUNT(*) FROM ledger h WHERE h.key = 'withdraw:' || w.id) AS hold_rows,
              (SELECT COUNT(*) FROM ledger b WHERE b.key = 'withdraw_back:' || w.id AND b.amount_kobo = w.amount_kobo + w.fee_kobo AND b.user_id = w.user_id) AS backs,
              (SELECT COUNT(*) FROM ledger b WHERE b.key = 'withdraw_back:' || w.id) AS back_rows
         FROM withdrawals w WHERE w.user_id IN (SELECT id FROM users WHERE rowid > ?1))
        WHERE holds <> 1 OR hold_rows <> 1 OR back_rows <> backs
           OR (status IN ('failed', 'refused', 'reversed') AND backs <> 1)
           OR (status NOT IN ('failed', 'refused', 'reversed') AND backs <> 0)`,
    ),
    // 5. conservation: money in + developers' shares = money spent + balances + open reservations + held for withdrawals + paid out, with "spent" and "open" taken from the
    //    orders' own prices and statuses (not from the ledger), so a lost or doubled movement shows up here. Every term
    //    is a sum over the file's users (each movement, order and balance belongs to one user), so it balances alone.
    env.DB.prepare(
      `SELECT
         (SELECT COALESCE(SUM(amount_kobo), 0) FROM ledger WHERE kind IN ('fund', 'admin', 'referral') AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) AS money_in,
         (SELECT COALESCE(SUM(balance_kobo), 0) FROM users WHERE rowid > ?1) AS balances,
         -- A kept order's price less its reseller's margin (which stays in a balance); nothing for one refunded after keeping.
         (SELECT COALESCE(SUM(price_kobo - margin_kobo), 0) FROM sms_orders WHERE status IN (${SPENT_SMS.map((s) => `'${s}'`).join(",")}) AND kept_refunded_at IS NULL AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) +
         -- A kept rental's price less its reseller's margin once credited (ended or cancelled unrefunded: decision 076).
         (SELECT COALESCE(SUM(r.price_kobo - CASE WHEN r.status = 'active' THEN 0 ELSE r.margin_kobo END), 0) FROM rentals r WHERE r.user_id IN (SELECT id FROM users WHERE rowid > ?1) AND (r.status IN ('active', 'ended')
             OR (r.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM ledger WHERE key = 'rent_refund:' || r.id)))) +
         -- Renewals and extensions (issue 32, decision 019): what they kept, net of their own refunds.
         (SELECT COALESCE(-SUM(amount_kobo), 0) FROM ledger WHERE (key LIKE 'rent_renew%' OR key LIKE 'rent_extend%') AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) AS spent,
         (SELECT COALESCE(SUM(price_kobo), 0) FROM sms_orders WHERE status IN (${OPEN_SMS.map((s) => `'${s}'`).join(",")}) AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) +
         (SELECT COALESCE(SUM(price_kobo), 0) FROM rentals WHERE status = 'pending' AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) AS reserved,
         -- Withdrawals (issue 45), from their own amounts and statuses: held while waiting or in flight, paid out once paid.
         (SELECT COALESCE(SUM(amount_kobo + fee_kobo), 0) FROM withdrawals WHERE status IN ('approval', 'held', 'sending') AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) AS held,
         (SELECT COALESCE(SUM(amount_kobo + fee_kobo), 0) FROM withdrawals WHERE status = 'paid' AND user_id IN (SELECT id FROM users WHERE rowid > ?1)) AS paid_out,
         -- Developers' ref shares (decision 075), from the orders: paid from our revenue into a developer's balance for
         -- each kept order, and still paid for one refunded after keeping whose reversal was forgone.
         (SELECT COALESCE(SUM(o.ref_share_kobo), 0) FROM sms_orders o WHERE o.status = 'used' AND o.user_id IN (SELECT id FROM users WHERE rowid > ?1)
             AND (o.kept_refunded_at IS NULL OR NOT EXISTS (SELECT 1 FROM ledger l WHERE l.key = 'ref-share-reversal:' || o.id))) +
         -- ...and for each rental kept for good (ended, or cancelled unrefunded), whose share is never reversed.
         (SELECT COALESCE(SUM(r.ref_share_kobo), 0) FROM rentals r WHERE r.user_id IN (SELECT id FROM users WHERE rowid > ?1)
             AND (r.status = 'ended' OR (r.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM ledger f WHERE f.key = 'rent_refund:' || r.id)))) AS shares`,
    ),
  ].map((statement) => statement.bind(mark)));
  const out: string[] = [];
  for (const r of balances.results) out.push(`balance drift or overdraft: ${JSON.stringify(r)}`);
  for (const r of credits.results) out.push(`payment credited wrongly: ${JSON.stringify(r)}`);
  for (const r of reviewCredits.results) out.push(`review credit without its resolution: ${JSON.stringify(r)}`);
  for (const r of orders.results) out.push(`sms order money wrong: ${JSON.stringify(r)}`);
  for (const r of margins.results) out.push(`reseller margin wrong: ${JSON.stringify(r)}`);
  for (const r of refShares.results) out.push(`developer share wrong: ${JSON.stringify(r)}`);
  for (const r of rentals.results) out.push(`rental money wrong: ${JSON.stringify(r)}`);
  for (const r of rentalMargins.results) out.push(`reseller rental margin wrong: ${JSON.stringify(r)}`);
  for (const r of rentalShares.results) out.push(`developer rental share wrong: ${JSON.stringify(r)}`);
  for (const r of renewalRefunds.results) out.push(`renewal refund without its charge: ${JSON.stringify(r)}`);
  for (const r of withdrawalMoney.results) out.push(`withdrawal money wrong: ${JSON.stringify(r)}`);
  const t = totals.results[0] as { money_in: number; balances: number; spent: number; reserved: number; held: number; paid_out: number; shares: number };
  if (t.money_in + t.shares !== t.spent + t.balances + t.reserved + t.held + t.paid_out) out.push(`money not conserved: ${JSON.stringify(t)}`);
  return out;
}

/** Row counts of every table a request could write, to prove a refused request wrote nothing. */
export async function tableCounts(): Promise<Record<string, number>> {
  const tables = ["users", "sessions", "password_resets", "email_outbox", "ledger", "payments", "sms_orders", "rentals", "rental_messages", "settings", "audit_log", "sandbox_state", "email_verifications", "recovery_codes", "known_devices", "payment_reviews", "payment_review_resolutions"];
  const rows = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT '${t}' AS t, COUNT(*) AS n FROM ${t}`)));
  return Object.fromEntries(rows.map((r) => [(r.results[0] as { t: string }).t, (r.results[0] as { n: number }).n]));
}

/** A sandbox activation's simulated clock: quiet (no code for a long while) or with its code already arrived. */
export async function setActivationCodeArrived(upstreamId: string, arrived: boolean): Promise<void> {
  const key = `sms-activation:${upstreamId}`;
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(key).first<{ value: string }>();
  if (!row) throw new Error(`no sandbox activation ${upstreamId}`);
  const value = { ...JSON.parse(row.value), createdAt: arrived ? 0 : Date.now() + 365 * 24 * 3600_000 };
  await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?").bind(JSON.stringify(value), key).run();
}

export async function upstreamIdOf(table: "sms_orders" | "rentals", id: string): Promise<string> {
  const row = await env.DB.prepare(`SELECT upstream_id FROM ${table} WHERE id = ?`).bind(id).first<{ upstream_id: string | null }>();
  if (!row?.upstream_id) throw new Error(`${table} ${id} has no upstream id`);
  return row.upstream_id;
}

/** Runs an operator change (db/admin-sql.ts, as the console and scripts/admin.ts run it): one D1 batch. */
export async function execOperatorSql(change: AdminChange): Promise<void> {
  await getDb(env.DB).batch(change as [AdminChange[number], ...AdminChange]);
}

/**
 * fast-check replay options from the shell: VITE_MODEL_SEED, VITE_MODEL_PATH (exact replay of a printed failure) and
 * VITE_MODEL_RUNS. Only VITE_-prefixed variables reach the workerd test pool (through import.meta.env).
 */
export function replayOptions(): { seed?: number; path?: string; runs?: number } {
  const source = ((import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {}) as Record<string, string | undefined>;
  const seed = source.VITE_MODEL_SEED;
  const path = source.VITE_MODEL_PATH;
  const runs = source.VITE_MODEL_RUNS;
  return { ...(seed ? { seed: Number(seed) } : {}), ...(path ? { path } : {}), ...(runs ? { runs: Number(runs) } : {}) };
}
