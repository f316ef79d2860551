import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedSmsProvider } from "../test/scripted-sms-provider";
import { SmsProviderError } from "../providers/sms/types";
import { smsFault } from "../providers/sms/types";
import { createKey, handler, orderIdOfActivation, pollOnce } from "../test/api-fixtures";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders, routeToPrimariesOnly } from "../test/sms-fixtures";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { putSetting } from "../services/kernel";

// /stubs/handler_api.php: every action's success and error words, against the sandbox upstreams through the real
// adapters (the SMS-Activate simulator answers as DaisySMS does), on the same services as the web.

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

async function funded(balanceKobo = 1_000_000) {
  const user = await createUser({ balanceKobo });
  const key = await createKey(user, "live");
  return { user, key: key.secret };
}

describe("handler_api.php: authentication and actions", () => {
  it("BAD_KEY without a key, with a malformed or unknown key; BAD_ACTION for an unknown action", async () => {
    expect((await handler({ action: "getBalance" })).text).toBe("BAD_KEY");
    expect((await handler({ api_key: "nope", action: "getBalance" })).text).toBe("BAD_KEY");
    expect((await handler({ api_key: `sk_live_${"x".repeat(32)}`, action: "getBalance" })).text).toBe("BAD_KEY");
    const { key } = await funded();
    const bad = await handler({ api_key: key, action: "doSomething" });
    expect(bad).toMatchObject({ status: 200, text: "BAD_ACTION" });
    expect((await handler({ api_key: key })).text).toBe("BAD_ACTION");
  });

  it("getBalance: ACCESS_BALANCE in naira with two decimals, by GET or by POST form", async () => {
    const { key } = await funded(1_234_567);
    expect((await handler({ api_key: key, action: "getBalance" })).text).toBe("ACCESS_BALANCE:12345.67");
    const form = await api("/stubs/handler_api.php", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ api_key: key, action: "getBalance" }).toString(),
    });
    expect(form.data).toBe("ACCESS_BALANCE:12345.67");
    // POST with the parameters in the query string (how several client libraries send them)
    expect((await api(`/stubs/handler_api.php?api_key=${key}&action=getBalance`, { method: "POST" })).data).toBe("ACCESS_BALANCE:12345.67");
  });

  it("getNumber: ACCESS_NUMBER:id:number, then STATUS_WAIT_CODE, STATUS_OK:code, ACCESS_ACTIVATION; money once", async () => {
    const { user, key } = await funded();
    const bought = await handler({ api_key: key, action: "getNumber", service: "wa", country: 187 });
    const match = /^ACCESS_NUMBER:(\d+):(\d{10,15})$/.exec(bought.text);
    expect(match).not.toBeNull();
    const id = match![1];
    const orderId = await orderIdOfActivation(id);
    const price = 1_000_000 - (await balanceOf(user.id));
    expect(price).toBeGreaterThan(0);
    expect((await handler({ api_key: key, action: "getStatus", id })).text).toBe("STATUS_WAIT_CODE");
    await pollOnce(orderId);
    const status = await handler({ api_key: key, action: "getStatus", id });
    expect(status.text).toMatch(/^STATUS_OK:\d{6}$/);
    // The same order in the web's view: the customer's orders table and status read.
    const web = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(web.data).toMatchObject({ status: "completed", state: "used", sms_code: status.text.split(":")[1] });
    expect((await handler({ api_key: key, action: "setStatus", id, status: 6 })).text).toBe("ACCESS_ACTIVATION");
    expect(await balanceOf(user.id)).toBe(1_000_000 - price);
    await expectLedgerBalanced();
  });

  it("getNumber errors: BAD_SERVICE, BAD_COUNTRY, NO_BALANCE, MAX_PRICE_EXCEEDED (max_price in naira), NO_NUMBERS", async () => {
    const { key } = await funded();
    expect((await handler({ api_key: key, action: "getNumber" })).text).toBe("BAD_SERVICE");
    expect((await handler({ api_key: key, action: "getNumber", service: "zzzz" })).text).toBe("BAD_SERVICE");
    expect((await handler({ api_key: key, action: "getNumber", service: "wa", country: 99999 })).text).toBe("BAD_COUNTRY");
    expect((await handler({ api_key: key, action: "getNumber", service: "wa", max_price: 1 })).text).toBe("MAX_PRICE_EXCEEDED");
    const poor = await createUser({ balanceKobo: 100 });
    const poorKey = (await createKey(poor)).secret;
    expect((await handler({ api_key: poorKey, action: "getNumber", service: "wa" })).text).toBe("NO_BALANCE");
    expect(await balanceOf(poor.id)).toBe(100);

    const empty = new ScriptedSmsProvider();
    empty.buyResult = smsFault("no_numbers", "test");
    await resetSmsTestState({ provider: empty });
    expect((await handler({ api_key: key, action: "getNumber", service: "wa" })).text).toBe("NO_NUMBERS");
    await expectLedgerBalanced();
  });

  it("getNumberV2: the JSON shape with activationId, phoneNumber, activationCost (naira), countryCode", async () => {
    const { user, key } = await funded();
    const res = await handler({ api_key: key, action: "getNumberV2", service: "tg", country: 187 });
    expect(res.json).toMatchObject({ countryCode: "187", activationOperator: "any", canGetAnotherSms: true, currency: "NGN" });
    const body = res.json as { activationId: number; phoneNumber: string; activationCost: number; activationTime: string };
    expect(typeof body.activationId).toBe("number");
    expect(body.phoneNumber).toMatch(/^\d{10,15}$/);
    expect(body.activationCost).toBe((1_000_000 - (await balanceOf(user.id))) / 100);
    expect(body.activationTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("getStatus / setStatus on unknown ids: NO_ACTIVATION; malformed: WRONG_ACTIVATION_ID; bad status: BAD_STATUS", async () => {
    const { key } = await funded();
    expect((await handler({ api_key: key, action: "getStatus", id: 999_999_999 })).text).toBe("NO_ACTIVATION");
    expect((await handler({ api_key: key, action: "getStatus", id: "abc" })).text).toBe("WRONG_ACTIVATION_ID");
    expect((await handler({ api_key: key, action: "setStatus", id: 999_999_999, status: 8 })).text).toBe("NO_ACTIVATION");
    const id = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "setStatus", id, status: 42 })).text).toBe("BAD_STATUS");
    expect((await handler({ api_key: key, action: "setStatus", id, status: 1 })).text).toBe("ACCESS_READY");
    // 6 before any code: nothing to complete
    expect((await handler({ api_key: key, action: "setStatus", id, status: 6 })).text).toBe("BAD_STATUS");
    // 3 before any code: nothing to repeat
    expect((await handler({ api_key: key, action: "setStatus", id, status: 3 })).text).toBe("BAD_STATUS");
  });

  it("setStatus 8: ACCESS_CANCEL and one refund; again ACCESS_CANCEL_ALREADY; after a code BAD_STATUS; STATUS_CANCEL", async () => {
    const { user, key } = await funded();
    // The sandbox's "No-SMS" service never delivers (codes come at once in tests otherwise, and a code wins a cancel).
    const id = (await handler({ api_key: key, action: "getNumber", service: "sbxnosms" })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "setStatus", id, status: 8 })).text).toBe("ACCESS_CANCEL");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect((await handler({ api_key: key, action: "setStatus", id, status: 8 })).text).toBe("ACCESS_CANCEL_ALREADY");
    expect((await handler({ api_key: key, action: "getStatus", id })).text).toBe("STATUS_CANCEL");
    expect(await balanceOf(user.id)).toBe(1_000_000);

    const used = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    await pollOnce(await orderIdOfActivation(used));
    expect((await handler({ api_key: key, action: "setStatus", id: used, status: 8 })).text).toBe("BAD_STATUS");
    await expectLedgerBalanced();
  });

  it("setStatus 8 refused upstream (too early): EARLY_CANCEL_DENIED and the money stays held", async () => {
    const { user, key } = await funded();
    const fake = new ScriptedSmsProvider();
    fake.cancelResult = { outcome: "refused", reason: "EARLY_CANCEL_DENIED", final: false };
    await resetSmsTestState({ provider: fake });
    const id = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    const held = await balanceOf(user.id);
    expect((await handler({ api_key: key, action: "setStatus", id, status: 8 })).text).toBe("EARLY_CANCEL_DENIED");
    expect(await balanceOf(user.id)).toBe(held);
  });

  it("getNumber when the upstream fails: ERROR_SQL (the protocol's 'our side failed'), nothing charged, no order left open", async () => {
    const { user, key } = await funded();
    const fake = new ScriptedSmsProvider();
    fake.buyResult = new SmsProviderError("unavailable", "This provider is temporarily unavailable.");
    await resetSmsTestState({ provider: fake });
    expect((await handler({ api_key: key, action: "getNumber", service: "wa" })).text).toBe("ERROR_SQL");
    expect(fake.calls).toContain("buy");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await handler({ api_key: key, action: "getActiveActivations" })).toMatchObject({ json: { status: "error", error: "NO_ACTIVATIONS" } });
    await expectLedgerBalanced();
  });

  it("setStatus 3: ACCESS_RETRY_GET, STATUS_WAIT_RETRY:<last code> until the next one, then STATUS_OK:<new code>", async () => {
    const { key } = await funded();
    const id = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    const orderId = await orderIdOfActivation(id);
    await pollOnce(orderId);
    const first = (await handler({ api_key: key, action: "getStatus", id })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "setStatus", id, status: 3 })).text).toBe("ACCESS_RETRY_GET");
    expect((await handler({ api_key: key, action: "getStatus", id })).text).toBe(`STATUS_WAIT_RETRY:${first}`);
    await pollOnce(orderId); // SANDBOX_SMS_DELAY_MS is 0 in tests: the next code is there on the next poll
    const second = (await handler({ api_key: key, action: "getStatus", id })).text;
    expect(second).toMatch(/^STATUS_OK:\d{6}$/);
    expect(second).not.toBe(`STATUS_OK:${first}`);
    const active = (await handler({ api_key: key, action: "getActiveActivations" })).json as { activeActivations: { smsCode: string[] }[] };
    expect(active.activeActivations[0].smsCode).toEqual([first, second.split(":")[1]]);
  });

  it("getPrices: {country: {service: {cost (naira), count}}}; filters by country and service", async () => {
    const { key } = await funded();
    const usa = (await handler({ api_key: key, action: "getPrices", country: 187 })).json as Record<string, Record<string, { cost: number; count: number }>>;
    expect(Object.keys(usa)).toEqual(["187"]);
    expect(usa["187"].wa.cost).toBeGreaterThan(0);
    expect(Number.isInteger(usa["187"].wa.count)).toBe(true);
    const one = (await handler({ api_key: key, action: "getPrices", country: 187, service: "tg" })).json;
    expect(Object.keys((one as Record<string, object>)["187"])).toEqual(["tg"]);
    // Dynamic sells the other countries under their protocol codes (19 Nigeria)
    const ng = (await handler({ api_key: key, action: "getPrices", country: 19 })).json as Record<string, Record<string, unknown>>;
    expect(ng["19"].wa).toBeDefined();
    expect((await handler({ api_key: key, action: "getPrices", country: 99999 })).text).toBe("BAD_COUNTRY");
    // the price getPrices shows is what getNumber charges
    const user = await createUser({ balanceKobo: 1_000_000 });
    const k2 = (await createKey(user)).secret;
    await handler({ api_key: k2, action: "getNumber", service: "wa", country: 187 });
    expect((1_000_000 - (await balanceOf(user.id))) / 100).toBe(usa["187"].wa.cost);
  });

  it("getCountries and getServicesList: the protocol's JSON shapes", async () => {
    const { key } = await funded();
    const countries = (await handler({ api_key: key, action: "getCountries" })).json as Record<string, Record<string, unknown>>;
    expect(countries["187"]).toMatchObject({ id: 187, eng: "USA", visible: 1, retry: 1 });
    expect(countries["19"]).toMatchObject({ id: 19, eng: "Nigeria", visible: 1 });
    const all = (await handler({ api_key: key, action: "getServicesList" })).json as { status: string; services: { code: string; name: string }[] };
    expect(all.status).toBe("success");
    expect(all.services).toContainEqual({ code: "wa", name: "WhatsApp" });
    const usa = (await handler({ api_key: key, action: "getServicesList", country: 187 })).json as typeof all;
    expect(usa.services.map((s) => s.code)).toContain("tg");
    expect((await handler({ api_key: key, action: "getServicesList", country: 99999 })).text).toBe("BAD_COUNTRY");
  });

  it("getActiveActivations: running orders only; NO_ACTIVATIONS when none; web orders get an id too", async () => {
    const { user, key } = await funded();
    expect((await handler({ api_key: key, action: "getActiveActivations" })).json).toEqual({ status: "error", error: "NO_ACTIVATIONS" });
    const web = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa" } });
    expect(web.status).toBe(200);
    const id = (await handler({ api_key: key, action: "getNumber", service: "sbxnosms" })).text.split(":")[1];
    const list = (await handler({ api_key: key, action: "getActiveActivations" })).json as { status: string; activeActivations: Record<string, unknown>[] };
    expect(list.status).toBe("success");
    expect(list.activeActivations).toHaveLength(2);
    expect(list.activeActivations[0]).toMatchObject({ activationId: id, serviceCode: "sbxnosms", countryCode: "187", activationStatus: "1", smsCode: null });
    await handler({ api_key: key, action: "setStatus", id, status: 8 });
    const after = (await handler({ api_key: key, action: "getActiveActivations" })).json as typeof list;
    expect(after.activeActivations).toHaveLength(1);
    expect(after.activeActivations[0].serviceCode).toBe("wa");
  });

  it("rows in api_activations are the orders' own: the order table has one row per purchase", async () => {
    const { user, key } = await funded();
    await handler({ api_key: key, action: "getNumber", service: "wa" });
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_orders WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });
});

