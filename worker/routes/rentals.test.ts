import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { NO_RENT_STOCK_MESSAGE } from "../../schema/constants";
import { clearSettingsCache, postEntry, putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";

/** Rent Number over HTTP, against the sandbox rent simulator (USA = country 5: the simulator's cost factor 1.0). */

const rented: string[] = [];

beforeAll(async () => {
  await putSetting(db(), "exchange_rate", { rate: 1600 });
  await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
  clearSettingsCache();
});

// Durable Object alarms outlive a test: every watcher a test started is silenced before the next.
afterEach(async () => {
  for (const id of rented.splice(0)) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_obj, state) => state.storage.deleteAlarm());
  }
});

async function rent(token: string, body: Record<string, unknown>) {
  const res = await api("/api/rent-number", { token, json: body });
  if (res.status === 201) rented.push(res.data.rental.id);
  return res;
}

const ledgerRows = async (userId: string) =>
  (await env.DB.prepare("SELECT key, amount_kobo, kind, note, ref FROM ledger WHERE user_id = ? AND kind <> 'admin' ORDER BY id").bind(userId).all()).results;

describe("POST /api/rent/countries (stock and price)", () => {
  // cost (USD) for USA in the simulator: hour 0.12, day 0.90, week 3.50, month 9.00 per unit; × ₦1600 × (1 + 0.4).
  const cases: [string, number, number, number][] = [
    ["hour", 1, 12, 268.8],
    ["hour", 24, 288, 6451.2],
    ["day", 1, 90, 2016],
    ["day", 7, 630, 14112],
    ["week", 1, 350, 7840],
    ["week", 4, 1400, 31360],
    ["month", 1, 900, 20160],
    ["month", 12, 10800, 241920],
  ];
  it.each(cases)("prices %s × %i from the upstream cost", async (duration, period, costCents, price) => {
    const user = await createUser();
    const res = await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration, period, price: 1, user_id: "someone-else" } });
    expect(res.status).toBe(200);
    expect(res.data.price).toBe(price);
    const [limit] = res.data.data.limits;
    expect(limit).toMatchObject({ country_id: "5", cost: costCents });
    expect(limit.count).toBeGreaterThan(0);
    // The spec's formula on the answered cost gives the same price: cost/100 × rate × (1 + rent_cost).
    expect(Math.round((limit.cost / 100) * 1600 * 1.4 * 100) / 100).toBe(price);
  });

  it("takes the discount tier off (Silver, 2%) and accepts a numeric country id", async () => {
    const user = await createUser();
    await postEntry(db(), { at: Date.now(), userId: user.id, key: `fund:test:${user.id}`, amountKobo: 6_000_000, kind: "fund", note: "Wallet deposit" });
    const res = await api("/api/rent/countries", { token: user.token, json: { countryId: 5, duration: "hour", period: "1" } });
    expect(res.status).toBe(200);
    expect(res.data.price).toBe(263.42); // 268.8 × 0.98 = 263.424, to the nearest kobo
  });

  it.each([
    [{ countryId: "5", duration: "year", period: 1 }, "Duration must be one of hour, day, week or month."],
    [{ countryId: "5", period: 1 }, "Duration must be one of hour, day, week or month."],
    [{ countryId: "5", duration: "hour", period: 0 }, "For hour rentals the period must be between 1 and 24."],
    [{ countryId: "5", duration: "hour", period: 25 }, "For hour rentals the period must be between 1 and 24."],
    [{ countryId: "5", duration: "day", period: 8 }, "For day rentals the period must be between 1 and 7."],
    [{ countryId: "5", duration: "week", period: 5 }, "For week rentals the period must be between 1 and 4."],
    [{ countryId: "5", duration: "month", period: 13 }, "For month rentals the period must be between 1 and 12."],
    [{ countryId: "5", duration: "day", period: 1.5 }, "The period must be a whole number."],
    [{ countryId: "5", duration: "day", period: "two" }, "The period must be a whole number."],
    [{ countryId: "", duration: "day", period: 1 }, "Please choose a country."],
  ])("refuses %j with a clear 400", async (body, message) => {
    const user = await createUser();
    const res = await api("/api/rent/countries", { token: user.token, json: body });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ code: "VALIDATION_FAILED", message, error: message });
  });

  it("names a longer unit that covers the same time for less, and only then (issue 43)", async () => {
    const user = await createUser();
    const quote = async (duration: string, period: number) =>
      (await api("/api/rent/countries", { token: user.token, json: { countryId: "5", duration, period } })).data as { price: number; cheaper?: unknown };
    // 24 hours (₦6,451.20) against 1 day (₦2,016): the day is offered.
    expect(await quote("hour", 24)).toMatchObject({ price: 6451.2, cheaper: { duration: "day", period: 1, price: 2016 } });
    // 5 days (₦10,080) against 1 week (₦7,840), the cheapest covering choice (a month is ₦20,160).
    expect(await quote("day", 5)).toMatchObject({ price: 10080, cheaper: { duration: "week", period: 1, price: 7840 } });
    // 5 hours (₦1,344) is cheaper than a day, and 1 day than a week: nothing to offer.
    expect((await quote("hour", 5)).cheaper).toBeUndefined();
    expect((await quote("day", 1)).cheaper).toBeUndefined();
    // The longest unit has nothing longer to offer.
    expect((await quote("month", 1)).cheaper).toBeUndefined();
  });

  it("answers no stock with the spec's message and no price", async () => {
    const user = await createUser();
    const res = await api("/api/rent/countries", { token: user.token, json: { countryId: "999", duration: "week", period: 2 } });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ data: { limits: [] }, price: null, in_stock: false, message: NO_RENT_STOCK_MESSAGE });
  });

  it("answers a visitor at the starter tier (issue 27); a token that is sent must be live", async () => {
    const res = await api("/api/rent/countries", { json: { countryId: "5", duration: "hour", period: 1 } });
    expect(res.status).toBe(200);
    // $0.12 × ₦1600 × (1 + 0.4 rent markup): the spec's rent formula on the limit's cost.
    expect(res.data).toMatchObject({ data: { limits: [expect.objectContaining({ country_id: "5", cost: 12 })] }, price: 268.8, in_stock: true });
    const bad = await api("/api/rent/countries", { token: "not-a-token", json: { countryId: "5", duration: "hour", period: 1 } });
    expect(bad.status).toBe(401);
  });
});

