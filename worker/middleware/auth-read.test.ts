import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { api, createUser } from "../test/helpers";

// readAsSignedInUser: the screens' polled reads check the session and read in one D1 round trip, and still refuse a
// token whose session is gone exactly like every other signed-in route.

/** Calls the worker with the bench's D1 instrumentation on; answers the status, body and round trips counted. */
async function counted(path: string, token?: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1:8787${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
    { ...env, D1_METRICS: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as unknown, roundTrips: Number(res.headers.get("x-d1-round-trips")) };
}

describe("history and orders: one D1 round trip, session checked in the same batch", () => {
  it("the balance, the history and the orders each cost one round trip", async () => {
    const user = await createUser({ balanceKobo: 250_000 });
    for (const path of ["/api/user-balance", "/api/get-transaction", "/api/orders"]) {
      const res = await counted(path, user.token);
      expect(res.status, path).toBe(200);
      expect(res.roundTrips, path).toBe(1);
    }
  });

  it("answers the caller's own rows: the seeded credit in the history, the balance on an empty orders list", async () => {
    const user = await createUser({ balanceKobo: 250_000 });
    await createUser({ balanceKobo: 990_000 });
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.status).toBe(200);
    expect(history.data).toEqual([expect.objectContaining({ user_id: user.id, amount: 2500, status: "successful" })]);
    const orders = await api("/api/orders", { token: user.token });
    expect(orders).toMatchObject({ status: 200, data: { data: [] } });
  });

  it("a logged-out token gets the same 401 as any signed-in route and no rows", async () => {
    const user = await createUser({ balanceKobo: 250_000 });
    expect((await api("/api/logout/", { method: "POST", token: user.token })).status).toBe(200);
    const reference = await api("/api/user-balance", { token: user.token });
    expect(reference.status).toBe(401);
    for (const path of ["/api/get-transaction", "/api/orders"]) {
      const res = await api(path, { token: user.token });
      expect(res.status, path).toBe(401);
      expect(res.data.message, path).toBe(reference.data.message);
      expect(res.data.code, path).toBe("UNAUTHORIZED");
    }
  });

  it("no token or a forged one: 401 before any D1 read", async () => {
    const other = await createUser();
    for (const path of ["/api/get-transaction", "/api/orders"]) {
      const missing = await counted(path);
      expect(missing).toMatchObject({ status: 401, roundTrips: 0 });
      const forged = await counted(path, `${other.token.slice(0, -4)}AAAA`);
      expect(forged).toMatchObject({ status: 401, roundTrips: 0 });
    }
  });
});

describe("optionalAuth: the price list a visitor and a signed-in caller see", () => {
  const price = "/api/sms/price?id=5&provider=Swift";
  it("a visitor gets the starter tier; a live token its own; a sent token must be a live session", async () => {
    const visitor = await api(price);
    expect(visitor.status).toBe(200);
    const user = await createUser({ balanceKobo: 0 });
    const signedIn = await api(price, { token: user.token });
    expect(signedIn.status).toBe(200);
    expect(signedIn.data.wa.price).toBe(visitor.data.wa.price);
    expect((await api("/api/logout", { method: "POST", token: user.token })).status).toBe(200);
    const revoked = await api(price, { token: user.token });
    expect(revoked).toMatchObject({ status: 401, data: { code: "UNAUTHORIZED", message: "Your session has expired. Please log in again." } });
    const notBearer = await api(price, { headers: { authorization: "Basic abc" } });
    expect(notBearer).toMatchObject({ status: 401, data: { code: "UNAUTHORIZED", message: "Your session has expired. Please log in again." } });
  });
});
