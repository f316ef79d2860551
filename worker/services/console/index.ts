/**
 * The operator console: the overview and lists, operators' actions and their audit, two-operator approvals, group e-mail, operator sessions, the review queue.
 * This file is the room's one entry point: everything outside worker/services/console/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { audit, changeSetting, findCustomer, manualEntry, notifyOperators, onlineCustomerIds, type Operator, runAdminChange, sendToast, setBlocked } from "./operator-actions";
export { changeSettingCommand, notifyCustomers, resendVerification, sendGroupMail, refundKeptOrderCommand, settleOrder, settleRental, verifyDeposit } from "./operator-commands";
export { APPROVAL_MESSAGES, approvalSql, approve, holdLargeEntry, holdLargeWithdrawal, listApprovals, reject, requestSecondFactorReset, requestThresholdChange } from "./operator-approvals";
export { customerDetail, listAudit, overview, reconcileNow, searchCustomers } from "./operator-console";
// The console's lists and its review queue, each kept by the room that owns the rows (issue 42), offered here as the
// console's pages read them.
export { findDeposit, getQueueItem, listDeposits, listReviewQueue, resolveQueueItem, verifyQueueItem } from "../funding";
export { listOrders } from "../sms";
export { listRentals } from "../rent";
export { type ListFilter, nationalDigits } from "../kernel";
export { applyUnsubscribe, GROUP_MAIL_LIMIT, groupMessage, MAX_RECIPIENTS_PER_SEND, recipientsFor } from "./operator-mail";
export { endCustomerSessions } from "./operator-sessions";
export { listIncidents, postIncident, resolveIncident } from "./status-incidents";
export { clearStatusCache, INCIDENTS_CACHE_MS, publicStatus, STATUS_CACHE_MS, STATUS_HTTP_MAX_AGE_S } from "./public-status";
export { listDeadLetters, replayDeadLetter } from "./dead-letters";
