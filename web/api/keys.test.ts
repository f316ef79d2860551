import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { handleRealtimeFrame, RESYNC_KEYS, invalidateKeys } from "../realtime/messages";
import { invoiceStatusQueryOptions, pendingPaymentsQueryOptions } from "./payments";
import { ordersQueryOptions } from "./orders";
import { rentalQueryOptions } from "./rentals";
import { smsOrderQueryOptions } from "./sms";
import { balanceQueryOptions, transactionsQueryOptions } from "./wallet";
import { levelQueryOptions, linksQueryOptions } from "./content";

vi.mock("../lib/toast", async (original) => ({ ...(await original<typeof import("../lib/toast")>()), toast: { success: vi.fn(), info: vi.fn(), error: vi.fn(), warning: vi.fn() } }));
// A pushed code loads the hidden-tab alert by a dynamic import; the test waits for it (web/realtime/messages.test.ts says why).
const alerts = vi.hoisted(() => ({ alertIfHidden: vi.fn() }));
vi.mock("../lib/code-alerts", () => alerts);

/** A cache holding the queries the dashboard and the dialogs read, each under the key its api module builds. */
function seeded() {
  const qc = new QueryClient();
  const keys = {
    balance: balanceQueryOptions().queryKey,
    transactions: transactionsQueryOptions().queryKey,
    orders: ordersQueryOptions().queryKey,
    level: levelQueryOptions().queryKey,
    pending: pendingPaymentsQueryOptions().queryKey,
    invoice: invoiceStatusQueryOptions("pay-1").queryKey,
    otherInvoice: invoiceStatusQueryOptions("pay-2").queryKey,
    smsOrder: smsOrderQueryOptions("req-1").queryKey,
    otherSmsOrder: smsOrderQueryOptions("req-2").queryKey,
    rental: rentalQueryOptions("rent-1").queryKey,
    links: linksQueryOptions().queryKey,
  };
  for (const key of Object.values(keys)) qc.setQueryData<object>(key as QueryKey, {});
  const stale = () =>
    Object.entries(keys)
      .filter(([, key]) => qc.getQueryState(key)?.isInvalidated)
      .map(([name]) => name)
      .sort();
  return { qc, stale };
}

const frame = (message: object) => JSON.stringify(message);

describe("one key factory for the api modules and the realtime map", () => {
  it("a pushed code makes exactly that order and the orders list stale", async () => {
    const { qc, stale } = seeded();
    handleRealtimeFrame(qc, frame({ kind: "sms.code", orderId: "req-1", code: "123456", number: "+15550001111" }));
    expect(stale()).toEqual(["orders", "smsOrder"]);
    await vi.waitFor(() => expect(alerts.alertIfHidden).toHaveBeenCalledTimes(1));
  });

  it("a credited deposit reaches the wallet, the tier, the pending payments and that invoice only", () => {
    const { qc, stale } = seeded();
    handleRealtimeFrame(qc, frame({ kind: "payment.credited", paymentId: "pay-1", amount: 5000, balance: 5000 }));
    expect(stale()).toEqual(["balance", "invoice", "level", "orders", "pending", "transactions"]);
  });

  it("an ended rental with a refund reaches its inbox, the orders and the wallet", () => {
    const { qc, stale } = seeded();
    handleRealtimeFrame(qc, frame({ kind: "rental.ended", rentalId: "rent-1", status: "cancelled", refunded: true }));
    expect(stale()).toEqual(["balance", "orders", "rental", "transactions"]);
  });

  it("the resync after a dropped socket refreshes every live query, every order and invoice, and nothing static", () => {
    const { qc, stale } = seeded();
    invalidateKeys(qc, RESYNC_KEYS);
    expect(stale()).toEqual(
      ["balance", "invoice", "level", "orders", "otherInvoice", "otherSmsOrder", "pending", "rental", "smsOrder", "transactions"].sort(),
    );
  });
});
