import { settingSchemas, type SettingKey } from "../../schema/settings";

/**
 * The operator CLI's statements (scripts/admin.ts), shared with the console. Pure functions, free of bindings: a change
 * is a list of statements with bound values (AdminStatement) that the console runs as one D1 batch and the CLI renders
 * to text for `wrangler d1 execute` (local or --remote); reads are SQL text. Every change is paired with an audit_log
 * row saying who, what and why.
 */

export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A value an operator statement binds: text as typed (newlines, quotes and all), a number, or NULL. */
export type SqlParam = string | number | null;

/**
 * One statement of an operator change, its values bound apart from its text: the console prepares it with
 * `.bind(...params)` (worker/services/operator-actions.ts), the CLI renders it as literals for `wrangler d1 execute`
 * (renderSqlText). An operator's reason never becomes SQL text on the console's path, so a newline or a quote in it
 * is stored exactly as typed (a reason with a newline once split the ledger insert in two and answered 500).
 */
export interface AdminStatement {
  sql: string;
  params: SqlParam[];
}

/** A statement with its values bound apart from its text (services that batch operator changes build theirs with it). */
export const adminStatement = (sqlText: string, ...params: SqlParam[]): AdminStatement => ({ sql: sqlText, params });
const statement = adminStatement;

function literal(value: SqlParam): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("A statement's number must be finite.");
    return String(value);
  }
  return sqlString(value);
}

/** A statement with its values inlined as SQL literals: one complete statement (a literal may hold newlines). */
export function renderStatement(s: AdminStatement): string {
  const parts = s.sql.split("?");
  if (parts.length - 1 !== s.params.length) throw new Error(`Statement expects ${parts.length - 1} values, got ${s.params.length}.`);
  return parts.map((part, i) => (i === 0 ? part : literal(s.params[i - 1]) + part)).join("");
}

/**
 * The CLI's text for `wrangler d1 execute --file`: statements separated by `;` and a newline. Wrangler splits a file on
 * semicolons outside string literals, so a reason's own newlines and `;` stay inside its literal.
 */
export function renderSqlText(statements: AdminStatement[]): string {
  return statements.map((s) => renderStatement(s).replace(/;?\s*$/, ";")).join("\n");
}

export interface AuditFields {
  actor: string;
  action: string;
  detail: unknown;
  reason: string | null;
  /** What changed: a setting key, a user id, a payment id (the console's history filters on it). */
  subject?: string | null;
  /**
   * An SQL expression read BEFORE the change in the same batch (e.g. a subselect of the old value), or null. Its values
   * are either inlined by the caller (ids the server made) or bound through previousParams.
   */
  previousSql?: string | null;
  previousParams?: SqlParam[];
  /** An SQL condition: the row is written only when it holds (e.g. a replayed credit whose ledger key exists is not). */
  onlyIf?: string;
  onlyIfParams?: SqlParam[];
}

/** The one audit row every operator change writes: who, when, what (+ subject), the previous value and why. */
export function auditStatement(fields: AuditFields, now = Date.now()): AdminStatement {
  return statement(
    `INSERT INTO audit_log (actor, action, detail, reason, subject, previous, created_at) SELECT ?, ?, ?, ?, ?, ${fields.previousSql ?? "NULL"}, ?${
      fields.onlyIf ? ` WHERE ${fields.onlyIf}` : ""
    };`,
    fields.actor,
    fields.action,
    JSON.stringify(fields.detail),
    fields.reason,
    fields.subject ?? null,
    ...(fields.previousParams ?? []),
    now,
    ...(fields.onlyIfParams ?? []),
  );
}

/** The audit row as one SQL text statement, for services that batch it through drizzle's sql.raw (review-queue.ts). */
export function auditSqlInsert(fields: AuditFields): string {
  return renderStatement(auditStatement(fields));
}

function audit(actor: string, action: string, detail: unknown, reason: string | null, subject: string, previousSql: string, previousParams: SqlParam[]): AdminStatement {
  return auditStatement({ actor, action, detail, reason, subject, previousSql, previousParams });
}

/** The longest reason an operator may type (the console's schema says the same: schema/admin.ts). */
export const MAX_REASON_LENGTH = 2000;

/**
 * A reason is required for every operator change (the console answers 400, the CLI refuses). Only the surrounding
 * blanks are dropped: newlines, quotes and anything else inside are kept as typed; over MAX_REASON_LENGTH is refused,
 * never cut short.
 */
export function requireReason(reason: string | null | undefined): string {
  const trimmed = (reason ?? "").trim();
  if (!trimmed) throw new Error("A reason is required for every operator change (--reason \"...\").");
  if (trimmed.length > MAX_REASON_LENGTH) throw new Error(`A reason is at most ${MAX_REASON_LENGTH} characters (this one has ${trimmed.length}).`);
  return trimmed;
}

/** Validates a setting with its schema (throws a readable error) and returns the upsert + audit statements. */
export function setSettingSql(key: string, value: unknown, actor: string, reason: string | null): AdminStatement[] {
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
    audit(actor, "setting.set", { key, value: parsed.data }, why, key, "(SELECT value FROM settings WHERE key = ?)", [key]),
    statement(
      "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;",
      key,
      json,
      Date.now(),
    ),
  ];
}

/** What a customer's history says for a manual entry: never the operator's reason (that stays in the audit log). */
export const SUPPORT_CREDIT_NOTE = "Adjustment by support (deposit)";
export const SUPPORT_DEBIT_NOTE = "Adjustment by support (debit)";
/** The longest message to the customer a manual entry may carry (it is shown in their history). */
export const MAX_CUSTOMER_MESSAGE_LENGTH = 200;

