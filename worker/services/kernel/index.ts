/**
 * The kernel: what every room shares (the ledger, the flows' deps and clock, ticks, notify, the outbox of events written with the money and the webhook events its delivery queues, rate and cost limits, settings, pricing and tiers, upstream money, sandbox accounts). It imports no other room.
 * This file is the room's one entry point: everything outside worker/services/kernel/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { type Clock, type DeliveryChannels, type EventDepsOf, type Notify, type PaymentDeps, type ProviderSet, type RentalDeps, type Services, type SmsCatalogueDeps, type SmsDeps, type Upstreams, type WebhookSend } from "./deps";
export { asInsufficientBalance, guardedLedgerInsert, hasEntry, insufficientBalanceFor, ledgerAmount, type LedgerEntry, ledgerInsert, type LedgerRow, ledgerRowWritten, postEntry, reconcileLedger, referralRewardInsert } from "./ledger";
export { deliverEvents, eventDeliveryStatements, type EventDeps, OUTBOX_GRACE_MS, outboxInsert, type OutboxMessage, purgeOutbox, sweepOutbox } from "./outbox";
export { notify } from "./notify";
export { assertNotAboveShown, buyerOf, chargedBelowShown, costMinorUnits, type DeveloperRef, marginAtKobo, marginKobo, markupRateFor, type PricedBuyer, pricingContext, refShareKobo, rentPriceKobo, type ResellerMarkup, RETAIL_BUYER, smsPriceKobo, starterContext } from "./pricing";
export { type RequestDeps } from "./request-deps";
export { BINDING_LIMITS, type BindingLimiter, clearRateLimit, consumeRateLimit, COST_LIMITS, enforceBindingLimit, type CostAction, costLimitInBatch, enforceCostLimit, enforceRateLimit, purgeExpiredRateLimits, RATE_LIMITS, rateLimitedError, type RateLimitRule } from "./rate-limit";
export { catalogueFor, deploymentProviderSet, isSandboxUser, isSubaccountWallet, SUBACCOUNT_WALLET_PREFIX, notSandboxUser, providerSetFor, sandboxUserIdFor } from "./sandbox-accounts";
export { clearSettingsCache, getSetting, getSettings, putSetting } from "./settings";
export { STOP, type TickResult, wakeAt } from "./tick";
export { lastAcceptedCosts, recordAcceptedCosts, refusedUpstreamPrice, toUsd } from "./upstream-money";
export { deliverDueWebhooks, purgeWebhookEvents, queueWebhookEvents, RETRY_DELAYS_MS, reviveWebhookEvent, signWebhook, toWebhookEventView } from "./webhooks";
export { deadLetterInsert, DELIVERY_KINDS, type DeliveryJob, type DeliveryKind, enqueueDeliveries, isDeliveryJob, LOST_JOB_MS, MAX_DELAY_SECONDS, recordDeadJob } from "./delivery-queue";
export { changesOf, declaredEntities, type Entity, moneyEntity, type Move, type MoveEvent, type MoveLedgerEntry, move, type MoneyStep, type Moved, type MoveStep, namedRead, newMoveId, rowsOf, runBatch, statement, statements, transition } from "./money-entity";
// The kernel's tables (the account row and its wallet, the ledger, the outbox...): every room's rows hang on users.
export { apiKeys, deliveryDeadLetters, emailOutbox, ledger, now, outboxEvents, rateLimits, sandboxState, settings, upstreamPrices, users, webhookEvents } from "./tables";
export { businessOnly, clampLimit, customerMatch, type ListFilter, nationalDigits, PENDING_TOO_LONG_MS, rowCustomer, type RowCustomer, rowCustomerColumns, statusFilter, STUCK_MINUTES } from "./admin-rows";
export { combineChannels } from "./channels";
