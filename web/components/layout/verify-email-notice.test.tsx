import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EMAIL_VERIFY_MESSAGES } from "../../../schema/account-messages";
import { toast } from "../../lib/toast";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { VerifyEmailNotice } from "./verify-email-notice";

vi.mock("../../lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

// Issue 43: the "Please confirm your e-mail" notice stayed after the link was opened in another browser, and "Send it
// again" then showed a red "already confirmed" under it.
const script: FetchScript = { answers: {}, calls: [] };
const account = (verified: boolean) =>
  json(200, { user: { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, email_verified: verified, two_factor_enabled: false, password_change_required: false });

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the confirm-your-e-mail notice", () => {
  it("confirmed elsewhere: 'Send it again' says so as good news and the notice goes", async () => {
    script.answers["GET /api/account"] = [account(false), account(true)];
    script.answers["POST /api/verify-email/resend"] = [json(409, { code: "INVALID_STATE", message: EMAIL_VERIFY_MESSAGES.alreadyVerified, error: EMAIL_VERIFY_MESSAGES.alreadyVerified })];
    renderWithQuery(<VerifyEmailNotice />);
    fireEvent.click(await screen.findByRole("button", { name: "Send it again" }));
    await waitFor(() => expect(screen.queryByTestId("verify-email-notice")).toBeNull());
    expect(toast.success).toHaveBeenCalledWith("Your e-mail address is already confirmed.");
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("asks the server again on every mount while unconfirmed, not the session's stored answer", async () => {
    script.answers["GET /api/account"] = [account(false), account(true)];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const first = render(<QueryClientProvider client={client}><VerifyEmailNotice /></QueryClientProvider>);
    expect(await screen.findByTestId("verify-email-notice")).toBeTruthy();
    first.unmount();
    // The same cache, as the next screen (or a reload restoring the session's stored answers) meets it.
    render(<QueryClientProvider client={client}><VerifyEmailNotice /></QueryClientProvider>);
    await waitFor(() => expect(screen.queryByTestId("verify-email-notice")).toBeNull());
    expect(script.calls.filter((c) => c === "GET /api/account")).toHaveLength(2);
  });
});