/**
 * The ledger note of a manual entry, which the customer's history shows: a neutral label that keeps the spec's rule
 * (a successful row whose note says "deposit" is shown as a credit), then the operator's optional message to the
 * customer on one line.
 */
export function supportNote(amountKobo: number, customerMessage?: string | null): string {
  const label = amountKobo > 0 ? SUPPORT_CREDIT_NOTE : SUPPORT_DEBIT_NOTE;
  const message = (customerMessage ?? "").replace(/\s+/g, " ").trim();
  return message ? `${label}: ${message}` : label;
}

export interface ManualEntry {
  userId: string;
  /** Signed kobo: positive credits, negative debits. */
  amountKobo: number;
  /** Why: internal, kept in the audit log only. */
  reason: string;
  /** What the customer's history shows after the neutral label (optional). */
  customerMessage?: string | null;
  actor: string;
  /** Unique id of this adjustment; the ledger key is admin:<id>, so re-running the same statement cannot apply twice. */
  entryId: string;
}

/**
 * A manual credit or debit: always a ledger row (the trigger moves the balance; the CHECK refuses an overdraft),
 * never a bare balance update. The ledger note (the customer's history) is the neutral supportNote; the reason goes to
 * the audit row only.
 */
export function manualEntrySql(entry: ManualEntry): AdminStatement[] {
  if (!Number.isSafeInteger(entry.amountKobo) || entry.amountKobo === 0) throw new Error("Amount must be a non-zero amount of naira.");
  if (!entry.reason.trim()) throw new Error("A reason is required for every manual credit or debit (--reason).");
  const why = requireReason(entry.reason);
  const message = (entry.customerMessage ?? "").trim();
  if (message.length > MAX_CUSTOMER_MESSAGE_LENGTH) throw new Error(`The message to the customer is at most ${MAX_CUSTOMER_MESSAGE_LENGTH} characters.`);
  const key = `admin:${entry.entryId}`;
  const now = Date.now();
  // The audit row first, so `previous` is the balance before the entry; it is skipped when the key is already in the
  // ledger (a retried CLI run, a double click in the console), so one adjustment is one ledger row and one audit row.
  return [
    auditStatement(
      {
        actor: entry.actor,
        action: entry.amountKobo > 0 ? "ledger.credit" : "ledger.debit",
        detail: { userId: entry.userId, amountKobo: entry.amountKobo, entryId: entry.entryId, ...(message ? { customerMessage: message } : {}) },
        reason: why,
        subject: entry.userId,
        previousSql: "(SELECT CAST(balance_kobo AS TEXT) FROM users WHERE id = ?)",
        previousParams: [entry.userId],
        onlyIf: "NOT EXISTS (SELECT 1 FROM ledger WHERE key = ?)",
        onlyIfParams: [key],
      },
      now,
    ),
    statement(
      "INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, ?, 'admin', ?, NULL, ?) ON CONFLICT(key) DO NOTHING;",
      entry.userId,
      key,
      entry.amountKobo,
      supportNote(entry.amountKobo, message),
      now,
    ),
    // The customer's balance.changed (screens and developer webhooks), written with the ledger row or not at all: the
    // outbox (services/kernel/outbox.ts, decision 040) delivers it, or the cron sweep does after a CLI run.
    statement(
      `INSERT INTO outbox_events (id, user_id, kind, message, dedupe_key, balance_kobo, created_at, delivered_at)
       SELECT ?, id, 'balance.changed', '{"kind":"balance.changed"}', ?, balance_kobo, ?, NULL FROM users
        WHERE id = ? AND EXISTS (SELECT 1 FROM ledger WHERE key = ?)
       ON CONFLICT(dedupe_key) DO NOTHING;`,
      `ev_${crypto.randomUUID().replaceAll("-", "")}`,
      `balance.changed:${key}`,
      now,
      entry.userId,
      key,
    ),
  ];
}

/**
 * Grants or takes back the operator role (CLI only: the console has no way to make operators). Audited with the
 * previous role; the role alone opens nothing: the console also requires a second factor (TOTP or a passkey) on the account.
 */
export function setRoleSql(userId: string, role: "customer" | "operator", actor: string, reason: string): AdminStatement[] {
  const why = requireReason(reason);
  return [
    audit(actor, role === "operator" ? "operator.grant" : "operator.revoke", { userId, role }, why, userId, "(SELECT role FROM users WHERE id = ?)", [userId]),
    statement("UPDATE users SET role = ? WHERE id = ?;", role, userId),
  ];
}

/**
 * Block: login refused and every session ended (the console then closes the sockets); the balance is untouched and
 * stays the customer's. Unblock clears the flag; the customer signs in again.
 */
export function setBlockedSql(userId: string, blocked: boolean, actor: string, reason: string, now = Date.now()): AdminStatement[] {
  const why = requireReason(reason);
  const lines = [
    audit(actor, blocked ? "user.block" : "user.unblock", { userId, blocked }, why, userId, "(SELECT CAST(blocked_at AS TEXT) FROM users WHERE id = ?)", [userId]),
    blocked ? statement("UPDATE users SET blocked_at = COALESCE(blocked_at, ?) WHERE id = ?;", now, userId) : statement("UPDATE users SET blocked_at = NULL WHERE id = ?;", userId),
  ];
  if (blocked) lines.push(statement("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL;", now, userId));
  return lines;
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
