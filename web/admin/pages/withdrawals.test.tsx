import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminWithdrawalRow } from "../../../schema/withdrawals";
import { Withdrawals, WITHDRAWALS_PAGE } from "./withdrawals";

// Issue 45, the console's Deposits page: the Withdrawals panel (state, customer, account, name match, reference,
// Squad's word) and approve / refuse with a reason; a large approval answers that a second operator must approve.

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const waiting: AdminWithdrawalRow = {
  id: "wd_0123456789abcdef01234567",
  user_id: "u1",
  email: "ada@example.com",
  state: "approval",
  amount: 150_000,
  fee: 0,
  account: "GTBank ····1234",
  account_name: "OBI ADA NKEM",
  verified_name: "Ada Obi",
  reference: "SBSANDBOX_wd_0123456789abcdef01234567",
  squad_status: null,
  detail: "",
  decided_by: null,
  decision_reason: null,
  created_at: "2026-11-29T09:00:00.000Z",
};

let asked: string[] = [];
let posts: { url: string; body: unknown }[] = [];
function serve() {
  asked = [];
  posts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    asked.push(url);
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (init.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return json({ data: waiting, approval: { id: "ap1", kind: "withdrawal" }, message: "Waiting for a second operator's approval (Approvals page): the money stays held." }, 202);
    }
    return json({ data: [waiting] });
  });
}

const show = (ui: React.ReactNode) => render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);

describe("the console's Withdrawals panel", () => {
  it("lists those waiting with the name match and reference, and an approval above the threshold says a second operator must approve", async () => {
    serve();
    show(<Withdrawals />);
    const table = await screen.findByRole("table");
    expect(within(table).getByText("ada@example.com")).toBeTruthy();
    expect(within(table).getByText("OBI ADA NKEM ↔ Ada Obi")).toBeTruthy();
    expect(within(table).getByText(waiting.reference)).toBeTruthy();
    expect(asked.some((u) => u.endsWith("/api/admin/withdrawals?state=approval&limit=50"))).toBe(true);

    fireEvent.click(within(table).getByRole("button", { name: "Decide" }));
    const form = await screen.findByTestId("approve-withdrawal");
    fireEvent.change(within(form).getByRole("textbox"), { target: { value: "Known reseller" } });
    fireEvent.click(within(form).getByRole("button", { name: "Approve" }));
    expect((await within(form).findByRole("status")).textContent).toMatch(/second operator/);
    expect(posts).toEqual([{ url: expect.stringMatching(/\/api\/admin\/withdrawals\/wd_0123456789abcdef01234567\/approve$/), body: { reason: "Known reseller" } }]);
  });

  it("a full page offers Older, which asks for the rows before the last one shown; Newer goes back; a state starts again", async () => {
    const row = (n: number): AdminWithdrawalRow => ({ ...waiting, id: `wd_${String(n).padStart(24, "0")}`, email: `c${n}@example.com` });
    const firstPage = Array.from({ length: WITHDRAWALS_PAGE }, (_, i) => row(100 - i));
    const lastOfFirst = firstPage.at(-1)!.id;
    asked = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      const query = new URL(url, "http://x").searchParams;
      const data = query.get("before") === lastOfFirst ? [row(1)] : firstPage;
      return new Response(JSON.stringify({ data }), { status: 200 });
    });
    show(<Withdrawals />);
    expect(await screen.findByText("c100@example.com")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Newer" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Older" }));
    expect(await screen.findByText("c1@example.com")).toBeTruthy();
    expect(screen.queryByText("c100@example.com")).toBeNull();
    expect(asked.at(-1)).toContain(`before=${lastOfFirst}`);
    expect(asked.at(-1)).toContain(`limit=${WITHDRAWALS_PAGE}`);
    // A short page is the last: no older one to ask for.
    expect((screen.getByRole("button", { name: "Older" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Newer" }));
    expect(await screen.findByText("c100@example.com")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Older" }));
    await screen.findByText("c1@example.com");
    fireEvent.change(screen.getByRole("combobox"), { target: { value: "paid" } });
    expect(await screen.findByText("c100@example.com")).toBeTruthy();
    expect(asked.at(-1)).toMatch(/\?state=paid&limit=50$/);
  });
});
