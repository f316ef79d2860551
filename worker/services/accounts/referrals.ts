import { and, eq, ne, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { ledger, users } from "../../db/tables";
import { getSetting } from "../kernel";

/**
 * The referral reward: referral_reward_percent of a referred customer's FIRST confirmed deposit, paid to the referrer
 * once (ledger key referral:<referredUserId>). The statement goes into the same D1 batch as the deposit credit and
 * BEFORE it, so "first" is decided atomically: it inserts only while the customer has no 'fund' row yet. A replayed
 * webhook therefore pays nothing again (the fund row exists and the key is taken), and a later change of the percentage
 * never turns a second deposit into a "first" one. No referrer, no row: the INSERT ... SELECT selects nothing.
 */
export async function referralRewardStatement(db: Db, deposit: { userId: string; amountKobo: number; paymentId: string }) {
  const { percent } = await getSetting(db, "referral_reward_percent");
  const rewardKobo = Math.floor((deposit.amountKobo * percent) / 100);
  if (rewardKobo < 1) return null;
  const referrer = alias(users, "referrer");
  const priorDeposits = db
    .select({ one: sql`1` })
    .from(ledger)
    .where(and(eq(ledger.userId, users.id), eq(ledger.kind, "fund")));
  // users.referred_by holds the referrer's user id (set at signup from the referral code).
  const statement = db
    .insert(ledger)
    .select(
      db
        // drizzle's INSERT ... SELECT wants every column in table order; NULL lets SQLite assign the id.
        .select({
          id: sql<number>`NULL`.as("id"),
          userId: sql<string>`${referrer.id}`.as("user_id"),
          key: sql<string>`'referral:' || ${users.id}`.as("key"),
          amountKobo: sql<number>`${rewardKobo}`.as("amount_kobo"),
          kind: sql<"referral">`'referral'`.as("kind"),
          note: sql<string>`'Referral bonus deposit from ' || ${users.username}`.as("note"),
          ref: sql<string>`${deposit.paymentId}`.as("ref"),
          createdAt: sql<number>`${Date.now()}`.as("created_at"),
        })
        .from(users)
        .innerJoin(referrer, and(eq(referrer.id, users.referredBy), ne(referrer.id, users.id)))
        .where(and(eq(users.id, deposit.userId), notExists(priorDeposits))),
    )
    .onConflictDoNothing({ target: ledger.key });
  // Wrapped in an object: the statement is a thenable, and returning it bare from an async function would run it here.
  return { statement, rewardKobo };
}
