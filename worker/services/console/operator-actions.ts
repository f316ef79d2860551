import { eq } from "drizzle-orm";
import { auditInsert, manualEntrySql, setBlockedSql, setSettingSql, type AdminChange, type AuditFields } from "../../db/admin-sql";
import { getDb, type Db } from "../../db/client";
import { users } from "../kernel";
import { AppError, isCheckViolation } from "../../lib/errors";
import { koboToNaira } from "../../../schema/money";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Env } from "../../config";
import { clearSettingsCache, deliverEvents, notify, type RequestDeps } from "../kernel";
import { operatorIds } from "./operator-console";
import { closeRevokedSockets, onlineUserIds, revokeSessionsStatement } from "../accounts";

/**
 * The console's changes. Each one runs the statements the operator CLI runs (db/admin-sql.ts) or the product's own
 * guarded services, and writes one audit row (who, when, what, the previous value, why) in the same D1 batch.
 */

/** Runs one operator change (db/admin-sql.ts builders: the change and its audit row) as one D1 batch, all or nothing. */
export async function runAdminChange(db: Db, change: AdminChange): Promise<unknown[]> {
  return change.length === 0 ? [] : db.batch(change as [AdminChange[number], ...AdminChange]);
}

export interface Operator {
  id: string;
  email: string;
}

export async function findCustomer(db: Db, userId: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, username: users.username, role: users.role, blockedAt: users.blockedAt, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "No customer with this id.");
  return row;
}

/**
 * A manual credit or debit: the CLI's manualEntrySql (one ledger row, key admin:<entryId>, the trigger moves the
 * balance, the CHECK refuses an overdraft). entryId is the console's request id, so a double click applies once.
 */
export async function manualEntry(
  deps: Pick<RequestDeps, "env" | "db" | "defer" | "events">,
  operator: Operator,
  input: { userId: string; amountKobo: number; reason: string; customerMessage?: string; entryId: string },
) {
  const { db } = deps;
  await findCustomer(db, input.userId);
  try {
    await runAdminChange(db, manualEntrySql(db, { userId: input.userId, amountKobo: input.amountKobo, reason: input.reason, customerMessage: input.customerMessage, actor: operator.email, entryId: input.entryId }));
  } catch (err) {
    if (isCheckViolation(err)) throw new AppError("INSUFFICIENT_BALANCE", "Refused: a debit may not take the customer's balance below zero.");
    throw err;
  }
  const [row] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, input.userId)).limit(1);
  const balance = koboToNaira(row?.balanceKobo ?? 0);
  // The balance.changed was written with the ledger row (db/admin-sql.ts manualEntrySql): deliver it now.
  deps.defer(deliverEvents(deps.events, input.userId));
  return { balance };
}

/**
 * Block: the flag and the audit row, and THE revocation statement (services/sessions.ts) in one batch, then every open
 * socket of the customer is closed before the answer (closeRevokedSockets, as the password change does). Login answers
 * a clear message while blocked (services/sign-in.ts). The balance is not touched: the money stays the customer's.
 */
export async function setBlocked(deps: Pick<RequestDeps, "env" | "db" | "clock">, operator: Operator, userId: string, blocked: boolean, reason: string) {
  const { db } = deps;
  const customer = await findCustomer(db, userId);
  if (customer.id === operator.id) throw new AppError("INVALID_STATE", "You cannot block your own account.");
  const change = setBlockedSql(db, userId, blocked, operator.email, reason);
  if (blocked) {
    // THE revocation statement (services/sessions.ts) in the same batch.
    await runAdminChange(db, [...change, revokeSessionsStatement(db, userId, { all: true }, deps.clock.now())]);
    await closeRevokedSockets(deps.env, userId);
  } else {
    await runAdminChange(db, change);
  }
  return { blocked };
}

/** A setting: the CLI's setSettingSql (validated by the setting's schema, audited with the value it replaces). */
export async function changeSetting(db: Db, operator: Operator, key: string, value: unknown, reason: string) {
  let change: AdminChange;
  try {
    change = setSettingSql(db, key, value, operator.email, reason);
  } catch (err) {
    throw new AppError("VALIDATION_FAILED", err instanceof Error ? err.message : "Invalid setting.", { field: "value" });
  }
  await runAdminChange(db, change);
  // This isolate serves the new value at once; others within the settings cache's 10 s.
  clearSettingsCache();
}

/**
 * An audit row on its own: only for an operator action that changes nothing in D1 (a message sent, a provider asked
 * again); a change writes its audit row in its own batch.
 */
export async function audit(db: Db, fields: AuditFields) {
  await auditInsert(db, fields);
}

/** Customers with a live session seen in the last `minutes`: "everyone online" for a notification. */
export async function onlineCustomerIds(db: Db, minutes = 15, now: number): Promise<string[]> {
  return onlineUserIds(db, minutes, now);
}

/**
 * The console's live refresh: every operator's own notification room gets admin.changed, and their open consoles
 * refetch. Sent after each console change and by the cron sweep (deposits, orders and upstreams move on their own).
 */
export async function notifyOperators(env: Env, topic: string): Promise<void> {
  const ids = await operatorIds(getDb(env.DB));
  await Promise.all(ids.map((id) => notify(env, id, { kind: "admin.changed", topic })));
}

/** Sends the spec's toast to each customer; returns how many rooms were asked (delivery is best effort, like notify). */
export async function sendToast(env: Env, userIds: string[], message: Extract<RealtimeMessage, { kind: "toast" }>) {
  await Promise.all(userIds.map((id) => notify(env, id, message)));
  return userIds.length;
}

