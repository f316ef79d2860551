/**
 * Receive SMS: the catalogue and choice, buying, polling and pushed codes, chains (next route), the SMS upstreams' health and figures.
 * This file is the room's one entry point: everything outside worker/services/sms/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { BatchCache } from "./batch-status";
export { type ProviderOrderRow, summariseProviderOrders } from "./provider-stats";
export { publicPriceList } from "./public-prices";
export { clearSmsCatalogueCache, findSmsOffer, type PricedOffer, providerSellingCountry, smsCountries, smsCountriesOfAll, smsOffers, smsPriceList } from "./sms-catalogue";
export { chainStateFor, smsChain } from "./sms-chain";
export { smsOrder } from "./sms-transitions";
export { compareRoutes, listFavourites, setFavourite } from "./sms-choice";
export { buySmsNumber, buySmsNumbers, cancelSmsOrder, completeSmsOrder, finishSmsOrder, requestAnotherCode } from "./sms-orders";
export { acceptPushedCode, checkSmsOrderNow, pollSmsOrderTick, refundKeptSmsOrder, settleSmsOrderNow, sweepSmsOrders } from "./sms-poll";
export { activeOrdersOf, canRequestAnotherCode, codesByOrder, findSmsOrder, lastCodeOf, newestOrdersAsJson, orderCodes, orderMessages, ownSmsOrder, type PageAfter, smsHoldTime, type SmsOrderRow, smsOrderRowsQuery, smsOrdersPage, smsOrderStatus, smsRefundState, toSmsOrderRows } from "./sms-views";
export { checkUpstreamHealth, clearUpstreamHealthCache, healthStatuses, providerStats, RENT_HEALTH_KEY, unavailableMessage, upstreamHealthKey } from "./upstream-health";
export { slotsInUseByAccount } from "./routing";
export { useAgainCheck, useAgainQuote, useNumberAgain } from "./use-again";
export { choiceSurcharge as choiceSurchargeFor, numberChoiceOf, numberChoicesFor as smsNumberChoices, orderChoice as orderNumberChoice } from "./number-choice";
export { NO_RECORD, offerKey, offerRecords, recordOf, RECORD_WINDOW_DAYS } from "./offer-record";
export { recordView, smsOffer } from "./sms-offer";
export { customerOrdersQuery, deliveredByServiceQuery, listOrders, orderOutcomesQuery, orderView, statusOutcomesQuery, statusRefundWaitsQuery, upstreamHealthQuery } from "./admin-views";
