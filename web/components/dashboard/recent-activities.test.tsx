import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RecentActivities } from "./recent-activities";
import type { Transaction } from "./transactions";

const rows: Transaction[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  user_id: "u1",
  status: i % 5 === 0 ? "refunded" : "successful",
  amount: i === 0 ? 1234.5 : 100,
  note: i === 1 ? "Wallet deposit (card)" : "SMS purchase",
  created_at: `2024-03-${String(25 - i).padStart(2, "0")}T10:00:00Z`,
}));

function visibleRows() {
  return within(screen.getByRole("list", { name: "Transactions" })).getAllByRole("listitem");
}

describe("Recent Activities", () => {
  afterEach(cleanup);
  // jsdom has no layout: the select scrolls its active option into view.
  beforeAll(() => {
    Element.prototype.scrollIntoView ??= () => {};
  });

  it("pages by 10 with 'Show More (N left)'", () => {
    render(<RecentActivities rows={rows} loading={false} />);
    expect(screen.getByText("25 transactions")).toBeTruthy();
    expect(visibleRows()).toHaveLength(10);
    fireEvent.click(screen.getByRole("button", { name: "Show More (15 left)" }));
    expect(visibleRows()).toHaveLength(20);
    fireEvent.click(screen.getByRole("button", { name: "Show More (5 left)" }));
    expect(visibleRows()).toHaveLength(25);
    expect(screen.queryByRole("button", { name: /Show More/ })).toBeNull();
  });

  it("signs follow the money (issue 28): deposit +, refund +, purchase -", () => {
    render(<RecentActivities rows={rows.slice(0, 3)} loading={false} />);
    const [refund, deposit, purchase] = visibleRows();
    expect(refund.textContent).toContain("+₦1,234.50");
    expect(refund.textContent).toContain("Refunded");
    expect(deposit.textContent).toContain("+₦100.00");
    expect(purchase.textContent).toContain("-₦100.00");
    expect(within(refund).getByText("+₦1,234.50").className).toContain("orange");
    expect(within(deposit).getByText("+₦100.00").className).toContain("emerald");
    expect(within(purchase).getByText("-₦100.00").className).toContain("red");
  });

  it("a failed deposit shows ₦0.00 with no sign and 'No money moved'; a refund says it came back", () => {
    const failedDeposit: Transaction = { id: "f1", user_id: "u1", status: "failed", amount: 5000, note: "Wallet deposit (card)", created_at: "2024-03-26T10:00:00Z" };
    render(<RecentActivities rows={[failedDeposit, rows[0], rows[2]]} loading={false} />);
    const [failed, refund, purchase] = visibleRows();
    expect(within(failed).getByTestId("transaction-amount").textContent).toBe("₦0.00");
    expect(failed.textContent).not.toContain("-₦");
    expect(within(failed).getByText("No money moved (₦5,000.00 not charged)")).toBeTruthy();
    expect(within(refund).getByText("Returned to your wallet")).toBeTruthy();
    expect(within(purchase).queryByTestId("transaction-meaning")).toBeNull();
  });

  it("a server-signed row follows its direction, and a held crypto payment shows with what arrived and what happens next", () => {
    const adminDebit: Transaction = { id: "a1", user_id: "u1", status: "successful", amount: 300, note: "Adjustment by support", created_at: "2024-03-27T10:00:00Z", direction: "out" };
    const held: Transaction = {
      id: "rv_1",
      user_id: "u1",
      status: "pending",
      amount: 0,
      note: "Wallet deposit (BTC)",
      created_at: "2024-03-28T10:00:00Z",
      direction: "none",
      detail: "0.0002 BTC arrived, but the invoice asked for 10 USDTTRC20. Nothing credited yet. Received, being checked by support.",
    };
    render(<RecentActivities rows={[held, adminDebit]} loading={false} />);
    const [heldRow, debit] = visibleRows();
    expect(within(heldRow).getByTestId("transaction-amount").textContent).toBe("₦0.00");
    expect(within(heldRow).getByTestId("transaction-detail").textContent).toContain("being checked by support");
    expect(within(heldRow).getByText("Not credited yet")).toBeTruthy();
    expect(within(debit).getByTestId("transaction-amount").textContent).toBe("-₦300.00");
  });

  it("filters with a badge, and changing or clearing the filter resets the page to 10", () => {
    render(<RecentActivities rows={rows} loading={false} />);
    fireEvent.click(screen.getByRole("button", { name: "Show More (15 left)" }));
    fireEvent.click(screen.getByRole("combobox", { name: "Filter transactions by status" }));
    fireEvent.click(screen.getByRole("option", { name: "Successful" }));
    // 20 successful rows: back to the first 10, and a badge names the filter beside the title.
    expect(visibleRows()).toHaveLength(10);
    expect(screen.getByRole("heading", { name: "Recent Activities" }).parentElement?.textContent).toContain("Successful");
    expect(screen.getByRole("button", { name: "Show More (10 left)" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show More (10 left)" }));
    fireEvent.click(screen.getByRole("combobox", { name: "Filter transactions by status" }));
    fireEvent.click(screen.getByRole("option", { name: "Clear filter" }));
    expect(visibleRows()).toHaveLength(10);
    expect(screen.getByRole("heading", { name: "Recent Activities" }).parentElement?.textContent).toBe("Recent Activities");
    expect(screen.getByRole("button", { name: "Show More (15 left)" })).toBeTruthy();
  });

  it("shows the empty state", () => {
    render(<RecentActivities rows={[]} loading={false} />);
    expect(screen.getByText("No transactions yet")).toBeTruthy();
    expect(screen.getByText("Your transaction history will appear here")).toBeTruthy();
    // Issue 18: the empty state says what to do next.
    expect(screen.getByRole("link", { name: "Fund your wallet" }).getAttribute("href")).toBe("#/payment/1");
  });

  it("says a filter matched nothing (not 'No transactions yet') and offers the way back to all", () => {
    render(<RecentActivities rows={rows.slice(1, 5)} loading={false} />);
    fireEvent.click(screen.getByRole("combobox", { name: "Filter transactions by status" }));
    fireEvent.click(screen.getByRole("option", { name: "Failed" }));
    expect(screen.getByText("No failed transactions")).toBeTruthy();
    expect(screen.queryByText("No transactions yet")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show all transactions" }));
    expect(visibleRows()).toHaveLength(4);
  });
});
