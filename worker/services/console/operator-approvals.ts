import { and, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { AdminApproval, ApprovalKind } from "../../../schema/admin";
import { formatNaira, koboToNaira } from "../../../schema/money";
import { settingSchemas, type SettingKey } from "../../../schema/settings";
import { auditInsert, manualEntrySql, setSettingSql, type AdminChange } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { operatorApprovals } from "./tables";
import { users } from "../kernel";
import { AppError, isCheckViolation } from "../../lib/errors";
import { clearSettingsCache, deliverEvents, getSetting, type RequestDeps } from "../kernel";
import { findCustomer, runAdminChange, type Operator } from "./operator-actions";
import { hasSecondFactor, resetSecondFactorStatements } from "../accounts";
import { type WithdrawalApprovalPayload, withdrawalApprovalPayload, withdrawalApprovalSql } from "../funding";

/**
 * Two-operator approval (issue 33, ASVS 5.0 2.3.5 and 7.4.5). Some operator changes take effect only once a SECOND
 * operator approves them in the console:
 * - a manual credit or debit of more than the approval_threshold setting (default ₦50,000);
 * - a reset of a customer's two-factor sign-in (it hands the account to whoever holds the password);
 * - a change of approval_threshold itself (else one operator could raise it and then credit alone);
 * - the approval of a withdrawal above approval_threshold (issue 45).
 *
 * Asking writes a pending row and an audit row in one batch (a repeated click is one request: request_key). Approving is
 * one batch too: the claim (a conditional UPDATE that only another operator's id can make: the CHECK in the table
 * refuses the requester), an assertion that the claim took (else the whole batch rolls back: a rejection that raced the
 * approval wins), the change itself with its own audit row, and the approval's audit row. Rejecting (the requester may
 * withdraw) is the same without the change. Everything refused is a 4xx with nothing written.
 *
 * The operator CLI (npm run admin) is not held back: it runs with the Cloudflare account's own credentials, a level of
 * trust above the console's (docs/decisions/035).
 */
export const APPROVAL_TTL_MS = 72 * 3600 * 1000;

export const APPROVAL_MESSAGES = {
  ownRequest: "You asked for this change: a second operator must approve it.",
  ownAccount: "This change concerns your own account: another operator must approve it.",
  notFound: "No approval with this id.",
  expired: "This request expired before anyone approved it: ask again if it is still needed.",
  decided: (status: string) => `This request was already ${status}.`,
} as const;

interface LedgerEntryPayload {
  userId: string;
  amountKobo: number;
  reason: string;
  /** What the customer's history shows after "Adjustment by support" (decision 038); the reason never is. */
  customerMessage?: string | null;
  entryId: string;
}
interface ResetTwoFactorPayload {
  userId: string;
}
interface SettingPayload {
  key: SettingKey;
  value: unknown;
}
type PayloadOf<K extends ApprovalKind> = K extends "ledger_entry"
  ? LedgerEntryPayload
  : K extends "reset_2fa"
    ? ResetTwoFactorPayload
    : K extends "withdrawal"
      ? WithdrawalApprovalPayload
      : SettingPayload;

type ApprovalRow = typeof operatorApprovals.$inferSelect;

/** The kobo above which a manual entry waits for a second operator (the approval_threshold setting). */
export async function approvalThresholdKobo(db: Db): Promise<number> {
  return Math.round((await getSetting(db, "approval_threshold")).naira * 100);
}

/**
 * A manual entry above the threshold: asks for approval and answers it with the customer's balance, unchanged (the
 * route answers 202); null when the entry may apply at once. Keyed by the entry's id, so a double click asks once.
 */
export async function holdLargeEntry(db: Db, operator: Operator, entry: LedgerEntryPayload, now: number): Promise<{ approval: AdminApproval; balance: number } | null> {
  if (Math.abs(entry.amountKobo) <= (await approvalThresholdKobo(db))) return null;
  await findCustomer(db, entry.userId);
  const approval = await requestApproval(db, operator, { kind: "ledger_entry", subject: entry.userId, payload: entry, reason: entry.reason, requestKey: `ledger:${entry.entryId}` }, now);
  const [row] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, entry.userId)).limit(1);
  return { approval, balance: koboToNaira(row?.balanceKobo ?? 0) };
}

/**
 * Issue 45: approving a withdrawal above the approval_threshold (the same setting as manual entries: a withdrawal
 * sends money out as surely as a credit lets it be spent) is asked of a second operator; null when one may approve it
 * alone. Keyed by the withdrawal, so a double click asks once. Refusing never needs two (it only gives money back).
 */
