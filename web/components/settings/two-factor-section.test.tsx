import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TWO_FACTOR_MESSAGES } from "../../../schema/accounts";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type Answer, type FetchScript } from "../../test/scripted-fetch";
import { TwoFactorSection } from "./two-factor-section";

// Issue 18: two-factor set-up says when it is loading, and every failure (reading the setting, starting the set-up,
// checking the first code) says what happened and retries without starting over.

const script: FetchScript = { answers: {}, calls: [] };
const { answers, calls } = script;
const fault = (status: number, message: string): Answer => json(status, { code: status >= 500 ? "INTERNAL" : "VALIDATION_FAILED", message, error: message });

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const show = () => renderWithQuery(<TwoFactorSection />);

describe("two-factor set-up states", () => {
  it("a failed read retries; a set-up that could not start says nothing changed and Try again starts it", async () => {
    answers["GET /api/2fa"] = [fault(500, "Something went wrong."), json(200, { enabled: false, recovery_codes_left: 0 })];
    answers["POST /api/2fa/setup"] = [() => Promise.reject(new TypeError("Failed to fetch")), json(200, { secret: "JBSWY3DPEHPK3PXP", otpauth_url: "otpauth://totp/VirtualNum:ada?secret=JBSWY3DPEHPK3PXP" })];
    show();
    expect((await screen.findByRole("alert")).textContent).toContain("Could not load your two-step sign-in settings: Something went wrong");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));

    fireEvent.click(await screen.findByRole("button", { name: "Set up two-factor sign-in" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toMatch(/Could not start the set-up: .*Nothing was changed: try again\./));
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("totp-secret")).textContent).toBe("JBSWY3DPEHPK3PXP");
    // Issue 28: a phone cannot scan its own screen: a tappable otpauth link and a copy button for the key.
    expect(screen.getByTestId("totp-open-app").getAttribute("href")).toBe("otpauth://totp/VirtualNum:ada?secret=JBSWY3DPEHPK3PXP");
    expect(screen.getByRole("button", { name: "Copy the key" })).toBeTruthy();
    expect(calls.filter((c) => c === "POST /api/2fa/setup")).toHaveLength(2);
  });

  it("a set-up that asks 'Confirm it's you' first shows no error behind the dialog, and carries on once confirmed (issue 43)", async () => {
    const reauth = { code: "STEP_UP_REQUIRED", message: "Confirm it's you to change how you sign in.", error: "Confirm it's you to change how you sign in.", step_up: "reauthenticate", methods: ["password"] };
    answers["GET /api/2fa"] = [json(200, { enabled: false, recovery_codes_left: 0 })];
    answers["POST /api/2fa/setup"] = [json(403, reauth), json(200, { secret: "JBSWY3DPEHPK3PXP", otpauth_url: "otpauth://totp/VirtualNum:ada?secret=JBSWY3DPEHPK3PXP" })];
    answers["POST /api/step-up"] = [json(200, { message: "Confirmed.", methods: ["password"], fresh_until: "2026-11-26T14:00:00.000Z" })];
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Set up two-factor sign-in" }));
    await screen.findByText(reauth.message);
    expect(screen.queryByText(/Could not start the set-up/)).toBeNull();
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "secret123" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect((await screen.findByTestId("totp-secret")).textContent).toBe("JBSWY3DPEHPK3PXP");
    expect(screen.queryByText(/Could not start the set-up/)).toBeNull();
  });

  it("checking the first code: busy while checking, a refused code says what to enter and the next try turns it on", async () => {
    answers["GET /api/2fa"] = [json(200, { enabled: false, recovery_codes_left: 0 })];
    answers["POST /api/2fa/setup"] = [json(200, { secret: "JBSWY3DPEHPK3PXP", otpauth_url: "otpauth://totp/VirtualNum:ada?secret=JBSWY3DPEHPK3PXP" })];
    let release: () => void = () => undefined;
    answers["POST /api/2fa/enable"] = [
      () => new Promise<Response>((resolve) => (release = () => resolve(new Response(JSON.stringify({ code: "VALIDATION_FAILED", message: TWO_FACTOR_MESSAGES.wrongCode, error: TWO_FACTOR_MESSAGES.wrongCode }), { status: 400 })))),
      json(200, { message: "Two-factor sign-in is on.", recovery_codes: ["aaaa-bbbb", "cccc-dddd"] }),
    ];
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Set up two-factor sign-in" }));
    fireEvent.change(await screen.findByLabelText("Code from your app"), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
    expect(((await screen.findByRole("button", { name: "Checking..." })) as HTMLButtonElement).disabled).toBe(true);
    release();
    expect((await screen.findByRole("alert")).textContent).toContain(TWO_FACTOR_MESSAGES.wrongCode);
    fireEvent.change(screen.getByLabelText("Code from your app"), { target: { value: "654321" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
    expect(await screen.findAllByTestId("recovery-code")).toHaveLength(2);
  });
});
