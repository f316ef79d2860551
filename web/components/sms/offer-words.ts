import { naira } from "../../../schema/money";
import type { SmsOfferRecord, SmsOfferResponse } from "../../../schema/sms";
import type { SmsProviderName } from "../../../schema/constants";
import { formatSeconds } from "../../lib/format";

/**
 * The purchase card's words for an offer (issue 49): its record beside the price, the better route's one tap, the
 * choice's surcharge before the click. The figures are the server's (the status page's for the same offer).
 */

const PROVIDER_NAMES: Record<SmsProviderName, string> = { Swift: "Swift SMS", Dynamic: "Dynamic SMS" };

/** "94% got a code in the last 7 days, typically in 41 s (from 120 orders)", or why there is no figure yet. */
export function recordText(record: SmsOfferRecord, minSample: number, windowDays: number): string {
  const sample = `${record.sample.toLocaleString("en-NG")} ${record.sample === 1 ? "order" : "orders"}`;
  if (record.success_rate === null) {
    return record.sample === 0
      ? `No orders of this offer in the last ${windowDays} days yet: its record shows from ${minSample}.`
      : `Only ${sample} in the last ${windowDays} days: its record shows from ${minSample}.`;
  }
  const wait = record.median_seconds_to_code === null ? "" : `, typically in ${formatSeconds(record.median_seconds_to_code)}`;
  return `${formatRate(record.success_rate)} got a code in the last ${windowDays} days${wait} (from ${sample}).`;
}

/** A rate as the card writes it: whole percent unless the tenth matters ("94%", "94.5%"). */
export function formatRate(rate: number): string {
  return Number.isInteger(rate) ? `${rate}%` : `${rate.toFixed(1)}%`;
}

/** "Better: Dynamic SMS, United Kingdom — 94% in 41 s, ₦1,150". */
export function betterText(better: NonNullable<SmsOfferResponse["better"]>): string {
  const wait = better.record.median_seconds_to_code === null ? "" : ` in ${formatSeconds(better.record.median_seconds_to_code)}`;
  return `Better: ${PROVIDER_NAMES[better.provider]}, ${better.country} — ${formatRate(better.record.success_rate ?? 0)}${wait}, ${naira(better.price)}`;
}

/** The price change a choice makes, said before the click; null without one. */
export function surchargeText(offer: Pick<SmsOfferResponse, "price" | "base_price" | "surcharge_percent">): string | null {
  if (offer.surcharge_percent === 0) return null;
  return `Your choice costs ${offer.surcharge_percent}% more (the provider's own charge): ${naira(offer.price)} instead of ${naira(offer.base_price)}.`;
}

/** The card's choice as the server's query takes it ("212, 718" -> "212,718"); empty fields are left out. */
export interface ChoiceFields {
  carrier: string;
  areas: string;
  operator: string;
}
export const NO_CHOICE: ChoiceFields = { carrier: "", areas: "", operator: "" };

export function choiceParams(fields: ChoiceFields): { carriers?: string; areas?: string; operator?: string } {
  const areas = fields.areas
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean)
    .join(",");
  return { ...(fields.carrier ? { carriers: fields.carrier } : {}), ...(areas ? { areas } : {}), ...(fields.operator ? { operator: fields.operator } : {}) };
}

/** Area codes as typed, checked like the server does: three digits, not starting with 0 or 1. */
export function areasError(text: string, max: number): string | undefined {
  const codes = text.split(/[\s,;]+/).filter(Boolean);
  if (codes.some((c) => !/^[2-9]\d{2}$/.test(c))) return "Area codes are three digits and do not start with 0 or 1 (e.g. 212).";
  if (codes.length > max) return `Choose at most ${max} area codes.`;
  return undefined;
}
