
import {
  adminIdParamSchema,
  approvalDecisionSchema,
  approvalListQuerySchema,
  auditListQuerySchema,
  customerSearchQuerySchema,
  depositListQuerySchema,
  endSessionsSchema,
  groupMailSchema,
  groupMailSendSchema,
  incidentIdParamSchema,
  listQuerySchema,
  manualEntrySchema,
  notifySchema,
  overviewQuerySchema,
  reasonSchema,
  resellerRoleSchema,
  resellerSubaccountListQuerySchema,
  reviewListQuerySchema,
  reviewResolveSchema,
  settingChangeSchema,
  settingKeyParamSchema,
  transferListQuerySchema,
  transferReconcileQuerySchema,
  type AdminApproval,
  type AdminAuditRow,
  type AdminCustomer,
  type AdminCustomerDetail,
  type AdminDepositRow,
  type AdminList,
  type AdminMe,
  type AdminMessage,
  type AdminOrderRow,
  type AdminOverview,
  type AdminReconcile,
  type AdminRentalRow,
  type AdminResellerRow,
  type AdminResellerSubaccounts,
  type AdminSettingChanged,
  type AdminSettings,
  type AdminTransferDeposit,
  type AdminTransferReconciliation,
  type ApprovalAnswer,
  type BlockAnswer,
  type DepositVerifyAnswer,
  type EndSessionsAnswer,
  type GroupMailPreview,
  type GroupMailSent,
  type ManualEntryAnswer,
  type NotifyAnswer,
  type ReviewDetailAnswer,
  type ReviewQueueItem,
  type ReviewResolveAnswer,
  type RefundKeptAnswer,
  type SettleAnswer,
} from "../../schema/admin";
import { type DeadLetterView, deadLetterIdParamSchema, withdrawalListQuerySchema } from "../../schema/admin";
import { statusIncidentCreateSchema, type StatusIncident } from "../../schema/status";
import { type AdminWithdrawalRow, withdrawalDecisionSchema, withdrawalIdParamSchema } from "../../schema/withdrawals";
import { answer, jsonBody, route } from "./kit";

/**
 * The operator console's API (docs/api.md "Operator console"), mounted at /api/admin (routes/admin.ts), every route
 * behind requireOperator. Every answer is a schema/admin.ts type (decision 029); a change with a reason is audited.
 */

export const me = route({ method: "get", path: "/me", responses: { 200: answer<AdminMe>() } });

export const overview = route({
  method: "get",
  path: "/overview",
  request: { query: overviewQuerySchema },
  responses: { 200: answer<AdminOverview>() },
});

// ---- Customers ----

export const customers = route({
  method: "get",
  path: "/customers",
  request: { query: customerSearchQuerySchema },
  responses: { 200: answer<AdminList<AdminCustomer>>() },
});

export const customer = route({
  method: "get",
  path: "/customers/{id}",
  request: { params: adminIdParamSchema },
  responses: { 200: answer<AdminCustomerDetail>() },
});

/** 200 with the balance after, or 202 with `approval` above the approval_threshold setting (nothing moved yet). */
const manualEntry = <P extends string>(path: P) =>
  route({
    method: "post",
    path,
    request: { params: adminIdParamSchema, body: jsonBody(manualEntrySchema) },
    responses: { 200: answer<ManualEntryAnswer>("Entered"), 202: answer<ManualEntryAnswer>("Waiting for a second operator") },
  });
export const credit = manualEntry("/customers/{id}/credit");
export const debit = manualEntry("/customers/{id}/debit");

const withReason = <P extends string>(path: P) =>
  route({ method: "post", path, request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) }, responses: { 200: answer<BlockAnswer>() } });
export const block = withReason("/customers/{id}/block");
export const unblock = withReason("/customers/{id}/unblock");

export const resendVerification = route({
  method: "post",
  path: "/customers/{id}/resend-verification",
  request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 200: answer<AdminMessage>() },
});

