import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Order } from "../../api/orders";
import { OrdersTable } from "./orders-table";

const order = (over: Partial<Order> = {}): Order => ({
  kind: "sms",
  reference_code: "ord_1",
  purchased_number: "+15550001111",
  sms: null,
  country: "USA",
  service: "WhatsApp",
  provider: "Swift",
  amount: 1200,
  status: "waiting",
  ...over,
});

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

describe("OrdersTable", () => {
  it("says No results found. when empty", () => {
    render(<OrdersTable orders={[]} />);
    expect(screen.getByText("No results found.")).toBeTruthy();
    expect(screen.queryByRole("columnheader", { name: "Action" })).toBeNull();
  });

  it("shows the spec's columns, the amount in naira and 'Waiting...' while no code", () => {
    render(<OrdersTable orders={[order()]} />);
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Order ID", "Number", "Code", "Country", "Service", "Provider", "Amount (₦)", "Status"]);
    expect(screen.getByText("₦1,200.00")).toBeTruthy();
    expect(screen.getByText("Waiting...")).toBeTruthy();
  });

  it("shows a code with its copy button, and no 'Waiting...' for a finished order", () => {
    render(<OrdersTable orders={[order({ sms: "482913", status: "used" }), order({ reference_code: "ord_2", status: "cancelled" })]} />);
    expect(screen.getByRole("button", { name: "Copy code 482913" })).toBeTruthy();
    expect(screen.queryByText("Waiting...")).toBeNull();
  });

  it("adds the Action column when asked", () => {
    render(<OrdersTable orders={[order({ kind: "rental" })]} action={() => <button type="button">Inbox</button>} />);
    expect(screen.getByRole("columnheader", { name: "Action" })).toBeTruthy();
    const row = screen.getAllByRole("row")[1];
    expect(within(row).getByRole("button", { name: "Inbox" })).toBeTruthy();
  });
});
