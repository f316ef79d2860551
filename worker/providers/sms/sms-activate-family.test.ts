import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { grizzlySimulator, sandboxGrizzlyKey } from "../../sandbox/grizzly-simulator";
import { HEROSMS_EARLY_CANCEL_MS, heroSmsSimulator, sandboxHeroSmsKey } from "../../sandbox/herosms-simulator";
import { readActivation } from "../../sandbox/sms-activations";
import { SmsActivateProvider } from "./sms-activate";
import { SMS_ACTIVATE_PROFILES } from "./sms-activate-profiles";
import type { FetchLike } from "./types";

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
