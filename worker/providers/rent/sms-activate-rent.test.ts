import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { heroSmsSimulator, sandboxHeroSmsKey } from "../../sandbox/herosms-simulator";
import { readHeroRental, writeHeroRental } from "../../sandbox/herosms-rent";
import continueRent from "../sms/fixtures/sms-activate-rent-continueRentNumber.json?raw";
import continueDie from "../sms/fixtures/sms-activate-rent-continueRentNumber-RENT_DIE.json?raw";
import continuePrice from "../sms/fixtures/sms-activate-rent-getContinueRentPrice.json?raw";
import rentNumber from "../sms/fixtures/sms-activate-rent-getRentNumber.json?raw";
import rentNoBalance from "../sms/fixtures/sms-activate-rent-getRentNumber-NO_BALANCE.json?raw";
import rentNoNumbers from "../sms/fixtures/sms-activate-rent-getRentNumber-NO_NUMBERS.json?raw";
import rentServices from "../sms/fixtures/sms-activate-rent-getRentServicesAndCountries.json?raw";
import rentStatus from "../sms/fixtures/sms-activate-rent-getRentStatus.json?raw";
import rentWait from "../sms/fixtures/sms-activate-rent-getRentStatus-STATUS_WAIT_CODE.json?raw";
import setStatusOk from "../sms/fixtures/sms-activate-rent-setRentStatus.json?raw";
import setStatusCant from "../sms/fixtures/sms-activate-rent-setRentStatus-CANT_CANCEL.json?raw";
import { SMS_ACTIVATE_PROFILES } from "../sms/sms-activate-profiles";
import type { FetchLike } from "../upstream-http";
import { SmsActivateRentProvider } from "./sms-activate-rent";
import { RentProviderError } from "./types";

// Issue 49: the SMS-Activate rent protocol at HeroSMS, against the protocol's documented replies (fixtures) and against
// the HeroSMS simulator, which is written from the same documents.

function scripted(byAction: Record<string, string>) {
  const seen: URL[] = [];
  const provider = new SmsActivateRentProvider({
    baseUrl: "https://hero-sms.test",
    key: "k",
    timeoutMs: 200,
    fetch: (req) => {
      const url = new URL(req.url);
      seen.push(url);
      return new Response(byAction[url.searchParams.get("action") ?? ""] ?? "BAD_ACTION", { headers: { "content-type": "application/json" } });
    },
  });
  return { provider, seen };
}

function simulated() {
  const seen: URL[] = [];
  const fetch: FetchLike = (req) => {
    seen.push(new URL(req.url));
    return heroSmsSimulator.fetch(req, env);
  };
  return { provider: new SmsActivateRentProvider({ profile: SMS_ACTIVATE_PROFILES.herosms, baseUrl: "https://hero-sms.test", key: sandboxHeroSmsKey(env), fetch }), seen };
}

async function failure(p: Promise<unknown>): Promise<RentProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RentProviderError);
  return err as RentProviderError;
}

const usaDay = { countryId: "5", unit: "day" as const, period: 1 };

describe("SMS-Activate rent protocol: the documented replies", () => {
  it("prices the whole number ('full') for rent_time hours in SMS-Activate's country numbering, in dollars", async () => {
    const { provider, seen } = scripted({ getRentServicesAndCountries: rentServices });
    expect(await provider.limits(usaDay)).toEqual([{ countryId: "5", count: 20, cost: 42.93, currency: "USD" }]);
    expect(Object.fromEntries(seen[0].searchParams)).toEqual({ api_key: "k", action: "getRentServicesAndCountries", rent_time: "24", country: "187" });
    expect(seen[0].pathname).toBe("/stubs/handler_api.php");
  });

  it("rents with service=full and reads the phone; NO_NUMBERS is no stock, NO_BALANCE our account", async () => {
    const ok = scripted({ getRentNumber: rentNumber });
    expect(await ok.provider.getNumber({ countryId: "1", unit: "hour", period: 4 })).toEqual({ upstreamId: "1049", number: "79959707564" });
    expect(Object.fromEntries(ok.seen[0].searchParams)).toMatchObject({ action: "getRentNumber", service: "full", rent_time: "4", country: "0" });
    expect((await failure(scripted({ getRentNumber: rentNoNumbers }).provider.getNumber(usaDay))).kind).toBe("no_stock");
    expect((await failure(scripted({ getRentNumber: rentNoBalance }).provider.getNumber(usaDay))).kind).toBe("account");
    expect(await scripted({ getRentServicesAndCountries: rentNoNumbers }).provider.limits(usaDay)).toEqual([]);
  });

  it("never asks for a rental the protocol cannot make: under 4 hours, or a country outside its table", async () => {
    const { provider, seen } = scripted({ getRentServicesAndCountries: rentServices });
    expect(await provider.limits({ countryId: "5", unit: "hour", period: 2 })).toEqual([]);
    expect(await provider.limits({ countryId: "999", unit: "day", period: 1 })).toEqual([]);
    expect(seen).toHaveLength(0);
    expect((await failure(provider.getNumber({ countryId: "5", unit: "hour", period: 1 }))).kind).toBe("no_stock");
  });

  it("reads every message of getRentStatus (codes found in the text), and none while STATUS_WAIT_CODE", async () => {
    const messages = await scripted({ getRentStatus: rentStatus }).provider.getAllSms("1049");
    expect(messages.map((m) => [m.sender, m.code])).toEqual([
      ["WhatsApp", "8362"],
      ["WhatsApp", "3580"],
    ]);
    expect(messages[0].receivedAt).toBe(Date.parse("2025-08-22T08:54:25+00:00"));
    expect(new Set(messages.map((m) => m.fingerprint)).size).toBe(2);
    expect(await scripted({ getRentStatus: rentWait }).provider.getAllSms("1049")).toEqual([]);
  });

  it("cancels with status 2 and finishes with status 1; CANT_CANCEL is a refusal", async () => {
    const ok = scripted({ setRentStatus: setStatusOk });
    await ok.provider.setStatus("1049", "cancel");
    await ok.provider.setStatus("1049", "close");
    expect(ok.seen.map((u) => u.searchParams.get("status"))).toEqual(["2", "1"]);
    expect((await failure(scripted({ setRentStatus: setStatusCant }).provider.setStatus("1049", "cancel"))).kind).toBe("refused");
  });

  it("prices and extends by rent_time hours; RENT_DIE (over upstream) is a refusal, a bad key our account", async () => {
    const { provider, seen } = scripted({ getContinueRentPriceNumber: continuePrice, continueRentNumber: continueRent });
    expect(await provider.extension.price("1049", 24)).toEqual({ amount: 100, currency: "USD" });
    await provider.extension.extend("1049", 24);
    expect(seen.map((u) => [u.searchParams.get("action"), u.searchParams.get("id"), u.searchParams.get("rent_time")])).toEqual([
      ["getContinueRentPriceNumber", "1049", "24"],
      ["continueRentNumber", "1049", "24"],
    ]);
    expect((await failure(scripted({ continueRentNumber: continueDie }).provider.extension.extend("1049", 4))).kind).toBe("refused");
    expect((await failure(scripted({ getContinueRentPriceNumber: "BAD_KEY" }).provider.extension.price("1049", 4))).kind).toBe("account");
  });

  it("an unreadable reply is a bad reply, never an answer", async () => {
    expect((await failure(scripted({ getRentNumber: "<html>oops</html>" }).provider.getNumber(usaDay))).kind).toBe("bad_reply");
    expect((await failure(scripted({ getRentStatus: '{"status":"success","values":{"0":{"no":"text"}}}' }).provider.getAllSms("1"))).kind).toBe("bad_reply");
    expect((await failure(scripted({ getRentNumber: '{"status":"error","message":"SOMETHING_NEW"}' }).provider.getNumber(usaDay))).kind).toBe("bad_reply");
  });
});

