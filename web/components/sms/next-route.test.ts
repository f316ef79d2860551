import { describe, expect, it } from "vitest";
import type { SmsCompareRoute } from "../../../schema/sms";
import { allowedRoutes, nextRouteCandidates } from "./next-route";

const route = (provider: "Swift" | "Dynamic", country_id: string, price: number, count = 10): SmsCompareRoute => ({
  provider,
  country_id,
  country: country_id,
  service_id: "wa",
  service: "WhatsApp",
  price,
  count,
  sample: 0,
  stats: null,
});

describe("try another number: which routes", () => {
  const routes = [route("Swift", "5", 120), route("Dynamic", "5", 150), route("Dynamic", "12", 72), route("Dynamic", "13", 48), route("Dynamic", "9", 30, 0)];

  it("offers every other route in stock within the cap, cheapest first", () => {
    expect(nextRouteCandidates(routes, { provider: "Swift", countryId: "5" }, 120).map((r) => `${r.provider}:${r.country_id}`)).toEqual(["Dynamic:13", "Dynamic:12"]);
    expect(nextRouteCandidates(routes, { provider: "Swift", countryId: "5" }, undefined)).toHaveLength(3);
  });

  it("sends nothing while all are allowed, the ticked ones otherwise, and never an empty list (the server reads it as any)", () => {
    const candidates = nextRouteCandidates(routes, { provider: "Swift", countryId: "5" }, 200);
    expect(allowedRoutes(candidates, new Set())).toBeUndefined();
    expect(allowedRoutes(candidates, new Set(["Dynamic:5"]))).toEqual([
      { provider: "Dynamic", country: "13" },
      { provider: "Dynamic", country: "12" },
    ]);
    expect(allowedRoutes(candidates, new Set(["Dynamic:5", "Dynamic:12", "Dynamic:13"]))).toBe("none");
  });
});
