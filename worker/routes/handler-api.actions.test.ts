import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKey, handler, orderIdOfActivation, pollOnce } from "../test/api-fixtures";
import { createUser } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// The SMS-Activate actions existing tools call beyond the core (issue 27): getNumbersStatus, getStatusV2, getFullSms,
// getOperators, getTopCountriesByService, getBalanceAndCashBack, answered in the shapes https://sms-activate.org/en/api2
// documents, against the sandbox upstreams through the real adapters.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function funded(balanceKobo = 1_000_000) {
  const user = await createUser({ balanceKobo });
  return { user, key: (await createKey(user, "live")).secret };
}

type Prices = Record<string, Record<string, { cost: number; count: number }>>;

describe("handler_api.php: the further SMS-Activate actions", () => {
  it("getBalanceAndCashBack: ACCESS_BALANCE like getBalance (no cashback account)", async () => {
    const { key } = await funded(1_234_567);
    expect((await handler({ api_key: key, action: "getBalanceAndCashBack" })).text).toBe("ACCESS_BALANCE:12345.67");
    expect((await handler({ api_key: "nope", action: "getBalanceAndCashBack" })).text).toBe("BAD_KEY");
  });

  it("getNumbersStatus: { service_0: count } for a country (default USA), the counts getPrices has; BAD_COUNTRY", async () => {
    const { key } = await funded();
    const usa = (await handler({ api_key: key, action: "getNumbersStatus" })).json as Record<string, number>;
    const prices = (await handler({ api_key: key, action: "getPrices", country: 187 })).json as Prices;
    expect(Object.keys(usa).length).toBeGreaterThan(0);
    for (const [service, { count }] of Object.entries(prices["187"])) expect(usa[`${service}_0`]).toBe(count);
    expect(Object.keys(usa).every((k) => /^[a-z0-9]+_0$/.test(k))).toBe(true);
    // Another country, sold by the other upstream, with the operator parameter (accepted, ignored).
    const nigeria = (await handler({ api_key: key, action: "getNumbersStatus", country: 19, operator: "any" })).json as Record<string, number>;
    const ngPrices = (await handler({ api_key: key, action: "getPrices", country: 19 })).json as Prices;
    expect(Object.keys(nigeria).sort()).toEqual(Object.keys(ngPrices["19"] ?? {}).map((s) => `${s}_0`).sort());
    expect((await handler({ api_key: key, action: "getNumbersStatus", country: 99999 })).text).toBe("BAD_COUNTRY");
  });

  it("getTopCountriesByService: { '0': { country, count, price, retail_price } }, most numbers first, at the caller's price", async () => {
    const { key } = await funded();
    const top = (await handler({ api_key: key, action: "getTopCountriesByService", service: "wa" })).json as Record<string, { country: number; count: number; price: number; retail_price: number }>;
    const rows = Object.entries(top).sort(([a], [b]) => Number(a) - Number(b)).map(([, r]) => r);
    expect(Object.keys(top)).toEqual(rows.map((_r, i) => String(i)));
    expect(rows.length).toBeGreaterThan(0);
    const prices = (await handler({ api_key: key, action: "getPrices", service: "wa" })).json as Prices;
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(["count", "country", "price", "retail_price"]);
      expect(r).toMatchObject({ count: prices[String(r.country)].wa.count, price: prices[String(r.country)].wa.cost });
      expect(r.retail_price).toBeGreaterThanOrEqual(r.price);
    }
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].count).toBeGreaterThanOrEqual(rows[i].count);
    // Without a service: every country that sells anything, its numbers across services.
    const all = Object.values((await handler({ api_key: key, action: "getTopCountriesByService", freePrice: "true" })).json as Record<string, { count: number }>);
    expect(all.length).toBeGreaterThanOrEqual(rows.length);
    expect((await handler({ api_key: key, action: "getTopCountriesByService", service: "zzzz" })).json).toEqual({});
  });

  it("getOperators: the documented empty answer (OPERATORS_NOT_FOUND: our upstreams name no operator); BAD_COUNTRY", async () => {
    const { key } = await funded();
    expect((await handler({ api_key: key, action: "getOperators", country: 187 })).json).toEqual({ status: "error", error: "OPERATORS_NOT_FOUND" });
    expect((await handler({ api_key: key, action: "getOperators" })).json).toEqual({ status: "error", error: "OPERATORS_NOT_FOUND" });
    expect((await handler({ api_key: key, action: "getOperators", country: 99999 })).text).toBe("BAD_COUNTRY");
  });

  it("getStatusV2 and getFullSms: waiting, the code, cancelled; NO_ACTIVATION for another account's or an unknown id", async () => {
    const { key } = await funded();
    const id = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "getStatusV2", id })).json).toEqual({ verificationType: 0, sms: null, call: null });
    expect((await handler({ api_key: key, action: "getFullSms", id })).text).toBe("STATUS_WAIT_CODE");

    await pollOnce(await orderIdOfActivation(id));
    const code = (await handler({ api_key: key, action: "getStatus", id })).text.split(":")[1];
    const v2 = (await handler({ api_key: key, action: "getStatusV2", id })).json as { verificationType: number; sms: { dateTime: string; code: string; text: string }; call: null };
    expect(v2).toMatchObject({ verificationType: 0, sms: { code, text: code }, call: null });
    expect(v2.sms.dateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await handler({ api_key: key, action: "getFullSms", id })).text).toBe(`FULL_SMS:${code}`);

    const cancelled = (await handler({ api_key: key, action: "getNumber", service: "sbxnosms" })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "setStatus", id: cancelled, status: 8 })).text).toBe("ACCESS_CANCEL");
    expect((await handler({ api_key: key, action: "getStatusV2", id: cancelled })).text).toBe("STATUS_CANCEL");
    expect((await handler({ api_key: key, action: "getFullSms", id: cancelled })).text).toBe("STATUS_CANCEL");

    const stranger = await funded();
    for (const action of ["getStatusV2", "getFullSms"]) {
      expect((await handler({ api_key: stranger.key, action, id })).text).toBe("NO_ACTIVATION");
      expect((await handler({ api_key: key, action, id: 999_999_999 })).text).toBe("NO_ACTIVATION");
      expect((await handler({ api_key: key, action, id: "abc" })).text).toBe("WRONG_ACTIVATION_ID");
    }
  });

  it("a test key's catalogue answers come from the sandbox account, like its other actions", async () => {
    const owner = await createUser({ balanceKobo: 0 });
    const key = (await createKey(owner, "test")).secret;
    expect((await handler({ api_key: key, action: "getBalanceAndCashBack" })).text).toBe("ACCESS_BALANCE:0.00");
    const usa = (await handler({ api_key: key, action: "getNumbersStatus", country: 187 })).json as Record<string, number>;
    expect(usa.sbxnosms_0).toBeGreaterThan(0);
  });
});
