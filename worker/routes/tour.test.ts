import { describe, expect, it } from "vitest";
import { api } from "../test/helpers";

/** Issue 28: the dashboard tour ends when the customer closes it, on this device and on every other (server flag). */
describe("the dashboard tour's closed flag", () => {
  it("is false for a new account, set by POST /api/account/tour-closed, and read by every session of the account", async () => {
    const account = { username: "Tolu", number: "08012345678", email: `tour-${crypto.randomUUID().slice(0, 8)}@example.com`, password: "secret-1" };
    const signup = await api("/api/register/", { json: account });
    expect(signup.status).toBe(201);
    const user = { ...account, token: signup.data.token as string };
    expect((await api("/api/account", { token: user.token })).data).toMatchObject({ tour_closed: false });
    const closed = await api("/api/account/tour-closed", { token: user.token, method: "POST" });
    expect(closed.status).toBe(200);
    expect(closed.data).toEqual({ tour_closed: true });
    // A second device signs in: it reads the same flag.
    const login = await api("/api/login", { json: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const otherToken = login.data.token as string;
    expect(otherToken).not.toBe(user.token);
    expect((await api("/api/account", { token: otherToken })).data).toMatchObject({ tour_closed: true });
    // Closing again changes nothing and is not an error.
    expect((await api("/api/account/tour-closed", { token: otherToken, method: "POST" })).status).toBe(200);
  });

  it("needs a signed-in customer", async () => {
    expect((await api("/api/account/tour-closed", { method: "POST" })).status).toBe(401);
  });
});
