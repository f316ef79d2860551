import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { smsActivateSimulator } from "../../sandbox/sms-activate-simulator";
import { REPLY_WORDS, SmsActivateProvider } from "./sms-activate";
import { SMS_ACTIVATE_PROFILES } from "./sms-activate-profiles";
import { SmsProviderError, type FetchLike } from "./types";

// The 'Swift' adapter against the SMS-Activate-compatible protocol (as DaisySMS speaks it): the sandbox simulator for
// the happy path, purpose-built fakes for each documented error word, garbage and silence.

const simulator = (key = env.SWIFT_API_KEY!) =>
  new SmsActivateProvider({ baseUrl: "https://daisysms.test/stubs/handler_api.php", key, fetch: (req) => smsActivateSimulator.fetch(req, env) });

function fake(handler: (query: Record<string, string>) => Response | Promise<Response>, timeoutMs = 200) {
  const app = new Hono();
  app.get("/stubs/handler_api.php", (c) => handler(c.req.query()));
  return new SmsActivateProvider({ baseUrl: "https://daisysms.test", key: "k", fetch: (req) => app.fetch(req), timeoutMs });
}
const text = (body: string, init?: ResponseInit) => new Response(body, init);

async function fault(promise: Promise<unknown>): Promise<SmsProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsProviderError);
  return err as SmsProviderError;
}

