import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReviewQueueItem as ReviewItem, ReviewVerification as Verification } from "../../../schema/admin";
import { ReviewQueue } from "./review-queue";

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const item: ReviewItem = {
  kind: "crypto",
  id: "rv_1",
  status: "open",
  reason: "overpaid",
  payment_id: "NP1",
  provider_payment_id: "5001",
  user: { id: "u1", email: "ada@example.com", username: "Ada" },
  expected_currency: "USDTTRC20",
  expected_amount: "10",
  pay_currency: "USDTTRC20",
  actually_paid: "15",
  suggested_amount: 7500,
  detail: "paid 15 USDTTRC20 for an invoice of 10",
  created_at: "2026-11-25T19:00:00.000Z",
  resolution: null,
};
const verification = (creditable: boolean): Verification => ({
  provider: "nowpayments",
  status: creditable ? "finished" : "refunded",
  pay_currency: "USDTTRC20",
  actually_paid: "15",
  creditable,
  suggested_amount: creditable ? 7500 : null,
  max_amount: creditable ? 7500 : null,
  message: creditable ? "NOWPayments reports 15 USDTTRC20 (finished): ₦7,500.00 at the invoice's rate." : 'NOWPayments reports "refunded": no money has arrived to credit.',
  checked_at: "2026-11-25T19:05:00.000Z",
});

let posts: { url: string; body: unknown }[] = [];
function serve(creditable: boolean) {
  posts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    if (init.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      // The server answers slowly: a second click meanwhile must not send a second decision.
      await new Promise((r) => setTimeout(r, 20));
      return new Response(JSON.stringify({ message: "Credited.", balance: 22500, review: { ...item, status: "credited" } }), { status: 200 });
    }
    if (url.includes("/api/admin/reviews/rv_1")) return new Response(JSON.stringify({ review: item, verification: verification(creditable), verifyError: null }), { status: 200 });
    return new Response(JSON.stringify({ data: [item] }), { status: 200 });
  });
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ReviewQueue />
    </QueryClientProvider>,
  );

async function openReview() {
  fireEvent.click(await screen.findByRole("button", { name: "Review: Paid more than the invoice, ada@example.com" }));
  return within(await screen.findByTestId("review-detail"));
}

