import type { MerchantCurrency } from "../../../schema/wallet";
import { TtlCache } from "../../lib/cache";
import { type PaymentDeps } from "../kernel";

// ---------------------------------------------------------------------------------------------------------------------
// Currency lists (cached per isolate: they change rarely and every Fund Wallet visit asks)

const CURRENCY_CACHE_MS = 5 * 60_000;
const currencyCache = new TtlCache<"coins", Promise<string[]>>(CURRENCY_CACHE_MS);
const merchantCurrencyCache = new TtlCache<"merchant", Promise<MerchantCurrency[]>>(CURRENCY_CACHE_MS);

export function nowCurrencies(deps: PaymentDeps): Promise<string[]> {
  return currencyCache.getOrLoad("coins", async () => (await deps.provider.nowpayments.merchantCoins()).map((c) => c.toUpperCase()));
}

/** Every currency NOWPayments lists, flagged available_for_payment when it is enabled and selected by the merchant. */
export function nowMerchantCurrencies(deps: PaymentDeps): Promise<MerchantCurrency[]> {
  return merchantCurrencyCache.getOrLoad("merchant", async () => {
    const [selected, all] = await Promise.all([nowCurrencies(deps), deps.provider.nowpayments.fullCurrencies()]);
    const chosen = new Set(selected);
    return all.map((c) => ({ code: c.code.toUpperCase(), name: c.name, available_for_payment: c.enabled && chosen.has(c.code.toUpperCase()) }));
  });
}
