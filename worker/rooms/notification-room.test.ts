import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { RealtimeMessage } from "../../schema/realtime";
import { sessions } from "../db/tables";
import { TOKEN_ISSUER, signToken } from "../lib/jwt";
import { notify } from "../services/kernel";
import { revokeSessions } from "../services/accounts";
import { api, createUser, db } from "../test/helpers";
import { connect, joinOwnRoom, realtimeTokenFor, roomPath, workerFetch, type TestSocket } from "../test/sockets";
import { CLOSE_SESSION_ENDED, MAX_SOCKETS_PER_USER } from "./notification-room";

const secret = () => new TextEncoder().encode(env.JWT_SECRET!);

const paymentCredited = (paymentId: string): RealtimeMessage => ({ kind: "payment.credited", paymentId, amount: 5000, balance: 5000 });
const sentinel = (text: string): RealtimeMessage => ({ kind: "toast", type: "info", message: text });

describe("GET /api/realtime-token", () => {
  it("answers a token for the caller's own room that opens it", async () => {
    const user = await createUser();
    const res = await api("/api/realtime-token", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.data.url).toBe(roomPath(user.id));
    expect(res.headers.get("cache-control")).toContain("no-store");
    const { status, socket } = await connect(`${res.data.url}?token=${res.data.token}`);
    expect(status).toBe(101);
    await notify(env, user.id, sentinel("hello"));
    expect(await socket!.next()).toEqual(sentinel("hello"));
  });

  it("needs a signed-in caller", async () => {
    const res = await api("/api/realtime-token");
    expect(res.status).toBe(401);
    expect(res.data).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("joining a room", () => {
  it("refuses a connection without a token", async () => {
    const user = await createUser();
    const res = await connect(roomPath(user.id));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED", message: "A realtime token is required." });
  });

  it("refuses another user's room, even with a valid token of one's own", async () => {
    const owner = await createUser();
    const intruder = await createUser();
    const res = await connect(`${roomPath(owner.id)}?token=${await realtimeTokenFor(intruder)}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses a forged token (signed with another secret)", async () => {
    const user = await createUser();
    const forged = await signToken(new TextEncoder().encode("not-the-server-secret-0123456789"), "realtime", {
      userId: user.id,
      sessionId: user.sessionId,
    });
    const res = await connect(`${roomPath(user.id)}?token=${forged}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED", message: "The realtime token is invalid or has expired." });
  });

  it("refuses an unsigned token (alg none)", async () => {
    const user = await createUser();
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: user.id, sid: user.sessionId, iss: TOKEN_ISSUER, aud: "realtime", iat: now, exp: now + 300 })}.`;
    const res = await connect(`${roomPath(user.id)}?token=${unsigned}`);
    expect(res.status).toBe(401);
  });

  it("refuses an expired token", async () => {
    const user = await createUser();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ sid: user.sessionId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience("realtime")
      .setIssuedAt(now - 600)
      .setExpirationTime(now - 300)
      .sign(secret());
    const res = await connect(`${roomPath(user.id)}?token=${expired}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED", message: "The realtime token is invalid or has expired." });
  });

  it("refuses the long-lived API token: only a realtime-audience token opens a room", async () => {
    const user = await createUser();
    const res = await connect(`${roomPath(user.id)}?token=${user.token}`);
    expect(res.status).toBe(401);
  });

  it("refuses a token whose session was revoked (logout)", async () => {
    const user = await createUser();
    const token = await realtimeTokenFor(user);
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    const res = await connect(`${roomPath(user.id)}?token=${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: "Your session has expired. Please log in again." });
  });

  it("refuses a socket beyond the per-user cap, and accepts again once a tab closes", async () => {
    const user = await createUser();
    const tabs: TestSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) tabs.push(await joinOwnRoom(user));
    const extra = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`);
    expect(extra.status).toBe(429);
    expect(extra.body).toMatchObject({ code: "RATE_LIMITED" });

    tabs[0].ws.close(1000, "tab closed");
    await tabs[0].closed;
    await expect.poll(async () => {
      const again = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`);
      return again.status;
    }).toBe(101);
  });
});

describe("publishing", () => {
  it("a message for user A reaches both of A's tabs and never user B", async () => {
    const a = await createUser();
    const b = await createUser();
    const aTab1 = await joinOwnRoom(a);
    const aTab2 = await joinOwnRoom(a);
    const bTab = await joinOwnRoom(b);

    await notify(env, a.id, paymentCredited("pay-for-a"));
    await notify(env, b.id, sentinel("only for b"));

    expect(await aTab1.next()).toEqual(paymentCredited("pay-for-a"));
    expect(await aTab2.next()).toEqual(paymentCredited("pay-for-a"));
    // B's first message is its own: A's payment never arrived before (or instead of) it.
    expect(await bTab.next()).toEqual(sentinel("only for b"));
    await notify(env, a.id, sentinel("second for a"));
    expect(await aTab1.next()).toEqual(sentinel("second for a"));
    expect(await aTab2.next()).toEqual(sentinel("second for a"));
  });

  it("a message a client sends is never relayed, to itself or to the user's other tabs", async () => {
    const user = await createUser();
    const sender = await joinOwnRoom(user);
    const otherTab = await joinOwnRoom(user);

    sender.ws.send(JSON.stringify(paymentCredited("forged-by-client")));
    await notify(env, user.id, sentinel("from the server"));

    expect(await otherTab.next()).toEqual(sentinel("from the server"));
    expect(await sender.next()).toEqual(sentinel("from the server"));
  });

  it("a POST to the room's URL is refused and reaches no socket, even with a valid token", async () => {
    const user = await createUser();
    const tab = await joinOwnRoom(user);
    const token = await realtimeTokenFor(user);
    const res = await workerFetch(`${roomPath(user.id)}?token=${token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(paymentCredited("forged-by-post")),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "FORBIDDEN" });

    await notify(env, user.id, sentinel("from the server"));
    expect(await tab.next()).toEqual(sentinel("from the server"));
  });

  it("notify drops a message that does not match the union instead of shipping it", async () => {
    const user = await createUser();
    const tab = await joinOwnRoom(user);
    await notify(env, user.id, { kind: "payment.credited", paymentId: 42 } as unknown as RealtimeMessage);
    await notify(env, user.id, sentinel("valid"));
    expect(await tab.next()).toEqual(sentinel("valid"));
  });

  it("a message for a user with no open tab is dropped without error (screens read the truth from the API)", async () => {
    const user = await createUser();
    await expect(notify(env, user.id, sentinel("nobody listening"))).resolves.toBeUndefined();
    const tab = await joinOwnRoom(user);
    await notify(env, user.id, sentinel("after joining"));
    expect(await tab.next()).toEqual(sentinel("after joining"));
  });
});

describe("ending a session", () => {
  it("revokeSessions closes that session's sockets at once and leaves the user's other sessions open", async () => {
    const user = await createUser();
    const otherSessionId = crypto.randomUUID();
    await db().insert(sessions).values({ id: otherSessionId, userId: user.id, expiresAt: Date.now() + 3600_000 });
    const loggingOut = await joinOwnRoom(user);
    const otherDevice = await joinOwnRoom({ ...user, sessionId: otherSessionId });

    expect(await revokeSessions(env, user.id, { sessionIds: [user.sessionId] }, Date.now())).toEqual([user.sessionId]);
    expect((await loggingOut.closed).code).toBe(CLOSE_SESSION_ENDED);

    await notify(env, user.id, sentinel("still here"));
    expect(await otherDevice.next()).toEqual(sentinel("still here"));
  });

  it("a publish never reaches a socket whose session was revoked behind the room's back, and closes it", async () => {
    const user = await createUser();
    const otherSessionId = crypto.randomUUID();
    await db().insert(sessions).values({ id: otherSessionId, userId: user.id, expiresAt: Date.now() + 3600_000 });
    const revoked = await joinOwnRoom(user);
    const live = await joinOwnRoom({ ...user, sessionId: otherSessionId });
    const received: RealtimeMessage[] = [];
    revoked.ws.addEventListener("message", (event) => received.push(JSON.parse(String(event.data)) as RealtimeMessage));

    // Revoked in D1 only: the close request a revocation sends was lost.
    await db().update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, user.sessionId));
    await notify(env, user.id, { kind: "sms.code", orderId: "o-1", code: "123456", number: "+15550001111" });

    expect(await live.next()).toMatchObject({ kind: "sms.code", code: "123456" });
    expect((await revoked.closed).code).toBe(CLOSE_SESSION_ENDED);
    expect(received).toEqual([]);
  });

  it("an expired session's socket receives nothing either", async () => {
    const user = await createUser();
    const tab = await joinOwnRoom(user);
    const received: RealtimeMessage[] = [];
    tab.ws.addEventListener("message", (event) => received.push(JSON.parse(String(event.data)) as RealtimeMessage));
    await db().update(sessions).set({ expiresAt: Date.now() - 1 }).where(eq(sessions.id, user.sessionId));
    await notify(env, user.id, paymentCredited("after-expiry"));
    expect((await tab.closed).code).toBe(CLOSE_SESSION_ENDED);
    expect(received).toEqual([]);
  });

  it("revoking every session but one closes the others' sockets and keeps that one", async () => {
    const user = await createUser();
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await db().insert(sessions).values({ id, userId: user.id, expiresAt: Date.now() + 3600_000 });
    const kept = await joinOwnRoom(user);
    const others = [await joinOwnRoom({ ...user, sessionId: ids[0] }), await joinOwnRoom({ ...user, sessionId: ids[1] })];

    expect((await revokeSessions(env, user.id, { except: user.sessionId }, Date.now())).sort()).toEqual([...ids].sort());
    for (const other of others) expect((await other.closed).code).toBe(CLOSE_SESSION_ENDED);
    await notify(env, user.id, sentinel("kept"));
    expect(await kept.next()).toEqual(sentinel("kept"));
  });
});
