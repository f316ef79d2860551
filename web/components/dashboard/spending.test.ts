import { describe, expect, it } from "vitest";
import { spendingPicture } from "./spending";
import type { Transaction } from "./transactions";

const now = new Date("2024-03-30T12:00:00Z");
const tx = (over: Partial<Transaction>): Transaction => ({
  id: 1, user_id: "u", status: "successful", amount: 0, note: "", created_at: "2024-03-30T08:00:00Z", ...over,
});

describe("spending picture", () => {
  it("sums deposits and successful spend per Lagos day over the last 30 days", () => {
    const picture = spendingPicture(
      [
        tx({ amount: 5000, note: "Wallet deposit" }),
        tx({ amount: 0.1, note: "SMS purchase" }),
        tx({ amount: 0.2, note: "SMS purchase" }),
        tx({ amount: 700, status: "refunded", note: "SMS purchase" }),
        tx({ amount: 900, status: "failed", note: "Wallet deposit" }),
        // Lagos days (UTC+1): 23:00 UTC on Feb 29 is already Mar 1 there; 22:59 is still Feb 29, outside the 30 days.
        tx({ amount: 300, note: "Rental", created_at: "2024-02-29T23:00:00Z" }),
        tx({ amount: 999, note: "Rental", created_at: "2024-02-29T22:59:59Z" }),
      ],
      now,
    );
    expect(picture.days).toHaveLength(30);
    expect(picture.days[0]).toEqual({ day: "2024-03-01", deposited: 0, spent: 300 });
    expect(picture.days[29]).toEqual({ day: "2024-03-30", deposited: 5000, spent: 0.3 });
    expect(picture.deposited).toBe(5000);
    expect(picture.spent).toBe(300.3);
  });
});
