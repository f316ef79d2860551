import { describe, expect, it } from "vitest";
import { DEV_PROXY_RESTART_TEXT, isDevProxyRestart } from "./dev-proxy";

// The benchmark sends a request again only when wrangler dev's own proxy answered it (decision 058), never the app.
describe("isDevProxyRestart", () => {
  it("is true for wrangler dev's ProxyWorker 503: status 503, Retry-After 0 and its exact text", () => {
    expect(isDevProxyRestart(503, "0", DEV_PROXY_RESTART_TEXT)).toBe(true);
  });
  it("is false for the app's own 503 (NO_NUMBERS, JSON) and for anything else", () => {
    expect(isDevProxyRestart(503, null, '{"error":{"code":"NO_NUMBERS","message":"No numbers available"}}')).toBe(false);
    expect(isDevProxyRestart(503, "0", `${DEV_PROXY_RESTART_TEXT} `)).toBe(false);
    expect(isDevProxyRestart(503, null, DEV_PROXY_RESTART_TEXT)).toBe(false);
    expect(isDevProxyRestart(502, "0", DEV_PROXY_RESTART_TEXT)).toBe(false);
  });
});