/** Always 202: a second operator approves the reset (issue 33). */
export const resetSecondFactor = route({
  method: "post",
  path: "/customers/{id}/reset-2fa",
  request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 202: answer<ApprovalAnswer>("Waiting for a second operator") },
});

export const endSessions = route({
  method: "post",
  path: "/customers/{id}/sessions/revoke",
  request: { params: adminIdParamSchema, body: jsonBody(endSessionsSchema) },
  responses: { 200: answer<EndSessionsAnswer>() },
});

// ---- Approvals (issue 33) ----

export const approvals = route({
  method: "get",
  path: "/approvals",
  request: { query: approvalListQuerySchema },
  responses: { 200: answer<AdminList<AdminApproval>>() },
});

/** `balance` is the customer's balance after an approved ledger entry. */
export const approve = route({
  method: "post",
  path: "/approvals/{id}/approve",
  request: { params: adminIdParamSchema, body: jsonBody(approvalDecisionSchema) },
  responses: { 200: answer<ApprovalAnswer & { balance?: number }>() },
});

export const reject = route({
  method: "post",
  path: "/approvals/{id}/reject",
  request: { params: adminIdParamSchema, body: jsonBody(approvalDecisionSchema) },
  responses: { 200: answer<ApprovalAnswer>() },
});

// ---- Deposits, bank transfers, the review queue ----

export const deposits = route({
  method: "get",
  path: "/deposits",
  request: { query: depositListQuerySchema },
  responses: { 200: answer<AdminList<AdminDepositRow>>() },
});

export const verifyDeposit = route({
  method: "post",
  path: "/deposits/{id}/verify",
  request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 200: answer<DepositVerifyAnswer>() },
});

export const transfers = route({
  method: "get",
  path: "/transfers",
  request: { query: transferListQuerySchema },
  responses: { 200: answer<AdminList<AdminTransferDeposit>>() },
});

export const reconcileTransfers = route({
  method: "get",
  path: "/transfers/reconcile",
  request: { query: transferReconcileQuerySchema },
  responses: { 200: answer<AdminTransferReconciliation>() },
});

export const reviews = route({
  method: "get",
  path: "/reviews",
  request: { query: reviewListQuerySchema },
  responses: { 200: answer<AdminList<ReviewQueueItem>>() },
});

export const review = route({
  method: "get",
  path: "/reviews/{id}",
  request: { params: adminIdParamSchema },
  responses: { 200: answer<ReviewDetailAnswer>() },
});

export const resolveReview = route({
  method: "post",
  path: "/reviews/{id}/resolve",
  request: { params: adminIdParamSchema, body: jsonBody(reviewResolveSchema) },
  responses: { 200: answer<ReviewResolveAnswer>() },
});

// ---- Orders and rentals ----

export const orders = route({ method: "get", path: "/orders", request: { query: listQuerySchema }, responses: { 200: answer<AdminList<AdminOrderRow>>() } });

export const rentals = route({ method: "get", path: "/rentals", request: { query: listQuerySchema }, responses: { 200: answer<AdminList<AdminRentalRow>>() } });

const settle = <P extends string>(path: P) =>
  route({ method: "post", path, request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) }, responses: { 200: answer<SettleAnswer>() } });
export const settleOrder = settle("/orders/{id}/settle");
export const settleRental = settle("/rentals/{id}/settle");
/** Issue 46: refund an order whose code came (and reverse a reseller's margin and a developer's share on it). */
export const refundKeptOrder = route({
  method: "post",
  path: "/orders/{id}/refund",
  request: { params: adminIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 200: answer<RefundKeptAnswer>() },
});

// ---- Resellers (issue 46): each with its sub-accounts and margin; grant or revoke by e-mail, audited ----

export const resellers = route({ method: "get", path: "/resellers", responses: { 200: answer<AdminList<AdminResellerRow>>() } });

