import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_TIERS } from "../../../schema/settings";
import { tierFor } from "../../../schema/tiers";
import { api, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { pollerOf, resetSmsTestState } from "../../test/sms-fixtures";
import { postEntry } from "./ledger";

// Discount tiers follow confirmed deposits (schema/settings.ts; docs/decisions/003: a tier applies from its threshold).

describe("tier boundaries", () => {
  const name = (naira: number) => tierFor(DEFAULT_TIERS, naira).text;

  it("applies each tier from exactly its threshold, and not a kobo before", () => {
    expect(name(0)).toBe("Bronze");
    expect(name(59_999.99)).toBe("Bronze");
    expect(name(60_000)).toBe("Silver");
    expect(name(60_000.01)).toBe("Silver");
    expect(name(249_999.99)).toBe("Silver");
    expect(name(250_000)).toBe("Gold");
    expect(name(549_999.99)).toBe("Gold");
    expect(name(550_000)).toBe("Platinum");
    expect(name(999_999.99)).toBe("Platinum");
    expect(name(1_000_000)).toBe("Diamond");
    expect(name(1_999_999.99)).toBe("Diamond");
    expect(name(2_000_000)).toBe("Elite");
    expect(name(50_000_000)).toBe("Elite");
  });
});

describe("the discount in a charged price", () => {
  beforeEach(() => resetSmsTestState());

  async function customerWithDeposits(kobo: number) {
    const user = await createUser();
    await postEntry(db(), { at: Date.now(), userId: user.id, key: `fund:squad:tier-${user.id}`, amountKobo: kobo, kind: "fund", note: "Wallet deposit (card)" });
    return user;
  }

  async function buyWhatsApp(token: string) {
    const res = await api("/api/sms/get-number", { token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(res.status).toBe(200);
    const orderId = res.data.phone.request_id as string;
    await pollerOf(orderId).stop();
    const debit = await env.DB.prepare("SELECT amount_kobo FROM ledger WHERE key = ?").bind(`buy:${orderId}`).first<{ amount_kobo: number }>();
    return { price: res.data.price as number, debitKobo: -(debit?.amount_kobo ?? 0) };
  }

  it("charges the Bronze price at ₦59,999.99 deposited and 2% less at exactly ₦60,000, in the level, the list and the debit", async () => {
    // WhatsApp in the USA costs the sandbox $0.50: 0.5 × 1600 = ₦800 base, × 1.5 (low_cost) = ₦1,200.
    const bronze = await customerWithDeposits(5_999_999);
    const silver = await customerWithDeposits(6_000_000);

    expect((await api("/api/level", { token: bronze.token })).data[0]).toMatchObject({ total_deposited: 59_999.99, tier: { text: "Bronze" } });
    expect((await api("/api/level", { token: silver.token })).data[0]).toMatchObject({ total_deposited: 60_000, tier: { text: "Silver" } });

    expect((await api("/api/sms/price?id=5&provider=Swift", { token: bronze.token })).data.wa.price).toBe(1200);
    expect((await api("/api/sms/price?id=5&provider=Swift", { token: silver.token })).data.wa.price).toBe(1176);

    expect(await buyWhatsApp(bronze.token)).toEqual({ price: 1200, debitKobo: 120_000 });
    expect(await buyWhatsApp(silver.token)).toEqual({ price: 1176, debitKobo: 117_600 });
    await expectLedgerBalanced();
  });

  it("does not count a referral bonus or a manual credit as a deposit", async () => {
    const user = await createUser();
    await postEntry(db(), { at: Date.now(), userId: user.id, key: `admin:tier-${user.id}`, amountKobo: 10_000_000, kind: "admin", note: "Manual deposit adjustment: test" });
    await postEntry(db(), { at: Date.now(), userId: user.id, key: `referral:tier-${user.id}`, amountKobo: 10_000_000, kind: "referral", note: "Referral bonus deposit" });
    expect((await api("/api/level", { token: user.token })).data[0]).toMatchObject({ total_deposited: 0, tier: { text: "Bronze" } });
  });
});
