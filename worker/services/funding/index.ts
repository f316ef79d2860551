/**
 * Funding: money into the wallet (card and crypto payments, bank transfers into virtual accounts and their reconciliation, deposit outcomes and payment reviews, the wallet's history).
 * This file is the room's one entry point: everything outside worker/services/funding/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { acceptTransferNotice, activeTransfer, listTransferDeposits, openStaticAccount, recheckTransfer, reconcileTransfers, runTransferSweep, squadRecordOfArrival, startTransfer, staticAccountView, sweepTransfers, TRANSFER_QUIET_MS, transferView } from "./bank-transfers";
export { getPaymentReview, listPaymentReviews, openReviewCount, queueDecision, reviewItem, type ReviewListItem } from "./payment-reviews";
export { closeUnknownTransfer, creditStaleCard, type QueueDecisionInput, refuseStaleCard, resolvePaymentReview } from "./review-decisions";
export { transferDeposit } from "./transfer-deposit";
export { confirmCardPayment, listPendingCardPayments, startCardPayment } from "./card-payments";
export { nowCurrencies, nowMerchantCurrencies } from "./crypto-currencies";
export { applyNowPaymentsIpn, createInvoice, invoiceTick, MONEY_ARRIVED, nowPaymentStatus, settleInvoice } from "./crypto-payments";
export { CARD_PENDING_TOO_LONG_MS, runPaymentSweep } from "./payment-sweep";
export { depositKey, payment, type Payment } from "./payment-transitions";
export { transactionsRead } from "./transactions";
export { customerDepositsQuery, depositView, findDeposit, listDeposits } from "./admin-views";
export { getQueueItem, listReviewQueue, type QueueItem, resolveQueueItem, reviewQueueCount, verifyQueueItem } from "./review-queue";
export { decideWithdrawal, findWithdrawal, heldForWithdrawalsKobo, sendApprovedWithdrawal, type WithdrawalApprovalPayload, withdrawalApprovalPayload, withdrawalApprovalSql, lagosDayStart, listOwnWithdrawals, listWithdrawals, requestWithdrawal, savePayoutAccount, sendWithdrawal, settleWithdrawal, sweepWithdrawals, toV1Withdrawal, type WithdrawCaller, withdrawableView, withdrawalView } from "./withdrawals";
export { withdrawal } from "./withdrawal-transitions";
export { matchNames } from "./name-match";
export { comparePayouts, type OurPayout, type PayoutReconciliation } from "./payout-reconciliation";
