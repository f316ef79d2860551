import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { AnchorHTMLAttributes } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EMAIL_VERIFY_MESSAGES } from "../../schema/account-messages";
import { saveSession } from "../lib/session";
import VerifyEmailPage from "./verify-email";

// Issue 18: the confirmation page says it is working, and a failure says what to try: send the same link again when
// it was never answered (the single-use link is not spent), or get a new link when it was refused.

vi.mock("../components/layout/app-link", () => ({
  AppLink: ({ to, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) => <a href={`#${to}`} {...props} />,
  useAppSearch: () => ({ token: "tok", id: "u1" }),
}));

let answers: (() => Promise<Response>)[] = [];
const posts: string[] = [];

beforeEach(() => {
  posts.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      posts.push(`${init?.method ?? "GET"} ${String(input)}`);
      return (answers.shift() ?? (() => Promise.resolve(new Response("{}", { status: 200 }))))();
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <VerifyEmailPage />
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown) => () => Promise.resolve(new Response(JSON.stringify(body), { status }));

describe("verify-email states", () => {
  it("no answer: says the link still works and Try again sends it once more, which confirms", async () => {
    answers = [() => Promise.reject(new TypeError("Failed to fetch")), json(200, { message: EMAIL_VERIFY_MESSAGES.verified })];
    show();
    expect(screen.getByRole("status").textContent).toContain("Confirming your address");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Could not confirm your address: .*Your link still works: try again\./);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain(EMAIL_VERIFY_MESSAGES.verified));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(posts.filter((p) => p.startsWith("POST"))).toHaveLength(2);
  });

  it("a refused link offers no retry (it would be refused again) but says how to get a new one", async () => {
    answers = [json(400, { code: "VALIDATION_FAILED", message: EMAIL_VERIFY_MESSAGES.invalidLink, error: EMAIL_VERIFY_MESSAGES.invalidLink })];
    saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
    show();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(EMAIL_VERIFY_MESSAGES.invalidLink);
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.getByRole("link", { name: "Send a new link from Settings" }).getAttribute("href")).toBe("#/settings/1");
  });
});
