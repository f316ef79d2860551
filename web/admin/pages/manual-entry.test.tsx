import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { customerSees, ManualEntryForm } from "./manual-entry";

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

let posts: { url: string; body: Record<string, unknown> }[] = [];
function serve(answer: (n: number) => Response) {
  posts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    posts.push({ url, body: JSON.parse(String(init.body)) });
    await new Promise((r) => setTimeout(r, 10));
    return answer(posts.length);
  });
}

const customer = { id: "u1", email: "ada@example.com", balance: 100 };
const show = (direction: "credit" | "debit") =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ManualEntryForm direction={direction} customer={customer} />
    </QueryClientProvider>,
  );

function fill(form: ReturnType<typeof within>, amount: string, reason: string, message = "") {
  fireEvent.change(form.getByLabelText("Amount (₦)"), { target: { value: amount } });
  fireEvent.change(form.getByLabelText(/Reason/), { target: { value: reason } });
  if (message) fireEvent.change(form.getByLabelText(/Message to the customer/), { target: { value: message } });
}

describe("manual credit and debit in the console", () => {
  it("asks for confirmation with the amount, the customer and the balance after; sends once for two clicks; clears after success", async () => {
    serve(() => new Response(JSON.stringify({ message: "Credited.", balance: 2600 }), { status: 200 }));
    show("credit");
    const form = within(screen.getByRole("form", { name: "Manual credit" }));
    expect((form.getByRole("button", { name: "Credit…" }) as HTMLButtonElement).disabled).toBe(true);
    fill(form, "2500", "Goodwill: failed code yesterday\nticket #42", "Sorry for the delay");
    // The customer's wording is shown before anything is sent, and never the reason.
    expect(form.getByText("Their history will say: “Adjustment by support (deposit): Sorry for the delay”")).toBeTruthy();
    fireEvent.click(form.getByRole("button", { name: "Credit…" }));
    const confirm = within(form.getByRole("group", { name: "Confirm credit" }));
    expect(confirm.getByText(/Credit ₦2,500.00 to ada@example.com\? Balance after: ₦2,600.00\./)).toBeTruthy();
    expect(posts).toEqual([]);

    fireEvent.click(confirm.getByRole("button", { name: "Cancel" }));
    expect(form.queryByRole("group", { name: "Confirm credit" })).toBeNull();
    fireEvent.click(form.getByRole("button", { name: "Credit…" }));
    const button = within(form.getByRole("group", { name: "Confirm credit" })).getByRole("button", { name: "Confirm credit" });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(form.getByRole("status").textContent).toBe("Credited ₦2,500.00. Balance now ₦2,600.00."));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe("/api/admin/customers/u1/credit");
    expect(posts[0]!.body).toMatchObject({ amount: 2500, reason: "Goodwill: failed code yesterday\nticket #42", customerMessage: "Sorry for the delay" });
    const firstId = posts[0]!.body.requestId;
    expect(firstId).toMatch(/^[0-9a-f-]{36}$/);

    // Cleared: the next entry starts empty and is a new request.
    expect((form.getByLabelText("Amount (₦)") as HTMLInputElement).value).toBe("");
    expect((form.getByLabelText(/Reason/) as HTMLTextAreaElement).value).toBe("");
    expect((form.getByLabelText(/Message to the customer/) as HTMLInputElement).value).toBe("");
    fill(form, "10", "second one");
    fireEvent.click(form.getByRole("button", { name: "Credit…" }));
    fireEvent.click(within(form.getByRole("group", { name: "Confirm credit" })).getByRole("button", { name: "Confirm credit" }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]!.body.requestId).not.toBe(firstId);
    expect(posts[1]!.body).not.toHaveProperty("customerMessage");
  });

  it("a refused debit keeps what was typed and says why", async () => {
    serve(() => new Response(JSON.stringify({ code: "INSUFFICIENT_BALANCE", error: "x", message: "Refused: a debit may not take the customer's balance below zero." }), { status: 402 }));
    show("debit");
    const form = within(screen.getByRole("form", { name: "Manual debit" }));
    fill(form, "500", "chargeback");
    fireEvent.click(form.getByRole("button", { name: "Debit…" }));
    const confirm = within(form.getByRole("group", { name: "Confirm debit" }));
    expect(confirm.getByText(/Debit ₦500.00 from ada@example.com\? Balance after: -?₦-?400.00\. The server will refuse it/)).toBeTruthy();
    fireEvent.click(confirm.getByRole("button", { name: "Confirm debit" }));
    await waitFor(() => expect(form.getByRole("alert").textContent).toContain("below zero"));
    expect((form.getByLabelText("Amount (₦)") as HTMLInputElement).value).toBe("500");
  });

  it("says what the customer will read: the neutral label, with the message on one line", () => {
    expect(customerSees("credit", "")).toBe("Adjustment by support (deposit)");
    expect(customerSees("debit", "  Reversed:\n duplicate top-up ")).toBe("Adjustment by support (debit): Reversed: duplicate top-up");
  });
});
