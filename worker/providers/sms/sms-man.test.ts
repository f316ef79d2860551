import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ACTIVATION_LIFETIME_MS } from "../../sandbox/sms-activations";
import { smsManSimulator } from "../../sandbox/sms-man-simulator";
import { SmsManProvider } from "./sms-man";
import { SmsProviderError, type FetchLike } from "./types";

// The 'Dynamic' adapter against sms-man's activation API v2: the sandbox simulator for the happy path, and
// purpose-built fakes for each documented error reply, garbage and silence.

const simulator = () =>
  new SmsManProvider({ baseUrl: "https://api.sms-man.test", key: env.SMSMAN_TOKEN!, fetch: (req) => smsManSimulator.fetch(req, env) });

/** A fake sms-man that answers every method with the given handler. */
function fake(handler: (method: string, query: Record<string, string>) => Response | Promise<Response>, timeoutMs = 200) {
  const app = new Hono();
  app.get("/control/:method", (c) => handler(c.req.param("method"), c.req.query()));
  return new SmsManProvider({ baseUrl: "https://api.sms-man.test", key: "k", fetch: (req) => app.fetch(req), timeoutMs });
}
const json = (body: unknown, status = 200) => Response.json(body, { status });
const error = (error_code: string, error_msg: unknown = "x") => json({ success: false, error_code, error_msg });

async function fault(promise: Promise<unknown>): Promise<SmsProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsProviderError);
  return err as SmsProviderError;
}

