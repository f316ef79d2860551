import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, createUser } from "../test/helpers";
import { resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// Issue 28: prices before sign-up. The public price page reads one provider's list for one country at the starter
// tier's prices, the same for every visitor, and the edge keeps it for a minute.

beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

describe("GET /api/sms/public-prices", () => {
  it("lists services with the starter price and stock, sorted by name, without sign-in", async () => {
    const res = await api("/api/sms/public-prices?provider=Swift&country=5");
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ provider: "Swift", country_id: "5", country: "USA", read_at: expect.any(String) });
    // The same figure the purchase charges a new customer: $0.50 × 1600 × 1.5 = ₦1,200 (routes/sms.test.ts).
    expect(res.data.services).toContainEqual({ id: "wa", name: "WhatsApp", price: 1200, count: expect.any(Number) });
    const names = (res.data.services as { name: string }[]).map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("ignores a token: a discount tier's customer reads the same starter prices (one cached copy for everyone)", async () => {
    const silver = await createUser();
    await env.DB.prepare("UPDATE users SET total_deposited_kobo = ? WHERE id = ?").bind(60_000_00, silver.id).run();
    const signedIn = await api("/api/sms/public-prices?provider=Dynamic&country=5", { token: silver.token });
    expect(signedIn.status).toBe(200);
    const [first] = signedIn.data.services as { id: string; price: number }[];
    const personal = await api("/api/sms/price?id=5&provider=Dynamic", { token: silver.token });
    const starter = await api("/api/sms/price?id=5&provider=Dynamic");
    expect(first!.price).toBe(starter.data[first!.id].price);
    expect(personal.data[first!.id].price).toBeLessThan(first!.price);
  });

  it("serves a repeat from the edge cache, and refuses bad input with a clear 4xx that is never cached", async () => {
    const first = await api("/api/sms/public-prices?provider=Dynamic&country=6");
    expect(first.status).toBe(200);
    const second = await api("/api/sms/public-prices?provider=Dynamic&country=6");
    expect(second.headers.get("x-edge-cache")).toBe("HIT");
    expect(second.data).toEqual(first.data);

    const unknownCountry = await api("/api/sms/public-prices?provider=Swift&country=6");
    expect(unknownCountry.status).toBe(404);
    expect(unknownCountry.data).toMatchObject({ message: "This country is not offered by the selected provider." });
    expect(unknownCountry.headers.get("cache-control") ?? "").not.toMatch(/public/);
    expect((await api("/api/sms/public-prices?provider=Tiger")).status).toBe(400);
  });
});
