import { settingSchemas, type SettingKey } from "../../schema/settings";

/**
 * The operator CLI's statements (scripts/admin.ts). Pure functions that return SQL text, free of bindings, so the CLI
 * can run them through `wrangler d1 execute` (local or --remote) and the worker tests can run the very same SQL against
 * the test D1. Every change is paired with an audit_log row saying who, what and why.
 */

export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** SQL text as one statement per line (every builder here keeps that shape): the worker batches them atomically. */
export function splitStatements(sqlText: string): string[] {
  return sqlText.split("\n").filter((line) => line.trim().length > 0);
}

export interface AuditFields {
  actor: string;
  action: string;
  detail: unknown;
  reason: string | null;
  /** What changed: a setting key, a user id, a payment id (the console's history filters on it). */
  subject?: string | null;
  /** An SQL expression read BEFORE the change in the same batch (e.g. a subselect of the old value), or null. */
  previousSql?: string | null;
  /** An SQL condition: the row is written only when it holds (e.g. a replayed credit whose ledger key exists is not). */
  onlyIf?: string;
}

/** The one audit row every operator change writes: who, when, what (+ subject), the previous value and why. */
export function auditSqlInsert(fields: AuditFields): string {
  return `INSERT INTO audit_log (actor, action, detail, reason, subject, previous, created_at) SELECT ${sqlString(fields.actor)}, ${sqlString(
    fields.action,
  )}, ${sqlString(JSON.stringify(fields.detail))}, ${fields.reason === null ? "NULL" : sqlString(fields.reason)}, ${
    fields.subject ? sqlString(fields.subject) : "NULL"
  }, ${fields.previousSql ?? "NULL"}, ${Date.now()}${fields.onlyIf ? ` WHERE ${fields.onlyIf}` : ""};`;
}

function audit(actor: string, action: string, detail: unknown, reason: string | null, subject?: string, previousSql?: string): string {
  return auditSqlInsert({ actor, action, detail, reason, subject, previousSql });
}

/** A reason is required for every operator change (the console answers 400, the CLI refuses). */
export function requireReason(reason: string | null | undefined): string {
  const trimmed = (reason ?? "").trim();
  if (!trimmed) throw new Error("A reason is required for every operator change (--reason \"...\").");
  return trimmed.slice(0, 500);
}

