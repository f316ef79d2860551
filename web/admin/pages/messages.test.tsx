import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import MessagesPage from "./messages";

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const ADA = { id: "u-ada", username: "Ada Obi", email: "ada@example.com", phone: "08012345678", role: "customer", balance: 0, totalDeposited: 0, blocked: false, blockedAt: null, emailVerified: true, twoFactor: false, emailOptOut: false };

// Issue 43: Messages needed a pasted customer UUID and answered only "done".
describe("Console → Messages: a notification to one customer", () => {
  it("finds the customer by name, e-mail or phone, sends to their id, and says to whom it went", async () => {
    const calls: { url: string; body?: Record<string, unknown> }[] = [];
    vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith("/api/admin/customers")) return new Response(JSON.stringify({ data: [ADA] }), { status: 200 });
      return new Response(JSON.stringify({ recipients: 1, message: "Sent to Ada Obi (ada@example.com): it shows in the tabs they have open now." }), { status: 200 });
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MessagesPage />
      </QueryClientProvider>,
    );
    const form = within(screen.getByRole("form", { name: "Send notification" }));
    fireEvent.change(form.getByLabelText(/Customer \(for one customer\)/), { target: { value: "ada@" } });
    fireEvent.click(await form.findByRole("button", { name: "Ada Obi · ada@example.com" }));
    expect(form.getByTestId("notify-customer").textContent).toContain("ada@example.com");
    expect(calls.find((c) => c.url.startsWith("/api/admin/customers"))?.url).toContain("q=ada%40");
    fireEvent.change(form.getByLabelText("Text"), { target: { value: "Your refund is on its way" } });
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "ticket #77" } });
    fireEvent.click(form.getByRole("button", { name: "Send notification" }));
    await waitFor(() => expect(form.getByRole("status").textContent).toBe("Sent to Ada Obi (ada@example.com): it shows in the tabs they have open now."));
    expect(calls.at(-1)).toMatchObject({ url: "/api/admin/notify", body: { target: "customer", userId: "u-ada", type: "info", message: "Your refund is on its way", reason: "ticket #77" } });
  });
});
