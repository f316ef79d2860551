import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/client";
import { parseMaxPrice, priceChoiceFrom } from "./price-choice";

describe("priceChoiceFrom", () => {
  it("turns the server's 409 into a choice with the new price and the ceiling it broke", () => {
    const err = new ApiError(409, "PRICE_CHANGED", "The price is now ₦1200.00, above your maximum of ₦1000.00.", { price: 1200, max_price: 1000 });
    expect(priceChoiceFrom(err)).toEqual({ price: 1200, maxPrice: 1000, message: err.message });
    expect(priceChoiceFrom(new ApiError(409, "PRICE_CHANGED", "changed", { price: 950 }))).toMatchObject({ price: 950, maxPrice: null });
  });

  it("is no choice for other errors or a 409 without a price", () => {
    expect(priceChoiceFrom(new ApiError(402, "INSUFFICIENT_BALANCE", "Insufficient balance"))).toBeNull();
    expect(priceChoiceFrom(new ApiError(409, "PRICE_CHANGED", "changed", {}))).toBeNull();
    expect(priceChoiceFrom(new Error("boom"))).toBeNull();
  });
});

describe("parseMaxPrice", () => {
  it("reads naira with or without the sign and commas; empty is no ceiling", () => {
    expect(parseMaxPrice("")).toBeUndefined();
    expect(parseMaxPrice("₦1,250.5")).toBe(1250.5);
    expect(parseMaxPrice("0")).toBe("invalid");
    expect(parseMaxPrice("abc")).toBe("invalid");
  });
});