/** Validates a setting with its schema (throws a readable error) and returns the upsert + audit statements. */
export function setSettingSql(key: string, value: unknown, actor: string, reason: string | null): string {
  if (!(key in settingSchemas)) {
    throw new Error(`Unknown setting "${key}". Known: ${Object.keys(settingSchemas).join(", ")}`);
  }
  const parsed = settingSchemas[key as SettingKey].safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid value for ${key}: ${issue.path.join(".") || "value"}: ${issue.message}`);
  }
  const why = requireReason(reason);
  const json = JSON.stringify(parsed.data);
  // The audit row goes first so its subselect reads the value being replaced (the history shows old and new).
  return [
    audit(actor, "setting.set", { key, value: parsed.data }, why, key, `(SELECT value FROM settings WHERE key = ${sqlString(key)})`),
    `INSERT INTO settings (key, value, updated_at) VALUES (${sqlString(key)}, ${sqlString(json)}, ${Date.now()}) ` +
      `ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;`,
  ].join("\n");
}

export interface ManualEntry {
  userId: string;
  /** Signed kobo: positive credits, negative debits. */
  amountKobo: number;
  reason: string;
  actor: string;
  /** Unique id of this adjustment; the ledger key is admin:<id>, so re-running the same statement cannot apply twice. */
  entryId: string;
}

/**
 * A manual credit or debit: always a ledger row (the trigger moves the balance; the CHECK refuses an overdraft),
 * never a bare balance update. Credit notes say "deposit" so the spec's history shows them as credits.
 */
export function manualEntrySql(entry: ManualEntry): string {
  if (!Number.isSafeInteger(entry.amountKobo) || entry.amountKobo === 0) throw new Error("Amount must be a non-zero amount of naira.");
  if (!entry.reason.trim()) throw new Error("A reason is required for every manual credit or debit (--reason).");
  const note =
    entry.amountKobo > 0 ? `Manual deposit adjustment: ${entry.reason.trim()}` : `Manual debit: ${entry.reason.trim()}`;
  const key = sqlString(`admin:${entry.entryId}`);
  // The audit row first, so `previous` is the balance before the entry; it is skipped when the key is already in the
  // ledger (a retried CLI run, a double click in the console), so one adjustment is one ledger row and one audit row.
  return [
    auditSqlInsert({
      actor: entry.actor,
      action: entry.amountKobo > 0 ? "ledger.credit" : "ledger.debit",
      detail: { userId: entry.userId, amountKobo: entry.amountKobo, entryId: entry.entryId },
      reason: entry.reason.trim(),
      subject: entry.userId,
      previousSql: `(SELECT CAST(balance_kobo AS TEXT) FROM users WHERE id = ${sqlString(entry.userId)})`,
      onlyIf: `NOT EXISTS (SELECT 1 FROM ledger WHERE key = ${key})`,
    }),
    `INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (${sqlString(entry.userId)}, ${key}, ${
      entry.amountKobo
    }, 'admin', ${sqlString(note)}, NULL, ${Date.now()}) ON CONFLICT(key) DO NOTHING;`,
  ].join("\n");
}

/**
 * Grants or takes back the operator role (CLI only: the console has no way to make operators). Audited with the
 * previous role; the role alone opens nothing: the console also requires a second factor (TOTP or a passkey) on the account.
 */
export function setRoleSql(userId: string, role: "customer" | "operator", actor: string, reason: string): string {
  const why = requireReason(reason);
  return [
    audit(actor, role === "operator" ? "operator.grant" : "operator.revoke", { userId, role }, why, userId, `(SELECT role FROM users WHERE id = ${sqlString(userId)})`),
    `UPDATE users SET role = ${sqlString(role)} WHERE id = ${sqlString(userId)};`,
  ].join("\n");
}

/**
 * Block: login refused and every session ended (the console then closes the sockets); the balance is untouched and
 * stays the customer's. Unblock clears the flag; the customer signs in again.
 */
export function setBlockedSql(userId: string, blocked: boolean, actor: string, reason: string, now = Date.now()): string {
  const why = requireReason(reason);
  const lines = [
    audit(actor, blocked ? "user.block" : "user.unblock", { userId, blocked }, why, userId, `(SELECT CAST(blocked_at AS TEXT) FROM users WHERE id = ${sqlString(userId)})`),
    `UPDATE users SET blocked_at = ${blocked ? `COALESCE(blocked_at, ${now})` : "NULL"} WHERE id = ${sqlString(userId)};`,
  ];
  if (blocked) lines.push(`UPDATE sessions SET revoked_at = ${now} WHERE user_id = ${sqlString(userId)} AND revoked_at IS NULL;`);
  return lines.join("\n");
}

export function findUserSql(emailOrId: string): string {
  return `SELECT id, username, email, role, balance_kobo, total_deposited_kobo FROM users WHERE email = lower(${sqlString(emailOrId)}) OR id = ${sqlString(emailOrId)} LIMIT 1;`;
}

export function userLedgerSql(userId: string, limit: number): string {
  return `SELECT id, key, amount_kobo, kind, note, datetime(created_at / 1000, 'unixepoch') AS at FROM ledger WHERE user_id = ${sqlString(
    userId,
  )} ORDER BY id DESC LIMIT ${Math.max(1, Math.min(1000, Math.floor(limit)))};`;
}

/** What may need an operator: orders still waiting, rentals past expiry, payments pending, all older than `minutes`. */
export function stuckSql(minutes: number, now = Date.now()): string {
  const before = now - Math.max(1, minutes) * 60_000;
  return [
    `SELECT 'sms_order' AS kind, id, user_id, status, price_kobo AS amount_kobo, datetime(created_at / 1000, 'unixepoch') AS created FROM sms_orders WHERE status IN ('pending', 'waiting') AND created_at < ${before}`,
    `SELECT 'rental' AS kind, id, user_id, status, price_kobo AS amount_kobo, datetime(created_at / 1000, 'unixepoch') AS created FROM rentals WHERE (status = 'pending' AND created_at < ${before}) OR (status = 'active' AND expires_at < ${now})`,
    `SELECT 'payment' AS kind, id, user_id, status, amount_kobo, datetime(created_at / 1000, 'unixepoch') AS created FROM payments WHERE status = 'pending' AND created_at < ${before}`,
  ].join(" UNION ALL ") + " ORDER BY created;";
}

/**
 * The payment review queue as the console lists it (services/review-queue.ts, docs/decisions/023, 031): open reviews
 * (crypto arrivals, card charges of another amount) and card payments still pending `minutes` after checkout. Read only: resolving needs the provider (console only).
 */
export function reviewQueueSql(minutes: number, now = Date.now()): string {
  const before = now - Math.max(1, minutes) * 60_000;
  return [
    `SELECT CASE r.provider WHEN 'squad' THEN 'card' ELSE 'crypto' END AS kind, r.id, r.reason, u.email, r.user_id, COALESCE(r.expected_amount, '') || ' ' || COALESCE(r.expected_currency, '') AS expected, COALESCE(r.actually_paid, '?') || ' ' || COALESCE(r.pay_currency, '') AS paid, ROUND(r.suggested_kobo / 100.0, 2) AS suggested_naira, datetime(r.created_at / 1000, 'unixepoch') AS created FROM payment_reviews r JOIN users u ON u.id = r.user_id WHERE r.status = 'open'`,
    `SELECT 'card' AS kind, p.id, 'card_pending' AS reason, u.email, p.user_id, ROUND(p.amount_kobo / 100.0, 2) || ' NGN' AS expected, 'not confirmed by Squad' AS paid, ROUND(p.amount_kobo / 100.0, 2) AS suggested_naira, datetime(p.created_at / 1000, 'unixepoch') AS created FROM payments p JOIN users u ON u.id = p.user_id WHERE p.provider = 'squad' AND p.status = 'pending' AND p.created_at < ${before}`,
  ].join(" UNION ALL ") + " ORDER BY created DESC LIMIT 200;";
}

export const RECONCILE_SQL = `SELECT u.id AS user_id, u.email, u.balance_kobo, COALESCE(SUM(l.amount_kobo), 0) AS ledger_kobo
  FROM users u LEFT JOIN ledger l ON l.user_id = u.id GROUP BY u.id
  HAVING u.balance_kobo <> COALESCE(SUM(l.amount_kobo), 0) OR u.balance_kobo < 0;`;

export const COUNT_USERS_SQL = "SELECT count(*) AS users, (SELECT count(*) FROM ledger) AS ledger_rows FROM users;";

export function auditSql(limit: number): string {
  return `SELECT id, actor, action, subject, detail, previous, reason, datetime(created_at / 1000, 'unixepoch') AS at FROM audit_log ORDER BY id DESC LIMIT ${Math.max(1, Math.min(500, Math.floor(limit)))};`;
}

/** What the cron sweep last found at each upstream (services/upstream-health.ts). */
export const UPSTREAM_HEALTH_SQL = `SELECT provider, status, balance, currency, round(balance_usd, 2) AS balance_usd, floor_usd, detail,
  datetime(checked_at / 1000, 'unixepoch') AS checked FROM upstream_health ORDER BY provider;`;

/** The order rows providerStats summarises (services/provider-stats.ts), since an epoch-ms instant. */
export function providerOrdersSql(since: number): string {
  return `SELECT provider, service_id AS serviceId, service_name AS serviceName, status, created_at AS createdAt, updated_at AS updatedAt
  FROM sms_orders WHERE created_at >= ${Math.floor(since)} AND number IS NOT NULL
  AND status IN ('used', 'waiting', 'timeout', 'error', 'cancelled', 'failed');`;
}
