import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getToken, saveSession } from "../lib/session";
import { ApiError, api, bookmarkFor, SIGNED_OUT_REASON_KEY } from "./client";

const user = { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" };

function answer401() {
  return new Response(JSON.stringify({ code: "UNAUTHORIZED", message: "Your session has expired. Please log in again.", error: "x" }), {
    status: 401,
    headers: { "content-type": "application/json" },
  });
}

describe("api and the 401 rule", () => {
  beforeEach(() => {
    localStorage.clear();
    window.location.hash = "#/dashboard/1";
  });
  afterEach(() => vi.unstubAllGlobals());

  it("a signed-in call refused with the stored token signs out and goes to login", async () => {
    saveSession(user, "token-a");
    vi.stubGlobal("fetch", vi.fn(async () => answer401()));
    await expect(api("GET /api/user-balance", { auth: true })).rejects.toMatchObject({ status: 401, message: "Your session has expired. Please log in again." });
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
    await expect(api("GET /api/orders", { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBe("token-b");
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("a signed-in call with no stored token (just logged out) sends no request and signs nothing out", async () => {
    const fetchMock = vi.fn(async () => answer401());
    vi.stubGlobal("fetch", fetchMock);
    await expect(api("GET /api/orders", { auth: true })).rejects.toMatchObject({ status: 401, code: "SIGNED_OUT" });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("sends the bearer token and the spec's marker on signed-in calls, and an explicit token when given", async () => {
    saveSession(user, "token-a");
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await api("GET /api/level", { auth: true });
    await api("POST /api/logout", { auth: true, token: "token-z" });
    const headers = fetchMock.mock.calls.map((call) => (call as unknown as [string, RequestInit])[1].headers as Record<string, string>);
    expect(headers[0]).toMatchObject({ Authorization: "Bearer token-a", "x-requires-auth": "true" });
    expect(headers[1]).toMatchObject({ Authorization: "Bearer token-z" });
  });
});

type Call = [string, RequestInit & { headers: Record<string, string> }];
const calls = (mock: { mock: { calls: unknown[] } }) => mock.mock.calls as Call[];

describe("api: the contract's routes", () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    saveSession(user, "token-a");
  });
  afterEach(() => vi.unstubAllGlobals());

  it("fills path parameters (encoded), writes the query from its defined values and sends the body as JSON", async () => {
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await api("GET /api/sms/status/:request_id", { params: { request_id: "a/b c" }, auth: true });
    await api("GET /api/sms/price", { query: { id: "5", provider: "Swift" }, auth: true });
    await api("POST /api/sms/cancel", { body: { request_id: "o1" }, auth: true });
    const [status, price, cancel] = calls(fetchMock);
    expect(status[0]).toBe("/api/sms/status/a%2Fb%20c");
    expect(status[1].method).toBe("GET");
    expect(price[0]).toBe("/api/sms/price?id=5&provider=Swift");
    expect(cancel[1]).toMatchObject({ method: "POST", body: JSON.stringify({ request_id: "o1" }) });
    expect(cancel[1].headers["Content-Type"]).toBe("application/json");
  });

  it("answers a file's text as text (the CSV exports)", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response('"Date","Reference"\r\n', { status: 200 })));
    await expect(api("GET /api/export/orders.csv", { query: { from: "2026-01-01", to: "2026-01-31" }, auth: true })).resolves.toBe('"Date","Reference"\r\n');
  });
});

// Issue 30: the client keeps the last D1 bookmark per signed-in customer and sends it back, so a customer always reads
// their own writes (worker/lib/d1-session.ts).
describe("api: the D1 session bookmark", () => {
  const answer = (bookmark?: string) => new Response("{}", { status: 200, headers: bookmark ? { "x-d1-bookmark": bookmark } : {} });

  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends back the newest bookmark it was given, on every request of that customer", async () => {
    saveSession(user, "token-a");
    const given = ["00000001-00000002", "00000003-00000001", "00000002-00000009"];
    const fetchMock = vi.fn(async () => answer(given.shift()));
    vi.stubGlobal("fetch", fetchMock);
    await api("POST /api/sms/get-number", { body: { provider: "Swift", country: "5", service: "wa" }, auth: true });
    await api("GET /api/orders", { auth: true });
    // An answer that arrives late with an older bookmark never moves the kept one back.
    await api("GET /api/user-balance", { auth: true });
    await api("GET /api/links");
    const sent = calls(fetchMock).map(([, init]) => init.headers["x-d1-bookmark"]);
    expect(sent).toEqual([undefined, "00000001-00000002", "00000003-00000001", "00000003-00000001"]);
    expect(bookmarkFor(user.userId)).toBe("00000003-00000001");
  });

  it("keeps it per customer: another customer signing in on this browser starts without it, and signed out sends none", async () => {
    saveSession(user, "token-a");
    const fetchMock = vi.fn(async () => answer("0000000a-00000001"));
    vi.stubGlobal("fetch", fetchMock);
    await api("GET /api/orders", { auth: true });
    saveSession({ ...user, userId: "u2" }, "token-b");
    await api("GET /api/orders", { auth: true });
    expect(calls(fetchMock)[1][1].headers["x-d1-bookmark"]).toBeUndefined();
    expect(bookmarkFor("u1")).toBeNull();
    expect(bookmarkFor("u2")).toBe("0000000a-00000001");
    localStorage.clear();
    await api("GET /api/links");
    expect(calls(fetchMock)[2][1].headers["x-d1-bookmark"]).toBeUndefined();
  });
});
