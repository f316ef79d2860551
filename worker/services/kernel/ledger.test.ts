import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ledger, smsOrders } from "../../db/tables";
import { AppError } from "../../lib/errors";
import { balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { and, eq, exists, sql } from "drizzle-orm";
import { asInsufficientBalance, guardedLedgerInsert, hasEntry, ledgerInsert, postEntry } from "./ledger";

describe("ledger", () => {
  it("moves the balance in the same statement as the row, and a repeated key is a no-op", async () => {
    const user = await createUser();
    const first = await postEntry(db(), { at: Date.now(), userId: user.id, key: "fund:squad:abc", amountKobo: 500_000, kind: "fund", note: "Wallet deposit" });
    const again = await postEntry(db(), { at: Date.now(), userId: user.id, key: "fund:squad:abc", amountKobo: 500_000, kind: "fund", note: "Wallet deposit" });
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(await balanceOf(user.id)).toBe(500_000);
    const row = await env.DB.prepare("SELECT total_deposited_kobo FROM users WHERE id = ?").bind(user.id).first<{ total_deposited_kobo: number }>();
    expect(row?.total_deposited_kobo).toBe(500_000);
    await expectLedgerBalanced();
  });

  it("refuses a debit below zero and rolls back the whole batch", async () => {
    const user = await createUser({ balanceKobo: 10_000 });
    const orderId = crypto.randomUUID();
    const batch = db().batch([
      db().insert(smsOrders).values({
        id: orderId, userId: user.id, provider: "Swift", countryId: "5", countryName: "USA", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 20_000,
      }),
      ledgerInsert(db(), { at: Date.now(), userId: user.id, key: `buy:${orderId}`, amountKobo: -20_000, kind: "buy", note: "WhatsApp number" }),
    ]);
    const err = await batch.then(() => null, (e) => asInsufficientBalance(e));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("INSUFFICIENT_BALANCE");
    expect(await balanceOf(user.id)).toBe(10_000);
    const orders = await env.DB.prepare("SELECT count(*) AS n FROM sms_orders WHERE id = ?").bind(orderId).first<{ n: number }>();
    expect(orders?.n).toBe(0);
    await expectLedgerBalanced();
  });

  it("is append-only", async () => {
    const user = await createUser({ balanceKobo: 1_000 });
    await expect(env.DB.prepare("UPDATE ledger SET amount_kobo = 5 WHERE user_id = ?").bind(user.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM ledger WHERE user_id = ?").bind(user.id).run()).rejects.toThrow(/append-only/);
    const rows = await db().select().from(ledger);
    expect(rows.some((r) => r.userId === user.id)).toBe(true);
  });

  it("guarded: in one batch with a compare-and-set, pays only when the transition happened, once", async () => {
    const user = await createUser({ balanceKobo: 0 });
    const orderId = crypto.randomUUID();
    await db().insert(smsOrders).values({
      id: orderId, userId: user.id, provider: "Swift", countryId: "5", countryName: "USA", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 20_000, status: "waiting",
    });
    const settle = () =>
      db().batch([
        db().update(smsOrders).set({ status: "timeout" }).where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "waiting"))),
        guardedLedgerInsert(
          db(),
          { at: Date.now(), userId: user.id, key: `refund:${orderId}`, amountKobo: 20_000, kind: "refund", note: "Refund", ref: orderId },
          exists(db().select({ one: sql`1` }).from(smsOrders).where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "timeout")))),
        ),
      ]);
    const [moved] = await settle();
    const [again] = await settle();
    expect(moved.meta.changes).toBe(1);
    expect(again.meta.changes).toBe(0);
    expect(await balanceOf(user.id)).toBe(20_000);
    await expectLedgerBalanced();

    // A false guard writes nothing (the order is not 'cancelled'), even with a fresh key.
    const [skipped] = await db().batch([
      guardedLedgerInsert(
        db(),
        { at: Date.now(), userId: user.id, key: `refund:other:${orderId}`, amountKobo: 20_000, kind: "refund", note: "Refund" },
        exists(db().select({ one: sql`1` }).from(smsOrders).where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "cancelled")))),
      ),
    ]);
    expect(skipped.meta.changes).toBe(0);
    expect(await hasEntry(db(), `refund:other:${orderId}`)).toBe(false);
    expect(await balanceOf(user.id)).toBe(20_000);
  });

  it("guarded: a debit below zero still fails the balance CHECK and rolls the batch back", async () => {
    const user = await createUser({ balanceKobo: 5_000 });
    const batch = db().batch([
      guardedLedgerInsert(db(), { at: Date.now(), userId: user.id, key: `rent:${crypto.randomUUID()}`, amountKobo: -20_000, kind: "rent", note: "Rental" }, sql`1 = 1`),
    ]);
    const err = await batch.then(() => null, (e) => asInsufficientBalance(e));
    expect((err as AppError).code).toBe("INSUFFICIENT_BALANCE");
    expect(await balanceOf(user.id)).toBe(5_000);
  });
});
