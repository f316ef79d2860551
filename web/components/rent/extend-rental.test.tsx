import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ExtendRental } from "./extend-rental";

vi.mock("../../lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));
vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "token-1" }));

afterEach(cleanup);

let requests: { url: string; method: string; body: unknown }[] = [];
function serve(options: unknown[]) {
  requests = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    requests.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : null });
    if (url.endsWith("/extend-options")) return new Response(JSON.stringify({ extendable: options.length > 0, options }), { status: 200 });
    return new Response(JSON.stringify({ rental: { id: "r1" }, charged: 896 }), { status: 200 });
  });
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ExtendRental rentalId="r1" active />
    </QueryClientProvider>,
  );

beforeEach(() => vi.unstubAllGlobals());

describe("Extend in the rental inbox", () => {
  it("shows each choice with the server's price and extends with that price", async () => {
    serve([
      { unit: "hour", period: 4, duration: "4 hours", price: 896 },
      { unit: "day", period: 1, duration: "1 day", price: 5376 },
    ]);
    show();
    const button = await screen.findByRole("button", { name: "Extend 4 hours — ₦896.00" });
    expect(screen.getByRole("button", { name: "Extend 1 day — ₦5,376.00" })).toBeTruthy();
    fireEvent.click(button);
    await waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    expect(requests.find((r) => r.method === "POST")).toEqual({ url: "/api/rentals/r1/extend", method: "POST", body: { duration: "hour", period: 4, price: 896 } });
  });

  it("shows nothing where the upstream offers no extension (sms-man today)", async () => {
    serve([]);
    show();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(screen.queryByTestId("extend-rental")).toBeNull();
  });
});
