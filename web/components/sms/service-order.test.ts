import { describe, expect, it } from "vitest";
import { favouritesFirst, sortRoutes } from "./service-order";

const svc = (id: string, name: string) => ({ application_id: id, application: name });

describe("favouritesFirst", () => {
  it("puts this provider's starred services first, marked, keeping the list's order otherwise", () => {
    const list = [svc("wa", "WhatsApp"), svc("tg", "Telegram"), svc("go", "Google")];
    const out = favouritesFirst(list, "Swift", [
      { provider: "Swift", service_id: "go" },
      { provider: "Dynamic", service_id: "wa" },
    ]);
    expect(out.map((o) => [o.service.application, o.starred])).toEqual([
      ["Google", true],
      ["WhatsApp", false],
      ["Telegram", false],
    ]);
    expect(favouritesFirst(list, "Swift", undefined).every((o) => !o.starred)).toBe(true);
  });
});

describe("sortRoutes", () => {
  const routes = [
    { id: "a", price: 900, stats: null },
    { id: "b", price: 1200, stats: { success_rate: 0.9 } },
    { id: "c", price: 1000, stats: { success_rate: 0.95 } },
    { id: "d", price: 800, stats: null },
  ];
  it("by price: cheapest first", () => expect(sortRoutes(routes, "price").map((r) => r.id)).toEqual(["d", "a", "c", "b"]));
  it("by success: best rate first, routes without a rate after, cheapest first", () =>
    expect(sortRoutes(routes, "success").map((r) => r.id)).toEqual(["c", "b", "d", "a"]));
});