export async function holdLargeWithdrawal(db: Db, operator: Operator, withdrawalId: string, reason: string, now: number): Promise<AdminApproval | null> {
  const payload = await withdrawalApprovalPayload(db, operator.id, withdrawalId);
  if (payload.amountKobo + payload.feeKobo <= (await approvalThresholdKobo(db))) return null;
  return requestApproval(db, operator, { kind: "withdrawal", subject: payload.userId, payload, reason, requestKey: `withdrawal:${withdrawalId}` }, now);
}

/** A reset of a customer's two-factor sign-in, asked for approval (one pending request per customer at a time). */
export async function requestSecondFactorReset(db: Db, operator: Operator, userId: string, reason: string, now: number): Promise<AdminApproval> {
  const customer = await findCustomer(db, userId);
  const [state] = await db.select({ totpEnabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, customer.id)).limit(1);
  if (!(await hasSecondFactor(db, { id: customer.id, totpEnabledAt: state?.totpEnabledAt ?? null }))) {
    throw new AppError("INVALID_STATE", "This customer has no second factor to reset.");
  }
  const [open] = await db
    .select()
    .from(operatorApprovals)
    .where(and(eq(operatorApprovals.kind, "reset_2fa"), eq(operatorApprovals.subject, customer.id), eq(operatorApprovals.status, "pending"), gt(operatorApprovals.expiresAt, now)))
    .limit(1);
  if (open) return (await viewsOf(db, [open], operator))[0];
  return requestApproval(db, operator, { kind: "reset_2fa", subject: customer.id, payload: { userId: customer.id }, reason, requestKey: `reset_2fa:${crypto.randomUUID()}` }, now);
}

/** A change of the approval threshold itself, asked for approval (a bad value is a 400 now, not at approval time). */
export async function requestThresholdChange(db: Db, operator: Operator, value: unknown, reason: string, now: number): Promise<AdminApproval> {
  const parsed = settingSchemas.approval_threshold.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("VALIDATION_FAILED", `Invalid value for approval_threshold: ${issue.path.join(".") || "value"}: ${issue.message}`, { field: "value" });
  }
  return requestApproval(db, operator, {
    kind: "setting",
    subject: "approval_threshold",
    payload: { key: "approval_threshold", value: parsed.data },
    reason,
    requestKey: `setting:${crypto.randomUUID()}`,
  }, now);
}

/**
 * Writes the pending request and its audit row in one batch; a second request with the same key (a double click, a
 * retry) writes nothing and answers the first. Returns the request as the console shows it.
 */
export async function requestApproval<K extends ApprovalKind>(
  db: Db,
  operator: Operator,
  input: { kind: K; subject: string; payload: PayloadOf<K>; reason: string; requestKey: string },
  now: number,
): Promise<AdminApproval> {
  const id = crypto.randomUUID();
  await runAdminChange(db, [
    auditInsert(
      db,
      {
        actor: operator.email,
        action: `approval.request.${input.kind}`,
        detail: { approvalId: id, ...input.payload },
        reason: input.reason,
        subject: input.subject,
        onlyIf: sql`NOT EXISTS (SELECT 1 FROM ${operatorApprovals} WHERE ${operatorApprovals.requestKey} = ${input.requestKey})`,
      },
      now,
    ),
    db
      .insert(operatorApprovals)
      .values({
        id,
        kind: input.kind,
        subject: input.subject,
        payload: JSON.stringify(input.payload),
        reason: input.reason,
        requestKey: input.requestKey,
        requestedBy: operator.id,
        requestedByEmail: operator.email,
        status: "pending",
        createdAt: now,
        expiresAt: now + APPROVAL_TTL_MS,
      })
      .onConflictDoNothing({ target: operatorApprovals.requestKey }),
  ]);
  const [row] = await db.select().from(operatorApprovals).where(eq(operatorApprovals.requestKey, input.requestKey)).limit(1);
  return (await viewsOf(db, [row], operator))[0];
}

/**
 * Approves a pending request and applies its change, all in one batch. Refused (4xx, nothing written): an unknown id
 * (404), the requester or the customer concerned approving (403), a request already decided or expired (409), and a
 * debit the balance cannot cover (402: the request stays pending, to be rejected or approved later).
 */
