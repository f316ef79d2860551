import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { now } from "../kernel/tables";

/**
 * The console room's tables: the audit log, the status page's incidents, the second operator's approvals.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/**
 * Who changed what, when and why (operator CLI, the console, manual ledger entries). `previous` is the value before the
 * change (JSON, null when there was none); `subject` names what changed (a setting key, a user id) for the history.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    detail: text("detail").notNull(),
    reason: text("reason"),
    subject: text("subject"),
    previous: text("previous"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("audit_log_subject_idx").on(t.subject, t.id), index("audit_log_action_idx").on(t.action, t.id)],
);

/**
 * Incidents the operator posts on the public status page (issue 32, #/status): what is wrong, with which provider
 * (null: the whole service), from when, and when it was resolved (null: still open). Every post and resolve is also in
 * audit_log with its reason.
 */
export const statusIncidents = sqliteTable(
  "status_incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    provider: text("provider"),
    startedAt: integer("started_at").notNull(),
    resolvedAt: integer("resolved_at"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("status_incidents_started_idx").on(t.startedAt)],
);

/**
 * Operator changes that take effect only once a SECOND operator approves them (issue 33, ASVS 5.0 2.3.5 and 7.4.5):
 * a manual credit or debit above the approval_threshold setting, a reset of a customer's two-factor sign-in, and a
 * change of the threshold itself (services/operator-approvals.ts). `payload` is what the change needs (JSON); the
 * request and the decision are each also written to audit_log. The CHECK makes "the same operator approves" impossible
 * even for a statement that forgot to ask; `request_key` makes a repeated click one request.
 */
export const operatorApprovals = sqliteTable(
  "operator_approvals",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["ledger_entry", "reset_2fa", "setting", "withdrawal"] }).notNull(),
    /** What the change is about: the customer's id, or the setting's key. */
    subject: text("subject").notNull(),
    payload: text("payload").notNull(),
    reason: text("reason").notNull(),
    requestKey: text("request_key").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedByEmail: text("requested_by_email").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decisionReason: text("decision_reason"),
    decidedAt: integer("decided_at"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("operator_approvals_request_key_unique").on(t.requestKey),
    index("operator_approvals_status_idx").on(t.status, t.createdAt),
    // Approving takes another operator; the one who asked may still withdraw (reject) it.
    check("operator_approvals_second_operator", sql`${t.status} <> 'approved' OR ${t.decidedBy} <> ${t.requestedBy}`),
    check("operator_approvals_decided", sql`(${t.status} = 'pending') = (${t.decidedBy} IS NULL)`),
  ],
);
