import { describe, expect, it } from "vitest";
import { SmsManRentProvider } from "../rent/sms-man-rent";
import { RentProviderError } from "../rent/types";
import daisyBalance from "./fixtures/daisysms-getBalance.txt?raw";
import daisyNumber from "./fixtures/daisysms-getNumber.txt?raw";
import daisyBadKey from "./fixtures/daisysms-getNumber-BAD_KEY.txt?raw";
import daisyBadService from "./fixtures/daisysms-getNumber-BAD_SERVICE.txt?raw";
import daisyMaxPrice from "./fixtures/daisysms-getNumber-MAX_PRICE_EXCEEDED.txt?raw";
import daisyNoMoney from "./fixtures/daisysms-getNumber-NO_MONEY.txt?raw";
import daisyNoNumbers from "./fixtures/daisysms-getNumber-NO_NUMBERS.txt?raw";
import daisyTooMany from "./fixtures/daisysms-getNumber-TOO_MANY_ACTIVE_RENTALS.txt?raw";
import daisyPrices from "./fixtures/daisysms-getPrices.json?raw";
import daisyCancelled from "./fixtures/daisysms-getStatus-cancel.txt?raw";
import daisyNoActivation from "./fixtures/daisysms-getStatus-no-activation.txt?raw";
import daisyOk from "./fixtures/daisysms-getStatus-ok.txt?raw";
import daisyWait from "./fixtures/daisysms-getStatus-wait.txt?raw";
import daisyDone from "./fixtures/daisysms-setStatus-6.txt?raw";
import daisyCancel from "./fixtures/daisysms-setStatus-8-cancel.txt?raw";
import daisyReady from "./fixtures/daisysms-setStatus-8-ready.txt?raw";
import manWrongToken from "./fixtures/smsman-error-wrong-token.json?raw";
import manWrongTokenObject from "./fixtures/smsman-error-wrong-token-object.json?raw";
import manBalance from "./fixtures/smsman-get-balance.json?raw";
import manNumber from "./fixtures/smsman-get-number.json?raw";
import manPricesByApp from "./fixtures/smsman-get-prices-by-application.json?raw";
import manPricesList from "./fixtures/smsman-get-prices-list.json?raw";
import manPricesNested from "./fixtures/smsman-get-prices-nested.json?raw";
import manSms from "./fixtures/smsman-get-sms.json?raw";
import manSmsWait from "./fixtures/smsman-get-sms-wait.json?raw";
import manSetStatus from "./fixtures/smsman-set-status.json?raw";
import rentBalance from "./fixtures/smsman-rent-get-balance.json?raw";
import rentNumber from "./fixtures/smsman-rent-get-number.json?raw";
import rentLimits from "./fixtures/smsman-rent-limits.json?raw";
import { SmsActivateProvider } from "./sms-activate";
import { SmsManProvider } from "./sms-man";
import { SmsProviderError } from "./types";

// The providers' documented example replies (fixtures/, sources in fixtures/SOURCES.md), each fed to the real adapter.

/** An adapter whose upstream answers every call with one stored reply. */
const daisy = (body: string, headers: Record<string, string> = {}) =>
  new SmsActivateProvider({ baseUrl: "https://daisysms.test", key: "k", fetch: () => new Response(body, { headers }) });
const smsMan = (body: string, byMethod: Record<string, string> = {}) =>
  new SmsManProvider({
    baseUrl: "https://api.sms-man.test",
    key: "k",
    fetch: (req) => new Response(byMethod[new URL(req.url).pathname.split("/").pop()!] ?? body, { headers: { "content-type": "application/json" } }),
  });
const rent = (body: string) =>
  new SmsManRentProvider({ baseUrl: "https://api.sms-man.test", token: "k", fetch: async () => new Response(body, { headers: { "content-type": "application/json" } }) });

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsProviderError);
  return (err as SmsProviderError).kind;
}

