import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OrderRow } from "../../../schema/sms";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { OrdersPanel } from "./orders-panel";
import type { PendingSmsRequest } from "../sms/pending-request";
import { useNumberAgainChoice } from "./use-again";

vi.mock("../../lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));
vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "token-1" }));

const row = (over: Partial<OrderRow>): OrderRow => ({
  kind: "sms",
  reference_code: "ord_old",
  purchased_number: "15550001111",
  sms: "123456",
  country: "USA",
  service: "WhatsApp",
  provider: "Swift",
  amount: 1200,
  status: "used",
  balance: 5000,
  created_at: "2026-01-01T00:00:00.000Z",
  ...over,
});

const quote = { request_id: "ord_old", number: "15550001111", service: "WhatsApp", country: "USA", price: 1250, typical_wait_seconds: 95, refund_after_seconds: 600 };
const bought = { phone: { request_id: "ord_new", number: "15550001111" }, table: { purchased_number: "15550001111", sms: null, reference_code: "ord_new" }, debitRef: "buy:ord_new", price: 1300 };

const bodies: unknown[] = [];
const script: FetchScript = { answers: {}, calls: [], bodies };
beforeEach(() => installScriptedFetch(script));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** As the Receive SMS screen uses it: the row's button, the dialog beside the table. */
function Screen({ onStarted }: { onStarted: (request: PendingSmsRequest) => void }) {
  const again = useNumberAgainChoice(onStarted);
  return (
    <>
      <OrdersPanel title="Recent SMS Orders" caption="Recent SMS orders" kind="sms" action={again.action} />
      {again.dialog}
    </>
  );
}

function show(orders: OrderRow[], onStarted = vi.fn()) {
  // Read again after each purchase attempt (the money views are invalidated).
  script.answers["GET /api/orders"] = Array.from({ length: 5 }, () => json(200, { data: orders }));
  renderWithQuery(<Screen onStarted={onStarted} />);
  return onStarted;
}

describe("Use this number again", () => {
  it("is offered only on a row the server marked use_again: absent, not disabled, elsewhere", async () => {
    show([row({ reference_code: "ord_old", use_again: true }), row({ reference_code: "ord_dyn", provider: "Dynamic", purchased_number: "79001234567" })]);
    const table = await screen.findByTestId("orders-table");
    const buttons = within(table).getAllByRole("button", { name: /^Use again: this number/ });
    expect(buttons).toHaveLength(1);
    expect(buttons[0].closest("[data-order-id]")?.getAttribute("data-order-id")).toBe("ord_old");
    expect(within(table).getByRole("columnheader", { name: "Action" })).toBeTruthy();
  });

  it("shows no Action column when no row can be used again", async () => {
    show([row({ reference_code: "ord_dyn", provider: "Dynamic" })]);
    const table = await screen.findByTestId("orders-table");
    expect(within(table).queryByRole("columnheader", { name: "Action" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Use again: this number/ })).toBeNull();
  });

  it("says the price, the usual wait and the refund before the click; a moved price asks again; the new order opens like a purchase", async () => {
    const onStarted = show([row({ use_again: true })]);
    script.answers["GET /api/sms/use-again/ord_old"] = [json(200, quote)];
    fireEvent.click(await screen.findByRole("button", { name: /^Use again: this number/ }));

    const dialog = await screen.findByTestId("use-again-dialog");
    await within(dialog).findByText("It costs ₦1,250.00, charged now as a new order.");
    expect(within(dialog).getByTestId("use-again-wait").textContent).toBe("A code for WhatsApp usually comes within 1 min 35 s (our orders of the last 30 days).");
    expect(within(dialog).getByText("If no code comes within 10 min, the price goes back to your wallet.")).toBeTruthy();
    expect(script.calls).not.toContain("POST /api/sms/use-again");

    // The server's price moved since the quote: nothing charged, the new price is said and the next click sends it.
    script.answers["POST /api/sms/use-again"] = [
      json(409, { code: "PRICE_CHANGED", message: "The price has changed.", price: 1300 }),
      json(200, bought),
    ];
    fireEvent.click(screen.getByRole("button", { name: "Use again for ₦1,250.00" }));
    await screen.findByTestId("use-again-price-changed");
    expect(bodies.at(-1)).toEqual({ request_id: "ord_old", price: 1250 });
    fireEvent.click(screen.getByRole("button", { name: "Use again for ₦1,300.00" }));
    await waitFor(() => expect(onStarted).toHaveBeenCalledTimes(1));
    expect(bodies.at(-1)).toEqual({ request_id: "ord_old", price: 1300 });
    expect(onStarted.mock.calls[0][0]).toMatchObject({ request_id: "ord_new", number: "15550001111", cost: 1300, debitRef: "buy:ord_new" });
    await waitFor(() => expect(screen.queryByTestId("use-again-dialog")).toBeNull());
  });

  it("says when there are too few orders to quote a wait, and a short wallet shows what is missing", async () => {
    show([row({ use_again: true })]);
    script.answers["GET /api/sms/use-again/ord_old"] = [json(200, { ...quote, typical_wait_seconds: null })];
    fireEvent.click(await screen.findByRole("button", { name: /^Use again: this number/ }));
    expect((await screen.findByTestId("use-again-wait")).textContent).toMatch(/too few recent orders/);
    script.answers["POST /api/sms/use-again"] = [json(402, { code: "INSUFFICIENT_BALANCE", message: "Insufficient balance", shortfall: 250 })];
    fireEvent.click(screen.getByRole("button", { name: "Use again for ₦1,250.00" }));
    await waitFor(() => expect(bodies.length).toBe(1));
    expect((await screen.findByTestId("shortfall")).textContent).toContain("you need ₦250.00 more");
  });

  it("a number no longer eligible says the server's sentence and offers no price", async () => {
    show([row({ use_again: true })]);
    script.answers["GET /api/sms/use-again/ord_old"] = [json(409, { code: "INVALID_STATE", message: "This number cannot be used again. Please buy a new number." })];
    fireEvent.click(await screen.findByRole("button", { name: /^Use again: this number/ }));
    expect((await screen.findByTestId("use-again-refused")).textContent).toBe("This number cannot be used again. Please buy a new number.");
    expect((screen.getByTestId("use-again-confirm") as HTMLButtonElement).disabled).toBe(true);
  });
});
