import { auditInsert } from "../../db/admin-sql";
import { AppError } from "../../lib/errors";
import { type RequestDeps, rowsOf, runBatch, statement } from "../kernel";
import { findCustomer, type Operator } from "./operator-actions";
import { closeRevokedSockets, isLiveSessionOf, liveSessionCountSql, revokeSessionsStatement } from "../accounts";

/**
 * An operator ends a customer's sessions from the console (issue 33, ASVS 5.0 7.4.5): every live one, or the one named.
 * THE revocation statement (services/sessions.ts) and the audit row (with how many sessions were live before) go in one
 * batch; then every open socket of those sessions is closed before the answer, as the customer's own "sign out
 * everywhere" does. Their tokens get 401 on the next request; the customer can sign in again (unlike a block).
 */
export async function endCustomerSessions(
  deps: Pick<RequestDeps, "env" | "db" | "clock">,
  operator: Operator,
  userId: string,
  reason: string,
  sessionId?: string,
): Promise<number> {
  const { db } = deps;
  const customer = await findCustomer(db, userId);
  const now = deps.clock.now();
  if (sessionId && !(await isLiveSessionOf(db, customer.id, sessionId, now))) throw new AppError("NOT_FOUND", "This session is not live (or not this customer's).");
  const auditRow = auditInsert(
    db,
    {
      actor: operator.email,
      action: "user.end_sessions",
      detail: { userId: customer.id, sessionId: sessionId ?? "all" },
      reason,
      subject: customer.id,
      previous: liveSessionCountSql(customer.id, now),
    },
    now,
  );
  const { revoked } = await runBatch(db, {
    audit: statement(auditRow),
    revoked: rowsOf(revokeSessionsStatement(db, customer.id, sessionId ? { sessionIds: [sessionId] } : { all: true }, now)),
  });
  await closeRevokedSockets(deps.env, customer.id);
  return revoked.length;
}
