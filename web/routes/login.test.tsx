import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { AnchorHTMLAttributes } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TWO_FACTOR_MESSAGES, type LoginChallenge } from "../../schema/accounts";
import { clearSession, getToken } from "../lib/session";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../test/scripted-fetch";
import LoginPage from "./login";

// The login's second step (issue 33, ASVS 6.4.3): it offers what the account has, as the password step's answer lists
// it: the code field for "totp", "Use your passkey" (the login page's passkey ceremony) for "passkey".

const { go, startAuthentication } = vi.hoisted(() => ({
  go: vi.fn(() => Promise.resolve()),
  // The browser half of the ceremony: what navigator.credentials.get() would hand back (the worker tests verify real ones).
  startAuthentication: vi.fn(() => Promise.resolve({ id: "cred-1", rawId: "cred-1", type: "public-key", response: {}, clientExtensionResults: {} })),
}));
vi.mock("../components/layout/app-link", () => ({
  AppLink: ({ to, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) => <a href={`#${to}`} {...props} />,
  useGo: () => go,
}));
vi.mock("@simplewebauthn/browser", () => ({ startAuthentication }));

const script: FetchScript = { answers: {}, calls: [] };
const USER = { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" };
const challengeFor = (methods: LoginChallenge["methods"]): LoginChallenge => ({
  two_factor_required: true,
  challenge: "challenge-jwt",
  message: methods.includes("totp") ? TWO_FACTOR_MESSAGES.codeNeeded : TWO_FACTOR_MESSAGES.passkeyNeeded,
  methods,
});

async function passwordStep(methods: LoginChallenge["methods"]) {
  script.answers["POST /api/login"] = [json(200, challengeFor(methods))];
  renderWithQuery(<LoginPage />);
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: "harmattan-kettle-42" } });
  fireEvent.click(screen.getByRole("button", { name: "Login" }));
  await screen.findByRole("heading", { name: "Two-factor sign-in" });
}

describe("login: the second step", () => {
  beforeEach(() => {
    installScriptedFetch(script);
    go.mockClear();
    startAuthentication.mockClear();
    // jsdom has no WebAuthn: present it, as a browser with passkeys would.
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {});
  });
  afterEach(() => {
    cleanup();
    clearSession();
    vi.unstubAllGlobals();
  });

  it("a passkey-only account: no code field, 'Use your passkey' runs the passkey sign-in and opens the dashboard", async () => {
    await passwordStep(["passkey"]);
    expect(screen.getByText(TWO_FACTOR_MESSAGES.passkeyNeeded)).toBeTruthy();
    expect(screen.queryByLabelText("Authentication code")).toBeNull();
    script.answers["POST /api/login/passkey/options"] = [json(200, { challenge_id: "c1", options: { challenge: "abc", rpId: "localhost" } })];
    script.answers["POST /api/login/passkey/verify"] = [json(200, { user: USER, token: "session-token" })];
    fireEvent.click(screen.getByRole("button", { name: "Use your passkey" }));

    await waitFor(() => expect(go).toHaveBeenCalledWith("/dashboard/1"));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: "abc", rpId: "localhost" } });
    expect(script.calls).toEqual(["POST /api/login", "POST /api/login/passkey/options", "POST /api/login/passkey/verify"]);
    expect(getToken()).toBe("session-token");
  });

  it("a TOTP account: the code field as before and no passkey button; with both, both", async () => {
    await passwordStep(["totp"]);
    expect(screen.getByLabelText("Authentication code")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Use your passkey" })).toBeNull();
    cleanup();

    await passwordStep(["totp", "passkey"]);
    expect(screen.getByLabelText("Authentication code")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Use your passkey" })).toBeTruthy();
  });

  it("a passkey the server refuses shows its message and stays on the step; a browser without passkeys says so", async () => {
    await passwordStep(["passkey"]);
    script.answers["POST /api/login/passkey/options"] = [json(200, { challenge_id: "c1", options: { challenge: "abc" } })];
    const refused = "That passkey could not be verified. Please try again, or sign in with your password.";
    script.answers["POST /api/login/passkey/verify"] = [json(400, { code: "VALIDATION_FAILED", message: refused, error: refused })];
    fireEvent.click(screen.getByRole("button", { name: "Use your passkey" }));
    expect((await screen.findByRole("alert")).textContent).toContain(refused);
    expect(go).not.toHaveBeenCalled();
    expect(getToken()).toBeNull();
    cleanup();

    vi.stubGlobal("PublicKeyCredential", undefined);
    await passwordStep(["passkey"]);
    expect(screen.queryByRole("button", { name: "Use your passkey" })).toBeNull();
    expect(screen.getByRole("alert").textContent).toContain("This browser cannot use passkeys");
  });
});
