import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RealtimeMessage } from "../../schema/realtime";
import { PAYMENT_MESSAGES, SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE } from "../../schema/constants";
import { PAYMENT_TOAST_ID } from "../lib/toast";
import { NEXT_ROUTE_TOAST, handleRealtimeFrame, toastFor } from "./messages";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock("../lib/toast", async (original) => ({ ...(await original<typeof import("../lib/toast")>()), toast }));
// The hidden-tab alert is loaded on the first code (a dynamic import). The tests wait for it to receive the message: an
// import still loading when the file's environment is torn down (seen on a loaded machine) is an unhandled rejection.
const alerts = vi.hoisted(() => ({ alertIfHidden: vi.fn() }));
vi.mock("../lib/code-alerts", () => alerts);

/** Every query a signed-in screen may hold, so each test can see which ones a message made stale and which it left. */
const CACHED: QueryKey[] = [
  ["balance"],
  ["transactions"],
  ["orders"],
  ["level"],
  ["tiers"],
  ["links"],
  ["ads"],
  ["payments", "pending"],
  ["invoice", "pay-1"],
  ["invoice", "pay-2"],
  ["sms-order", "req-1"],
  ["sms-order", "req-2"],
  ["rental", "rent-1"],
  ["rental", "rent-2"],
];

let queryClient: QueryClient;
beforeEach(() => {
  vi.clearAllMocks();
  queryClient = new QueryClient();
  for (const key of CACHED) queryClient.setQueryData(key, { seeded: true });
});

function staleAfter(message: RealtimeMessage | string): string[] {
  handleRealtimeFrame(queryClient, typeof message === "string" ? message : JSON.stringify(message));
  return CACHED.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => key.join(":"));
}
const toastsShown = () =>
  Object.entries(toast).flatMap(([type, fn]) => fn.mock.calls.map((args) => ({ type, message: args[0], options: args[1] })));

