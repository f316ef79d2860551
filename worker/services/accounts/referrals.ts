import type { SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { getSetting, referralRewardInsert, statement } from "../kernel";

/**
 * The referral reward: referral_reward_percent of a referred customer's FIRST confirmed deposit, paid to the referrer
 * once (ledger key referral:<referredUserId>). The statement (services/kernel referralRewardInsert) goes into the
 * deposit credit's batch right after the deposit's own ledger row, guarded on the credit's move: it inserts only while
 * that row is the customer's one 'fund' row, so "first" is decided atomically. A replayed webhook therefore pays
 * nothing again (the key is taken), and a later change of the percentage never turns a second deposit into a "first"
 * one. No referrer, no row: the INSERT ... SELECT selects nothing.
 */
export async function referralRewardStatement(db: Db, deposit: { userId: string; amountKobo: number; paymentId: string; depositKey: string; at: number }, madeIt: SQL) {
  const { percent } = await getSetting(db, "referral_reward_percent");
  const rewardKobo = Math.floor((deposit.amountKobo * percent) / 100);
  if (rewardKobo < 1) return null;
  return statement(referralRewardInsert(db, { referredUserId: deposit.userId, rewardKobo, paymentId: deposit.paymentId, depositKey: deposit.depositKey, at: deposit.at }, madeIt));
}