describe("HeroSMS rent simulator (written from the protocol's documents)", () => {
  it("rents, receives messages, extends (charged, end moved) and finishes a number", async () => {
    const { provider } = simulated();
    const [limit] = await provider.limits(usaDay);
    expect(limit).toMatchObject({ countryId: "5", currency: "USD" });
    const rented = await provider.getNumber(usaDay);
    expect(rented.number).toMatch(/^1\d{10}$/);
    const before = (await readHeroRental(env, rented.upstreamId))!;
    expect(before.endsAt - before.createdAt).toBe(24 * 3_600_000);
    await writeHeroRental(env, { ...before, firstSmsAt: Date.now() + 60_000 });
    expect(await provider.getAllSms(rented.upstreamId)).toEqual([]);
    // The first message arrives (the simulator's delay runs from firstSmsAt).
    await writeHeroRental(env, { ...before, firstSmsAt: Date.now() - 1000 });
    const [first] = await provider.getAllSms(rented.upstreamId);
    expect(first.code).toMatch(/^\d{6}$/);

    const price = await provider.extension.price(rented.upstreamId, 168);
    expect(price.amount).toBeGreaterThan(0);
    await provider.extension.extend(rented.upstreamId, 168);
    expect((await readHeroRental(env, rented.upstreamId))!.endsAt).toBe(before.endsAt + 168 * 3_600_000);
    await expect(provider.extension.price(rented.upstreamId, 2)).rejects.toMatchObject({ kind: "refused" });

    // A message arrived: the number can no longer be cancelled, only finished; finished, it cannot be extended.
    expect((await failure(provider.setStatus(rented.upstreamId, "cancel"))).kind).toBe("refused");
    await provider.setStatus(rented.upstreamId, "close");
    await provider.setStatus(rented.upstreamId, "close");
    expect((await failure(provider.extension.extend(rented.upstreamId, 4))).upstreamCode).toBe("RENT_DIE");
  });

  it("cancels an unused rental early (refunded to our account) and refuses shorter than 4 hours", async () => {
    const { provider } = simulated();
    const before = await provider.balance();
    const rented = await provider.getNumber({ countryId: "12", unit: "hour", period: 4 });
    expect((await provider.balance()).amount).toBeLessThan(before.amount);
    // No message yet (the tests' sandbox delivers at once unless told otherwise).
    await writeHeroRental(env, { ...(await readHeroRental(env, rented.upstreamId))!, firstSmsAt: Date.now() + 60_000 });
    await provider.setStatus(rented.upstreamId, "cancel");
    expect((await provider.balance()).amount).toBeCloseTo(before.amount, 2);
    expect(await provider.limits({ countryId: "12", unit: "hour", period: 3 })).toEqual([]);
  });

  it("refuses what the documents refuse: a wrong key, an unknown rental, another service than the whole number", async () => {
    const wrongKey = new SmsActivateRentProvider({ baseUrl: "https://hero-sms.test", key: "nope", fetch: (req) => heroSmsSimulator.fetch(req, env) });
    expect((await failure(wrongKey.getNumber(usaDay))).kind).toBe("account");
    const { provider } = simulated();
    expect((await failure(provider.getAllSms("424242"))).upstreamCode).toBe("INVALID_PHONE");
    const direct = await heroSmsSimulator.fetch(
      new Request(`https://hero-sms.test/stubs/handler_api.php?api_key=${sandboxHeroSmsKey(env)}&action=getRentNumber&service=wa&rent_time=24&country=187`, { headers: { "user-agent": "t" } }),
      env,
    );
    expect(await direct.json()).toEqual({ status: "error", message: "BAD_SERVICE" });
  });
});
