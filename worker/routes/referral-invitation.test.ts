import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../db/tables";
import { putSetting } from "../services/kernel";
import { api, createUser, db } from "../test/helpers";

async function referralCodeOf(userId: string): Promise<string> {
  const [row] = await db().select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
  return row!.code;
}

/** Issue 28: a referral link's sign-up page says who invited the visitor and what both get, naming nobody unsafely. */
describe("GET /api/referral/:code", () => {
  it("names the referrer by first name only, with the reward, for any visitor (no token)", async () => {
    await putSetting(db(), "referral_reward_percent", { percent: 5 });
    const referrer = await createUser({ username: "adaeze okafor", email: "adaeze.private@example.com" });
    const code = await referralCodeOf(referrer.id);
    const reply = await api(`/api/referral/${code.toLowerCase()}`);
    expect(reply.status).toBe(200);
    expect(reply.data).toEqual({ code, inviter: "Adaeze", reward_percent: 5 });
    // Nothing else about the referrer is in the answer.
    expect(JSON.stringify(reply.data)).not.toMatch(/okafor|private|example\.com|0801/i);
  });

  it("never gives an e-mail or a phone number, even when the username is one", async () => {
    await putSetting(db(), "referral_reward_percent", { percent: 0 });
    const byEmail = await createUser({ username: "tunde.bakare@gmail.com" });
    const byPhone = await createUser({ username: "08031234567" });
    const first = await api(`/api/referral/${await referralCodeOf(byEmail.id)}`);
    expect(first.data).toMatchObject({ inviter: "Tunde", reward_percent: 0 });
    expect(JSON.stringify(first.data)).not.toMatch(/gmail|bakare|@/);
    const second = await api(`/api/referral/${await referralCodeOf(byPhone.id)}`);
    expect(second.data).toMatchObject({ inviter: null, reward_percent: 0 });
  });

  it("answers 404 with the sign-up form's message for an unknown code, and 400 for one too long", async () => {
    const unknown = await api("/api/referral/NOSUCHCD");
    expect(unknown.status).toBe(404);
    expect(unknown.data).toMatchObject({ message: "This referral code does not exist. Check it or leave the field empty." });
    const tooLong = await api(`/api/referral/${"A".repeat(40)}`);
    expect(tooLong.status).toBe(400);
  });
});