/** One reseller's sub-accounts (its live wallet's), a status at a time, paged; 404 for an id that is no reseller. */
export const resellerSubaccounts = route({
  method: "get",
  path: "/resellers/{id}/subaccounts",
  request: { params: adminIdParamSchema, query: resellerSubaccountListQuerySchema },
  responses: { 200: answer<AdminResellerSubaccounts>() },
});

export const setResellerRole = route({
  method: "post",
  path: "/resellers",
  request: { body: jsonBody(resellerRoleSchema) },
  responses: { 200: answer<AdminList<AdminResellerRow>>() },
});

// ---- The public status page's incidents (issue 32): posted (201) and resolved with a reason, both audited ----

export const incidents = route({ method: "get", path: "/status-incidents", responses: { 200: answer<AdminList<StatusIncident>>() } });

export const postIncident = route({
  method: "post",
  path: "/status-incidents",
  request: { body: jsonBody(statusIncidentCreateSchema) },
  responses: { 201: answer<StatusIncident>() },
});

export const resolveIncident = route({
  method: "post",
  path: "/status-incidents/{id}/resolve",
  request: { params: incidentIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 200: answer<StatusIncident>() },
});

// ---- Deliveries given up (issue 44): read and replayed with a reason, audited ----

export const deadLetters = route({ method: "get", path: "/dead-letters", responses: { 200: answer<AdminList<DeadLetterView>>() } });

export const replayDeadLetter = route({
  method: "post",
  path: "/dead-letters/{id}/replay",
  request: { params: deadLetterIdParamSchema, body: jsonBody(reasonSchema) },
  responses: { 200: answer<DeadLetterView>() },
});

// ---- Prices and content (settings) ----

export const settings = route({ method: "get", path: "/settings", responses: { 200: answer<AdminSettings>() } });

/** 200 with the value now stored; 202 when the change waits for a second operator (the approval threshold itself). */
export const changeSetting = route({
  method: "patch",
  path: "/settings/{key}",
  request: { params: settingKeyParamSchema, body: jsonBody(settingChangeSchema) },
  responses: { 200: answer<AdminSettingChanged>(), 202: answer<ApprovalAnswer>("Waiting for a second operator") },
});

// ---- Messages ----

export const notify = route({ method: "post", path: "/notify", request: { body: jsonBody(notifySchema) }, responses: { 200: answer<NotifyAnswer>() } });

export const previewMail = route({
  method: "post",
  path: "/email/preview",
  request: { body: jsonBody(groupMailSchema) },
  responses: { 200: answer<GroupMailPreview>() },
});

export const sendMail = route({ method: "post", path: "/email/send", request: { body: jsonBody(groupMailSendSchema) }, responses: { 200: answer<GroupMailSent>() } });

// ---- Audit and reconcile ----

export const audit = route({ method: "get", path: "/audit", request: { query: auditListQuerySchema }, responses: { 200: answer<AdminList<AdminAuditRow>>() } });

export const reconcile = route({ method: "get", path: "/reconcile", responses: { 200: answer<AdminReconcile>() } });

// ---- Withdrawals (issue 45) ----

export const withdrawals = route({
  method: "get",
  path: "/withdrawals",
  request: { query: withdrawalListQuerySchema },
  responses: { 200: answer<AdminList<AdminWithdrawalRow>>() },
});

export const approveWithdrawal = route({
  method: "post",
  path: "/withdrawals/{id}/approve",
  request: { params: withdrawalIdParamSchema, body: jsonBody(withdrawalDecisionSchema) },
  responses: {
    200: answer<{ data: AdminWithdrawalRow }>("Approved (and sent)"),
    202: answer<{ data: AdminWithdrawalRow; approval: AdminApproval; message: string }>("Above the approval threshold: waiting for a second operator"),
  },
});

export const refuseWithdrawal = route({
  method: "post",
  path: "/withdrawals/{id}/refuse",
  request: { params: withdrawalIdParamSchema, body: jsonBody(withdrawalDecisionSchema) },
  responses: { 200: answer<{ data: AdminWithdrawalRow }>() },
});
