import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PASSWORD_CHANGE_REQUIRED_MESSAGE } from "../../../schema/account-messages";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { PasswordNotice } from "./password-notice";

// Issue 33: a password set under the older rules still signs in; the signed-in screens then ask for a new one.
const script: FetchScript = { answers: {}, calls: [] };
const account = (required: boolean) =>
  json(200, { user: { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, email_verified: true, two_factor_enabled: false, password_change_required: required });

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the change-your-password notice", () => {
  it("asks for a new password, linking to Settings, while the account is flagged", async () => {
    script.answers["GET /api/account"] = [account(true)];
    renderWithQuery(<PasswordNotice />);
    const notice = await screen.findByTestId("password-notice");
    expect(notice.textContent).toContain(PASSWORD_CHANGE_REQUIRED_MESSAGE);
    expect(screen.getByRole("link", { name: "Change password" }).getAttribute("href")).toBe("#/settings/1");
  });

  it("shows nothing when the password meets the rules", async () => {
    script.answers["GET /api/account"] = [account(false)];
    renderWithQuery(<PasswordNotice />);
    await vi.waitFor(() => expect(script.calls).toContain("GET /api/account"));
    expect(screen.queryByTestId("password-notice")).toBeNull();
  });
});