export async function approve(
  deps: Pick<RequestDeps, "env" | "db" | "defer" | "events">,
  operator: Operator,
  id: string,
  reason: string,
  now: number,
): Promise<{ approval: AdminApproval; balance?: number; withdrawalId?: string }> {
  const { db } = deps;
  const row = await pendingRow(db, id, now);
  if (row.requestedBy === operator.id) throw new AppError("FORBIDDEN", APPROVAL_MESSAGES.ownRequest);
  if (row.kind !== "setting" && row.subject === operator.id) throw new AppError("FORBIDDEN", APPROVAL_MESSAGES.ownAccount);
  try {
    await runAdminChange(db, approvalSql(db, row, operator, reason, now));
  } catch (err) {
    if (isCheckViolation(err, "balance")) {
      throw new AppError("INSUFFICIENT_BALANCE", "Refused: this debit would take the customer's balance below zero. It stays pending.");
    }
    if (String(err instanceof Error ? `${err.message} ${err.cause instanceof Error ? err.cause.message : ""}` : err).includes("malformed JSON")) {
      const again = await findRow(db, id);
      if (row.kind === "withdrawal" && again?.status === "pending") throw new AppError("INVALID_STATE", "This withdrawal is no longer waiting for approval (it was refused or decided meanwhile).");
      throw new AppError("INVALID_STATE", APPROVAL_MESSAGES.decided(again?.status ?? "decided"));
    }
    throw err;
  }
  if (row.kind === "setting") clearSettingsCache();
  const [approved] = await db.select().from(operatorApprovals).where(eq(operatorApprovals.id, id)).limit(1);
  const approval = (await viewsOf(db, [approved], operator))[0];
  // A withdrawal approved by the second operator is sent by the caller (it holds the payout adapter).
  if (row.kind === "withdrawal") return { approval, withdrawalId: (JSON.parse(row.payload) as WithdrawalApprovalPayload).withdrawalId };
  if (row.kind !== "ledger_entry") return { approval };
  const payload = JSON.parse(row.payload) as LedgerEntryPayload;
  const [customer] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, payload.userId)).limit(1);
  const balance = koboToNaira(customer?.balanceKobo ?? 0);
  // The balance.changed was written with the ledger row (db/admin-sql.ts manualEntrySql): deliver it now.
  deps.defer(deliverEvents(deps.events, payload.userId));
  return { approval, balance };
}

/**
 * The approval as one batch's statements: the claim (only another operator, only while pending and not expired), the
 * assertion that it took (json() of a non-JSON text raises, rolling the whole batch back, so the change never runs
 * without the claim: a rejection that raced this approval wins), the change, and the approval's audit row.
 */
export function approvalSql(db: Db, row: ApprovalRow, operator: Operator, reason: string, now: number): AdminChange {
  const o = operatorApprovals;
  return [
    db
      .update(o)
      .set({ status: "approved", decidedBy: operator.id, decidedByEmail: operator.email, decisionReason: reason, decidedAt: now })
      .where(and(eq(o.id, row.id), eq(o.status, "pending"), ne(o.requestedBy, operator.id), gt(o.expiresAt, now))),
    // A select, not db.run(sql): drizzle's D1 batch binds only prepared builder queries' parameters.
    db
      .select({
        claimed: sql<number>`CASE WHEN EXISTS (SELECT 1 FROM ${o} WHERE ${o.id} = ${row.id} AND ${o.status} = 'approved' AND ${o.decidedBy} = ${operator.id} AND ${o.decidedAt} = ${now}) THEN 1 ELSE json('approval not claimed') END`,
      })
      .from(sql`(SELECT 1) AS one`),
    ...changeSql(db, row, now),
    auditInsert(db, { actor: operator.email, action: `approval.approve.${row.kind}`, detail: { approvalId: row.id, requestedBy: row.requestedByEmail }, reason, subject: row.subject }, now),
  ];
}

/** Rejects (or, by the requester, withdraws) a pending request: nothing changes but the request and the audit log. */
export async function reject(db: Db, operator: Operator, id: string, reason: string, now: number): Promise<AdminApproval> {
  const row = await pendingRow(db, id, now);
  const updated = await db
    .update(operatorApprovals)
    .set({ status: "rejected", decidedBy: operator.id, decidedByEmail: operator.email, decisionReason: reason, decidedAt: now })
    .where(and(eq(operatorApprovals.id, id), eq(operatorApprovals.status, "pending")))
    .returning();
  if (updated.length === 0) throw new AppError("INVALID_STATE", APPROVAL_MESSAGES.decided((await findRow(db, id))?.status ?? "decided"));
  await auditInsert(db, { actor: operator.email, action: `approval.reject.${row.kind}`, detail: { approvalId: id, requestedBy: row.requestedByEmail }, reason, subject: row.subject }, now);
  return (await viewsOf(db, updated, operator))[0];
}

/** The console's list: pending requests (oldest first), or the last 100 decided ones (newest first). */
export async function listApprovals(db: Db, operator: Operator, status: "pending" | "decided", now: number): Promise<AdminApproval[]> {
  const rows =
    status === "pending"
      ? await db.select().from(operatorApprovals).where(eq(operatorApprovals.status, "pending")).orderBy(operatorApprovals.createdAt).limit(200)
      : await db.select().from(operatorApprovals).where(ne(operatorApprovals.status, "pending")).orderBy(desc(operatorApprovals.decidedAt)).limit(100);
  return viewsOf(db, status === "pending" ? rows.filter((r) => r.expiresAt > now) : rows, operator);
}

