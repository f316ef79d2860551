import type { AdminDepositRow } from "../../schema/admin";
import { naira } from "./api";

/**
 * A deposit's three amounts as the console writes them (issue 28): what was invoiced, what arrived and what was
 * credited, apart, so an underpaid invoice never reads as its full value and an overpayment shows what arrived.
 */

const coin = (amount: string | null, currency: string | null) => (amount ? `${amount} ${(currency ?? "").toUpperCase()}` : null);

/** What was asked: the naira value, and for crypto the US$ price and the coin amount. */
export function invoicedText(d: AdminDepositRow): string {
  return [naira(d.invoiced.naira), d.invoiced.usd !== null ? `US$${d.invoiced.usd.toFixed(2)}` : null, coin(d.invoiced.coinAmount, d.invoiced.coin)].filter(Boolean).join(" · ");
}

/** What arrived: the coin amount and its naira at the invoice's rate (crypto), what Squad charged (card), or nothing yet. */
export function arrivedText(d: AdminDepositRow): string {
  if (!d.arrived) return "Nothing yet";
  return [coin(d.arrived.coinAmount, d.arrived.coin), d.arrived.naira !== null ? naira(d.arrived.naira) : null].filter(Boolean).join(" ≈ ") || "—";
}

/** Under or over the invoice, said beside the credit, so a partial payment never reads as the full one. */
export function shortfallText(d: AdminDepositRow): string {
  if (!d.arrived || d.arrived.naira === null) return "";
  const diff = Math.round((d.arrived.naira - d.invoiced.naira) * 100) / 100;
  if (diff < 0) return ` (underpaid by ${naira(-diff)})`;
  if (diff > 0) return ` (overpaid by ${naira(diff)})`;
  return "";
}


/**
 * The deposit's status as the operator reads it: a bank transfer still pending with money arrived is being checked
 * (verified with Squad, or in the review queue), as the Bank transfers panel says (issue 43).
 */
export function statusText(d: AdminDepositRow): string {
  return d.channel === "transfer" && d.status === "pending" && d.arrived ? "pending · arrived, being checked" : d.status;
}
