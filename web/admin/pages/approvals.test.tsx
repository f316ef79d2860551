import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminApproval } from "../../../schema/admin";
import ApprovalsPage from "./approvals";

// Issue 33: the console's Approvals page. Another operator's request offers Approve and Reject; the operator's own
// request offers only Withdraw (the server refuses its approval with a 403 anyway). Each decision needs a reason.
vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const base: AdminApproval = {
  id: "ap_1",
  kind: "ledger_entry",
  subject: "u1",
  summary: "Credit ₦75,000.00 to ada@example.com",
  amount: 75000,
  reason: "outage goodwill",
  requestedBy: "alice@ops.example",
  requestedByMe: false,
  status: "pending",
  decidedBy: null,
  decisionReason: null,
  createdAt: Date.UTC(2026, 10, 26, 9),
  expiresAt: Date.UTC(2026, 10, 29, 9),
  decidedAt: null,
};
const mine: AdminApproval = { ...base, id: "ap_2", kind: "reset_2fa", summary: "Reset the two-factor sign-in of bola@example.com", amount: null, requestedBy: "me@ops.example", requestedByMe: true };
const decided: AdminApproval = { ...base, id: "ap_0", status: "rejected", decidedBy: "bola@ops.example", decisionReason: "no ticket", decidedAt: Date.UTC(2026, 10, 25, 9) };

let posts: { url: string; body: unknown }[] = [];
function serve(answer: { status: number; body: unknown }) {
  posts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    if (init.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }
    if (url.includes("status=decided")) return new Response(JSON.stringify({ data: [decided] }), { status: 200 });
    return new Response(JSON.stringify({ data: [base, mine] }), { status: 200 });
  });
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApprovalsPage />
    </QueryClientProvider>,
  );

describe("the Approvals page", () => {
  it("lists what waits: another operator's request has Approve and Reject, one's own only Withdraw", async () => {
    serve({ status: 200, body: {} });
    show();
    const [theirs, own] = await screen.findAllByTestId("pending-approval");
    expect(theirs.textContent).toContain("Credit ₦75,000.00 to ada@example.com");
    expect(theirs.textContent).toContain("Asked by alice@ops.example");
    expect(within(theirs).getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(within(theirs).getByRole("button", { name: "Reject" })).toBeTruthy();
    expect(own.textContent).toContain("You asked for this change: another operator must approve it.");
    expect(within(own).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(own).getByRole("button", { name: "Withdraw" })).toBeTruthy();
    expect((await screen.findByText("no ticket")).closest("tr")?.textContent).toContain("bola@ops.example");
  });

  it("approves with a reason and shows the server's answer; a refusal shows the server's message", async () => {
    serve({ status: 200, body: { message: "Approved: Credit ₦75,000.00 to ada@example.com.", approval: { ...base, status: "approved" }, balance: 76000 } });
    show();
    const [theirs] = await screen.findAllByTestId("pending-approval");
    const form = within(within(theirs).getByTestId("approve-form"));
    expect((form.getByRole("button", { name: "Approve" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "matches the ticket" } });
    fireEvent.click(form.getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(form.getByRole("status").textContent).toBe("Approved: Credit ₦75,000.00 to ada@example.com."));
    expect(posts).toEqual([{ url: "/api/admin/approvals/ap_1/approve", body: { reason: "matches the ticket" } }]);
  });

  it("shows a 403's message when the server refuses the approval", async () => {
    const message = "You asked for this change: a second operator must approve it.";
    serve({ status: 403, body: { code: "FORBIDDEN", message, error: message } });
    show();
    const [theirs] = await screen.findAllByTestId("pending-approval");
    const form = within(within(theirs).getByTestId("approve-form"));
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "ok" } });
    fireEvent.click(form.getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(form.getByRole("alert").textContent).toBe(message));
  });
});