async function findRow(db: Db, id: string): Promise<ApprovalRow | null> {
  const [row] = await db.select().from(operatorApprovals).where(eq(operatorApprovals.id, id)).limit(1);
  return row ?? null;
}

async function pendingRow(db: Db, id: string, now: number): Promise<ApprovalRow> {
  const row = await findRow(db, id);
  if (!row) throw new AppError("NOT_FOUND", APPROVAL_MESSAGES.notFound);
  if (row.status !== "pending") throw new AppError("INVALID_STATE", APPROVAL_MESSAGES.decided(row.status));
  if (row.expiresAt <= now) throw new AppError("INVALID_STATE", APPROVAL_MESSAGES.expired);
  return row;
}

/**
 * The change an approval applies, as the statements the CLI and the console already run, audited as the requester's
 * change (the approval's own audit row names who approved it).
 */
function changeSql(db: Db, row: ApprovalRow, now: number): AdminChange {
  if (row.kind === "ledger_entry") {
    const p = JSON.parse(row.payload) as LedgerEntryPayload;
    return manualEntrySql(db, { userId: p.userId, amountKobo: p.amountKobo, reason: p.reason, customerMessage: p.customerMessage, actor: row.requestedByEmail, entryId: p.entryId }, now);
  }
  if (row.kind === "setting") {
    const p = JSON.parse(row.payload) as SettingPayload;
    return setSettingSql(db, p.key, p.value, row.requestedByEmail, row.reason, now);
  }
  if (row.kind === "withdrawal") {
    const p = JSON.parse(row.payload) as WithdrawalApprovalPayload;
    return withdrawalApprovalSql(db, p, row.requestedByEmail, row.reason, now) as AdminChange;
  }
  const p = JSON.parse(row.payload) as ResetTwoFactorPayload;
  return resetSecondFactorSql(db, p.userId, row.requestedByEmail, row.reason, now);
}

/**
 * Resetting a customer's second factor: TOTP secret and recovery codes go (they enrol again after signing in with the
 * password). Passkeys are deleted here too, so "reset" always means every second factor.
 */
export function resetSecondFactorSql(db: Db, userId: string, actor: string, reason: string, now: number): AdminChange {
  return [
    auditInsert(
      db,
      { actor, action: "user.reset_2fa", detail: { userId }, reason, subject: userId, previous: sql`SELECT CAST(${users.totpEnabledAt} AS TEXT) FROM ${users} WHERE ${users.id} = ${userId}` },
      now,
    ),
    ...resetSecondFactorStatements(db, userId),
  ];
}

async function viewsOf(db: Db, rows: ApprovalRow[], operator: Operator): Promise<AdminApproval[]> {
  const customerIds = [...new Set(rows.filter((r) => r.kind !== "setting").map((r) => r.subject))];
  const emails = new Map<string, string>();
  if (customerIds.length > 0) {
    for (const u of await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, customerIds))) emails.set(u.id, u.email);
  }
  return rows.map((row) => {
    const who = emails.get(row.subject) ?? row.subject;
    let summary: string;
    let amount: number | null = null;
    if (row.kind === "ledger_entry") {
      const p = JSON.parse(row.payload) as LedgerEntryPayload;
      amount = koboToNaira(p.amountKobo);
      summary = `${p.amountKobo > 0 ? "Credit" : "Debit"} ₦${formatNaira(amount)} ${p.amountKobo > 0 ? "to" : "from"} ${who}`;
    } else if (row.kind === "withdrawal") {
      const p = JSON.parse(row.payload) as WithdrawalApprovalPayload;
      amount = -koboToNaira(p.amountKobo);
      summary = `Approve the withdrawal ${p.withdrawalId} of ₦${formatNaira(koboToNaira(p.amountKobo))} by ${who} (to ····${p.accountNumber.slice(-4)})`;
    } else if (row.kind === "reset_2fa") {
      summary = `Reset the two-factor sign-in of ${who}`;
    } else {
      const p = JSON.parse(row.payload) as SettingPayload;
      summary = `Set ${p.key} to ${JSON.stringify(p.value)}`;
    }
    return {
      id: row.id,
      kind: row.kind,
      subject: row.subject,
      summary,
      amount,
      reason: row.reason,
      requestedBy: row.requestedByEmail,
      requestedByMe: row.requestedBy === operator.id,
      status: row.status,
      decidedBy: row.decidedByEmail,
      decisionReason: row.decisionReason,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      decidedAt: row.decidedAt,
    } satisfies AdminApproval;
  });
}