describe("DaisySMS golden replies (https://daisysms.com/docs/api)", () => {
  it("getBalance: dollars", async () => {
    expect(await daisy(daisyBalance).balance()).toEqual({ amount: 50.3, currency: "USD" });
  });

  it("getNumber: the activation id, the number and the X-Price header", async () => {
    expect(await daisy(daisyNumber, { "X-Price": "0.50" }).buy({ countryId: "5", serviceId: "wa" })).toEqual({
      upstreamId: "999999",
      number: "13476711222",
      cost: { amount: 0.5, currency: "USD" },
    });
  });

  it("getNumber's documented error words each map to their fault", async () => {
    const buy = (body: string) => kindOf(daisy(body).buy({ countryId: "5", serviceId: "wa" }));
    expect(await buy(daisyMaxPrice)).toBe("price_exceeded");
    expect(await buy(daisyNoNumbers)).toBe("no_numbers");
    expect(await buy(daisyTooMany)).toBe("too_many_active");
    expect(await buy(daisyNoMoney)).toBe("no_balance");
    expect(await buy(daisyBadKey)).toBe("bad_key");
    expect(await buy(daisyBadService)).toBe("bad_service");
  });

  it("getPrices: dollars per service, stock, names; an out-of-stock service is listed with count 0", async () => {
    const offers = await daisy(daisyPrices).services("5");
    expect(offers).toEqual([
      { countryId: "5", serviceId: "wa", name: "WhatsApp", cost: 0.5, currency: "USD", count: 1342 },
      { countryId: "5", serviceId: "tg", name: "Telegram", cost: 0.45, currency: "USD", count: 431 },
      { countryId: "5", serviceId: "ds", name: "Discord", cost: 0.3, currency: "USD", count: 0 },
    ]);
  });

  it("getPrices keyed service -> country (the verification list's shape) gives the same offers", async () => {
    const flipped = JSON.stringify({ wa: { "187": { cost: "0.50", count: 1342, name: "WhatsApp" } }, tg: { "187": { cost: 0.45, count: "431" } } });
    expect(await daisy(flipped).services("5")).toEqual([
      { countryId: "5", serviceId: "wa", name: "WhatsApp", cost: 0.5, currency: "USD", count: 1342 },
      { countryId: "5", serviceId: "tg", name: "Telegram", cost: 0.45, currency: "USD", count: 431 },
    ]);
    expect(await kindOf(daisy(JSON.stringify({ "12": { wa: { cost: "1", count: 1 } } })).services("5"))).toBe("bad_reply");
  });

  it("getStatus: code, waiting, cancelled, unknown", async () => {
    expect(await daisy(daisyOk).poll("1")).toEqual({ state: "code", code: "12345" });
    expect(await daisy(daisyWait).poll("1")).toEqual({ state: "waiting" });
    expect(await daisy(daisyCancelled).poll("1")).toEqual({ state: "cancelled" });
    expect(await kindOf(daisy(daisyNoActivation).poll("1"))).toBe("not_found");
  });

  it("setStatus 8: ACCESS_CANCEL releases; ACCESS_READY is a final refusal (has its code or no longer exists)", async () => {
    expect(await daisy(daisyCancel).cancel("1")).toEqual({ outcome: "released" });
    expect(await daisy(daisyReady).cancel("1")).toEqual({ outcome: "refused", reason: "ACCESS_READY", final: true });
    await expect(daisy(daisyDone).finish("1")).resolves.toBeUndefined();
  });
});

describe("sms-man golden replies (https://sms-man.com/api, https://sms-man.com/api/rent)", () => {
  it("get-balance: in the account's currency (roubles unless configured), never assumed dollars", async () => {
    expect(await smsMan(manBalance).balance()).toEqual({ amount: 799.7, currency: "RUB" });
  });

  it("wrong_token in both documented error_msg forms is a bad key", async () => {
    expect(await kindOf(smsMan(manWrongToken).countries())).toBe("bad_key");
    expect(await kindOf(smsMan(manWrongTokenObject).balance())).toBe("bad_key");
  });

  it("get-number, get-sms (code and wait_sms), set-status", async () => {
    expect(await smsMan(manNumber).buy({ countryId: "1", serviceId: "1" })).toEqual({ upstreamId: "1", number: "79002415539" });
    expect(await smsMan(manSms).poll("1")).toEqual({ state: "code", code: "54821" });
    expect(await smsMan(manSmsWait).poll("1")).toEqual({ state: "waiting" });
    expect(await smsMan(manSetStatus).cancel("1")).toEqual({ outcome: "released" });
  });

  it("get-prices in all three shapes gives the same offers for country 1 (roubles)", async () => {
    const apps = JSON.stringify({ "1": { id: "1", name: "Vkontakte" }, "3": { id: "3", name: "Google" } });
    for (const body of [manPricesNested, manPricesByApp, manPricesList]) {
      const offers = await smsMan(body, { applications: apps }).services("1");
      expect(offers).toEqual([
        { countryId: "1", serviceId: "1", name: "Vkontakte", cost: 15, currency: "RUB", count: 6455 },
        { countryId: "1", serviceId: "3", name: "Google", cost: 50, currency: "RUB", count: 124 },
      ]);
    }
  });

  it("rent limits: the asked country's cost, read in roubles (the sample's 151.68 is not dollars)", async () => {
    expect(await rent(rentLimits).limits({ countryId: "1", unit: "hour", period: 4 })).toEqual([
      { countryId: "1", count: 127, cost: 151.68, currency: "RUB" },
    ]);
    expect(await rent(rentNumber).getNumber({ countryId: "1", unit: "hour", period: 4 })).toEqual({ upstreamId: "1", number: "79002415539" });
    expect(await rent(rentBalance).balance()).toEqual({ amount: 799.7, currency: "RUB" });
    const token = await rent(manWrongTokenObject)
      .balance()
      .catch((e: unknown) => e);
    expect(token).toBeInstanceOf(RentProviderError);
    expect((token as RentProviderError).kind).toBe("account");
  });
});
