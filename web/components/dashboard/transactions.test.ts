import { describe, expect, it } from "vitest";
import { formatDateTime as formatTransactionDate } from "../../../schema/datetime";
import {
  applyFilter,
  directionOf,
  historyTransactions,
  movedAmount,
  plainMeaning,
  signOf,
  statusLabel,
  statusStyle,
  type Transaction,
} from "./transactions";

const tx = (over: Partial<Transaction>): Transaction => ({
  id: 1,
  user_id: "u1",
  status: "successful",
  amount: 100,
  note: "SMS purchase",
  created_at: "2024-03-05T10:00:00.000Z",
  ...over,
});

describe("history filtering and order", () => {
  it("keeps the current user's rows with an amount (pending too: a held payment must show), newest first", () => {
    const list = [
      tx({ id: 1, created_at: "2024-03-01T10:00:00Z" }),
      tx({ id: 2, status: "pending", created_at: "2024-03-06T10:00:00Z" }),
      tx({ id: 3, user_id: "someone-else" }),
      tx({ id: 4, amount: null }),
      tx({ id: 5, status: "refunded", created_at: "2024-03-04T10:00:00Z" }),
      tx({ id: 6, status: "failed", created_at: null }),
      tx({ id: 7, created_at: "2024-03-07T09:00:00Z" }),
    ];
    expect(historyTransactions(list, "u1").map((t) => t.id)).toEqual([7, 2, 5, 1, 6]);
  });

  it("matches a numeric user id against the stored string id", () => {
    expect(historyTransactions([tx({ user_id: 42 })], "42")).toHaveLength(1);
  });

  it("shows nothing without a signed-in user", () => {
    expect(historyTransactions([tx({})], null)).toEqual([]);
  });

  it("filters by one status or shows all", () => {
    const list = [tx({ id: 1 }), tx({ id: 2, status: "refunded" }), tx({ id: 3, status: "failed" })];
    expect(applyFilter(list, "refunded").map((t) => t.id)).toEqual([2]);
    expect(applyFilter(list, "all")).toHaveLength(3);
  });
});

describe("sign and colour rules", () => {
  it("a successful deposit is a credit whatever the case of the note", () => {
    expect(directionOf({ status: "successful", note: "Wallet DEPOSIT via Squad" })).toBe("credit");
  });
  it("a refunded row is a refund (+), a purchase a debit (-), a failed or pending row moved nothing", () => {
    expect(directionOf({ status: "refunded", note: "deposit" })).toBe("refund");
    expect(signOf("refund")).toBe("+");
    expect(directionOf({ status: "successful", note: "SMS purchase" })).toBe("debit");
    expect(signOf("debit")).toBe("-");
    expect(directionOf({ status: "failed", note: "deposit" })).toBe("none");
    expect(directionOf({ status: "pending", note: "Wallet deposit (BTC)" })).toBe("none");
    expect(signOf("none")).toBe("");
    expect(movedAmount({ status: "failed", amount: 5000 })).toBe(0);
    expect(movedAmount({ status: "successful", amount: 5000 })).toBe(5000);
  });
  it("a refunded purchase is its charge (-) and its return (+), each saying so (issue 43)", () => {
    expect(directionOf({ status: "refunded", note: "WhatsApp number (USA)", direction: "out" })).toBe("debit");
    expect(plainMeaning({ status: "refunded", note: "WhatsApp number (USA)", direction: "out" })).toBe("Charged, then returned");
    expect(directionOf({ status: "refunded", note: "Refund: WhatsApp number (USA)", direction: "in" })).toBe("refund");
    expect(plainMeaning({ status: "refunded", note: "Refund: WhatsApp number (USA)", direction: "in" })).toBe("Returned to your wallet");
  });
  it("the server's direction wins over the note", () => {
    expect(directionOf({ status: "successful", note: "Adjustment by support", direction: "in" })).toBe("credit");
    expect(directionOf({ status: "successful", note: "Wallet deposit reversal", direction: "out" })).toBe("debit");
  });
  it("labels known statuses and styles unknown ones as failed", () => {
    expect(statusLabel("refunded")).toBe("Refunded");
    expect(statusStyle("mystery")).toBe("failed");
    expect(statusStyle("pending")).toBe("pending");
  });
});

describe("date text: the app's one clock (issue 43)", () => {
  const now = Date.parse("2024-06-01T12:00:00Z");
  it("writes the stored UTC time in Lagos time, 12-hour, PM from noon, never '14:07 PM'", () => {
    expect(formatTransactionDate("2024-03-05T13:07:09.000Z", { now })).toBe("Mar 5, 2:07 PM WAT");
    expect(formatTransactionDate("2024-12-25T11:00:00Z", { now })).toBe("Dec 25, 12:00 PM WAT");
  });
  it("uses AM before noon and reads a zone-less stored time as UTC", () => {
    expect(formatTransactionDate("2024-01-09 08:30:00", { now })).toBe("Jan 9, 9:30 AM WAT");
    expect(formatTransactionDate("2024-01-08T23:05:00Z", { now })).toBe("Jan 9, 12:05 AM WAT");
  });
  it("shows a dash for a missing or unreadable date", () => {
    expect(formatTransactionDate(null)).toBe("—");
    expect(formatTransactionDate("yesterday")).toBe("—");
  });
});
