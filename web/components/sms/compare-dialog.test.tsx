import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { CompareDialog } from "./compare-dialog";

// Issue 18: the compare view says it is loading, says when nothing sells the service, and a failed load can be retried.

let answers: (() => Response)[] = [];
let calls = 0;

const route = { provider: "Dynamic", country_id: "13", country: "India", service_id: "1", service: "WhatsApp", price: 500, count: 40, sample: 0, stats: null };
const ok = (routes: unknown[]) => () => new Response(JSON.stringify({ service: "WhatsApp", min_sample: 20, window_days: 7, routes }), { status: 200 });
const down = () => new Response(JSON.stringify({ code: "UPSTREAM_UNAVAILABLE", message: "The provider is not answering.", error: "The provider is not answering." }), { status: 502 });

beforeEach(() => {
  calls = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(() => {
      calls += 1;
      const next = answers.shift();
      return Promise.resolve(next ? next() : ok([])());
    }),
  );
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CompareDialog open onClose={() => undefined} provider="Swift" serviceId="wa" onChoose={() => undefined} />
    </QueryClientProvider>,
  );
}

describe("CompareDialog states", () => {
  it("loading says what it is loading; a failed load says why and Try again loads the routes", async () => {
    answers = [down, ok([route])];
    show();
    expect(screen.getByRole("status").textContent).toMatch(/Loading every provider and country/);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Could not load the routes for this service: The provider is not answering");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByTestId("sms-compare-table");
    expect(screen.getByRole("button", { name: "Choose Dynamic SMS India" })).toBeTruthy();
    expect(calls).toBe(2);
  });

  it("no route sells the service: it says so and what to do next, with no empty table", async () => {
    answers = [ok([])];
    show();
    await waitFor(() => expect(screen.getByTestId("sms-compare-empty").textContent).toMatch(/No provider or country sells WhatsApp right now\. .*choose another service/));
    expect(screen.queryByTestId("sms-compare-table")).toBeNull();
  });
});
