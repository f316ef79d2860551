import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SmsPublicPriceList } from "../../schema/sms";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../test/scripted-fetch";
import PricesPage, { filterServices } from "./prices";

// Issue 28: prices before sign-up. The page lists a country's services with the starter price and stock, without a token.

const script: FetchScript = { answers: {}, calls: [] };
const LIST: SmsPublicPriceList = {
  provider: "Swift",
  country_id: "5",
  country: "USA",
  read_at: "2026-11-26T16:00:00.000Z",
  services: [
    { id: "tg", name: "Telegram", price: 1500, count: 0 },
    { id: "wa", name: "WhatsApp", price: 1200, count: 1234 },
  ],
};

describe("the public price page", () => {
  beforeEach(() => installScriptedFetch(script));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows each service's starter price and stock (sold out said in words), and offers sign-up", async () => {
    script.answers["GET /api/sms/countries"] = [json(200, [{ id: "5", title: "USA" }])];
    script.answers["GET /api/sms/public-prices"] = [json(200, LIST)];
    renderWithQuery(<PricesPage />);
    const table = await screen.findByTestId("prices-table");
    const wa = within(table).getByRole("row", { name: /WhatsApp/ });
    expect(wa.textContent).toContain("₦1,200.00");
    expect(wa.textContent).toContain("1,234");
    expect(within(table).getByRole("row", { name: /Telegram/ }).textContent).toContain("Sold out");
    expect(screen.getByRole("link", { name: "Sign up to buy a number" }).getAttribute("href")).toBe("#/signup/1");
    // Read without the token: every visitor shares one cached copy.
    const call = vi.mocked(fetch).mock.calls.find(([url]) => String(url).startsWith("/api/sms/public-prices"));
    expect(String(call?.[0])).toBe("/api/sms/public-prices?provider=Swift&country=5");
    expect((call?.[1]?.headers as Record<string, string>).Authorization).toBeUndefined();

    fireEvent.change(screen.getByLabelText("Find a service"), { target: { value: "whatsap" } });
    expect(within(table).queryByRole("row", { name: /Telegram/ })).toBeNull();
    expect(screen.getByTestId("prices-count").textContent).toContain("1 of 2 services");
  });

  it("lists the resellers' wholesale tiers, read signed out", async () => {
    script.answers["GET /api/sms/countries"] = [json(200, [{ id: "5", title: "USA" }])];
    script.answers["GET /api/sms/public-prices"] = [json(200, LIST)];
    script.answers["GET /api/wholesale-tiers"] = [
      json(200, {
        data: [
          { name: "Partner", threshold: 0, percentage: 0 },
          { name: "Wholesale 5", threshold: 250_000, percentage: 5 },
        ],
      }),
    ];
    renderWithQuery(<PricesPage />);
    const section = await screen.findByTestId("wholesale-tiers");
    expect(within(section).getByRole("heading").textContent).toBe("Wholesale prices for resellers");
    const row = within(section).getByRole("row", { name: /Wholesale 5/ });
    expect(row.textContent).toContain("₦250,000.00");
    expect(row.textContent).toContain("5%");
    expect(within(section).getByRole("row", { name: /Partner/ }).textContent).toContain("0%");
    const call = vi.mocked(fetch).mock.calls.find(([url]) => String(url).startsWith("/api/wholesale-tiers"));
    expect((call?.[1]?.headers as Record<string, string> | undefined)?.Authorization).toBeUndefined();
  });

  it("finds a service by its protocol code or with one typo, and nothing for an unrelated word", () => {
    expect(filterServices(LIST.services, "wa").map((s) => s.id)).toContain("wa");
    expect(filterServices(LIST.services, "Telegrm").map((s) => s.id)).toEqual(["tg"]);
    expect(filterServices(LIST.services, "zzzz")).toEqual([]);
    expect(filterServices(LIST.services, "  ")).toHaveLength(2);
  });
});
