import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminOrderRow, RefundKeptAnswer } from "../../../schema/admin";
import OrdersPage from "./orders";

// Issue 46 (decision 075): the console's refund of a kept order says what moved, and names a developer's ref share
// the refund could not take back because the developer's wallet no longer held it.

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const kept: AdminOrderRow = {
  id: "o1",
  userId: "u1",
  customer: { id: "u1", name: "Ada Obi", email: "ada@example.com", phone: "", test: false },
  provider: "Swift",
  country: "USA",
  service: "WhatsApp",
  serviceId: "wa",
  price: 1500,
  number: "12025550123",
  code: "123456",
  status: "used",
  attempts: 3,
  failureReason: null,
  upstream: "daisysms",
  upstreamAccount: 0,
  margin: 0,
  refShare: 75,
  refundedAfterCodeAt: null,
  createdAt: Date.parse("2026-11-29T09:00:00Z"),
  updatedAt: Date.parse("2026-11-29T09:01:00Z"),
};

let posts: { url: string; body: unknown }[] = [];
function serve(refund: RefundKeptAnswer) {
  posts = [];
  vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(refund), { status: 200 });
    }
    const data = url.startsWith("/api/admin/orders") ? [kept] : [];
    return new Response(JSON.stringify({ data, next: null }), { status: 200 });
  });
}

describe("the console's refund of a kept order", () => {
  it("shows the answer's sentence, which names a developer's share the refund could not take back", async () => {
    const message = "Refunded ₦1,500.00 to the wallet that paid. The developer's ref share (₦75.00) was not taken back: their wallet no longer holds it, so it stays our cost.";
    serve({ from: "used", status: "refunded", settled: true, refShareKept: 75, message });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <OrdersPage />
      </QueryClientProvider>,
    );
    fireEvent.click(await within(await screen.findByRole("table", { name: "SMS orders" })).findByRole("button", { name: "Refund" }));
    const form = within(screen.getByRole("form", { name: "Refund now" }));
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "the code did not work" } });
    fireEvent.click(form.getByRole("button", { name: "Refund now" }));
    await waitFor(() => expect(form.getByRole("status").textContent).toBe(message));
    expect(posts).toEqual([{ url: "/api/admin/orders/o1/refund", body: { reason: "the code did not work" } }]);
  });
});
