/**
 * The operator console: the overview and lists, operators' actions and their audit, two-operator approvals, group e-mail, operator sessions, the review queue.
 * This file is the room's one entry point: everything outside worker/services/console/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { audit, changeSetting, findCustomer, manualEntry, notifyOperators, onlineCustomerIds, type Operator, runAdminSql, sendToast, setBlocked } from "./operator-actions";
export { APPROVAL_MESSAGES, approvalSql, approve, holdLargeEntry, listApprovals, reject, requestSecondFactorReset, requestThresholdChange } from "./operator-approvals";
export { customerDetail, findDeposit, listAudit, listDeposits, type ListFilter, listOrders, listRentals, nationalDigits, overview, reconcileNow, searchCustomers } from "./operator-console";
export { applyUnsubscribe, GROUP_MAIL_LIMIT, groupMessage, MAX_RECIPIENTS_PER_SEND, recipientsFor } from "./operator-mail";
export { endCustomerSessions } from "./operator-sessions";
export { getQueueItem, listReviewQueue, resolveQueueItem, verifyQueueItem } from "./review-queue";
