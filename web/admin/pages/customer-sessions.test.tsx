import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminCustomerDetail } from "../../../schema/admin";
import CustomerPage from "./customer";

// Issue 33 (ASVS 7.4.5): the operator ends a customer's sessions from the customer's page, with a reason.
vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const detail = (sessions: AdminCustomerDetail["sessions"]): AdminCustomerDetail => ({
  customer: {
    id: "u1",
    username: "Ada",
    email: "ada@example.com",
    phone: "08012345678",
    role: "customer",
    balance: 1000,
    totalDeposited: 1000,
    blocked: false,
    blockedAt: null,
    emailVerified: true,
    twoFactor: true,
    emailOptOut: false,
    createdAt: Date.UTC(2026, 0, 1),
  },
  tier: null,
  ledger: [],
  orders: [],
  rentals: [],
  deposits: [],
  sessions,
  audit: [],
});

function serve(sessions: AdminCustomerDetail["sessions"]) {
  const posts: { url: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    if (init.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ message: "2 sessions ended; their open tabs were closed.", revoked: 2 }), { status: 200 });
    }
    return new Response(JSON.stringify(detail(sessions)), { status: 200 });
  });
  return posts;
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CustomerPage id="u1" />
    </QueryClientProvider>,
  );

describe("ending a customer's sessions", () => {
  it("sends the reason and shows how many sessions ended", async () => {
    const session = { id: "s1", createdAt: Date.UTC(2026, 10, 1), lastSeenAt: null, userAgent: "Chrome", country: "NG", city: "Lagos" };
    const posts = serve([session, { ...session, id: "s2" }]);
    show();
    const form = within(await screen.findByTestId("end-sessions-form"));
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "stolen phone" } });
    fireEvent.click(form.getByRole("button", { name: "End all sessions" }));
    await waitFor(() => expect(form.getByRole("status").textContent).toBe("2 sessions ended; their open tabs were closed."));
    expect(posts).toEqual([{ url: "/api/admin/customers/u1/sessions/revoke", body: { reason: "stolen phone" } }]);
  });

  it("is not offered when the customer has no live session", async () => {
    serve([]);
    show();
    expect(await screen.findByText("No live session.")).toBeTruthy();
    expect(screen.queryByTestId("end-sessions-form")).toBeNull();
  });
});
