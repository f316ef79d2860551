import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getToken, saveSession } from "../lib/session";
import { ApiError, api, bookmarkFor, json, pathParams, signedIn, SIGNED_OUT_REASON_KEY, text } from "./client";

const user = { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" };

function answer401() {
  return new Response(JSON.stringify({ code: "UNAUTHORIZED", message: "Your session has expired. Please log in again.", error: "x" }), {
    status: 401,
    headers: { "content-type": "application/json" },
  });
}

describe("the typed client and the 401 rule", () => {
  beforeEach(() => {
    localStorage.clear();
    window.location.hash = "#/dashboard/1";
  });
  afterEach(() => vi.unstubAllGlobals());

  it("a signed-in call refused with the stored token signs out and goes to login", async () => {
    saveSession(user, "token-a");
    vi.stubGlobal("fetch", vi.fn(async () => answer401()));
    await expect(signedIn["user-balance"].$get().then(json)).rejects.toMatchObject({ status: 401, message: "Your session has expired. Please log in again." });
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
    await expect(signedIn.orders.$get().then(json)).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBe("token-b");
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("a signed-in call with no stored token (just logged out) sends no request and signs nothing out", async () => {
    const fetchMock = vi.fn(async () => answer401());
    vi.stubGlobal("fetch", fetchMock);
    await expect(signedIn.orders.$get().then(json)).rejects.toMatchObject({ status: 401, code: "SIGNED_OUT" });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.hash).toBe("#/dashboard/1");
  });

  it("sends the bearer token and the spec's marker on signed-in calls, and an explicit token when given", async () => {
    saveSession(user, "token-a");
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await signedIn.level.$get();
    await signedIn.logout.$post(undefined, { headers: { Authorization: "Bearer token-z" } });
    await api.links.$get();
    const headers = fetchMock.mock.calls.map((call) => Object.fromEntries((call as unknown as [string, RequestInit])[1].headers as Headers));
    expect(headers[0]).toMatchObject({ authorization: "Bearer token-a", "x-requires-auth": "true" });
    expect(headers[1]).toMatchObject({ authorization: "Bearer token-z" });
    // A call of the signed-out client sends no token, even while signed in (the public reads share the edge's copy).
    expect(headers[2].authorization).toBeUndefined();
  });
});

type Call = [string, RequestInit & { headers: Headers }];
const calls = (mock: { mock: { calls: unknown[] } }) => mock.mock.calls as Call[];

describe("the typed client: each route as its definition declares it", () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    saveSession(user, "token-a");
  });
  afterEach(() => vi.unstubAllGlobals());

  it("fills path parameters (encoded), writes the query from its defined values and sends the body as JSON", async () => {
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await signedIn.sms.status[":request_id"].$get({ param: pathParams({ request_id: "a/b c" }) });
    await signedIn.sms.price.$get({ query: { id: "5", provider: "Swift" } });
    await signedIn.sms.cancel.$post({ json: { request_id: "o1" } });
    const [status, price, cancel] = calls(fetchMock);
    expect(status[0]).toBe("/api/sms/status/a%2Fb%20c");
    expect(status[1].method).toBe("GET");
    expect(price[0]).toBe("/api/sms/price?id=5&provider=Swift");
    expect(cancel[1]).toMatchObject({ method: "POST", body: JSON.stringify({ request_id: "o1" }) });
    expect(cancel[1].headers.get("Content-Type")).toBe("application/json");
    expect(cancel[1].credentials).toBe("include");
  });

  it("answers a file's text as text (the CSV exports)", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response('"Date","Reference"\r\n', { status: 200 })));
    await expect(signedIn.export["orders.csv"].$get({ query: { from: "2026-01-01", to: "2026-01-31" } }).then(text)).resolves.toBe('"Date","Reference"\r\n');
  });

  it("turns an error answer into an ApiError with the one error body (field and all), and a network failure too", async () => {
    const refusal = { code: "PRICE_CHANGED", message: "The price is ₦1450.00.", error: "The price is ₦1450.00.", price: 1450 };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(refusal), { status: 409 })));
    await expect(signedIn.sms["get-number"].$post({ json: { provider: "Swift", country: "5", service: "wa" } })).rejects.toMatchObject({
      status: 409,
      code: "PRICE_CHANGED",
      message: "The price is ₦1450.00.",
      body: refusal,
    });
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<html>Bad gateway</html>", { status: 502 })));
    await expect(api.links.$get()).rejects.toMatchObject({ status: 502, code: "HTTP_ERROR", message: "Request failed (502)" });
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    await expect(api.links.$get()).rejects.toMatchObject({ status: 0, code: "NETWORK" });
  });
});

// Issue 30: the client keeps the last D1 bookmark per signed-in customer and sends it back, so a customer always reads
// their own writes (worker/lib/d1-session.ts).
describe("the typed client: the D1 session bookmark", () => {
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
    await signedIn.sms["get-number"].$post({ json: { provider: "Swift", country: "5", service: "wa" } });
    await signedIn.orders.$get();
    // An answer that arrives late with an older bookmark never moves the kept one back.
    await signedIn["user-balance"].$get();
    await api.links.$get();
    const sent = calls(fetchMock).map(([, init]) => init.headers.get("x-d1-bookmark"));
    expect(sent).toEqual([null, "00000001-00000002", "00000003-00000001", "00000003-00000001"]);
    expect(bookmarkFor(user.userId)).toBe("00000003-00000001");
  });

  it("keeps it per customer: another customer signing in on this browser starts without it, and signed out sends none", async () => {
    saveSession(user, "token-a");
    const fetchMock = vi.fn(async () => answer("0000000a-00000001"));
    vi.stubGlobal("fetch", fetchMock);
    await signedIn.orders.$get();
    saveSession({ ...user, userId: "u2" }, "token-b");
    await signedIn.orders.$get();
    expect(calls(fetchMock)[1][1].headers.get("x-d1-bookmark")).toBeNull();
    expect(bookmarkFor("u1")).toBeNull();
    expect(bookmarkFor("u2")).toBe("0000000a-00000001");
    localStorage.clear();
    await api.links.$get();
    expect(calls(fetchMock)[2][1].headers.get("x-d1-bookmark")).toBeNull();
  });
});
