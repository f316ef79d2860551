import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminResellerSubaccounts, AdminSubaccountRow } from "../../../schema/admin";
import ResellerSubaccountsPage, { SUBACCOUNTS_PAGE } from "./reseller-subaccounts";

// Issue 46, the console's list of one reseller's sub-accounts (#/admin/resellers/<id>): each with its external id,
// name, status, balance, created and spend; a state at a time; paged with Newer / Older like the withdrawals.

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const reseller: AdminResellerSubaccounts["reseller"] = { userId: "u_res", email: "bot@example.com", username: "Bot shop", status: "active" };
const row = (n: number, extra: Partial<AdminSubaccountRow> = {}): AdminSubaccountRow => ({
  id: `sub_${String(n).padStart(32, "0")}`,
  externalId: `tg-${n}`,
  name: `Customer ${n}`,
  status: "active",
  balance: 1234.5,
  createdAt: Date.parse("2026-11-29T09:00:00Z") - n * 1000,
  spend: 120,
  ...extra,
});

let asked: URL[] = [];
function serve(pageFor: (query: URLSearchParams) => AdminSubaccountRow[]) {
  asked = [];
  vi.stubGlobal("fetch", async (url: string) => {
    const u = new URL(url, "http://x");
    asked.push(u);
    return new Response(JSON.stringify({ reseller, data: pageFor(u.searchParams) } satisfies AdminResellerSubaccounts), { status: 200 });
  });
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ResellerSubaccountsPage id="u_res" />
    </QueryClientProvider>,
  );

describe("the console's sub-accounts of one reseller", () => {
  it("shows each sub-account's id, external id, name, status, balance and spend under the reseller's name", async () => {
    serve(() => [row(1), row(2, { status: "frozen", balance: 0, spend: 0 })]);
    show();
    const table = await screen.findByRole("table", { name: "Sub-accounts" });
    expect(screen.getByRole("heading", { name: "Sub-accounts of Bot shop (bot@example.com)" })).toBeTruthy();
    const first = within(table).getAllByRole("row")[1]!;
    for (const text of [row(1).id, "tg-1", "Customer 1", "active", "₦1,234.50", "₦120.00"]) expect(within(first).getByText(text)).toBeTruthy();
    expect(within(within(table).getAllByRole("row")[2]!).getByText("frozen")).toBeTruthy();
    expect(asked[0]!.pathname).toBe("/api/admin/resellers/u_res/subaccounts");
    expect(asked[0]!.searchParams.get("limit")).toBe(String(SUBACCOUNTS_PAGE));
    // One page only: no pager.
    expect(screen.queryByRole("button", { name: "Older" })).toBeNull();
  });

  it("a full page offers Older (the rows before the last shown), Newer goes back, and a state starts again from the first page", async () => {
    const firstPage = Array.from({ length: SUBACCOUNTS_PAGE }, (_, i) => row(i + 1));
    const lastOfFirst = firstPage.at(-1)!.id;
    serve((q) => (q.get("status") === "closed" ? [row(900, { status: "closed", balance: 0 })] : q.get("before") === lastOfFirst ? [row(500)] : firstPage));
    show();
    await screen.findByText("tg-1");
    fireEvent.click(screen.getByRole("button", { name: "Older" }));
    expect(await screen.findByText("tg-500")).toBeTruthy();
    expect(asked.at(-1)!.searchParams.get("before")).toBe(lastOfFirst);
    expect((screen.getByRole("button", { name: "Older" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Newer" }));
    expect(await screen.findByText("tg-1")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Older" }));
    await screen.findByText("tg-500");
    fireEvent.change(screen.getByRole("combobox"), { target: { value: "closed" } });
    expect(await screen.findByText("tg-900")).toBeTruthy();
    expect(asked.at(-1)!.searchParams.get("status")).toBe("closed");
    expect(asked.at(-1)!.searchParams.get("before")).toBeNull();
  });
});
