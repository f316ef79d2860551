import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./app";
import { api } from "./test/helpers";

// App-level behaviour every route shares (worker/app.ts).

describe("the API foundation", () => {
  it("answers malformed JSON with 400 and the one error body", async () => {
    const res = await api("/api/login", { method: "POST", body: '{"email": "a@b.co", ', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ code: "BAD_JSON", message: "The request body is not valid JSON.", error: "The request body is not valid JSON." });
  });

  it("refuses a body over the limit with 413 before reading it", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(MAX_BODY_BYTES) });
    const res = await api("/api/login", { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("too large") });
    expect(res.data.error).toBe(res.data.message);
  });

  it("answers an unknown /api path with 404 and the one error body", async () => {
    const res = await api("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ code: "NOT_FOUND", message: "Not found.", error: "Not found." });
  });

  it("never answers a stack trace", async () => {
    const res = await api("/api/register/", { method: "POST", body: "[]", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.data)).not.toMatch(/at .*\.ts:\d+/);
  });

  it("sets the security headers", async () => {
    const res = await api("/api/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });

  it("allows CORS with credentials for the same origin only", async () => {
    const preflight = (origin: string) =>
      api("/api/login", { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    const same = await preflight("http://127.0.0.1:8787");
    expect(same.status).toBe(204);
    expect(same.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:8787");
    expect(same.headers.get("access-control-allow-credentials")).toBe("true");
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const simple = await api("/api/links", { headers: { origin: "https://evil.example" } });
    expect(simple.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("gives every response a request id", async () => {
    const res = await api("/api/health");
    expect(res.headers.get("x-request-id")).toMatch(/.+/);
  });
});
