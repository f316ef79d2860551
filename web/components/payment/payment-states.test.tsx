import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RATE_DEFAULTS } from "../../api/payments";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type Answer, type FetchScript } from "../../test/scripted-fetch";
import { CryptoDeposit } from "./crypto-deposit";
import { NgnFundingForm } from "./ngn-funding-form";
import { PendingPaymentsCard } from "./pending-payments-card";

// Issue 18 on the funding screen: the card checkout, its pending payments and the crypto invoice each say when they
// are loading, what an empty list means, and what failed, with a retry that does not lose what the customer typed.

const script: FetchScript = { answers: {}, calls: [] };
const { answers, calls } = script;
const fault = (status: number, message: string): Answer => json(status, { code: "UPSTREAM_UNAVAILABLE", message, error: message });
/** An answer that waits until the test releases it. */
function held(answer: Answer): { answer: Answer; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  return { answer: () => gate.then(answer), release: () => release() };
}

beforeEach(() => {
  installScriptedFetch(script);
  // The select keeps its active option in view; jsdom lays nothing out.
  Element.prototype.scrollIntoView = () => undefined;
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

const show = renderWithQuery;

describe("card checkout", () => {
  it("pending payments: loading says so, a failed read retries, then the server's payment is listed", async () => {
    const first = held(fault(502, "The server is busy."));
    answers["GET /api/payments/pending"] = [first.answer, json(200, { data: [{ ref: "sq_77", amount: 5000, currency: "NGN", created_at: new Date().toISOString() }] })];
    show(<PendingPaymentsCard />);
    expect(screen.getByRole("status").textContent).toContain("Loading pending payments");
    first.release();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Could not load the payments waiting on the server: The server is busy");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    const list = await screen.findByRole("list", { name: "Pending payments" });
    expect(list.textContent).toContain("₦5,000.00");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("no pending payment: says so and what the list is for", async () => {
    answers["GET /api/payments/pending"] = [json(200, { data: [] })];
    show(<PendingPaymentsCard />);
    const empty = await screen.findByTestId("pending-payments-empty");
    expect(empty.textContent).toMatch(/No pending payments.*waits in this list until the checkout confirms it/);
  });

  it("a checkout that could not start says so beside the button, keeps the amount, and Pay again retries", async () => {
    const second = held(json(200, { data: { data: { checkout_url: "about:blank", transaction_ref: "sq_1" } } }));
    answers["POST /api/initialize-transaction"] = [fault(502, "Squad is not answering."), second.answer];
    show(<NgnFundingForm minimum={1000} minimumLoading={false} />);
    const amount = screen.getByLabelText("Amount (₦)") as HTMLInputElement;
    fireEvent.change(amount, { target: { value: "2500" } });
    fireEvent.click(screen.getByRole("button", { name: "Pay with card or bank" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Could not start the payment: Squad is not answering. Nothing was charged: press Pay again to retry.");
    expect(amount.value).toBe("2500");
    fireEvent.click(screen.getByRole("button", { name: "Pay with card or bank" }));
    expect(await screen.findByRole("button", { name: "Starting payment..." })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(calls.filter((c) => c === "POST /api/initialize-transaction")).toHaveLength(2);
  });

  it("while today's minimum loads the hint says so instead of a figure that may be wrong", () => {
    show(<NgnFundingForm minimum={1000} minimumLoading />);
    expect(screen.getByText("Checking today's minimum...")).toBeTruthy();
    expect(screen.queryByText(/Min is/)).toBeNull();
  });
});

describe("crypto invoice", () => {
  it("the coins could not be read: says so and Try again lists them", async () => {
    answers["GET /api/now-merchant"] = [fault(502, "NOWPayments is not answering."), json(200, { currencies: [{ code: "btc", name: "Bitcoin", available_for_payment: true }] })];
    show(<CryptoDeposit settings={RATE_DEFAULTS} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Could not load the coins you can pay with: NOWPayments is not answering");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    fireEvent.click(screen.getByRole("combobox", { name: "Payment currency" }));
    expect(screen.getByRole("option", { name: /BTC · Bitcoin/ })).toBeTruthy();
  });

  it("no coin open for payment: says so and points to paying in NGN", async () => {
    answers["GET /api/now-merchant"] = [json(200, { currencies: [{ code: "xmr", available_for_payment: false }] })];
    show(<CryptoDeposit settings={RATE_DEFAULTS} />);
    expect((await screen.findByTestId("crypto-no-coins")).textContent).toMatch(/No coin can be paid with right now\. Pay in NGN instead/);
  });

  it("an invoice whose status cannot be read keeps its amount and address and retries the status", async () => {
    sessionStorage.setItem(
      "active-invoice",
      JSON.stringify({ invoice: { payment_id: "np_1", pay_amount: 0.0001, pay_currency: "btc", pay_address: "bc1qexample" }, expiresAt: Date.now() + 600_000, usd: 10 }),
    );
    // NOWPayments fails until the customer retries (the status is one query, however many parts of the screen read it).
    let failing = true;
    const first = held(fault(502, "NOWPayments is not answering."));
    const answer: Answer = () => (failing ? first.answer() : json(200, { payment_status: "waiting", credited: false })());
    answers["GET /api/now-status"] = [answer, answer, answer, answer];
    show(<CryptoDeposit settings={RATE_DEFAULTS} />);
    expect(screen.getByTestId("invoice-status").textContent).toBe("checking...");
    first.release();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Could not load this invoice's status (the amount and address below still work)");
    expect(screen.getByTestId("invoice-address").textContent).toBe("bc1qexample");
    failing = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getByTestId("invoice-status").textContent).toBe("waiting for payment"));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("an invoice paid in part closes: what was credited, no countdown, address or QR, and a new invoice to pay more (issue 43)", async () => {
    sessionStorage.setItem(
      "active-invoice",
      JSON.stringify({ invoice: { payment_id: "np_2", pay_amount: 10, pay_currency: "usdttrc20", pay_address: "TXexample" }, expiresAt: Date.now() + 600_000, usd: 10 }),
    );
    const outcome = { state: "underpaid", arrived: "5 USDTTRC20", invoiced: 15_500, credited: 7_750, message: "₦7,750.00 credited of the ₦15,500.00 invoice (₦7,750.00 short)." };
    answers["GET /api/now-status"] = [json(200, { payment_status: "finished", credited: true, outcome })];
    answers["GET /api/user-balance"] = [json(200, { balance: 7_750 })];
    answers["GET /api/get-transaction"] = [json(200, [])];
    show(<CryptoDeposit settings={RATE_DEFAULTS} />);
    const closed = await screen.findByTestId("invoice-closed");
    expect(within(closed).getByRole("heading", { name: "Invoice closed" })).toBeTruthy();
    expect(within(closed).getByTestId("invoice-outcome").textContent).toBe(outcome.message);
    expect(within(closed).getByTestId("invoice-next").textContent).toMatch(/^₦7,750\.00 credited; make a new invoice to pay more\. Do not send/);
    expect(screen.queryByTestId("invoice-countdown")).toBeNull();
    expect(screen.queryByTestId("invoice-address")).toBeNull();
    expect(screen.queryByText(/Send exactly the required amount/)).toBeNull();
    expect(screen.queryByText("finished")).toBeNull();
    fireEvent.click(within(closed).getByRole("button", { name: "Make a new invoice" }));
    expect(await screen.findByRole("button", { name: "Create Invoice" })).toBeTruthy();
    expect(sessionStorage.getItem("active-invoice")).toBeNull();
  });
});