describe("the review queue on the Deposits page", () => {
  it("credits only after the confirmation step, with the provider's amount prefilled, and sends one decision for two clicks", async () => {
    serve(true);
    show();
    const detail = await openReview();
    expect(await detail.findByText(/₦7,500.00 at the invoice's rate/)).toBeTruthy();
    expect((detail.getByLabelText(/Amount to credit/) as HTMLInputElement).value).toBe("7500");
    // No reason, no decision.
    expect((detail.getByRole("button", { name: "Credit…" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(detail.getByLabelText(/Reason/), { target: { value: "excess confirmed" } });
    fireEvent.click(detail.getByRole("button", { name: "Credit…" }));
    const confirm = within(detail.getByRole("group", { name: "Confirm decision" }));
    expect(confirm.getByText(/Credit ₦7,500.00 to ada@example.com\?/)).toBeTruthy();
    expect(posts).toEqual([]);
    // Cancel goes back without sending anything.
    fireEvent.click(confirm.getByRole("button", { name: "Cancel" }));
    expect(detail.queryByRole("group", { name: "Confirm decision" })).toBeNull();
    fireEvent.click(detail.getByRole("button", { name: "Credit…" }));
    const button = within(detail.getByRole("group", { name: "Confirm decision" })).getByRole("button", { name: "Confirm credit" });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Credited."));
    expect(posts).toEqual([{ url: "/api/admin/reviews/rv_1/resolve", body: { action: "credit", amount: 7500, reason: "excess confirmed" } }]);
  });

  it("a card charged another amount takes a typed amount, Squad's prefilled", async () => {
    const card: ReviewItem = {
      ...item,
      kind: "card",
      id: "rv_2",
      reason: "card_amount_mismatch",
      payment_id: "VN1",
      provider_payment_id: "VN1",
      expected_currency: "NGN",
      expected_amount: "5000",
      pay_currency: "NGN",
      actually_paid: "4000",
      suggested_amount: 4000,
      detail: "Squad confirmed a charge of 4000 NGN for a checkout of 5000 NGN.",
    };
    const squad: Verification = {
      provider: "squad",
      status: "success",
      pay_currency: "NGN",
      actually_paid: "4000",
      creditable: true,
      suggested_amount: 4000,
      max_amount: 4000,
      message: "Squad confirms a charge of ₦4,000.00 for a checkout of ₦5,000.00: at most ₦4,000.00 may be credited.",
      checked_at: "2026-11-25T19:05:00.000Z",
    };
    posts = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      if (init.method === "POST") {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ message: "Credited.", balance: 3500, review: { ...card, status: "credited" } }), { status: 200 });
      }
      if (url.includes("/api/admin/reviews/rv_2")) return new Response(JSON.stringify({ review: card, verification: squad, verifyError: null }), { status: 200 });
      return new Response(JSON.stringify({ data: [card] }), { status: 200 });
    });
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Review: Card charged another amount, ada@example.com" }));
    const detail = within(await screen.findByTestId("review-detail"));
    expect(await detail.findByText(/at most ₦4,000.00 may be credited/)).toBeTruthy();
    expect(detail.getByText("Arrived (recorded)")).toBeTruthy(); // what Squad recorded, beside the ₦5,000 checkout
    const amount = detail.getByLabelText(/Amount to credit/) as HTMLInputElement;
    expect(amount.value).toBe("4000");
    fireEvent.change(amount, { target: { value: "3500" } });
    fireEvent.change(detail.getByLabelText(/Reason/), { target: { value: "bank fee kept" } });
    fireEvent.click(detail.getByRole("button", { name: "Credit…" }));
    fireEvent.click(within(detail.getByRole("group", { name: "Confirm decision" })).getByRole("button", { name: "Confirm credit" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: "/api/admin/reviews/rv_2/resolve", body: { action: "credit", amount: 3500, reason: "bank fee kept" } });
  });

  it("offers only a refusal when the provider reports nothing to credit, and sends no amount with it", async () => {
    serve(false);
    show();
    const detail = await openReview();
    expect(await detail.findByText(/no money has arrived/)).toBeTruthy();
    expect((detail.getByRole("radio", { name: "Credit" }) as HTMLInputElement).disabled).toBe(true);
    expect((detail.getByRole("radio", { name: "Refuse" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(detail.getByLabelText(/Reason/), { target: { value: "refunded upstream" } });
    fireEvent.click(detail.getByRole("button", { name: "Refuse…" }));
    fireEvent.click(within(detail.getByRole("group", { name: "Confirm decision" })).getByRole("button", { name: "Confirm refusal" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ action: "refuse", reason: "refunded upstream" });
  });

  it("the next item opens fresh: the previous item's result and reason are not shown on it", async () => {
    const second: ReviewItem = { ...item, id: "rv_9", user: { id: "u9", email: "bola@example.com", username: "Bola" } };
    posts = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      if (init.method === "POST") {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ message: "Credited.", balance: 22500, review: { ...item, status: "credited" } }), { status: 200 });
      }
      if (url.includes("/api/admin/reviews/rv_9")) return new Response(JSON.stringify({ review: second, verification: verification(true), verifyError: null }), { status: 200 });
      if (url.includes("/api/admin/reviews/rv_1")) return new Response(JSON.stringify({ review: item, verification: verification(true), verifyError: null }), { status: 200 });
      return new Response(JSON.stringify({ data: [item, second] }), { status: 200 });
    });
    show();
    const detail = await openReview();
    await detail.findByText(/₦7,500.00 at the invoice's rate/);
    fireEvent.change(detail.getByLabelText(/Reason/), { target: { value: "excess confirmed" } });
    fireEvent.click(detail.getByRole("button", { name: "Credit…" }));
    fireEvent.click(within(detail.getByRole("group", { name: "Confirm decision" })).getByRole("button", { name: "Confirm credit" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Credited."));

    fireEvent.click(screen.getByRole("button", { name: "Review: Paid more than the invoice, bola@example.com" }));
    const next = within(await screen.findByTestId("review-detail"));
    expect(await next.findByRole("link", { name: "bola@example.com" })).toBeTruthy();
    expect(screen.queryByRole("status")).toBeNull();
    expect((next.getByLabelText(/Reason/) as HTMLInputElement).value).toBe("");
  });
});
