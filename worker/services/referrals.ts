import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { getSetting } from "./settings";

/**
 * The referral reward: referral_reward_percent of a referred customer's FIRST confirmed deposit, paid to the referrer
 * once (ledger key referral:<referredUserId>). The statement goes into the same D1 batch as the deposit credit and
 * BEFORE it, so "first" is decided atomically: it inserts only while the customer has no 'fund' row yet. A replayed
 * webhook therefore pays nothing again (the fund row exists and the key is taken), and a later change of the percentage
 * never turns a second deposit into a "first" one.
 */
export async function referralRewardStatement(
  db: Db,
  deposit: { userId: string; amountKobo: number; paymentId: string },
) {
  const { percent } = await getSetting(db, "referral_reward_percent");
  const rewardKobo = Math.floor((deposit.amountKobo * percent) / 100);
  if (rewardKobo < 1) return null;
  // Wrapped in an object: the statement is a thenable, and returning it bare from an async function would run it here.
  // users.referred_by holds the referrer's user id (set at signup from the referral code).
  const statement = db.run(sql`
    INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at)
    SELECT r.id, 'referral:' || u.id, ${rewardKobo}, 'referral', 'Referral bonus deposit from ' || u.username, ${deposit.paymentId}, ${Date.now()}
      FROM users u
      JOIN users r ON r.id = u.referred_by AND r.id <> u.id
     WHERE u.id = ${deposit.userId}
       AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.user_id = u.id AND l.kind = 'fund')
    ON CONFLICT(key) DO NOTHING`);
  return { statement, rewardKobo };
}
