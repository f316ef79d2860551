import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedSmsProvider } from "../../test/scripted-sms-provider";
import { createUser } from "../../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { smsDeps, useTestUpstreams } from "../../test/services";
import { clearlyBetter, smsOffer } from "./sms-offer";

// Issue 49: the record beside the price and the one-tap "Better: ..." suggestion within the customer's cap. Each test's
// service has a name no other file sells, so only its own orders are counted.

const DAY = 86_400_000;
let service: string;

beforeEach(async () => {
  service = `Offergram ${crypto.randomUUID().slice(0, 8)}`;
  await resetSmsTestState();
  const swift = new ScriptedSmsProvider("Swift", [{ countryId: "5", serviceId: "og", name: service, cost: 0.5, currency: "USD", count: 100 }], [{ id: "5", title: "USA" }]);
  const dynamic = new ScriptedSmsProvider(
    "Dynamic",
    [
      { countryId: "11", serviceId: "77", name: service, cost: 0.45, currency: "USD", count: 100 },
      { countryId: "12", serviceId: "77", name: service, cost: 0.3, currency: "USD", count: 100 },
    ],
    [
      { id: "11", title: "United Kingdom" },
      { id: "12", title: "Nigeria" },
    ],
  );
  useTestUpstreams({ sms: (_env, name) => (name === "Swift" ? swift : dynamic) });
});
afterEach(restoreSmsProviders);

async function orders(provider: string, country: string, used: number, timeout: number, secondsToCode: number) {
  const user = await createUser();
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < used + timeout; i++) {
    const id = crypto.randomUUID();
    const created = now - DAY - i * 1000;
    statements.push(
      env.DB.prepare("INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, status, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, 'x', ?, 1, '15550000000', ?, ?, ?)").bind(
        id,
        user.id,
        provider,
        country,
        service,
        i < used ? "used" : "timeout",
        created,
        created,
      ),
    );
    if (i < used) statements.push(env.DB.prepare("INSERT INTO sms_order_codes (order_id, code, received_at) VALUES (?, '111111', ?)").bind(id, created + secondsToCode * 1000));
  }
  await env.DB.batch(statements);
}

const customer = { id: "", totalDepositedKobo: 0 };

describe("the offer beside the Buy button", () => {
  it("shows its own record with the sample, and suggests a clearly better route within the cap in one tap", async () => {
    const user = await createUser();
    await orders("Swift", "USA", 24, 16, 120); // 60%, 2 min
    await orders("Dynamic", "United Kingdom", 47, 3, 41); // 94%, 41 s, and cheaper than the USA here
    await orders("Dynamic", "Nigeria", 20, 2, 30); // fewer than 30 orders: never suggested
    const offer = await smsOffer(smsDeps(env), { ...customer, id: user.id }, { provider: "Swift", country: "5", service: "og" });
    expect(offer.record).toEqual({ sample: 40, success_rate: 60, median_seconds_to_code: 120 });
    expect(offer).toMatchObject({ min_sample: 30, window_days: 7, surcharge_percent: 0, choices: {} });
    expect(offer.better).toMatchObject({ provider: "Dynamic", country_id: "11", country: "United Kingdom", service_id: "77", record: { sample: 50, success_rate: 94, median_seconds_to_code: 41 } });
    expect(offer.better!.price).toBeLessThanOrEqual(offer.price);

    // A cap below the better route's price: no suggestion (never a dearer number without the customer saying so).
    const capped = await smsOffer(smsDeps(env), { ...customer, id: user.id }, { provider: "Swift", country: "5", service: "og", cap: offer.better!.price - 1 });
    expect(capped.better).toBeNull();
    // The better route itself has nothing better.
    expect((await smsOffer(smsDeps(env), { ...customer, id: user.id }, { provider: "Dynamic", country: "11", service: "77" })).better).toBeNull();
  });

  it("without enough orders there is a sample and no figures, and nothing is called better than an unknown", async () => {
    const user = await createUser();
    await orders("Swift", "USA", 5, 0, 30);
    await orders("Dynamic", "United Kingdom", 47, 3, 41);
    const offer = await smsOffer(smsDeps(env), { ...customer, id: user.id }, { provider: "Swift", country: "5", service: "og" });
    expect(offer.record).toEqual({ sample: 5, success_rate: null, median_seconds_to_code: null });
    expect(offer.better).toBeNull();
  });

  it("clearly better: 10 points more, or as good in half the time", () => {
    const w = (rate: number | null, median: number | null) => ({ orders: 40, success_rate: rate, median_seconds_to_code: median });
    expect(clearlyBetter(w(80, 60), w(90, 60))).toBe(true);
    expect(clearlyBetter(w(80, 60), w(89.9, 20))).toBe(true);
    expect(clearlyBetter(w(80, 60), w(85, 40))).toBe(false);
    expect(clearlyBetter(w(80, 60), w(79, 10))).toBe(false);
    expect(clearlyBetter(w(null, null), w(99, 10))).toBe(false);
  });
});
