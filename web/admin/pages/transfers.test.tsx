import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminTransferDeposit, AdminTransferReconciliation, ReviewQueueItem, ReviewVerification } from "../../../schema/admin";
import { ReviewQueue } from "./review-queue";
import { TransferDeposits } from "./transfers";

// Issue 31, the console's Deposits page: the Bank transfers panel (every arrival with its state, the day's
// reconciliation with every difference) and the transfer items of the review queue, Squad's record beside ours.

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const arrivals: AdminTransferDeposit[] = [
  {
    squad_ref: "REF-CREDITED-1",
    kind: "dynamic",
    state: "credited",
    squad_status: "SUCCESS",
    payment_id: "VT1",
    account_number: "0712345678",
    user: { id: "u1", email: "ada@example.com" },
    amount: 5000,
    credited_amount: 5000,
    sender_name: "ADA OBI",
    detail: "",
    received_at: "2026-11-26T09:00:00.000Z",
  },
  {
    squad_ref: "REF-STRANGER-2",
    kind: "static",
    state: "unmatched",
    squad_status: "C",
    payment_id: null,
    account_number: "0799999999",
    user: null,
    amount: 4321,
    credited_amount: null,
    sender_name: null,
    detail: "No account of ours has this number.",
    received_at: "2026-11-26T10:00:00.000Z",
  },
];

const reconciliation: AdminTransferReconciliation = {
  date: "2026-11-26",
  ours: { count: 1, amount: 5000 },
  squad: { count: 2, amount: 9321 },
  differences: [{ kind: "squad_only", account_number: "0799999999", amount: 4321, reference: "REF-STRANGER-2", note: "in Squad's list, not credited by us (in review, unmatched, or missed)" }],
  ok: false,
};

const unknownAccount: ReviewQueueItem = {
  kind: "transfer",
  id: "ua_REF-STRANGER-2",
  status: "open",
  reason: "transfer_unknown_account",
  payment_id: "",
  provider_payment_id: "REF-STRANGER-2",
  user: null,
  expected_currency: "NGN",
  expected_amount: null,
  pay_currency: "NGN",
  actually_paid: "4321",
  suggested_amount: null,
  detail: "A static transfer of ₦4,321.00 into account 0799999999, which is not ours: never credited on its own.",
  created_at: "2026-11-26T10:00:00.000Z",
  resolution: null,
};
const mismatch: ReviewQueueItem = {
  ...unknownAccount,
  id: "rv_9",
  reason: "transfer_amount_mismatch",
  payment_id: "VT2",
  provider_payment_id: "REF-OVER-3",
  user: { id: "u1", email: "ada@example.com", username: "Ada" },
  expected_amount: "6000",
  actually_paid: "6100",
  detail: "Squad says MISMATCH: ₦6,100.00 arrived for ₦6,000.00.",
};
const squadRecord: ReviewVerification = {
  provider: "squad",
  status: "credit",
  pay_currency: "NGN",
  actually_paid: "4321",
  creditable: false,
  suggested_amount: null,
  max_amount: null,
  message: "Squad lists ₦4,321.00 into 0799999999 on 2026-11-26: no customer of ours holds that account, so nothing is credited from here.",
  checked_at: "2026-11-26T10:05:00.000Z",
};

let asked: string[] = [];
let posts: { url: string; body: unknown }[] = [];
function serve() {
  asked = [];
  posts = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    asked.push(url);
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    if (init.method === "POST") {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return json({ message: "Refused.", balance: null, verification: squadRecord, review: { ...unknownAccount, status: "refused" } });
    }
    if (url.includes("/transfers/reconcile")) return json(reconciliation);
    if (url.includes("/transfers")) return json({ data: url.includes("state=unmatched") ? arrivals.filter((a) => a.state === "unmatched") : arrivals });
    if (url.includes("/reviews/ua_")) return json({ review: unknownAccount, verification: squadRecord, verifyError: null });
    return json({ data: [mismatch, unknownAccount] });
  });
}

const show = (ui: React.ReactNode) => render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);

describe("the console's Bank transfers panel", () => {
  it("lists every arrival with its state and customer (an unknown account says so), filters by state, and lists the day's differences", async () => {
    serve();
    show(<TransferDeposits />);
    const table = await screen.findByRole("table");
    expect(within(table).getByText("REF-CREDITED-1")).toBeTruthy();
    expect(within(table).getByText("ada@example.com")).toBeTruthy();
    expect(within(table).getByText("unknown account")).toBeTruthy();
    expect(within(table).getByText("No account of ours has this number.")).toBeTruthy();

    fireEvent.change(screen.getByRole("combobox"), { target: { value: "unmatched" } });
    await screen.findByText((_, el) => el?.tagName === "TABLE" && !el.textContent?.includes("REF-CREDITED-1") && el.textContent?.includes("REF-STRANGER-2") === true);
    expect(asked.some((u) => u.endsWith("/api/admin/transfers?state=unmatched"))).toBe(true);

    fireEvent.change(screen.getByLabelText(/Day \(UTC\)/), { target: { value: "2026-11-26" } });
    fireEvent.click(screen.getByRole("button", { name: "Reconcile" }));
    const report = await screen.findByTestId("transfer-reconciliation");
    expect(report.textContent).toContain("1 difference(s)");
    expect(within(report).getByText("Squad only")).toBeTruthy();
    expect(within(report).getByText("REF-STRANGER-2")).toBeTruthy();
    expect(asked.some((u) => u.endsWith("/api/admin/transfers/reconcile?date=2026-11-26"))).toBe(true);
  });
});

describe("transfer items of the review queue", () => {
  it("shows each transfer item; an unknown account has no customer, shows Squad's record, and can only be closed", async () => {
    serve();
    show(<ReviewQueue />);
    expect(await screen.findByRole("button", { name: "Review: Bank transfer into an account we do not know, No customer (account not ours)" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Review: .*ada@example.com$/ })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Review: Bank transfer into an account we do not know, No customer (account not ours)" }));
    const detail = within(await screen.findByTestId("review-detail"));
    expect(detail.getByText("No customer (account not ours)")).toBeTruthy();
    // Squad's record beside ours: what the notice said arrived, and Squad's own list entry read again.
    const squad = within(await detail.findByTestId("review-verification"));
    expect(detail.getAllByText(/4321 NGN/)).toHaveLength(2);
    expect(squad.getByText(/4321 NGN/)).toBeTruthy();
    expect(squad.getByText(/no customer of ours holds that account/)).toBeTruthy();
    // Squad's record offers no credit: refusing (closing) is the only choice.
    expect((detail.getByRole("radio", { name: "Credit" }) as HTMLInputElement).disabled).toBe(true);
    expect((detail.getByRole("radio", { name: "Refuse" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(detail.getByLabelText(/Reason/), { target: { value: "returned to the sender's bank" } });
    fireEvent.click(detail.getByRole("button", { name: "Refuse…" }));
    fireEvent.click(within(detail.getByRole("group", { name: "Confirm decision" })).getByRole("button", { name: "Confirm refusal" }));
    expect(await detail.findByText(/Refused\./)).toBeTruthy();
    expect(posts).toEqual([{ url: expect.stringContaining("/api/admin/reviews/ua_REF-STRANGER-2/resolve"), body: { action: "refuse", reason: "returned to the sender's bank" } }]);
  });
});
