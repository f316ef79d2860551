import { and, eq, isNull, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { settingSchemas, type SettingKey } from "../../schema/settings";
import { ledgerInsert, ledgerRowWritten, outboxInsert } from "./money-rows";
import { auditLog, ledger, resellers, sessions, settings, users } from "./tables";
import { wholesaleVolumeClear, wholesaleVolumeUpdate } from "./wholesale-volume";

/**
 * The operator's changes, shared by the console (worker/services/operator-actions.ts and console/) and the CLI
 * (scripts/admin.ts). Each builder returns drizzle queries for ONE D1 batch (all or nothing): the change and its
 * audit_log row (who, what, the previous value, why) are written together or not at all. Every value is a bound
 * parameter of drizzle's query builder, never SQL text: an operator's reason with newlines, quotes, `;` or 2,000
 * characters is stored exactly as typed. The CLI runs the same queries on a real D1 binding (wrangler's
 * getPlatformProxy), so nothing is rendered to text or split on `;` or newlines anywhere (issue 29).
 */

/**
 * The drizzle database the builders write with: the worker's D1 (db/client.ts getDb) or the CLI's (the same driver over
 * wrangler's local or remote D1 binding). Written without the Workers types so the CLI's Node project compiles it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = BaseSQLiteDatabase<"async", any, any>;

/** One operator change: the queries of one D1 batch (`db.batch(change)`). */
export type AdminChange = BatchItem<"sqlite">[];

export interface AuditFields {
  actor: string;
  action: string;
  detail: unknown;
  reason: string | null;
  /** What changed: a setting key, a user id, a payment id (the console's history filters on it). */
  subject?: string | null;
  /**
   * The value before the change: an SQL expression read in the same batch BEFORE the change (put the audit row first),
   * e.g. a subselect of the old value, or a plain text value.
   */
  previous?: SQL | string | null;
  /** The row is written only when this holds (e.g. a replayed credit whose ledger key exists is not). */
  onlyIf?: SQL;
}

/** The one audit row every operator change writes: who, when, what (+ subject), the previous value and why. */
export function auditInsert(db: Db, fields: AuditFields, now: number) {
  const previous = fields.previous instanceof SQL ? sql`(${fields.previous})` : sql`${fields.previous ?? null}`;
  return db.insert(auditLog).select(
    db
      // drizzle's INSERT ... SELECT wants every column in table order; NULL lets SQLite assign the id.
      .select({
        id: sql<number>`NULL`.as("id"),
        actor: sql<string>`${fields.actor}`.as("actor"),
        action: sql<string>`${fields.action}`.as("action"),
        detail: sql<string>`${JSON.stringify(fields.detail)}`.as("detail"),
        reason: sql<string | null>`${fields.reason}`.as("reason"),
        subject: sql<string | null>`${fields.subject ?? null}`.as("subject"),
        previous: sql<string | null>`${previous}`.as("previous"),
        createdAt: sql<number>`${now}`.as("created_at"),
      })
      .from(sql`(SELECT 1) AS one`)
      .where(fields.onlyIf),
  );
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

/** Validates a setting with its schema (throws a readable error) and returns the audit row + upsert of one batch. */
export function setSettingSql(db: Db, key: string, value: unknown, actor: string, reason: string | null, now: number): AdminChange {
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
    auditInsert(db, { actor, action: "setting.set", detail: { key, value: parsed.data }, reason: why, subject: key, previous: sql`SELECT ${settings.value} FROM ${settings} WHERE ${settings.key} = ${key}` }, now),
    db.insert(settings).values({ key, value: json, updatedAt: now }).onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: now } }),
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
export function manualEntrySql(db: Db, entry: ManualEntry, now: number): AdminChange {
  if (!Number.isSafeInteger(entry.amountKobo) || entry.amountKobo === 0) throw new Error("Amount must be a non-zero amount of naira.");
  if (!entry.reason.trim()) throw new Error("A reason is required for every manual credit or debit (--reason).");
  const why = requireReason(entry.reason);
  const message = (entry.customerMessage ?? "").trim();
  if (message.length > MAX_CUSTOMER_MESSAGE_LENGTH) throw new Error(`The message to the customer is at most ${MAX_CUSTOMER_MESSAGE_LENGTH} characters.`);
  const key = `admin:${entry.entryId}`;
  // The audit row first, so `previous` is the balance before the entry; it is skipped when the key is already in the
  // ledger (a retried CLI run, a double click in the console), so one adjustment is one ledger row and one audit row.
  return [
    auditInsert(
      db,
      {
        actor: entry.actor,
        action: entry.amountKobo > 0 ? "ledger.credit" : "ledger.debit",
        detail: { userId: entry.userId, amountKobo: entry.amountKobo, entryId: entry.entryId, ...(message ? { customerMessage: message } : {}) },
        reason: why,
        subject: entry.userId,
        previous: sql`SELECT CAST(${users.balanceKobo} AS TEXT) FROM ${users} WHERE ${users.id} = ${entry.userId}`,
        onlyIf: sql`NOT EXISTS (SELECT 1 FROM ${ledger} WHERE ${ledger.key} = ${key})`,
      },
      now,
    ),
    // Same trigger and CHECK as every ledger row (never INSERT OR IGNORE, which would skip the balance CHECK).
    ledgerInsert(db, { userId: entry.userId, key, amountKobo: entry.amountKobo, kind: "admin", note: supportNote(entry.amountKobo, message), ref: null, at: now }),
    // The customer's balance.changed (screens and developer webhooks), written with the ledger row or not at all: the
    // outbox (db/money-rows.ts outboxInsert, decision 040) delivers it, or the cron sweep does after a CLI run.
    outboxInsert(db, { userId: entry.userId, dedupe: `balance.changed:${key}`, message: { kind: "balance.changed" }, at: now }, ledgerRowWritten(db, key)),
  ];
}