describe("GET /api/rent/country-list", () => {
  it("lists the upstream's countries", async () => {
    const user = await createUser();
    const res = await api("/api/rent/country-list", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.data).toContainEqual({ id: "5", title: "USA" });
  });
});

describe("POST /api/rent-number", () => {
  it("debits the server's price once, answers the number and records the rental in the ledger", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 1, price: 268.8 });
    expect(res.status).toBe(201);
    expect(res.data.number).toMatch(/^\d{8,15}$/);
    const rental = res.data.rental;
    expect(rental).toMatchObject({ number: res.data.number, status: "active", country: "USA", unit: "hour", period: 1, amount: 268.8, sms_count: 0, can_cancel: true });
    const hour = Date.parse(rental.expires_at) - Date.parse(rental.created_at);
    expect(hour).toBeGreaterThanOrEqual(3_600_000);
    expect(hour).toBeLessThan(3_600_000 + 60_000);
    expect(await balanceOf(user.id)).toBe(100_000 - 26_880);
    expect(await ledgerRows(user.id)).toEqual([
      { key: `rent:${rental.id}`, amount_kobo: -26_880, kind: "rent", note: "Rental: USA number, 1 hour", ref: rental.id },
    ]);
    await expectLedgerBalanced();
  });

  it("answers 409 with the new price when the server would charge more than the client showed, and charges nothing", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 1, price: 200 });
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ code: "PRICE_CHANGED", price: 268.8 });
    expect(await balanceOf(user.id)).toBe(100_000);
  });

  it("charges the server's lower price when the client showed more, and says so (issue 19)", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 1, price: "300.00" });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ price: 268.8, shown_price: 300, message: "You were charged ₦268.80, less than the ₦300.00 shown." });
    expect(res.data.rental.amount).toBe(268.8);
    expect(await balanceOf(user.id)).toBe(100_000 - 26_880);
    await expectLedgerBalanced();
  });

  it("refuses without enough balance and leaves no rental behind", async () => {
    const user = await createUser({ balanceKobo: 26_879 });
    const res = await rent(user.token, { countryId: "5", duration: "hour", period: 1 });
    expect(res.status).toBe(402);
    expect(res.data.message).toBe("Insufficient balance");
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM rentals WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(count?.n).toBe(0);
    await expectLedgerBalanced();
  });

  it("answers the spec's no-stock message and charges nothing", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const res = await rent(user.token, { countryId: "999", duration: "hour", period: 1 });
    expect(res.status).toBe(503);
    expect(res.data.message).toBe(NO_RENT_STOCK_MESSAGE);
    expect(await balanceOf(user.id)).toBe(100_000);
  });

  it("reverses the debit at once when the upstream refuses to rent", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await rent(user.token, { countryId: "998", duration: "day", period: 1 });
    expect(res.status).toBe(502);
    expect(res.data.message).toBe("The number provider is not available right now. Please try again in a few minutes.");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    // Country 998 costs $1.17 a day upstream: 1.17 × 1600 × 1.4 = ₦2,620.80.
    const rows = await ledgerRows(user.id);
    expect(rows.map((r) => [r.key, r.kind, r.amount_kobo])).toEqual([
      [`rent:${rows[0].ref}`, "rent", -262_080],
      [`rent_refund:${rows[0].ref}`, "rent_refund", 262_080],
    ]);
    const rental = await env.DB.prepare("SELECT status, number FROM rentals WHERE user_id = ?").bind(user.id).first();
    expect(rental).toEqual({ status: "failed", number: null });
    await expectLedgerBalanced();
  });
});

