/**
 * The developer API: API keys, /api/v1, the SMS-Activate-compatible protocol, and the owner's side of webhooks.
 * This file is the room's one entry point: everything outside worker/services/developer/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { API_KEY_RATE_LIMIT, authenticateApiKey, createApiKey, ensureSandboxAccount, grantsNewScope, listApiKeys, ownApiKey, revokeApiKey, sandboxBalanceKobo, scopesOf, setApiKeyScopes, toApiKeyView, topUpSandbox, touchApiKey } from "./api-keys";
export { anotherCodeV1, buySmsV1, cancelRentalV1, cancelSmsOrderV1, claimIdempotencyKey, countriesV1, endRentalV1, IDEMPOTENCY_IN_FLIGHT_MS, listRentalsV1, listSmsOrdersV1, pricesV1, purgeIdempotencyKeys, readIdempotencyKey, rentalV1, rentCountriesV1, rentQuoteV1, rentV1, resendWebhookV1, setWebhookV1, smsOrderV1, storeIdempotentAnswer, webhookDeliveriesV1, webhookV1 } from "./api-v1";
export { protocolAction } from "./protocol-api";
export { developerRefFor, developerShareSummary, protocolDeveloperRef } from "./ref-share";
export { resendWebhookEvent, setWebhookUrl, webhookLog } from "./webhook-settings";
