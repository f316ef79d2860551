import type {
  AdminApproval,
  AdminAuditRow,
  AdminCustomer,
  AdminCustomerDetail,
  AdminDepositRow,
  AdminList,
  AdminMe,
  AdminMessage,
  AdminOrderRow,
  AdminOverview,
  AdminPeriod,
  AdminReconcile,
  AdminRentalRow,
  AdminSettingChanged,
  AdminSettings,
  AdminTransferDeposit,
  AdminTransferReconciliation,
  ApprovalAnswer,
  ApprovalDecisionBody,
  BlockAnswer,
  DepositVerifyAnswer,
  EndSessionsAnswer,
  EndSessionsBody,
  GroupMailBody,
  GroupMailPreview,
  GroupMailSendBody,
  GroupMailSent,
  ManualEntryAnswer,
  ManualEntryBody,
  NotifyAnswer,
  NotifyBody,
  ReasonBody,
  ReviewDetailAnswer,
  ReviewQueueItem,
  ReviewResolveAnswer,
  ReviewResolveBody,
  SettingChangeBody,
  SettleAnswer,
} from "./admin";
import type { StatusIncident, StatusIncidentCreate } from "./status";

/**
 * The operator console's contract (issue 29, decision 053; the customer's is schema/web-api.ts, decision 043): every
 * call web/admin makes to /api/admin/*, keyed "METHOD /path" exactly as worker/routes/admin.ts declares the route
 * (`:name` for a path parameter), with what it sends (`query`, `body`) and the one shape it reads back (`answer`).
 * Types only: nothing here reaches a bundle.
 *
 * Both sides are held to it at compile time: web/admin/api.ts `adminApi(route, ...)` accepts only these keys and
 * answers `answer`; worker/routes/web-contract.ts checks each entry against the type Hono infers from adminRoutes
 * (the path and method exist; every 2xx answer fits `answer`; `body` and `query` are what the route validates).
 * A new console call, or a console form for a route already here (status incidents), uses this map; a route the
 * console starts calling gets its entry first.
 */
export interface AdminApi {
  "GET /api/admin/me": { answer: AdminMe };
  "GET /api/admin/overview": { query: { period?: AdminPeriod } & TestToggle; answer: AdminOverview };

  // Customers
  "GET /api/admin/customers": { query: { q?: string } & TestToggle; answer: AdminList<AdminCustomer> };
  "GET /api/admin/customers/:id": { answer: AdminCustomerDetail };
  /** 200 with the balance after, or 202 with `approval` above the approval_threshold setting (nothing moved yet). */
  "POST /api/admin/customers/:id/credit": { body: ManualEntryBody; answer: ManualEntryAnswer };
  "POST /api/admin/customers/:id/debit": { body: ManualEntryBody; answer: ManualEntryAnswer };
  "POST /api/admin/customers/:id/block": { body: ReasonBody; answer: BlockAnswer };
  "POST /api/admin/customers/:id/unblock": { body: ReasonBody; answer: BlockAnswer };
  "POST /api/admin/customers/:id/resend-verification": { body: ReasonBody; answer: AdminMessage };
  /** Always 202: a second operator approves the reset (issue 33). */
  "POST /api/admin/customers/:id/reset-2fa": { body: ReasonBody; answer: ApprovalAnswer };
  "POST /api/admin/customers/:id/sessions/revoke": { body: EndSessionsBody; answer: EndSessionsAnswer };

  // Approvals (issue 33)
  "GET /api/admin/approvals": { query: { status?: "pending" | "decided" }; answer: AdminList<AdminApproval> };
  /** `balance` is the customer's balance after an approved ledger entry. */
  "POST /api/admin/approvals/:id/approve": { body: ApprovalDecisionBody; answer: ApprovalAnswer & { balance?: number } };
  "POST /api/admin/approvals/:id/reject": { body: ApprovalDecisionBody; answer: ApprovalAnswer };

  // Deposits, bank transfers, the review queue
  "GET /api/admin/deposits": { query: DepositListQuery; answer: AdminList<AdminDepositRow> };
  "POST /api/admin/deposits/:id/verify": { body: ReasonBody; answer: DepositVerifyAnswer };
  "GET /api/admin/transfers": { query: { state?: AdminTransferDeposit["state"] }; answer: AdminList<AdminTransferDeposit> };
  "GET /api/admin/transfers/reconcile": { query: { date: string }; answer: AdminTransferReconciliation };
  "GET /api/admin/reviews": { query: { status?: "open" | "resolved" | "all" }; answer: AdminList<ReviewQueueItem> };
  "GET /api/admin/reviews/:id": { answer: ReviewDetailAnswer };
  "POST /api/admin/reviews/:id/resolve": { body: ReviewResolveBody; answer: ReviewResolveAnswer };

  // Orders and rentals
  "GET /api/admin/orders": { query: ListQuery; answer: AdminList<AdminOrderRow> };
  "GET /api/admin/rentals": { query: ListQuery; answer: AdminList<AdminRentalRow> };
  "POST /api/admin/orders/:id/settle": { body: ReasonBody; answer: SettleAnswer };
  "POST /api/admin/rentals/:id/settle": { body: ReasonBody; answer: SettleAnswer };

  // The public status page's incidents (issue 32): posted (201) and resolved with a reason, both audited.
  "GET /api/admin/status-incidents": { answer: AdminList<StatusIncident> };
  "POST /api/admin/status-incidents": { body: StatusIncidentCreate; answer: StatusIncident };
  "POST /api/admin/status-incidents/:id/resolve": { body: ReasonBody; answer: StatusIncident };

  // Prices and content (settings)
  "GET /api/admin/settings": { answer: AdminSettings };
  /** 200 with the value now stored; 202 when the change waits for a second operator (the approval threshold itself). */
  "PATCH /api/admin/settings/:key": { body: SettingChangeBody; answer: AdminSettingChanged | ApprovalAnswer };

  // Messages
  "POST /api/admin/notify": { body: NotifyBody; answer: NotifyAnswer };
  "POST /api/admin/email/preview": { body: GroupMailBody; answer: GroupMailPreview };
  "POST /api/admin/email/send": { body: GroupMailSendBody; answer: GroupMailSent };

  // Audit and reconcile
  "GET /api/admin/audit": { query: AuditListQuery; answer: AdminList<AdminAuditRow> };
  "GET /api/admin/reconcile": { answer: AdminReconcile };
}

/** The header's "show test activity" switch: "1" counts sandbox accounts' activity; absent leaves it out. */
export interface TestToggle {
  test?: "1";
}

/** GET /admin/orders and /admin/rentals: the console's filters (schema/admin.ts listQuerySchema), each optional. */
export interface ListQuery extends TestToggle {
  status?: string;
  provider?: string;
  service?: string;
  customer?: string;
  /** "1": only rows pending or active past their time. */
  stuck?: "1";
}

export interface DepositListQuery extends ListQuery {
  channel?: AdminDepositRow["channel"];
}

/** GET /admin/audit: who, what (an action prefix such as "setting."), which subject. */
export interface AuditListQuery {
  actor?: string;
  action?: string;
  subject?: string;
}

/** One route of the console's contract. */
export type AdminRoute = keyof AdminApi;