describe("a realtime message refreshes exactly the queries it affects and shows the spec's toast where one is due", () => {
  it("an underpaid deposit's toast is the server's sentence with the shortfall, never the bare confirmation (issue 28)", () => {
    const message = "5 USDTTRC20 of 10 USDTTRC20 arrived: ₦7,500.00 credited of the ₦15,000.00 invoice (₦7,500.00 short).";
    expect(toastFor({ kind: "payment.credited", paymentId: "p", amount: 7500, balance: 7500, message })).toEqual({ type: "success", message, id: PAYMENT_TOAST_ID });
  });

  it("payment credited: wallet, history, orders, tier, pending payments and that invoice; 'Payment confirmed successfully!'", () => {
    expect(staleAfter({ kind: "payment.credited", paymentId: "pay-1", amount: 5000, balance: 7500 })).toEqual([
      "balance",
      "transactions",
      "orders",
      "level",
      "payments:pending",
      "invoice:pay-1",
    ]);
    expect(toastsShown()).toEqual([{ type: "success", message: PAYMENT_MESSAGES.success, options: { id: PAYMENT_TOAST_ID } }]);
  });

  it("payment failed: history, pending payments and that invoice, not the balance; an error toast with the server's text", () => {
    expect(staleAfter({ kind: "payment.failed", paymentId: "pay-2", status: "failed", message: "Transaction not successful" })).toEqual([
      "transactions",
      "payments:pending",
      "invoice:pay-2",
    ]);
    expect(toastsShown()).toEqual([{ type: "error", message: "Transaction not successful", options: { id: PAYMENT_TOAST_ID } }]);
  });

  it("SMS code: that order and the orders list only, no toast (the dialog shows the code); the hidden-tab alert gets it", async () => {
    const code = { kind: "sms.code", orderId: "req-1", code: "123456", number: "+15550001111" } as const;
    expect(staleAfter(code)).toEqual(["orders", "sms-order:req-1"]);
    expect(toastsShown()).toEqual([]);
    await vi.waitFor(() => expect(alerts.alertIfHidden).toHaveBeenCalledWith(code));
  });

  it("SMS timed out with a refund: that order, orders, wallet and history; '⏰ Timeout: No code received'", () => {
    expect(
      staleAfter({ kind: "sms.ended", orderId: "req-2", status: "timeout", refunded: true, message: "SMS polling timed out, code not sent." }),
    ).toEqual(["balance", "transactions", "orders", "sms-order:req-2"]);
    expect(toastsShown()).toEqual([{ type: "error", message: SMS_TIMEOUT_MESSAGE, options: { id: "sms-ended:req-2" } }]);
  });

  it("a 'try another number' route without a code: refunded, and an info toast that the next number is coming (not a failure)", () => {
    expect(
      staleAfter({ kind: "sms.ended", orderId: "req-2", status: "timeout", refunded: true, message: "⏰ Timeout: No code received", nextOrderId: "req-4" }),
    ).toEqual(["balance", "transactions", "orders", "sms-order:req-2"]);
    expect(toastsShown()).toEqual([{ type: "info", message: NEXT_ROUTE_TOAST, options: { id: "sms-ended:req-2" } }]);
  });

  it("SMS polling error: '❌ Error polling SMS'; without a refund the wallet is left alone", () => {
    expect(staleAfter({ kind: "sms.ended", orderId: "req-1", status: "error", refunded: false, message: "Error polling SMS" })).toEqual([
      "orders",
      "sms-order:req-1",
    ]);
    expect(toastsShown()).toEqual([{ type: "error", message: SMS_ERROR_MESSAGE, options: { id: "sms-ended:req-1" } }]);
  });

  it("SMS cancelled with a refund: refreshed silently (the cancelling tab already said 'cancelled purchase successfully')", () => {
    expect(staleAfter({ kind: "sms.ended", orderId: "req-1", status: "cancelled", refunded: true, message: "Cancelled" })).toEqual([
      "balance",
      "transactions",
      "orders",
      "sms-order:req-1",
    ]);
    expect(toastsShown()).toEqual([]);
  });

  it("rental SMS: that rental's inbox and the orders list, no toast; the hidden-tab alert gets it", async () => {
    const sms = { kind: "rental.sms", rentalId: "rent-2", sender: "WhatsApp", text: "Code 4242", code: "4242" } as const;
    expect(staleAfter(sms)).toEqual(["orders", "rental:rent-2"]);
    expect(toastsShown()).toEqual([]);
    await vi.waitFor(() => expect(alerts.alertIfHidden).toHaveBeenCalledWith(sms));
  });

  it("rental ended with a refund: that rental, orders, wallet and history", () => {
    expect(staleAfter({ kind: "rental.ended", rentalId: "rent-1", status: "cancelled", refunded: true })).toEqual([
      "balance",
      "transactions",
      "orders",
      "rental:rent-1",
    ]);
    expect(toastsShown()).toEqual([]);
  });

  it("a renewal reminder: that rental and the wallet (the early 'short' warning); its sentence is the server's own toast", () => {
    expect(staleAfter({ kind: "rental.renewing", rentalId: "rent-2", renewsAt: "2026-11-23T13:50:00.000Z", price: 900, funded: false })).toEqual([
      "balance",
      "rental:rent-2",
    ]);
    expect(toastsShown()).toEqual([]);
  });

  it("a rental ends in an hour: that rental only; its sentence is the server's own toast", () => {
    expect(staleAfter({ kind: "rental.ending", rentalId: "rent-2", endsAt: "2026-11-23T14:50:00.000Z" })).toEqual(["rental:rent-2"]);
    expect(toastsShown()).toEqual([]);
  });

  it("balance changed: wallet and history only", () => {
    expect(staleAfter({ kind: "balance.changed", balance: 120 })).toEqual(["balance", "transactions"]);
    expect(toastsShown()).toEqual([]);
  });

  it("the generic notification shows its own type and text and refreshes nothing", () => {
    expect(staleAfter({ kind: "toast", type: "warning", message: "Maintenance at 22:00" })).toEqual([]);
    expect(toastsShown()).toEqual([{ type: "warning", message: "Maintenance at 22:00", options: undefined }]);
  });

  it("garbage, an unknown kind or a wrong shape changes nothing and throws nothing", () => {
    for (const frame of ["not json", "{}", JSON.stringify({ kind: "payment.credited", paymentId: 1 }), JSON.stringify({ kind: "future.thing" })]) {
      expect(handleRealtimeFrame(queryClient, frame)).toBeNull();
    }
    expect(handleRealtimeFrame(queryClient, new ArrayBuffer(4))).toBeNull();
    expect(CACHED.filter((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([]);
    expect(toastsShown()).toEqual([]);
  });
});
