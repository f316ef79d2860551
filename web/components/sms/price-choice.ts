import { ApiError } from "../../api/client";

/**
 * A purchase the server refused because its price is above what the customer agreed to (the price shown, or their
 * own max price): the choice the screen offers instead of a toast. Buying at the new price sends it as both the shown
 * price and the ceiling, so the server still never charges more than the customer has just agreed to.
 */
export type PriceChoice = {
  /** The server's price now, in naira. */
  price: number;
  /** The customer's max price that it exceeds, when that was the reason. */
  maxPrice: number | null;
  message: string;
};

export function priceChoiceFrom(err: unknown): PriceChoice | null {
  if (!(err instanceof ApiError) || err.code !== "PRICE_CHANGED") return null;
  const price = Number(err.body.price);
  if (!Number.isFinite(price) || price <= 0) return null;
  const max = Number(err.body.max_price);
  return { price, maxPrice: Number.isFinite(max) && max > 0 ? max : null, message: err.message };
}

/** The max-price field's text as naira, or undefined when empty; NaN-free: anything unreadable is "not a number". */
export function parseMaxPrice(text: string): number | undefined | "invalid" {
  const trimmed = text.trim().replace(/[₦,\s]/g, "");
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value <= 0) return "invalid";
  return Math.round(value * 100) / 100;
}
