import type { SmsProviderName } from "../../schema/constants";
import type { RentQuoteRequest } from "../../schema/rentals";

/**
 * Every query key of the customer app, in one place: the api modules build their queryOptions from these, and the
 * mutations, the realtime invalidation map (realtime/messages.ts) and the resync list invalidate through the same
 * entries, so a key renamed here is renamed everywhere (CONVENTIONS habit 7: keys start with the resource name).
 * Read it as one factory (a namespace import named queryKeys, then queryKeys.smsOrder(id)). Named exports rather
 * than one object so the minifier shortens every name (an object keeps its 30-odd property names in the bundle).
 * A plural entry is the prefix of its family (`smsOrders` matches every `smsOrder(id)`), for invalidating them all.
 * The values are the ones docs/api.md and the persisted cache have always used; changing one drops that cache entry.
 */

// Money: every balance change is a ledger row, so a transaction.
export const balance = ["balance"] as const;
export const transactions = ["transactions"] as const;
export const orders = ["orders"] as const;
export const level = ["level"] as const;
export const tiers = ["tiers"] as const;
export const wholesaleTiers = ["wholesale-tiers"] as const;

// Funding
export const pendingPayments = ["payments", "pending"] as const;
export const rateSettings = ["rate-settings"] as const;
export const merchantCurrencies = ["now-merchant"] as const;
export const invoices = ["invoice"] as const;
export const invoice = (paymentId: string) => ["invoice", paymentId] as const;
export const staticAccount = ["static-account"] as const;
/** Settings → Telegram (issue 48). */
export const telegram = ["telegram"] as const;
/** Cash out (issue 45): what may be withdrawn with the payout account, and one withdrawal followed live. */
export const withdrawable = ["withdrawable"] as const;
export const withdrawals = ["withdrawal"] as const;
export const withdrawal = (id: string) => ["withdrawal", id] as const;

// Receive SMS
export const smsCountries = (provider: SmsProviderName) => ["sms-countries", provider] as const;
export const smsPrices = (provider: SmsProviderName, countryId: string) => ["sms-prices", provider, countryId] as const;
export const smsPublicPrices = (provider: SmsProviderName, countryId: string) => ["sms-public-prices", provider, countryId] as const;
export const smsOrders = ["sms-order"] as const;
export const smsOrder = (requestId: string) => ["sms-order", requestId] as const;
export const smsFavourites = ["sms-favourites"] as const;
export const smsHoldTime = ["sms-hold-time"] as const;
export const smsUseAgain = (requestId: string) => ["sms-use-again", requestId] as const;
export const smsCompare = (provider: SmsProviderName, serviceId: string) => ["sms-compare", provider, serviceId] as const;
export const smsOffer = (query: Record<string, string | undefined>) => ["sms-offer", query] as const;

// Rent Number
export const rentalCountries = ["rental-countries"] as const;
export const rentalStock = (req: RentQuoteRequest | null) => ["rental-stock", req?.countryId, req?.duration, req?.period] as const;
export const rentals = ["rental"] as const;
export const rental = (id: string) => ["rental", id] as const;
export const rentalExtend = (id: string | null) => ["rental-extend", id] as const;

// Account and content
export const account = ["account"] as const;
export const sessions = ["sessions"] as const;
export const twoFactor = ["2fa"] as const;
export const passkeys = ["passkeys"] as const;
export const links = ["links"] as const;
export const ref = ["ref"] as const;
export const referralInvitation = (code: string) => ["referral-invitation", code] as const;
export const ads = ["ads"] as const;
export const health = ["health"] as const;
export const publicStatus = ["public-status"] as const;

// Settings → Notifications (issue 47) keeps its two keys in web/api/notifications.ts: this module sits on the
// dashboard's first load, which has no bytes to spare, and nothing else (realtime included) invalidates them.

// Settings "API" section: keys, the sandbox wallet, webhooks and their log.
export const developer = ["developer"] as const;
// Resellers (issue 46): the role and the partner dashboard's sub-accounts.
export const reseller = ["reseller"] as const;
export const resellerSubaccounts = ["reseller", "subaccounts"] as const;
export const developerKeys = ["developer", "keys"] as const;
export const sandboxWallet = ["developer", "sandbox"] as const;
export const refShare = ["developer", "ref-share"] as const;
export const webhookLog = (keyId: string) => ["developer", "webhook-log", keyId] as const;

// The operator console's queries all start with this (web/admin/api.ts); only an operator's room invalidates it.
export const admin = ["admin"] as const;