describe("sms-man adapter (Dynamic)", () => {
  it("lists countries and services in the account's currency (roubles) with stock, sending the token", async () => {
    const seen: URL[] = [];
    const spy: FetchLike = (req) => {
      seen.push(new URL(req.url));
      return smsManSimulator.fetch(req, env);
    };
    const provider = new SmsManProvider({ baseUrl: "https://api.sms-man.test", key: env.SMSMAN_TOKEN!, fetch: spy });
    const countries = await provider.countries();
    expect(countries.length).toBeGreaterThanOrEqual(21);
    expect(countries).toContainEqual({ id: "5", title: "USA" });
    const services = await provider.services("5");
    expect(services.length).toBeGreaterThanOrEqual(30);
    // $0.50 in the sandbox market is 45 roubles; the adapter never calls it dollars.
    expect(services.find((s) => s.name === "WhatsApp")).toMatchObject({ countryId: "5", serviceId: "1", cost: 45, currency: "RUB" });
    expect(services.every((s) => s.count >= 0)).toBe(true);
    expect(seen[0].pathname).toBe("/control/countries");
    expect(seen.every((u) => u.searchParams.get("token") === env.SMSMAN_TOKEN)).toBe(true);
    // currency is not a documented get-prices parameter: an ignored one would make the reply's unit a guess.
    expect(seen.find((u) => u.pathname.endsWith("get-prices"))?.searchParams.has("currency")).toBe(false);
  });

  it("reads a stated currency, and the account's (SMSMAN_CURRENCY) when the reply states none", async () => {
    const usd = new SmsManProvider({
      baseUrl: "https://api.sms-man.test",
      key: "k",
      accountCurrency: "USD",
      fetch: (req) => (new URL(req.url).pathname.endsWith("applications") ? json([]) : json([{ application_id: "1", country_id: "5", cost: "0.4", count: 3 }])),
    });
    expect(await usd.services("5")).toEqual([{ countryId: "5", serviceId: "1", name: "1", cost: 0.4, currency: "USD", count: 3 }]);
    const stated = fake((method) => (method === "applications" ? json([]) : json({ currency: "EUR", "7": { application_id: "7", cost: "1.5", count: 1 } })));
    expect((await stated.services("5"))[0]).toMatchObject({ serviceId: "7", cost: 1.5, currency: "EUR" });
    expect(await fake(() => json({ balance: "799.70" })).balance()).toEqual({ amount: 799.7, currency: "RUB" });
  });

  it("reads the list, the nested map and the map keyed by application ids alike; a country id equal to an app id is not misread", async () => {
    const apps = json([{ id: "5", name: "Instagram" }, { id: "1", name: "WhatsApp" }]);
    const shapes = [
      [{ application_id: "5", country_id: "5", cost: "13.5", count: "9" }, { application_id: "1", country_id: "5", cost: "45", count: 2 }],
      { "5": { "5": { cost: "13.5", count: 9 }, "1": { cost: 45, count: "2" } } },
      { "5": { application_id: "5", country_id: "5", cost: "13.5", count: 9 }, "1": { application_id: "1", country_id: "5", cost: "45", count: 2 } },
    ];
    for (const body of shapes) {
      const provider = fake((method) => (method === "applications" ? apps.clone() : json(body)));
      const offers = await provider.services("5");
      expect(offers.map((o) => [o.serviceId, o.name, o.cost, o.count]).sort()).toEqual([
        ["1", "WhatsApp", 45, 2],
        ["5", "Instagram", 13.5, 9],
      ]);
    }
    // Entries for another country are not this country's offers.
    const other = fake((method) => (method === "applications" ? apps.clone() : json([{ application_id: "1", country_id: "7", cost: "45", count: 2 }])));
    expect(await other.services("5")).toEqual([]);
  });

  it("buys with maxPrice as a whole number (rounded up) in the offer's currency", async () => {
    const seen: URL[] = [];
    const provider = new SmsManProvider({
      baseUrl: "https://api.sms-man.test",
      key: env.SMSMAN_TOKEN!,
      fetch: (req) => {
        seen.push(new URL(req.url));
        return smsManSimulator.fetch(req, env);
      },
    });
    const activation = await provider.buy({ countryId: "5", serviceId: "1", maxCost: { amount: 44.1, currency: "RUB" } }).catch((e: unknown) => e);
    // maxPrice is a documented Integer: 44.1 is sent as 45, so a number priced exactly 45 roubles is sold.
    expect(activation).toMatchObject({ number: expect.stringMatching(/^1\d{10}$/) });
    const url = seen.find((u) => u.pathname.endsWith("get-number"))!;
    expect(url.searchParams.get("maxPrice")).toBe("45");
    expect(url.searchParams.get("currency")).toBe("RUB");
    const pricey = await fault(provider.buy({ countryId: "5", serviceId: "1", maxCost: { amount: 30, currency: "RUB" } }));
    expect(pricey.kind).toBe("price_exceeded");
  });

  it("buys, waits, reads the code and closes the number", async () => {
    const provider = simulator();
    const activation = await provider.buy({ countryId: "5", serviceId: "1", maxCost: { amount: 45, currency: "RUB" } });
    expect(activation.number).toMatch(/^1\d{10}$/);
    const poll = await provider.poll(activation.upstreamId);
    expect(poll).toEqual({ state: "code", code: expect.stringMatching(/^\d{6}$/) });
    await provider.finish(activation.upstreamId);
  });

  it("reports wait_sms as waiting", async () => {
    const provider = fake(() => json({ request_id: 1, error_code: "wait_sms", error_msg: "Still waiting..." }));
    expect(await provider.poll("1")).toEqual({ state: "waiting" });
  });

  it("releases an unused number and reports a refused release (wrong_status) without throwing", async () => {
    const provider = simulator();
    const noSms = await provider.buy({ countryId: "5", serviceId: "90" });
    expect(await provider.cancel(noSms.upstreamId)).toEqual({ outcome: "released" });
    const refused = fake(() => error("wrong_status", "SMS already received"));
    expect(await refused.cancel("1")).toMatchObject({ outcome: "refused", final: true });
  });

  it("'Sandbox No-SMS' never delivers to a USA number, which lapses upstream after its lifetime; from another country it delivers", async () => {
    const provider = simulator();
    const usa = await provider.buy({ countryId: "5", serviceId: "90" });
    expect(await provider.poll(usa.upstreamId)).toEqual({ state: "waiting" });
    // Its lifetime over with no SMS, the activation ends upstream (cancelled, refunded to the buyer), as documented.
    await env.DB.prepare("UPDATE sandbox_state SET value = json_set(value, '$.createdAt', ?) WHERE key = ?")
      .bind(Date.now() - ACTIVATION_LIFETIME_MS - 1000, `sms-activation:${usa.upstreamId}`)
      .run();
    await expect(provider.poll(usa.upstreamId)).resolves.toEqual({ state: "cancelled" });
    // The same service from Nigeria is an ordinary route: the code comes (the tests' delay is 0).
    const nigeria = await provider.buy({ countryId: "12", serviceId: "90" });
    expect(await provider.poll(nigeria.upstreamId)).toEqual({ state: "code", code: expect.stringMatching(/^\d{6}$/) });
  });

  it("maps no numbers, no balance and a bad key to clear customer messages", async () => {
    const noNumbers = await fault(fake(() => error("no_numbers")).buy({ countryId: "5", serviceId: "1" }));
    expect(noNumbers.kind).toBe("no_numbers");
    expect(noNumbers.message).toMatch(/No numbers available/);
    const noBalance = await fault(fake(() => error("balance", { text: "Not enough balance" })).buy({ countryId: "5", serviceId: "1" }));
    expect(noBalance.kind).toBe("no_balance");
    expect(noBalance.message).not.toMatch(/balance/i); // our account's problem is not the customer's
    const badKey = await fault(simulatorWithoutKey().countries());
    expect(badKey.kind).toBe("bad_key");
    expect(badKey.message).not.toContain("k");
  });

  it("treats HTML, garbage and a number-less reply as a bad reply, not a crash", async () => {
    const html = await fault(fake(() => new Response("<html><body>502 Bad Gateway</body></html>", { status: 200 })).countries());
    expect(html.kind).toBe("bad_reply");
    const garbage = await fault(fake(() => new Response("ok")).poll("1"));
    expect(garbage.kind).toBe("bad_reply");
    const noNumber = await fault(fake(() => json({ request_id: 1 })).buy({ countryId: "5", serviceId: "1" }));
    expect(noNumber.kind).toBe("bad_reply");
    const down = await fault(fake(() => new Response("busy", { status: 503 })).poll("1"));
    expect(down.kind).toBe("unavailable");
    expect(down.transient).toBe(true);
  });

  it("gives up on a silent upstream after its time limit", async () => {
    const silent = new SmsManProvider({
      baseUrl: "https://api.sms-man.test",
      key: "k",
      timeoutMs: 50,
      fetch: (req) => new Promise<Response>((_, reject) => req.signal.addEventListener("abort", () => reject(req.signal.reason))),
    });
    const err = await fault(silent.poll("1"));
    expect(err.kind).toBe("timeout");
    expect(err.transient).toBe(true);
  });
});

function simulatorWithoutKey() {
  return new SmsManProvider({ baseUrl: "https://api.sms-man.test", key: "", fetch: (req) => smsManSimulator.fetch(req, env) });
}
