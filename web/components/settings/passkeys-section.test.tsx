import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STEP_UP_MESSAGES } from "../../../schema/passkeys";
import { clearSession, saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { passkeyAddressProblem } from "../../api/passkeys";
import { PasskeysSection } from "./passkeys-section";

// Settings → Passkeys (issue 33): the list, and the step-up a removal can ask for. The ceremonies themselves run in
// the worker tests (software authenticator) and in e2e/passkeys.spec.ts (Chromium's virtual authenticator).
const script: FetchScript = { answers: {}, calls: [] };
const PASSKEYS = [
  { id: "pk_1", name: "Laptop", created_at: "2026-11-01T10:00:00.000Z", last_used_at: null, synced: false },
  { id: "pk_2", name: "Phone", created_at: "2026-11-02T10:00:00.000Z", last_used_at: "2026-11-20T10:00:00.000Z", synced: true },
];
const stepUpRequired = { code: "STEP_UP_REQUIRED", message: STEP_UP_MESSAGES.reauthNeeded, error: STEP_UP_MESSAGES.reauthNeeded, step_up: "reauthenticate", methods: ["password"] };

describe("Settings → Passkeys", () => {
  beforeEach(() => {
    installScriptedFetch(script);
    // Passkey support is a browser feature jsdom lacks: present it, so the "Add" form shows.
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {});
    saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
  });
  afterEach(() => {
    cleanup();
    clearSession();
    vi.unstubAllGlobals();
  });

  it("lists passkeys by name, use and sync; a removal the server wants confirmed asks for the password, then goes through", async () => {
    script.answers["GET /api/passkeys"] = [json(200, { data: PASSKEYS }), json(200, { data: PASSKEYS.slice(1) })];
    script.answers["DELETE /api/passkeys/pk_1"] = [json(403, stepUpRequired), json(200, { message: "Passkey removed." })];
    script.answers["POST /api/step-up"] = [json(400, { code: "VALIDATION_FAILED", message: STEP_UP_MESSAGES.wrongPassword, error: STEP_UP_MESSAGES.wrongPassword, field: "password" }), json(200, { message: STEP_UP_MESSAGES.confirmed, methods: ["password"], fresh_until: "2026-11-26T14:00:00.000Z" })];
    renderWithQuery(<PasskeysSection />);

    const list = await screen.findByRole("list", { name: "Your passkeys" });
    expect(within(list).getByText("Laptop")).toBeTruthy();
    expect(within(list).getByText(/not used yet/)).toBeTruthy();
    expect(within(list).getByText("Synced")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add a passkey" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Remove Laptop" }));
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    // The server asked for re-authentication: the dialog offers exactly what the answer listed.
    await screen.findByText(STEP_UP_MESSAGES.reauthNeeded);
    expect(screen.queryByRole("button", { name: "Use your passkey" })).toBeNull();
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "wrong" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect((await screen.findByRole("alert")).textContent).toContain(STEP_UP_MESSAGES.wrongPassword);
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "right-one" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));

    await waitFor(() => expect(script.calls.filter((c) => c === "DELETE /api/passkeys/pk_1")).toHaveLength(2));
    await waitFor(() => expect(screen.queryByText("Laptop")).toBeNull());
    expect(script.calls).toEqual(expect.arrayContaining(["POST /api/step-up"]));
  });

  it("closing the step-up dialog leaves the passkey in place and says nothing went wrong", async () => {
    script.answers["GET /api/passkeys"] = [json(200, { data: PASSKEYS })];
    script.answers["DELETE /api/passkeys/pk_2"] = [json(403, { ...stepUpRequired, methods: ["passkey", "totp"] })];
    renderWithQuery(<PasskeysSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Remove Phone" }));
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    expect(await screen.findByRole("button", { name: "Use your passkey" })).toBeTruthy();
    expect(screen.getByLabelText("Authentication code")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /close/i }));
    await waitFor(() => expect(screen.queryByText(STEP_UP_MESSAGES.reauthNeeded)).toBeNull());
    expect(screen.getByText("Phone")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(script.calls.filter((c) => c.startsWith("DELETE"))).toHaveLength(1);
  });
});

describe("passkeys at an IP address (issue 43)", () => {
  const at = (hostname: string) => ({ protocol: "http:", hostname, port: "8787", pathname: "/", search: "", hash: "#/settings/1" });
  it("explains that an IP address cannot hold passkeys and sends 127.0.0.1 to the same page at localhost", () => {
    expect(passkeyAddressProblem(at("127.0.0.1"))).toEqual({
      text: "Passkeys need the site's name, not an IP address: this page is open at 127.0.0.1, which browsers refuse for passkeys. Open the same page at localhost instead (you sign in there once more).",
      href: "http://localhost:8787/#/settings/1",
    });
    expect(passkeyAddressProblem(at("[::1]"))?.href).toBe("http://localhost:8787/#/settings/1");
    expect(passkeyAddressProblem(at("192.168.1.20"))).toMatchObject({ href: null });
    expect(passkeyAddressProblem(at("localhost"))).toBeNull();
    expect(passkeyAddressProblem(at("app.example.ng"))).toBeNull();
  });
});