describe("SMS-Activate adapter (Swift)", () => {
  it("offers USA as country 5 and prices its services in USD with stock", async () => {
    const provider = simulator();
    expect(await provider.countries()).toEqual([{ id: "5", title: "USA" }]);
    const services = await provider.services("5");
    expect(services.length).toBeGreaterThanOrEqual(30);
    expect(services.find((s) => s.serviceId === "wa")).toMatchObject({ name: "WhatsApp", cost: 0.5, currency: "USD", countryId: "5" });
    expect(await provider.services("12")).toEqual([]);
  });

  it("buys with max_price and the upstream's USA id, reads X-Price, then the code", async () => {
    const seen: URL[] = [];
    const spy: FetchLike = (req) => {
      seen.push(new URL(req.url));
      return smsActivateSimulator.fetch(req, env);
    };
    const provider = new SmsActivateProvider({ baseUrl: "https://daisysms.test/stubs/handler_api.php", key: env.SWIFT_API_KEY!, fetch: spy });
    const activation = await provider.buy({ countryId: "5", serviceId: "wa", maxCost: { amount: 0.5, currency: "USD" } });
    expect(activation).toMatchObject({ number: expect.stringMatching(/^1\d{10}$/), cost: { amount: 0.5, currency: "USD" } });
    const buyUrl = seen.find((u) => u.searchParams.get("action") === "getNumber")!;
    expect(buyUrl.searchParams.get("max_price")).toBe("0.5000");
    expect(buyUrl.searchParams.get("country")).toBe("187");
    expect(buyUrl.searchParams.get("api_key")).toBe(env.SWIFT_API_KEY);
    expect(seen.length).toBeGreaterThan(0);
    const polled = await provider.poll(activation.upstreamId);
    expect(polled).toEqual({ state: "code", code: expect.stringMatching(/^\d{6}$/), text: expect.stringContaining("WhatsApp verification code is") });
    // Issue 28: the whole SMS, asked for with text=1 and read from X-Text, carries the code it came with.
    expect(polled.state === "code" && polled.text?.includes(polled.code)).toBe(true);
    expect(seen.find((u) => u.searchParams.get("action") === "getStatus")?.searchParams.get("text")).toBe("1");
    await expect(provider.buy({ countryId: "12", serviceId: "wa" })).rejects.toMatchObject({ kind: "bad_service" });
  });

  it("keeps the whole SMS from X-Text (plain or percent-encoded), and the code alone when a host sends no header", async () => {
    const withText = (header: string) => fake(() => text("STATUS_OK:482913", { headers: { "X-Text": header } }));
    expect(await withText("Your Uber code is 482913").poll("1")).toEqual({ state: "code", code: "482913", text: "Your Uber code is 482913" });
    expect(await withText(encodeURIComponent("Kóds 482913: ne le partagez pas")).poll("1")).toEqual({ state: "code", code: "482913", text: "Kóds 482913: ne le partagez pas" });
    expect(await fake(() => text("STATUS_OK:482913")).poll("1")).toEqual({ state: "code", code: "482913" });
    // A header beside a wait word is not a message.
    expect(await fake(() => text("STATUS_WAIT_CODE", { headers: { "X-Text": "early" } })).poll("1")).toEqual({ state: "waiting" });
  });

  it("reads the wait states and STATUS_CANCEL", async () => {
    for (const reply of ["STATUS_WAIT_CODE", "STATUS_WAIT_RESEND"]) {
      expect(await fake(() => text(reply)).poll("1")).toEqual({ state: "waiting" });
    }
    expect(await fake(() => text("STATUS_WAIT_RETRY:123456")).poll("1")).toEqual({ state: "code", code: "123456" });
    expect(await fake(() => text("STATUS_CANCEL")).poll("1")).toEqual({ state: "cancelled" });
  });

  it("releases an unused number; a refused cancel is reported, not thrown", async () => {
    const provider = simulator();
    const noSms = await provider.buy({ countryId: "5", serviceId: "sbxnosms" });
    expect(await provider.cancel(noSms.upstreamId)).toEqual({ outcome: "released" });
    expect(await fake(() => text("EARLY_CANCEL_DENIED")).cancel("1")).toEqual({ outcome: "refused", reason: "EARLY_CANCEL_DENIED", final: false });
    // Once the code came the simulator, like the upstream, keeps the number and answers ACCESS_READY.
    const delivered = await provider.buy({ countryId: "5", serviceId: "wa" });
    expect(await provider.cancel(delivered.upstreamId)).toEqual({ outcome: "refused", reason: "ACCESS_READY", final: true });
    expect(await provider.cancel("404404")).toEqual({ outcome: "refused", reason: "ACCESS_READY", final: true });
  });

  it("reads every documented error word as its own fault, never as an unexpected reply (with or without a :detail)", async () => {
    for (const [word, kind] of Object.entries(REPLY_WORDS)) {
      expect((await fault(fake(() => text(word)).buy({ countryId: "5", serviceId: "wa" }))).kind, word).toBe(kind);
      expect((await fault(fake(() => text(`${word}:60`)).poll("1"))).kind, word).toBe(kind);
      expect((await fault(fake(() => text(word)).requestAnotherCode("1"))).kind, word).toBe(kind);
    }
    expect((await fault(fake(() => text("<html>nginx</html>")).buy({ countryId: "5", serviceId: "wa" }))).kind).toBe("bad_reply");
  });

  it("maps NO_NUMBERS, NO_BALANCE, BAD_KEY and MAX_PRICE_EXCEEDED to clear customer messages", async () => {
    const noNumbers = await fault(fake(() => text("NO_NUMBERS")).buy({ countryId: "5", serviceId: "wa" }));
    expect(noNumbers.kind).toBe("no_numbers");
    expect(noNumbers.message).toMatch(/No numbers available/);
    const noBalance = await fault(fake(() => text("NO_BALANCE")).buy({ countryId: "5", serviceId: "wa" }));
    expect(noBalance.kind).toBe("no_balance");
    expect(noBalance.message).toMatch(/temporarily unavailable/);
    const badKey = await fault(simulator("").services("5"));
    expect(badKey.kind).toBe("bad_key");
    const pricey = await fault(simulator().buy({ countryId: "5", serviceId: "wa", maxCost: { amount: 0.2, currency: "USD" } }));
    expect(pricey.kind).toBe("price_exceeded");
    expect((await fault(fake(() => text("NO_ACTIVATION")).poll("1"))).kind).toBe("not_found");
  });

  it("maps every documented getNumber word (NO_MONEY, TOO_MANY_ACTIVE_RENTALS, ...) to its fault, none to a bad reply", async () => {
    const expected: Record<string, string> = {
      NO_NUMBERS: "no_numbers",
      NO_BALANCE: "no_balance",
      NO_MONEY: "no_balance",
      TOO_MANY_ACTIVE_RENTALS: "too_many_active",
      BAD_SERVICE: "bad_service",
      BAD_KEY: "bad_key",
      MAX_PRICE_EXCEEDED: "price_exceeded",
      "WRONG_MAX_PRICE:0.55": "price_exceeded",
      "BANNED:2026-11-22 15:00:00": "bad_key",
      // As https://sms-activate.ae/en/api2 writes them: "BANNED:'YYYY-m-d H-i-s'" and "ACCOUNT_INACTIVE - the account
      // is not active" (the answer our own protocol gives for a frozen or closed sub-account, decision 077).
      "BANNED:'2026-11-22 15-00-00'": "bad_key",
      ACCOUNT_INACTIVE: "bad_key",
      BAD_ACTION: "rejected",
      ERROR_SQL: "unavailable",
    };
    for (const [word, kind] of Object.entries(expected)) {
      const err = await fault(fake(() => text(word)).buy({ countryId: "5", serviceId: "wa" }));
      expect([word, err.kind]).toEqual([word, kind]);
      expect(err.message).not.toContain(word.split(":")[0]);
    }
    expect((await fault(fake(() => text("NO_MONEY")).buy({ countryId: "5", serviceId: "wa" }))).transient).toBe(false);
  });

  it("refuses to send a max price in another currency as dollars", async () => {
    const err = await fault(simulator().buy({ countryId: "5", serviceId: "wa", maxCost: { amount: 45, currency: "RUB" } }));
    expect(err.kind).toBe("price_exceeded");
  });

  it("reads our balance in dollars", async () => {
    expect(await simulator().balance()).toEqual({ amount: expect.any(Number), currency: "USD" });
    expect((await fault(simulator("wrong").balance())).kind).toBe("bad_key");
  });

  it("the simulator is strict: a request without a User-Agent is refused like Cloudflare does", async () => {
    const res = await smsActivateSimulator.fetch(new Request(`https://x.test/stubs/handler_api.php?api_key=${env.SWIFT_API_KEY}&action=getBalance`), env);
    expect(res.status).toBe(403);
  });

  it("treats HTML and garbage as a bad reply, a 5xx as transient", async () => {
    const html = await fault(fake(() => text("<!DOCTYPE html><title>Cloudflare</title>")).poll("1"));
    expect(html.kind).toBe("bad_reply");
    expect(html.message).not.toContain("html");
    const garbagePrices = await fault(fake(() => text("{not json")).services("5"));
    expect(garbagePrices.kind).toBe("bad_reply");
    const weirdNumber = await fault(fake(() => text("ACCESS_NUMBER:1:not-a-number")).buy({ countryId: "5", serviceId: "wa" }));
    expect(weirdNumber.kind).toBe("bad_reply");
    const down = await fault(fake(() => text("Bad gateway", { status: 502 })).poll("1"));
    expect(down.transient).toBe(true);
  });

  it("gives up on a silent upstream after its time limit", async () => {
    const silent = new SmsActivateProvider({
      baseUrl: "https://daisysms.test",
      key: "k",
      timeoutMs: 50,
      fetch: (req) => new Promise<Response>((_, reject) => req.signal.addEventListener("abort", () => reject(req.signal.reason))),
    });
    const err = await fault(silent.buy({ countryId: "5", serviceId: "wa" }));
    expect(err.kind).toBe("timeout");
  });

  describe("getExtraActivation: the same number again (issue 32)", () => {
    it("is offered only by a profile that documents getExtraActivation (Grizzly documents none: no method, no button)", () => {
      expect(fake(() => new Response("")).reactivate).toBeTypeOf("function");
      const grizzly = new SmsActivateProvider({ baseUrl: "https://grizzly.test", key: "k", profile: SMS_ACTIVATE_PROFILES.grizzly, fetch: () => Promise.resolve(new Response("")) });
      expect(grizzly.reactivate).toBeUndefined();
    });
    it("takes a past number that received its code again, with max_price and X-Price, as a new activation", async () => {
      const provider = simulator();
      const first = await provider.buy({ countryId: "5", serviceId: "wa" });
      // The sandbox delivers after SANDBOX_SMS_DELAY_MS; the test env's delay is 0, so the code is there.
      expect(await provider.poll(first.upstreamId)).toMatchObject({ state: "code" });
      const again = await provider.reactivate!(first.upstreamId, { maxCost: { amount: 0.5, currency: "USD" } });
      expect(again.number).toBe(first.number);
      expect(again.upstreamId).not.toBe(first.upstreamId);
      expect(again.cost).toEqual({ amount: 0.5, currency: "USD" });
      expect(again.readyAt).toBeUndefined();
      await expect(provider.reactivate!(first.upstreamId, { maxCost: { amount: 0.1, currency: "USD" } })).rejects.toMatchObject({ kind: "price_exceeded" });
    });

    it("reads ASLEEP:<id>:<phone>:<unix time> as a number that takes SMS from then, and refusals as not_found", async () => {
      const seen: Record<string, string>[] = [];
      const asleep = fake((q) => {
        seen.push(q);
        return text("ASLEEP:555:12025550123:1764000000");
      });
      expect(await asleep.reactivate!("444", {})).toEqual({ upstreamId: "555", number: "12025550123", readyAt: 1_764_000_000_000 });
      expect(seen[0]).toMatchObject({ action: "getExtraActivation", activationId: "444" });
      for (const word of ["BAD_ID", "RENEW_ACTIVATION_NOT_AVAILABLE", "NEW_ACTIVATION_IMPOSSIBLE", "SIM_OFFLINE"]) {
        expect((await fault(fake(() => text(word)).reactivate!("1", {}))).kind).toBe("not_found");
      }
      expect((await fault(fake(() => text("NO_MONEY")).reactivate!("1", {}))).kind).toBe("no_balance");
      expect((await fault(fake(() => text("<html>oops</html>")).reactivate!("1", {}))).kind).toBe("bad_reply");
      expect((await fault(fake(() => text("")).reactivate!("1", { maxCost: { amount: 10, currency: "RUB" } }))).kind).toBe("price_exceeded");
    });

    it("refuses (BAD_ID) a past activation that never received a code or does not exist", async () => {
      const provider = simulator();
      expect((await fault(provider.reactivate!("999999999", {}))).kind).toBe("not_found");
      const cancelled = await provider.buy({ countryId: "5", serviceId: "wa" });
      await env.DB.prepare("UPDATE sandbox_state SET value = json_set(value, '$.status', 'cancelled') WHERE key = ?").bind(`sms-activation:${cancelled.upstreamId}`).run();
      expect((await fault(provider.reactivate!(cancelled.upstreamId, {}))).kind).toBe("not_found");
    });
  });
});
