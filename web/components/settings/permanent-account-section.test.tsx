import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, type FetchScript } from "../../test/scripted-fetch";
import { PermanentAccountSection } from "./permanent-account-section";

// Issue 31, Settings → Permanent account number: the details are checked here before Squad is asked, and the account
// comes back with the BVN masked.

const script: FetchScript = { answers: {}, calls: [] };
const { answers, calls } = script;

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PermanentAccountSection />
    </QueryClientProvider>,
  );
}

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
  answers["GET /api/transfers/static-account"] = [json(200, { data: null })];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("Permanent account number", () => {
  it("a short BVN is refused on the spot; valid details open the account, shown with the BVN masked", async () => {
    show();
    await screen.findByLabelText("First name");
    fill("First name", "Ada");
    fill("Last name", "Obi");
    fill("Phone number registered with your BVN", "08012345678");
    fill("Date of birth", "1990-07-19");
    fill("Gender", "female");
    fill("Address", "22 Kota Street, Lagos");
    fill("BVN", "2234321");
    // Issue 43: masked while typed; the eye shows it to check, and hides it again.
    const bvn = screen.getByLabelText("BVN") as HTMLInputElement;
    expect(bvn.type).toBe("password");
    fireEvent.click(screen.getByRole("button", { name: "Show BVN" }));
    expect(bvn.type).toBe("text");
    fireEvent.click(screen.getByRole("button", { name: "Hide BVN" }));
    expect(bvn.type).toBe("password");
    fireEvent.click(screen.getByRole("button", { name: "Get my account number" }));
    expect(await screen.findByText("Your BVN is 11 digits")).toBeTruthy();
    expect(calls).not.toContain("POST /api/transfers/static-account");

    answers["POST /api/transfers/static-account"] = [json(200, { data: { bank_name: "GTBank", account_number: "0712345678", account_name: "Ada Obi", bvn: "*******1654" } })];
    fill("BVN", "22343211654");
    fireEvent.click(screen.getByRole("button", { name: "Get my account number" }));
    const shown = await screen.findByTestId("permanent-account");
    expect(shown.textContent).toContain("0712345678");
    expect(shown.textContent).toContain("*******1654");
    expect(shown.textContent).not.toContain("22343211654");
  });

  it("retried after a failure, the last attempt's BVN message goes away, and the account Squad kept is shown", async () => {
    show();
    await screen.findByLabelText("First name");
    for (const [label, value] of [
      ["First name", "Ada"],
      ["Last name", "Obi"],
      ["Phone number registered with your BVN", "08012345678"],
      ["Date of birth", "1990-07-19"],
      ["Gender", "female"],
      ["Address", "22 Kota Street, Lagos"],
      ["BVN", "22343211654"],
    ]) fill(label, value);
    const bvnMessage = "Squad could not match these details to your BVN. Check your names, date of birth, gender and phone number as registered on your BVN.";
    let answerRetry: (r: Response) => void = () => {};
    answers["POST /api/transfers/static-account"] = [
      json(400, { code: "VALIDATION_FAILED", message: bvnMessage, error: bvnMessage, field: "bvn" }),
      () => new Promise<Response>((resolve) => (answerRetry = resolve)),
    ];
    fireEvent.click(screen.getByRole("button", { name: "Get my account number" }));
    expect(await screen.findByText(bvnMessage)).toBeTruthy();

    // The same details again: while Squad is asked, the earlier refusal is not shown as if it were this one's answer.
    fireEvent.click(screen.getByRole("button", { name: "Get my account number" }));
    await screen.findByRole("button", { name: "Opening..." });
    expect(screen.queryByText(bvnMessage)).toBeNull();
    answerRetry(new Response(JSON.stringify({ data: { bank_name: "GTBank", account_number: "0712345678", account_name: "Ada Obi", bvn: "*******1654" } }), { status: 200 }));
    expect((await screen.findByTestId("permanent-account")).textContent).toContain("0712345678");
    expect(screen.queryByText(bvnMessage)).toBeNull();
  });
});
