import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SESSION_ENDED_MESSAGES } from "../../schema/account-messages";
import { api, createUser } from "../test/helpers";

/** Issue 28: a tab whose session was refused is told why on the login page; the 401 says it. */
describe("why a session no longer opens anything", () => {
  it("signed out from elsewhere, blocked, or simply not a session: each says so", async () => {
    const user = await createUser();
    expect((await api("/api/user-balance", { token: user.token })).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ?").bind(Date.now(), user.id).run();
    const signedOut = await api("/api/user-balance", { token: user.token });
    expect(signedOut.status).toBe(401);
    expect(signedOut.data).toMatchObject({ code: "UNAUTHORIZED", message: SESSION_ENDED_MESSAGES.signedOut, reason: "signed_out" });
    // The signed-in reads batched with their data answer the same (readAsSignedInUser).
    expect((await api("/api/get-transaction", { token: user.token })).data.reason).toBe("signed_out");

    await env.DB.prepare("UPDATE users SET blocked_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    const blocked = await api("/api/user-balance", { token: user.token });
    expect(blocked.data).toMatchObject({ message: SESSION_ENDED_MESSAGES.blocked, reason: "blocked" });
  });
});
