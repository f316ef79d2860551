import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { grizzlySimulator, sandboxGrizzlyKey } from "../../sandbox/grizzly-simulator";
import { HEROSMS_EARLY_CANCEL_MS, heroSmsSimulator, sandboxHeroSmsKey } from "../../sandbox/herosms-simulator";
import { readActivation } from "../../sandbox/sms-activations";
import { SmsActivateProvider } from "./sms-activate";
import { SMS_ACTIVATE_PROFILES } from "./sms-activate-profiles";
import { choiceSurchargePercent, type FetchLike, type SmsProvider } from "./types";
import { sandboxSwiftKey, smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { SmsManProvider } from "./sms-man";

// Issue 32: one adapter for the SMS-Activate protocol family, configured per upstream (a profile of documented
// differences). Each upstream against its own simulator (written from its documents) and against fakes answering
// the words its documents list.

function spying(app: { fetch: (r: Request, e: typeof env) => Response | Promise<Response> }) {
  const seen: URL[] = [];
  const fetch: FetchLike = (req) => {
    seen.push(new URL(req.url));
    return app.fetch(req, env);
  };
  return { seen, fetch };
}

const hero = (fetch: FetchLike, key = sandboxHeroSmsKey(env)) => new SmsActivateProvider({ profile: SMS_ACTIVATE_PROFILES.herosms, baseUrl: "https://hero-sms.test", key, fetch, provider: "Dynamic" });
const grizzly = (fetch: FetchLike, key = sandboxGrizzlyKey(env)) => new SmsActivateProvider({ profile: SMS_ACTIVATE_PROFILES.grizzly, baseUrl: "https://api.grizzlysms.test/stubs/handler_api.php", key, fetch });

function fake(profile: keyof typeof SMS_ACTIVATE_PROFILES, handler: (q: Record<string, string>) => Response) {
  const app = new Hono();
  app.get("/stubs/handler_api.php", (c) => handler(c.req.query()));
  return new SmsActivateProvider({ profile: SMS_ACTIVATE_PROFILES[profile], baseUrl: "https://family.test", key: "k", fetch: (req) => app.fetch(req), timeoutMs: 200 });
}

describe("SMS-Activate family adapter: HeroSMS", () => {
  it("sells our countries in SMS-Activate's numbering, in dollars, with maxPrice, and names itself", async () => {
    const { seen, fetch } = spying(heroSmsSimulator);
    const provider = hero(fetch);
    expect(provider.upstream).toBe("herosms");
    expect(provider.name).toBe("Dynamic");
    expect((await provider.countries()).find((c) => c.id === "12")).toEqual({ id: "12", title: "Nigeria" });
    const offers = await provider.services("12");
    const wa = offers.find((o) => o.serviceId === "wa")!;
    expect(wa).toMatchObject({ countryId: "12", name: "WhatsApp", currency: "USD" });
    expect(seen.at(-1)!.searchParams.get("country")).toBe("19"); // Nigeria is 19 in SMS-Activate's table
    const activation = await provider.buy({ countryId: "12", serviceId: "wa", maxCost: { amount: wa.cost, currency: "USD" } });
    const buy = seen.find((u) => u.searchParams.get("action") === "getNumber")!;
    expect(buy.searchParams.get("maxPrice")).toBe(wa.cost.toFixed(4));
    expect(buy.searchParams.has("max_price")).toBe(false);
    expect(activation.number).toMatch(/^234\d{9}$/);
    expect((await readActivation(env, activation.upstreamId))?.account).toBe("herosms");
    expect(await provider.poll(activation.upstreamId)).toEqual({ state: "code", code: expect.stringMatching(/^\d{6}$/) });
    expect(await provider.balance()).toMatchObject({ currency: "USD" });
  });

  it("a price above maxPrice is WRONG_MAX_PRICE (a price that went up), a wrong key BAD_KEY, an unsold country nothing", async () => {
    const provider = hero(spying(heroSmsSimulator).fetch);
    await expect(provider.buy({ countryId: "5", serviceId: "wa", maxCost: { amount: 0.01, currency: "USD" } })).rejects.toMatchObject({ kind: "price_exceeded" });
    await expect(provider.buy({ countryId: "5", serviceId: "wa", maxCost: { amount: 5, currency: "RUB" } })).rejects.toMatchObject({ kind: "price_exceeded" });
    await expect(hero(spying(heroSmsSimulator).fetch, "nope").balance()).rejects.toMatchObject({ kind: "bad_key" });
    expect(await provider.services("999")).toEqual([]);
    await expect(provider.buy({ countryId: "999", serviceId: "wa" })).rejects.toMatchObject({ kind: "bad_service" });
  });

  it("a cancel in the first two minutes is refused for now (EARLY_CANCEL_DENIED), allowed after", async () => {
    const provider = hero(spying(heroSmsSimulator).fetch);
    const activation = await provider.buy({ countryId: "5", serviceId: "sbxnosms" });
    expect(await provider.cancel(activation.upstreamId)).toEqual({ outcome: "refused", reason: "EARLY_CANCEL_DENIED", final: false });
    const row = (await readActivation(env, activation.upstreamId))!;
    await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?")
      .bind(JSON.stringify({ ...row, createdAt: Date.now() - HEROSMS_EARLY_CANCEL_MS - 1000 }), `sms-activation:${row.id}`)
      .run();
    expect(await provider.cancel(activation.upstreamId)).toEqual({ outcome: "released" });
  });

  it("getActiveActivations answers every open activation of the account in one call, with codes", async () => {
    const { seen, fetch } = spying(heroSmsSimulator);
    const provider = hero(fetch);
    const a = await provider.buy({ countryId: "5", serviceId: "tg" });
    const b = await provider.buy({ countryId: "5", serviceId: "sbxnosms" });
    // The code of `a` arrives (the simulator's delay is measured from createdAt).
    const row = (await readActivation(env, a.upstreamId))!;
    await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?").bind(JSON.stringify({ ...row, createdAt: Date.now() - 60_000 }), `sms-activation:${row.id}`).run();
    const before = seen.length;
    const active = (await provider.activeActivations())!;
    expect(seen.length - before).toBe(1);
    expect(active.find((x) => x.upstreamId === a.upstreamId)?.result).toEqual({ state: "code", code: expect.stringMatching(/^\d{6}$/) });
    expect(active.find((x) => x.upstreamId === b.upstreamId)?.result).toEqual({ state: "waiting" });
  });

  it("reads its documented words and the batch call's shapes from fakes", async () => {
    await expect(fake("herosms", () => new Response("WRONG_COUNTRY")).buy({ countryId: "5", serviceId: "wa" })).rejects.toMatchObject({ kind: "bad_service" });
    await expect(fake("herosms", () => new Response("NO_KEY")).balance()).rejects.toMatchObject({ kind: "bad_key" });
    expect(await fake("herosms", () => Response.json({ status: "error", error: "NO_ACTIVATIONS" })).activeActivations()).toEqual([]);
    expect(
      await fake("herosms", () => Response.json({ status: "success", activeActivations: [{ activationId: 7, smsCode: ["111", "222"], activationStatus: "2" }, { activationId: "8", smsCode: null, activationStatus: "8" }] })).activeActivations(),
    ).toEqual([
      { upstreamId: "7", result: { state: "code", code: "222" } },
      { upstreamId: "8", result: { state: "cancelled" } },
    ]);
    await expect(fake("herosms", () => new Response("<html>")).activeActivations()).rejects.toMatchObject({ kind: "bad_reply" });
  });
});

describe("SMS-Activate family adapter: Grizzly SMS", () => {
  it("always sends our country (the documents default to Russia), maxPrice in its currency, and reads its words", async () => {
    const { seen, fetch } = spying(grizzlySimulator);
    const provider = grizzly(fetch);
    expect(provider.upstream).toBe("grizzly");
    const offers = await provider.services("5");
    const tg = offers.find((o) => o.serviceId === "tg")!;
    const activation = await provider.buy({ countryId: "5", serviceId: "tg", maxCost: { amount: tg.cost, currency: "USD" } });
    const buy = seen.find((u) => u.searchParams.get("action") === "getNumber")!;
    expect(buy.searchParams.get("country")).toBe("187");
    expect(buy.searchParams.get("maxPrice")).toBe(tg.cost.toFixed(4));
    expect(activation.number).toMatch(/^15\d{9}$/);
    // No batch status call is documented: the adapter says so instead of guessing.
    expect(await provider.activeActivations()).toBeNull();
    // The code came: a cancel is refused (BAD_STATUS); a number still waiting is released at once (no early-cancel rule).
    expect(await provider.cancel(activation.upstreamId)).toMatchObject({ outcome: "refused" });
    const waiting = await provider.buy({ countryId: "5", serviceId: "sbxnosms" });
    expect(await provider.cancel(waiting.upstreamId)).toEqual({ outcome: "released" });
    await expect(grizzly(fetch, "region-blocked").buy({ countryId: "5", serviceId: "tg" })).rejects.toMatchObject({ kind: "bad_key" });
    await expect(grizzly(fetch, "wrong").balance()).rejects.toMatchObject({ kind: "bad_key" });
  });

  it("its currency is a setting: a rouble account reads roubles and refuses a dollar ceiling", async () => {
    const provider = new SmsActivateProvider({ profile: SMS_ACTIVATE_PROFILES.grizzly, baseUrl: "https://g.test", key: sandboxGrizzlyKey(env), currency: "RUB", fetch: (r) => grizzlySimulator.fetch(r, env) });
    expect((await provider.services("5"))[0]!.currency).toBe("RUB");
    expect((await provider.balance()).currency).toBe("RUB");
    await expect(provider.buy({ countryId: "5", serviceId: "tg", maxCost: { amount: 1, currency: "USD" } })).rejects.toMatchObject({ kind: "price_exceeded" });
  });
});

// Issue 49: which number, in each upstream's documented parameters.
describe("number choice: DaisySMS carriers and areas, the protocol's operator", () => {
  const daisy = (fetch: FetchLike) => new SmsActivateProvider({ baseUrl: "https://daisysms.test", key: sandboxSwiftKey(env), fetch });

  it("DaisySMS: carriers=tmo and areas=212 in its own parameters, a number in that area, charged 20% more per choice", async () => {
    const { seen, fetch } = spying(smsActivateSimulator);
    const provider = daisy(fetch);
    expect(provider.numberChoices?.carriers?.values).toEqual({ tmo: "T-Mobile", vz: "Verizon", att: "AT&T" });
    const wa = (await provider.services("5")).find((o) => o.serviceId === "wa")!;
    const maxCost = { amount: wa.cost * 1.4, currency: "USD" as const };
    const activation = await provider.buy({ countryId: "5", serviceId: "wa", maxCost, choice: { carriers: ["tmo"], areas: ["212", "718"] } });
    const buy = seen.find((u) => u.searchParams.get("action") === "getNumber")!;
    expect(buy.searchParams.get("carriers")).toBe("tmo");
    expect(buy.searchParams.get("areas")).toBe("212,718");
    expect(buy.searchParams.has("operator")).toBe(false);
    expect(activation.number).toMatch(/^1212\d{7}$/);
    expect(activation.cost).toEqual({ amount: Math.round(wa.cost * 1.4 * 100) / 100, currency: "USD" });
    // The surcharge is the upstream's: the plain price as the ceiling is refused (MAX_PRICE_EXCEEDED).
    await expect(provider.buy({ countryId: "5", serviceId: "wa", maxCost: { amount: wa.cost, currency: "USD" }, choice: { areas: ["212"] } })).rejects.toMatchObject({ kind: "price_exceeded" });
  });

  it("DaisySMS: an area code or a carrier no number matches is NO_NUMBERS (the page's word), before any charge", async () => {
    const provider = daisy(spying(smsActivateSimulator).fetch);
    const balance = await provider.balance();
    await expect(provider.buy({ countryId: "5", serviceId: "wa", choice: { areas: ["999"] } })).rejects.toMatchObject({ kind: "no_numbers" });
    await expect(provider.buy({ countryId: "5", serviceId: "wa", choice: { carriers: ["vz"], areas: ["786"] } })).rejects.toMatchObject({ kind: "no_numbers" });
    expect(await provider.balance()).toEqual(balance);
    // A carrier the page does not name is refused by the adapter itself: it never reaches the upstream.
    const { seen, fetch } = spying(smsActivateSimulator);
    await expect(daisy(fetch).buy({ countryId: "5", serviceId: "wa", choice: { carriers: ["sprint"] } })).rejects.toMatchObject({ kind: "rejected" });
    expect(seen).toHaveLength(0);
    const direct = await smsActivateSimulator.fetch(new Request(`https://d.test/stubs/handler_api.php?api_key=${sandboxSwiftKey(env)}&action=getNumber&service=wa&carriers=sprint`, { headers: { "user-agent": "t" } }), env);
    expect(await direct.text()).toBe("NO_NUMBERS");
  });

  it("HeroSMS: operator=mts for Russia in the protocol's parameter; an operator the country does not list is NO_NUMBERS", async () => {
    const { seen, fetch } = spying(heroSmsSimulator);
    const provider = hero(fetch);
    expect(provider.numberChoices?.operator?.byCountry["1"]).toContain("mts");
    expect(provider.numberChoices?.carriers).toBeUndefined();
    await provider.buy({ countryId: "1", serviceId: "tg", choice: { operator: "mts" } });
    expect(seen.find((u) => u.searchParams.get("action") === "getNumber")!.searchParams.get("operator")).toBe("mts");
    await expect(provider.buy({ countryId: "5", serviceId: "tg", choice: { operator: "mts" } })).rejects.toMatchObject({ kind: "rejected" });
    await expect(provider.buy({ countryId: "5", serviceId: "tg", choice: { areas: ["212"] } })).rejects.toMatchObject({ kind: "rejected" });
    const direct = await heroSmsSimulator.fetch(new Request(`https://h.test/stubs/handler_api.php?api_key=${sandboxHeroSmsKey(env)}&action=getNumber&service=tg&country=0&operator=verizon`, { headers: { "user-agent": "t" } }), env);
    expect(await direct.text()).toBe("NO_NUMBERS");
  });

  it("Grizzly SMS and sms-man document no choice: none is offered, and one is refused rather than dropped", async () => {
    const provider = grizzly(spying(grizzlySimulator).fetch);
    expect(provider.numberChoices).toBeUndefined();
    await expect(provider.buy({ countryId: "1", serviceId: "tg", choice: { operator: "mts" } })).rejects.toMatchObject({ kind: "rejected" });
    const smsMan: SmsProvider = new SmsManProvider({ baseUrl: "https://sms-man.test", key: "k", fetch: () => Response.json({}) });
    expect(smsMan.numberChoices).toBeUndefined();
    await expect(smsMan.buy({ countryId: "5", serviceId: "1", choice: { carriers: ["tmo"] } })).rejects.toMatchObject({ kind: "rejected" });
    // An empty choice is no choice.
    expect(choiceSurchargePercent(undefined, "5", { carriers: [], areas: [] })).toBe(0);
    expect(choiceSurchargePercent(SMS_ACTIVATE_PROFILES.daisysms.numberChoices!, "5", { carriers: ["tmo"], areas: ["212"] })).toBe(40);
    expect(choiceSurchargePercent(SMS_ACTIVATE_PROFILES.daisysms.numberChoices!, "12", { carriers: ["tmo"] })).toBeNull();
  });
});
