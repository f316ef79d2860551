/**
 * Resellers (issue 46, docs/decisions/072-resellers-and-sub-accounts.md): the reseller role, its sub-accounts (wallets
 * of their own) and the transfers between them, its markups and the margin it earns.
 * This file is the room's one entry point: everything outside worker/services/resellers/ imports the room from here, and
 * a file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { acceptResellerTerms, NOT_A_RESELLER, requireReseller, resellerOf, resellerSummary, toResellerView } from "./reseller";
export { subaccount, subaccountTransfer } from "./subaccount";
export { actingSubaccount, closeSubaccount, createSubaccount, getSubaccount, listSubaccounts, listSubaccountTransfers, MAX_SUBACCOUNTS, ownSubaccount, setSubaccountFrozen, SUBACCOUNT_NOT_FOUND, subaccountsMovedBetween, transferSubaccount, walletReceives } from "./subaccounts";
export { getMarkups, markupForSubaccount, setMarkups } from "./markups";
export { listResellers, listResellerSubaccounts, setResellerRole } from "./admin-views";
export { refreshWholesaleVolumes, WHOLESALE_REFRESH_BATCH, WHOLESALE_REFRESH_MS } from "./wholesale";
