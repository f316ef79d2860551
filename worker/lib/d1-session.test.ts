import { describe, expect, it } from "vitest";
import { api, createUser } from "../test/helpers";
import { BOOKMARK_HEADER, sessionConstraint } from "./d1-session";

/** Issue 30: reads through D1's Sessions API; a customer's read sent with their last bookmark sees their own write. */
describe("D1 sessions and the customer's bookmark", () => {
  it("a write's answer carries a bookmark; a read sent with it sees the customer's own write", async () => {
    const user = await createUser();
    const write = await api("/api/sms/favourites", { method: "PUT", token: user.token, json: { provider: "Swift", service_id: "wa", starred: true } });
    expect(write.status).toBe(200);
    const bookmark = write.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(/^[0-9a-f-]+$/i);
    const read = await api("/api/sms/favourites", { token: user.token, headers: { [BOOKMARK_HEADER]: bookmark! } });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.data)).toContain("wa");
    // the read's own bookmark is never older than the one it was sent with (bookmarks sort by time)
    expect(read.headers.get(BOOKMARK_HEADER)! >= bookmark!).toBe(true);
  });

  it("which session a request starts: its bookmark; else any replica for an anonymous read; else the primary", () => {
    const req = (method: string, headers: Record<string, string> = {}) => new Request("http://x/api/sms/price", { method, headers });
    expect(sessionConstraint(req("GET", { [BOOKMARK_HEADER]: "0000000e-00000007-00004f97-abc" }))).toBe("0000000e-00000007-00004f97-abc");
    expect(sessionConstraint(req("GET"))).toBe("first-unconstrained");
    expect(sessionConstraint(req("GET", { authorization: "Bearer x" }))).toBe("first-primary");
    expect(sessionConstraint(req("POST"))).toBe("first-primary");
    // a header that is not a bookmark is ignored, never handed to D1
    expect(sessionConstraint(req("GET", { authorization: "Bearer x", [BOOKMARK_HEADER]: "'; DROP TABLE users" }))).toBe("first-primary");
    expect(sessionConstraint(req("GET", { [BOOKMARK_HEADER]: "x".repeat(300) }))).toBe("first-unconstrained");
  });

  it("a malformed bookmark is ignored: the read is served, not refused", async () => {
    const user = await createUser({ balanceKobo: 5000_00 });
    const read = await api("/api/user-balance", { token: user.token, headers: { [BOOKMARK_HEADER]: "not a bookmark!" } });
    expect(read.status).toBe(200);
    expect(read.data).toEqual({ balance: 5000 });
  });
});
