import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getToken, saveSession } from "../lib/session";
import { ApiError, apiFetch, SIGNED_OUT_REASON_KEY } from "./client";

const user = { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" };

function answer401() {
  return new Response(JSON.stringify({ code: "UNAUTHORIZED", message: "Your session has expired. Please log in again.", error: "x" }), {
    status: 401,
    headers: { "content-type": "application/json" },
  });
}

describe("apiFetch and the 401 rule", () => {
  beforeEach(() => {
    localStorage.clear();
    window.location.hash = "#/dashboard/1";
  });
  afterEach(() => vi.unstubAllGlobals());

  it("a signed-in call refused with the stored token signs out and goes to login", async () => {
    saveSession(user, "token-a");
    vi.stubGlobal("fetch", vi.fn(async () => answer401()));
    await expect(apiFetch("/api/user-balance", { auth: true })).rejects.toMatchObject({ status: 401, message: "Your session has expired. Please log in again." });
    expect(getToken()).toBeNull();
    expect(window.location.hash).toBe("#/login");
    // Issue 28: the login page says why (the server's sentence), once.
    expect(sessionStorage.getItem(SIGNED_OUT_REASON_KEY)).toBe("Your session has expired. Please log in again.");
    sessionStorage.clear();
  });

  it("a late 401 for a token that is no longer stored changes nothing (after a logout or a password change)", async () => {
    saveSession(user, "token-a");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        saveSession(user, "token-b"); // the password change handed this tab a fresh token meanwhile
        return answer401();
      }),
    );
    await expect(apiFetch("/api/orders", { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBe("token-b");
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("a signed-in call with no stored token (just logged out) sends no request and signs nothing out", async () => {
    const fetchMock = vi.fn(async () => answer401());
    vi.stubGlobal("fetch", fetchMock);
    await expect(apiFetch("/api/orders", { auth: true })).rejects.toMatchObject({ status: 401, code: "SIGNED_OUT" });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("sends the bearer token and the spec's marker on signed-in calls, and an explicit token when given", async () => {
    saveSession(user, "token-a");
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await apiFetch("/api/level", { auth: true });
    await apiFetch("/api/logout/", { method: "POST", auth: true, token: "token-z" });
    const headers = fetchMock.mock.calls.map((call) => (call as unknown as [string, RequestInit])[1].headers as Record<string, string>);
    expect(headers[0]).toMatchObject({ Authorization: "Bearer token-a", "x-requires-auth": "true" });
    expect(headers[1]).toMatchObject({ Authorization: "Bearer token-z" });
  });
});