// The SMS-Activate actions existing tools call beyond the core (issue 27): getNumbersStatus, getStatusV2, getFullSms,
// getOperators, getTopCountriesByService, getBalanceAndCashBack, answered in the shapes https://sms-activate.org/en/api2
// documents.

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

  it("getOperators: the documented empty answer where no upstream of the route documents an operator; BAD_COUNTRY", async () => {
    const { key } = await funded();
    expect((await handler({ api_key: key, action: "getOperators", country: 187 })).json).toEqual({ status: "error", error: "OPERATORS_NOT_FOUND" });
    expect((await handler({ api_key: key, action: "getOperators" })).json).toEqual({ status: "error", error: "OPERATORS_NOT_FOUND" });
    expect((await handler({ api_key: key, action: "getOperators", country: 99999 })).text).toBe("BAD_COUNTRY");
  });

  it("getOperators (issue 49): where HeroSMS serves the route, the protocol's operators of Russia, Ukraine and Kazakhstan", async () => {
    const { key } = await funded();
    await putSetting(db(), "sms_routes", SETTING_DEFAULTS.sms_routes);
    try {
      expect((await handler({ api_key: key, action: "getOperators", country: 0 })).json).toEqual({ status: "success", countryOperators: { "0": ["any", "megafon", "mts", "beeline", "tele2", "rostelecom"] } });
      const all = (await handler({ api_key: key, action: "getOperators" })).json as { countryOperators: Record<string, string[]> };
      expect(Object.keys(all.countryOperators).sort()).toEqual(["0", "1", "2"]);
    } finally {
      await routeToPrimariesOnly();
    }
  });

  it("getNumber with carriers and areas (issue 49): DaisySMS's own parameters, the surcharge in the price, NO_NUMBERS before any debit when it cannot be honoured", async () => {
    const { user, key } = await funded();
    const plainPrice = (await handler({ api_key: key, action: "getPrices", country: 187, service: "wa" })).json as Record<string, Record<string, { cost: number }>>;
    const plain = plainPrice["187"]!.wa!.cost;
    // max_price at the plain price refuses the raised one.
    expect((await handler({ api_key: key, action: "getNumber", service: "wa", country: 187, carriers: "tmo", areas: "212", max_price: plain })).text).toBe("MAX_PRICE_EXCEEDED");
    const bought = await handler({ api_key: key, action: "getNumber", service: "wa", country: 187, carriers: "tmo", areas: "212,718" });
    expect(bought.text).toMatch(/^ACCESS_NUMBER:\d+:1212\d{7}$/);
    const charged = 1_000_000 - (await balanceOf(user.id));
    expect(charged).toBeGreaterThan(Math.round(plain * 100));
    // A carrier DaisySMS does not name, an area code that is not one, an operator nothing on the route documents.
    for (const extra of [{ carriers: "sprint" }, { areas: "112" }, { operator: "mts" }] as Record<string, string>[]) {
      expect((await handler({ api_key: key, action: "getNumber", service: "wa", country: 187, ...extra })).text, JSON.stringify(extra)).toBe("NO_NUMBERS");
    }
    expect(1_000_000 - (await balanceOf(user.id))).toBe(charged);
    const v2 = (await handler({ api_key: key, action: "getNumberV2", service: "wa", country: 187, carriers: "vz" })).json as { phoneNumber: string; activationOperator: string };
    expect(v2.activationOperator).toBe("any");
    await pollOnce(await orderIdOfActivation(bought.text.split(":")[1]!));
  });

  it("getStatusV2 and getFullSms: waiting, the code, cancelled; NO_ACTIVATION for another account's or an unknown id", async () => {
    const { key } = await funded();
    const id = (await handler({ api_key: key, action: "getNumber", service: "wa" })).text.split(":")[1];
    expect((await handler({ api_key: key, action: "getStatusV2", id })).json).toEqual({ verificationType: 0, sms: null, call: null });
    expect((await handler({ api_key: key, action: "getFullSms", id })).text).toBe("STATUS_WAIT_CODE");

    await pollOnce(await orderIdOfActivation(id));
    const code = (await handler({ api_key: key, action: "getStatus", id })).text.split(":")[1];
    const v2 = (await handler({ api_key: key, action: "getStatusV2", id })).json as { verificationType: number; sms: { dateTime: string; code: string; text: string }; call: null };
    // Issue 28: `text` and FULL_SMS carry the whole SMS where the upstream gave it (DaisySMS's X-Text), the code inside.
    expect(v2).toMatchObject({ verificationType: 0, sms: { code, text: `Your WhatsApp verification code is ${code}. Don't share this code with anyone.` }, call: null });
    expect(v2.sms.dateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await handler({ api_key: key, action: "getFullSms", id })).text).toBe(`FULL_SMS:Your WhatsApp verification code is ${code}. Don't share this code with anyone.`);

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
