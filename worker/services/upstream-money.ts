import type { SettingValue } from "../../schema/settings";
import type { UpstreamMoney } from "../providers/sms/types";

/**
 * Upstream amounts in US dollars, with the operator's rates (setting upstream_rates: units per dollar). Prices and
 * pricing.ts work in dollars; an amount in a currency without a rate is null, and the caller refuses it: a rouble
 * price is converted or refused, never read as dollars.
 */
export function toUsd(money: UpstreamMoney, rates: SettingValue<"upstream_rates">): number | null {
  if (!Number.isFinite(money.amount) || money.amount < 0) return null;
  if (money.currency === "USD") return money.amount;
  const perUsd = rates[money.currency];
  return perUsd && perUsd > 0 ? money.amount / perUsd : null;
}