/**
 * Grants or takes back the operator role (CLI only: the console has no way to make operators). Audited with the
 * previous role; the role alone opens nothing: the console also requires a second factor (TOTP or a passkey) on the account.
 */
export function setRoleSql(db: Db, userId: string, role: "customer" | "operator", actor: string, reason: string, now: number): AdminChange {
  const why = requireReason(reason);
  return [
    auditInsert(db, { actor, action: role === "operator" ? "operator.grant" : "operator.revoke", detail: { userId, role }, reason: why, subject: userId, previous: sql`SELECT ${users.role} FROM ${users} WHERE ${users.id} = ${userId}` }, now),
    db.update(users).set({ role }).where(eq(users.id, userId)),
  ];
}

/**
 * The reseller role (issue 46, decision 072), granted or revoked by an operator: a grant makes the customer a reseller
 * without their accepting the terms in Settings (a partner signed on paper); a revocation stops new sub-accounts and
 * buying as them at once, and sticks (accepting the terms again does not undo it). Audited with the previous status.
 */
export function setResellerSql(db: Db, userId: string, grant: boolean, actor: string, reason: string, now: number): AdminChange {
  const why = requireReason(reason);
  const audit = auditInsert(
    db,
    { actor, action: grant ? "reseller.grant" : "reseller.revoke", detail: { userId, grant }, reason: why, subject: userId, previous: sql`SELECT ${resellers.status} FROM ${resellers} WHERE ${resellers.userId} = ${userId}` },
    now,
  );
  // The wholesale tier comes and goes with the role, in the same batch (decision 074).
  if (!grant) return [audit, db.update(resellers).set({ status: "revoked", revokedAt: now }).where(eq(resellers.userId, userId)), wholesaleVolumeClear(db, userId)];
  return [
    audit,
    db
      .insert(resellers)
      .values({ userId, status: "active", grantedBy: actor, createdAt: now })
      .onConflictDoUpdate({ target: resellers.userId, set: { status: "active", revokedAt: null, grantedBy: actor } }),
    wholesaleVolumeUpdate(db, userId, now),
  ];
}

/**
 * Block: login refused and every session ended (the console then closes the sockets); the balance is untouched and
 * stays the customer's. Unblock clears the flag; the customer signs in again.
 */
export function setBlockedSql(db: Db, userId: string, blocked: boolean, actor: string, reason: string, now: number): AdminChange {
  const why = requireReason(reason);
  const change: AdminChange = [
    auditInsert(
      db,
      { actor, action: blocked ? "user.block" : "user.unblock", detail: { userId, blocked }, reason: why, subject: userId, previous: sql`SELECT CAST(${users.blockedAt} AS TEXT) FROM ${users} WHERE ${users.id} = ${userId}` },
      now,
    ),
    db.update(users).set({ blockedAt: blocked ? sql`COALESCE(${users.blockedAt}, ${now})` : null }).where(eq(users.id, userId)),
  ];
  if (blocked) change.push(db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))));
  return change;
}

/** A user by e-mail (any case) or id: the CLI's way to name a customer. */
export function findUserQuery(db: Db, emailOrId: string) {
  return db
    .select({ id: users.id, username: users.username, email: users.email, role: users.role, balance_kobo: users.balanceKobo, total_deposited_kobo: users.totalDepositedKobo })
    .from(users)
    .where(sql`${users.email} = lower(${emailOrId}) OR ${users.id} = ${emailOrId}`)
    .limit(1);
}

export function userLedgerQuery(db: Db, userId: string, limit: number) {
  return db
    .select({ id: ledger.id, key: ledger.key, amount_kobo: ledger.amountKobo, kind: ledger.kind, note: ledger.note, at: sql<string>`datetime(${ledger.createdAt} / 1000, 'unixepoch')` })
    .from(ledger)
    .where(eq(ledger.userId, userId))
    .orderBy(sql`${ledger.id} DESC`)
    .limit(Math.max(1, Math.min(1000, Math.floor(Number.isFinite(limit) ? limit : 50))));
}

/** What may need an operator: orders still waiting, rentals past expiry, payments pending, all older than `minutes`. */
export function stuckSql(minutes: number, now: number): string {
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
export function reviewQueueSql(minutes: number, now: number): string {
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
