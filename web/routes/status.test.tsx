import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PublicStatus } from "../../schema/status";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../test/scripted-fetch";
import StatusPage, { upNow, windowFigures } from "./status";

const status: PublicStatus = {
  generated_at: "2026-11-26T19:00:00.000Z",
  min_sample: 30,
  providers: [
    {
      provider: "Swift",
      name: "Swift SMS",
      up: true,
      checked_at: "2026-11-26T18:55:00.000Z",
      last_7_days: { orders: 12, success_rate: null, median_seconds_to_code: null },
      last_30_days: { orders: 140, success_rate: 91.4, median_seconds_to_code: 48 },
    },
    {
      provider: "Dynamic",
      name: "Dynamic SMS",
      up: false,
      checked_at: "2026-11-26T18:55:00.000Z",
      last_7_days: { orders: 0, success_rate: null, median_seconds_to_code: null },
      last_30_days: { orders: 31, success_rate: 71, median_seconds_to_code: 130 },
    },
  ],
  top_services: [
    {
      provider: "Swift",
      country: "USA",
      service: "WhatsApp",
      last_7_days: { orders: 5, success_rate: null, median_seconds_to_code: null },
      last_30_days: { orders: 60, success_rate: 95, median_seconds_to_code: 40 },
    },
  ],
  refunds: { promise: "If no code arrives, your money goes back to your wallet automatically, as it did for 29 orders in the last 30 days, typically 10 minutes after purchase.", refunded_automatically: 29, median_seconds_to_refund: 600 },
  incidents: [
    { id: 2, title: "Dynamic SMS slow", body: "Codes take longer than usual.", provider: "Dynamic", started_at: "2026-11-26T18:00:00.000Z", resolved_at: null },
    { id: 1, title: "Card payments delayed", body: "Fixed.", provider: null, started_at: "2026-11-20T08:00:00.000Z", resolved_at: "2026-11-20T09:00:00.000Z" },
  ],
};

const script: FetchScript = { answers: {}, calls: [] };
beforeEach(() => installScriptedFetch(script));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("the public status page", () => {
  it("asks GET /api/status without a token and shows each provider's figures only from 30 orders, always with the sample", async () => {
    script.answers["GET /api/status"] = [json(200, status)];
    renderWithQuery(<StatusPage />);
    expect(screen.getByTestId("status-loading")).toBeTruthy();
    const swift = (await screen.findByTestId("status-providers")).querySelector('[data-provider="Swift"]') as HTMLElement;
    expect(within(swift).getByText("Up now")).toBeTruthy();
    expect(screen.getByTestId("status-Swift-last_7_days").textContent).toBe("Last 7 daysNot enough orders yet—12 orders (figures from 30)");
    expect(screen.getByTestId("status-Swift-last_30_days").textContent).toBe("Last 30 days91.4% got a codecode in 48 s (median)from 140 orders");
    expect(screen.getByTestId("status-Dynamic-last_30_days").textContent).toContain("71.0% got a code");
    expect(within(screen.getByTestId("status-providers").querySelector('[data-provider="Dynamic"]') as HTMLElement).getByText("Down now")).toBeTruthy();
    const fetchMock = globalThis.fetch as unknown as { mock: { calls: [string, RequestInit][] } };
    expect((fetchMock.mock.calls[0][1].headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("lists the busiest services per country, the incidents and the refund promise with its figures", async () => {
    script.answers["GET /api/status"] = [json(200, status)];
    renderWithQuery(<StatusPage />);
    const table = await screen.findByTestId("status-services");
    const row = within(table).getByRole("row", { name: /WhatsApp/ });
    expect(row.textContent).toContain("Swift SMS");
    expect(row.textContent).toContain("95.0% got a code, code in 40 s (median) (from 60 orders)");
    expect(row.textContent).toContain("Not enough orders yet (5 orders (figures from 30))");
    const refunds = screen.getByTestId("status-refunds");
    expect(refunds.textContent).toContain(status.refunds.promise);
    expect(refunds.textContent).toContain("29 orders");
    expect(refunds.textContent).toContain("10 min");
    const open = screen.getByTestId("status-open-incidents");
    expect(within(open).getByText("Dynamic SMS slow")).toBeTruthy();
    expect(within(open).getByText("Ongoing")).toBeTruthy();
    expect(within(open).queryByText("Card payments delayed")).toBeNull();
    expect(screen.getByText("Card payments delayed").closest("li")?.textContent).toMatch(/Since Nov 20, (2026, )?9:00 AM WAT, resolved Nov 20, (2026, )?10:00 AM WAT/);
  });

  it("drops the prerendered frame once it renders", async () => {
    const shell = document.createElement("div");
    shell.id = "status-shell";
    document.body.append(shell);
    script.answers["GET /api/status"] = [json(200, status)];
    renderWithQuery(<StatusPage />);
    expect(document.getElementById("status-shell")).toBeNull();
    await screen.findByTestId("status-providers");
  });
});

describe("figures", () => {
  it("a window below the minimum sample shows no rate and no median", () => {
    expect(windowFigures({ orders: 1, success_rate: null, median_seconds_to_code: null }, 30)).toEqual({ rate: "Not enough orders yet", median: "—", sample: "1 order (figures from 30)" });
    expect(windowFigures({ orders: 30, success_rate: 100, median_seconds_to_code: null }, 30)).toEqual({ rate: "100.0% got a code", median: "—", sample: "from 30 orders" });
  });
  it("up now, down, or not checked", () => {
    expect(upNow({ up: null }).label).toBe("Not checked yet");
    expect(upNow({ up: true }).label).toBe("Up now");
    expect(upNow({ up: false }).label).toBe("Down now");
  });
});
