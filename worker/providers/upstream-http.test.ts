import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createUpstreamClient, UPSTREAM_USER_AGENT, UpstreamFault } from "./upstream-http";

describe("the one upstream HTTP client", () => {
  it("sends the product User-Agent, the provider's headers and JSON to a path under the configured base URL", async () => {
    const seen: Request[] = [];
    const http = createUpstreamClient({
      provider: "Example",
      baseUrl: "https://upstream.test/v1/",
      headers: { "x-api-key": "k" },
      fetch: (request) => {
        seen.push(request);
        return Response.json({ ok: true });
      },
    });
    const reply = await http.requestJson("/payment", { method: "POST", json: { a: 1 }, query: { q: "x y", skip: undefined } });
    expect(reply).toMatchObject({ status: 200, json: { ok: true } });
    expect(seen[0].url).toBe("https://upstream.test/v1/payment?q=x+y");
    expect(seen[0].method).toBe("POST");
    expect(seen[0].headers.get("user-agent")).toBe(UPSTREAM_USER_AGENT);
    expect(seen[0].headers.get("x-api-key")).toBe("k");
    expect(seen[0].headers.get("content-type")).toBe("application/json");
    expect(await seen[0].text()).toBe('{"a":1}');
  });

  it("ends a call that does not answer in time, even when the fetch ignores its signal, as UPSTREAM_TIMEOUT", async () => {
    const http = createUpstreamClient({ provider: "Slow", baseUrl: "https://slow.test", timeoutMs: 30, fetch: () => new Promise<Response>(() => {}) });
    const err = await http.request("/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamFault);
    expect(err).toMatchObject({ reason: "timeout", code: "UPSTREAM_TIMEOUT", status: 504, transient: true });
    expect((err as Error).message).toBe("Slow did not answer in time. Please try again.");
  });

  it("a fetch that rejects when aborted (as the real one does) is still a timeout, not a network failure", async () => {
    const http = createUpstreamClient({
      provider: "Slow",
      baseUrl: "https://slow.test",
      timeoutMs: 30,
      fetch: (req) => new Promise<Response>((_, reject) => req.signal.addEventListener("abort", () => reject(req.signal.reason))),
    });
    await expect(http.request("/x")).rejects.toMatchObject({ reason: "timeout", code: "UPSTREAM_TIMEOUT" });
  });

  it("maps a network failure, an HTML page and a wrong JSON shape to one fault type and UPSTREAM_UNAVAILABLE", async () => {
    const offline = createUpstreamClient({ provider: "P", baseUrl: "https://p.test", fetch: () => Promise.reject(new TypeError("fetch failed")) });
    await expect(offline.request("/")).rejects.toMatchObject({ reason: "network", code: "UPSTREAM_UNAVAILABLE", status: 502, transient: true });

    const html = createUpstreamClient({ provider: "P", baseUrl: "https://p.test", fetch: () => new Response("<html>oops</html>", { status: 200 }) });
    await expect(html.requestJson("/")).rejects.toMatchObject({ reason: "not_json", httpStatus: 200, transient: false });
    const down = createUpstreamClient({ provider: "P", baseUrl: "https://p.test", fetch: () => new Response("<html>502</html>", { status: 502 }) });
    await expect(down.requestJson("/")).rejects.toMatchObject({ reason: "http", httpStatus: 502, transient: true });

    const ok = createUpstreamClient({ provider: "P", baseUrl: "https://p.test", fetch: () => Response.json({ id: 5 }) });
    const { json } = await ok.requestJson("/");
    expect(ok.parse(z.object({ id: z.number() }), json, "read")).toEqual({ id: 5 });
    const wrong = (() => {
      try {
        return ok.parse(z.object({ id: z.string() }), json, "read");
      } catch (e) {
        return e;
      }
    })();
    expect(wrong).toBeInstanceOf(UpstreamFault);
    expect(wrong).toMatchObject({ reason: "bad_reply", code: "UPSTREAM_UNAVAILABLE" });
    expect((wrong as UpstreamFault).detail).toContain("read: unexpected reply (id:");
  });

  it("maps an unusable reply by its status: 5xx/429 transient, a 2xx of the wrong shape a bad reply, the rest a refusal", () => {
    const http = createUpstreamClient({ provider: "Acme", baseUrl: "https://acme.test", fetch: () => new Response("{}") });
    expect(http.unusable("/x", 503, "down")).toMatchObject({ reason: "http", httpStatus: 503, transient: true, code: "UPSTREAM_UNAVAILABLE" });
    expect(http.unusable("/x", 429, "slow down")).toMatchObject({ reason: "http", transient: true });
    expect(http.unusable("/x", 201, "no address")).toMatchObject({ reason: "bad_reply", transient: false });
    const refused = http.unusable("/x", 403, "INVALID_API_KEY: Invalid api key");
    expect(refused).toMatchObject({ reason: "rejected", httpStatus: 403, transient: false, message: "Acme is unavailable right now. Please try again." });
    expect(refused.detail).toBe("/x: HTTP 403: INVALID_API_KEY: Invalid api key");
  });
});
