import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TransferView } from "../../../schema/transfers";
import { saveSession } from "../../lib/session";
import { handleRealtimeFrame } from "../../realtime/messages";
import { installScriptedFetch, json, type FetchScript } from "../../test/scripted-fetch";
import { TransferDeposit } from "./transfer-deposit";

// Issue 31, Pay by transfer: the account to pay into, the exact amount and a countdown; the card follows the payment
// through the realtime push (no Verify button) and says "Credited ₦X", or "being checked" for money held for review.

const script: FetchScript = { answers: {}, calls: [] };
const { answers, calls } = script;

const waiting: TransferView = {
  ref: "VT1",
  state: "waiting",
  bank_name: "GTBank",
  account_number: "4879261135",
  account_name: "SQUAD_VIRTUALNUM",
  amount: 5000,
  credited_amount: null,
  checking_amount: 0,
  expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
  detail: null,
};

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TransferDeposit minimum={1000} />
    </QueryClientProvider>,
  );
  return client;
}

async function startTransfer() {
  answers["POST /api/transfers"] = [json(200, waiting)];
  fireEvent.change(await screen.findByLabelText("Amount (₦)"), { target: { value: "5000" } });
  fireEvent.click(screen.getByRole("button", { name: "Get an account number" }));
  await screen.findByTestId("transfer-account-number");
}

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
  answers["GET /api/transfers/active"] = [json(200, { data: null })];
  answers["GET /api/transfers/static-account"] = [json(200, { data: null })];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("Pay by transfer", () => {
  it("refuses an amount below the card's minimum without asking the server", async () => {
    show();
    fireEvent.change(await screen.findByLabelText("Amount (₦)"), { target: { value: "500" } });
    fireEvent.click(screen.getByRole("button", { name: "Get an account number" }));
    expect(await screen.findByText("min amount is ₦1,000.00")).toBeTruthy();
    expect(calls).not.toContain("POST /api/transfers");
  });

  it("shows bank, account number, name, exact amount and countdown, then 'Credited ₦5,000.00' when the push lands", async () => {
    const client = show();
    await startTransfer();
    expect(screen.getByTestId("transfer-account-number").textContent).toBe("4879261135");
    expect(screen.getByTestId("transfer-amount").textContent).toBe("₦5,000.00");
    expect(screen.getByText("GTBank")).toBeTruthy();
    expect(screen.getByText("SQUAD_VIRTUALNUM")).toBeTruthy();
    expect(screen.getByTestId("transfer-countdown").textContent).toMatch(/^00:(29|30):\d\d$/);
    expect(screen.getByRole("button", { name: "Copy account number" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy amount" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /verify/i })).toBeNull();

    answers["GET /api/transfers/VT1"] = [json(200, { ...waiting, state: "credited", credited_amount: 5000 })];
    handleRealtimeFrame(client, JSON.stringify({ kind: "payment.credited", paymentId: "VT1", amount: 5000, balance: 5000 }));
    expect((await screen.findByText("Credited ₦5,000.00")).closest("[data-testid]")?.getAttribute("data-testid")).toBe("transfer-state");
    expect(screen.queryByTestId("transfer-account-number")).toBeNull();
  });

  it("money held for review: 'received, being checked', never 'Credited'", async () => {
    const client = show();
    await startTransfer();
    answers["GET /api/transfers/VT1"] = [json(200, { ...waiting, state: "checking", checking_amount: 4900 })];
    handleRealtimeFrame(client, JSON.stringify({ kind: "payment.failed", paymentId: "VT1", status: "review", message: "We received ₦4,900.00 by bank transfer." }));
    expect((await screen.findByTestId("transfer-state")).textContent).toBeTruthy();
    expect(await screen.findByText(/₦4,900\.00 received, being checked/)).toBeTruthy();
    expect(screen.queryByText(/Credited/)).toBeNull();
  });

  it("issue 43: the operator's decision reaches the card live: credited with support's words, or refused", async () => {
    const client = show();
    await startTransfer();
    const said = 'Support checked ₦4,900.00 and credited ₦4,900.00 to your wallet. Support says: "Thanks."';
    answers["GET /api/transfers/VT1"] = [json(200, { ...waiting, state: "credited", credited_amount: 4900, detail: said })];
    handleRealtimeFrame(client, JSON.stringify({ kind: "payment.credited", paymentId: "VT1", amount: 4900, balance: 4900, message: said }));
    await screen.findByText("Credited ₦4,900.00");
    expect(screen.getByTestId("transfer-state").textContent).toContain(said);
    const refused = 'Support checked ₦4,900.00 and could not credit it: no money moved. Support says: "Reversed by your bank."';
    answers["GET /api/transfers/VT1"] = [json(200, { ...waiting, state: "refused", detail: refused })];
    handleRealtimeFrame(client, JSON.stringify({ kind: "payment.failed", paymentId: "VT1", status: "refused", message: refused }));
    await waitFor(() => expect(screen.getByTestId("transfer-state").textContent).toBe(refused));
    expect(screen.getByRole("button", { name: "New transfer" })).toBeTruthy();
  });
});
