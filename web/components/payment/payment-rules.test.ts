import { beforeEach, describe, expect, it } from "vitest";
import {
  addPendingPayment,
  formatAge,
  formatCountdown,
  isBelowCryptoMinimum,
  orderPayCurrencies,
  PENDING_PAYMENTS_KEY,
  prunePendingPayments,
  readPendingPayments,
  removePendingPayment,
} from "./payment-rules";
import { INVOICE_LIFETIME_MS } from "../../../schema/constants";

describe("pending payment ages", () => {
  const now = Date.UTC(2024, 0, 1, 12, 0, 0);
  it("shows minutes under an hour", () => {
    expect(formatAge(now - 59_000, now)).toBe("0m ago");
    expect(formatAge(now - 45 * 60_000, now)).toBe("45m ago");
  });
  it("shows hours and minutes from an hour on", () => {
    expect(formatAge(now - 60 * 60_000, now)).toBe("1h 0m ago");
    expect(formatAge(now - (3 * 60 + 7) * 60_000, now)).toBe("3h 7m ago");
  });
  it("never shows a negative age", () => expect(formatAge(now + 120_000, now)).toBe("0m ago"));
});

describe("stored pending payments", () => {
  beforeEach(() => localStorage.clear());
  it("adds, replaces by ref and removes", () => {
    addPendingPayment({ ref: "a", amount: 5000, currency: "NGN", timestamp: 1 });
    addPendingPayment({ ref: "a", amount: 6000, currency: "NGN", timestamp: 2 });
    addPendingPayment({ ref: "b", amount: 1000, currency: "NGN", timestamp: 3 });
    expect(readPendingPayments().map((p) => [p.ref, p.amount])).toEqual([["a", 6000], ["b", 1000]]);
    expect(removePendingPayment("a").map((p) => p.ref)).toEqual(["b"]);
  });
  it("drops entries older than 24 hours", () => {
    const now = Date.now();
    addPendingPayment({ ref: "old", amount: 1, currency: "NGN", timestamp: now - 24 * 3600_000 - 1 });
    addPendingPayment({ ref: "new", amount: 1, currency: "NGN", timestamp: now - 23 * 3600_000 });
    expect(prunePendingPayments(now).map((p) => p.ref)).toEqual(["new"]);
    expect(readPendingPayments().map((p) => p.ref)).toEqual(["new"]);
  });
  it("survives garbage in storage", () => {
    localStorage.setItem(PENDING_PAYMENTS_KEY, "{not json");
    expect(readPendingPayments()).toEqual([]);
  });
});

describe("invoice countdown", () => {
  it("formats hh:mm:ss from the invoice lifetime", () => {
    expect(formatCountdown(INVOICE_LIFETIME_MS)).toBe("00:16:40");
    expect(formatCountdown(3_725_999)).toBe("01:02:05");
    expect(formatCountdown(-5)).toBe("00:00:00");
  });
});

describe("pay-currency order", () => {
  it("puts BTC, USDTTRC20, ETH, SOL first, then the server order, open currencies only", () => {
    const list = [
      { code: "XRP", available_for_payment: true },
      { code: "sol", available_for_payment: true },
      { code: "LTC", available_for_payment: true },
      { code: "ETH", available_for_payment: true },
      { code: "BTC", available_for_payment: false },
      { code: "USDTTRC20", available_for_payment: true },
    ];
    expect(orderPayCurrencies(list).map((c) => c.code)).toEqual(["USDTTRC20", "ETH", "sol", "XRP", "LTC"]);
  });
});

describe("crypto minimum", () => {
  it("reads the integer part", () => {
    expect(isBelowCryptoMinimum("4.99", 5)).toBe(true);
    expect(isBelowCryptoMinimum("5", 5)).toBe(false);
    expect(isBelowCryptoMinimum("abc", 5)).toBe(true);
  });
});
