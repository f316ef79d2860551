import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { payments, users } from "../../db/tables";
import { createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { postEntry } from "../kernel";
import type { Db } from "../../db/client";
import { transactionsRead } from "./transactions";

/** The history as GET /api/get-transaction reads it, without the session check it is batched with there. */
async function listTransactions(d: Db, userId: string) {
  const read = transactionsRead(d, userId);
  return read.shape(await d.batch(read.queries), { id: userId });
}

afterEach(async () => {
  await expectLedgerBalanced();
});

function entry(userId: string, key: string, amountKobo: number, kind: Parameters<typeof postEntry>[1]["kind"], note: string, ref?: string) {
  return postEntry(db(), { at: Date.now(), userId, key, amountKobo, kind, note, ref });
}

describe("transaction history projection", () => {
  it("shows deposits, purchases, a refunded purchase's charge and its return, rentals, admin rows, newest first, positive naira", async () => {
    const user = await createUser();
    await entry(user.id, "fund:squad:R1", 1_000_000, "fund", "Wallet deposit (card)", "R1");
    await entry(user.id, "buy:O1", -150_000, "buy", "WhatsApp number (USA)", "O1");
    await entry(user.id, "buy:O2", -80_000, "buy", "Telegram number (UK)", "O2");
    await entry(user.id, "refund:O2", 80_000, "refund", "Refund: Telegram number (UK)", "O2");
    await entry(user.id, "rent:L1", -300_000, "rent", "Rented number (USA, 1 day)", "L1");
    await entry(user.id, "rent_refund:L1", 300_000, "rent_refund", "Rental refund", "L1");
    await entry(user.id, "admin:A1", 5_050, "admin", "Goodwill credit: delayed SMS");

    const rows = await listTransactions(db(), user.id);
    const summary = rows.map((r) => [r.id, r.status, r.direction, r.amount, r.note]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ["fund:squad:R1", "successful", "in", 10_000, "Wallet deposit (card)"],
        ["buy:O1", "successful", "out", 1_500, "WhatsApp number (USA)"],
        ["buy:O2", "refunded", "out", 800, "Telegram number (UK)"],
        ["refund:O2", "refunded", "in", 800, "Refund: Telegram number (UK)"],
        ["rent:L1", "refunded", "out", 3_000, "Rented number (USA, 1 day)"],
        ["rent_refund:L1", "refunded", "in", 3_000, "Rental refund"],
        ["admin:A1", "successful", "in", 50.5, "Goodwill credit: delayed SMS"],
      ]),
    );
    // Issue 43: a refunded purchase is its charge and its return, so the rows that moved money add up to the balance.
    expect(rows).toHaveLength(7);
    const moved = rows.reduce((sum, r) => sum + (r.direction === "in" ? 1 : r.direction === "out" ? -1 : 0) * Math.round(r.amount * 100), 0);
    const [balance] = await db().select({ kobo: users.balanceKobo }).from(users).where(eq(users.id, user.id));
    expect(moved).toBe(balance!.kobo);
    expect(rows.every((r) => r.user_id === user.id && !Number.isNaN(Date.parse(r.created_at)))).toBe(true);
    const times = rows.map((r) => Date.parse(r.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("lists payment attempts that moved no money as pending or failed, and a credited one only through its ledger row", async () => {
    const user = await createUser();
    const base = { userId: user.id, currency: "NGN" };
    await db().insert(payments).values([
      { ...base, id: "P-PENDING", provider: "squad", status: "pending", amountKobo: 200_000 },
      { ...base, id: "P-FAILED", provider: "squad", status: "failed", amountKobo: 300_000 },
      { ...base, id: "P-CONFIRMING", provider: "nowpayments", status: "confirming", amountKobo: 1_550_000, payCurrency: "BTC", currency: "BTC" },
      { ...base, id: "P-EXPIRED", provider: "nowpayments", status: "expired", amountKobo: 1_550_000, payCurrency: "SOL", currency: "SOL" },
      { ...base, id: "P-CREDITED", provider: "squad", status: "credited", amountKobo: 400_000 },
    ]);
    await postEntry(db(), { at: Date.now(), userId: user.id, key: "fund:squad:P-CREDITED", amountKobo: 400_000, kind: "fund", note: "Wallet deposit (card)", ref: "P-CREDITED" });

    const byId = Object.fromEntries((await listTransactions(db(), user.id)).map((r) => [r.id, [r.status, r.amount, r.note]]));
    expect(byId).toEqual({
      "P-PENDING": ["pending", 2_000, "Wallet deposit (card)"],
      "P-FAILED": ["failed", 3_000, "Wallet deposit (card)"],
      "P-CONFIRMING": ["pending", 15_500, "Wallet deposit (BTC)"],
      "P-EXPIRED": ["failed", 15_500, "Wallet deposit (SOL)"],
      "fund:squad:P-CREDITED": ["successful", 4_000, "Wallet deposit (card)"],
    });
  });

  it("never shows another user's rows", async () => {
    const a = await createUser();
    const b = await createUser();
    await postEntry(db(), { at: Date.now(), userId: a.id, key: `fund:squad:${a.id}`, amountKobo: 100_000, kind: "fund", note: "Wallet deposit (card)" });
    expect(await listTransactions(db(), b.id)).toEqual([]);
  });
});
