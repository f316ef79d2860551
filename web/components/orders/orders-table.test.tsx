import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OrderRow } from "../../../schema/sms";
import { OrdersTable } from "./orders-table";

const order = (over: Partial<OrderRow> = {}): OrderRow => ({
  kind: "sms",
  reference_code: "ord_1",
  purchased_number: "+15550001111",
  sms: null,
  country: "USA",
  service: "WhatsApp",
  provider: "Swift",
  amount: 1200,
  status: "waiting",
  balance: 0,
  created_at: "2026-01-01T00:00:00.000Z",
  ...over,
});

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A phone-width viewport as matchMedia reports it. */
function narrowScreen() {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === "(max-width: 639px)",
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe("OrdersTable", () => {
  it("says No results found. when empty", () => {
    render(<OrdersTable orders={[]} />);
    expect(screen.getByText("No results found.")).toBeTruthy();
    expect(screen.queryByRole("columnheader", { name: "Action" })).toBeNull();
  });

  it("shows the spec's columns, the amount in naira and 'Waiting...' while no code", () => {
    render(<OrdersTable orders={[order()]} />);
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Order ID", "Number", "Code", "Country", "Service", "Provider", "Amount", "Status"]);
    expect(screen.getByText("₦1,200.00")).toBeTruthy();
    expect(screen.getByText("Waiting...")).toBeTruthy();
  });

  it("shows a code with its copy button, and no 'Waiting...' for a finished order", () => {
    render(<OrdersTable orders={[order({ sms: "482913", status: "used" }), order({ reference_code: "ord_2", status: "cancelled" })]} />);
    expect(screen.getByRole("button", { name: "Copy code 482913" })).toBeTruthy();
    expect(screen.queryByText("Waiting...")).toBeNull();
  });

  it("shows the chain of a 'try another number' purchase: each number its own row with its try", () => {
    render(
      <OrdersTable
        orders={[
          order({ reference_code: "ord_2", chain_id: "ord_1", chain_step: 2, country: "India", provider: "Dynamic", status: "used", sms: "123456", amount: 48 }),
          order({ reference_code: "ord_1", chain_id: "ord_1", chain_step: 1, status: "timeout", amount: 120 }),
          order({ reference_code: "ord_3" }),
        ]}
      />,
    );
    expect(screen.getAllByTestId("order-chain-step").map((e) => e.textContent)).toEqual(["(try 2)", "(try 1)"]);
  });

  it("says when each rented number last received a message (issue 49), in Lagos time", () => {
    render(
      <OrdersTable
        orders={[
          order({ kind: "rental", reference_code: "r1", status: "active", last_message_at: "2026-01-02T09:05:00.000Z" }),
          order({ kind: "rental", reference_code: "r2", status: "active", last_message_at: null }),
          order({ reference_code: "s1" }),
        ]}
      />,
    );
    expect(screen.getAllByTestId("rental-last-message").map((e) => e.textContent)).toEqual(["Last SMS Jan 2, 10:05 AM WAT", "No SMS yet"]);
  });

  it("adds the Action column when asked", () => {
    render(<OrdersTable orders={[order({ kind: "rental" })]} action={() => <button type="button">Inbox</button>} />);
    expect(screen.getByRole("columnheader", { name: "Action" })).toBeTruthy();
    const row = screen.getAllByRole("row")[1];
    expect(within(row).getByRole("button", { name: "Inbox" })).toBeTruthy();
  });

  it("reads statuses as words, keeps the spec's badge style, and writes the number for its country", () => {
    render(<OrdersTable orders={[order({ sms: "482913", status: "used", purchased_number: "2348031234567" }), order({ reference_code: "ord_2", status: "timeout" })]} />);
    expect(screen.getByText("Code received")).toBeTruthy();
    expect(screen.getByText("No code · refunded")).toBeTruthy();
    expect(screen.queryByText("used")).toBeNull();
    expect(screen.getByText("+234 803 123 4567")).toBeTruthy();
  });

  it("shows a short order id and copies the full one", () => {
    const id = "3f2a9c1e-7b4d-4e8a-9f00-123456789abc";
    render(<OrdersTable orders={[order({ reference_code: id })]} />);
    expect(screen.getByText("3f2a9c1e")).toBeTruthy();
    expect(screen.queryByText(id)).toBeNull();
    expect(screen.getByRole("button", { name: `Copy order ID ${id}` })).toBeTruthy();
  });

  it("lets keyboard users scroll the table (a focusable, named region)", () => {
    render(<OrdersTable orders={[order()]} caption="Recent SMS orders" />);
    const region = screen.getByRole("region", { name: "Recent SMS orders" });
    expect(region.tabIndex).toBe(0);
  });

  it("shows one card per order on a phone, with every column's value", () => {
    narrowScreen();
    render(<OrdersTable orders={[order({ sms: "482913", status: "used" }), order({ reference_code: "ord_2" })]} action={() => <button type="button">Inbox</button>} />);
    expect(screen.queryByRole("table")).toBeNull();
    const cards = screen.getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    const first = within(cards[0]);
    for (const text of ["WhatsApp · USA", "+1 555 000 1111", "482913", "ord_1", "Swift", "₦1,200.00", "Code received"]) expect(first.getByText(text)).toBeTruthy();
    expect(first.getByRole("button", { name: "Inbox" })).toBeTruthy();
    expect(within(cards[1]).getByText("Waiting...")).toBeTruthy();
  });

  it("says No results found. on a phone too", () => {
    narrowScreen();
    render(<OrdersTable orders={[]} />);
    expect(screen.getByText("No results found.")).toBeTruthy();
  });
});