describe("a rental belongs to its owner", () => {
  it("answers 404 to another user for reading, ending and cancelling", async () => {
    const owner = await createUser({ balanceKobo: 100_000 });
    const other = await createUser({ balanceKobo: 100_000 });
    const { data } = await rent(owner.token, { countryId: "5", duration: "hour", period: 1 });
    const id = data.rental.id;
    for (const [path, method] of [[`/api/rentals/${id}`, "GET"], [`/api/rentals/${id}/end`, "POST"], [`/api/rentals/${id}/cancel`, "POST"]] as const) {
      const res = await api(path, { token: other.token, method, json: method === "POST" ? {} : undefined });
      expect(res.status).toBe(404);
      expect(res.data.message).toBe("Rental not found.");
    }
    const mine = await api(`/api/rentals/${id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.data.rental.status).toBe("active");
    expect(await balanceOf(other.id)).toBe(100_000);
    await expectLedgerBalanced();
  });
});

describe("GET /api/rentals/:id (the inbox)", () => {
  it("checks the upstream on demand and lists the SMS with sender, text, code and time", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const { data } = await rent(user.token, { countryId: "5", duration: "hour", period: 1 });
    // The test environment's sandbox delivers the first SMS at once (SANDBOX_SMS_DELAY_MS=0).
    const res = await api(`/api/rentals/${data.rental.id}`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.data.messages).toHaveLength(1);
    const [sms] = res.data.messages;
    expect(sms.text).toContain(sms.code);
    expect(sms.sender).toBeTruthy();
    expect(Number.isNaN(Date.parse(sms.received_at))).toBe(false);
    expect(res.data.rental).toMatchObject({ sms_count: 1, can_cancel: false });
  });
});

describe("what ending or cancelling gives back (the End confirmation reads it)", () => {
  it("says the server's refund for each way out, and ending pays back nothing, as it said", async () => {
    const user = await createUser({ balanceKobo: 100_000 });
    const { data } = await rent(user.token, { countryId: "5", duration: "hour", period: 1 });
    // Fresh, no SMS read yet: cancelling would return the full price, ending nothing.
    expect(data.rental).toMatchObject({ can_cancel: true, refund_if_cancelled: 268.8, refund_if_ended: 0 });
    // The first SMS arrives at once in the test sandbox: cancelling no longer refunds, ending still returns nothing.
    const read = await api(`/api/rentals/${data.rental.id}`, { token: user.token });
    expect(read.data.rental).toMatchObject({ can_cancel: false, refund_if_cancelled: null, refund_if_ended: 0 });
    const before = await balanceOf(user.id);
    const ended = await api(`/api/rentals/${data.rental.id}/end`, { token: user.token, json: {} });
    expect(ended.status).toBe(200);
    expect(ended.data).toMatchObject({ refunded: false, refund: 0, rental: { status: "ended", refund_if_ended: null, refund_if_cancelled: null } });
    expect(await balanceOf(user.id)).toBe(before);
    await expectLedgerBalanced();
  });
});
